import { Form, Link } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";

const HEADINGS = { account: "Anonimizar cliente", guest: "Anonimizar comprador invitado", person: "Anonimizar persona sin compras" } as const;
const BACK_LINKS = { account: "Volver al cliente", guest: "Volver al comprador", person: "Volver a la persona" } as const;

/**
 * The confirmation page of a Ley 29733 anonymisation, for an account (decision 0051), a guest
 * buyer (decision 0061) and a person who never bought (decision 0064): what goes, what the law
 * keeps, and the word to type.
 */
export function AnonymiseConfirmation({
  who,
  backHref,
  confirmation,
  blocker,
  actionData,
}: {
  who: { kind: keyof typeof HEADINGS; name: string; email: string };
  backHref: string;
  confirmation: string;
  blocker: string | null;
  actionData: { message: string; typed: string } | undefined;
}) {
  const account = who.kind === "account";
  return (
    <div className="max-w-3xl space-y-6">
      <p>
        <Link to={backHref} className="text-sm font-semibold text-brand-800 underline">
          {BACK_LINKS[who.kind]}
        </Link>
      </p>
      <AdminPageHeader title={HEADINGS[who.kind]} />
      <section className="space-y-3 rounded-2xl bg-white p-5 text-sm text-slate-800 shadow-sm ring-1 ring-slate-100 sm:p-6">
        <p>
          Vas a anonimizar a <strong>{who.name}</strong> (<span className="break-all">{who.email}</span>) a su pedido (Ley 29733).{" "}
          <strong>No se puede deshacer.</strong>
        </p>
        <h2 className="text-base font-bold text-slate-900">Qué se borra</h2>
        <ul className="list-disc space-y-1 pl-5">
          {account ? (
            <>
              <li>Nombre, correo, teléfono, documento y direcciones de su cuenta, sus pedidos, entregas y suscripciones.</li>
              <li>Sus sesiones y su contraseña: ya no podrá ingresar. Sus suscripciones vigentes se cancelan sin más cobros.</li>
              <li>Sus tarjetas guardadas, también en el proveedor de pagos.</li>
            </>
          ) : who.kind === "guest" ? (
            <li>Nombre, correo, teléfono, documento y direcciones de todos los pedidos y entregas que hizo con este correo sin cuenta.</li>
          ) : (
            <li>Nunca compró: no hay pedidos, entregas ni comprobantes a su nombre.</li>
          )}
          <li>
            El contenido y la dirección de los correos que le enviamos, sus mensajes de contacto, su carrito guardado y la IP y el navegador de sus
            consentimientos.
          </li>
        </ul>
        <h2 className="text-base font-bold text-slate-900">Qué se conserva y por qué</h2>
        <ul className="list-disc space-y-1 pl-5">
          {who.kind !== "person" && (
            <>
              <li>Sus boletas y facturas tal como se emitieron (nombre y documento incluidos): la ley tributaria obliga a guardarlas.</li>
              <li>Montos, fechas y estados de pedidos, pagos y entregas, y el saldo de bidones: son registros contables.</li>
            </>
          )}
          <li>Sus hojas del Libro de Reclamaciones: son un registro legal que no se modifica.</li>
        </ul>
      </section>
      {blocker ? (
        <p role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {blocker}
        </p>
      ) : (
        <Form method="post" className="space-y-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100 sm:p-6">
          <input type="hidden" name="intent" value="anonymise" />
          <label htmlFor="confirmacion" className="block text-sm font-semibold text-slate-700">
            Escribe {confirmation} para confirmar
          </label>
          <input
            id="confirmacion"
            name="confirmacion"
            type="text"
            autoComplete="off"
            required
            maxLength={40}
            defaultValue={actionData?.typed ?? ""}
            aria-describedby={actionData ? "confirmacion-error" : undefined}
            className="block w-full max-w-xs rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900"
          />
          {actionData && (
            <p id="confirmacion-error" role="alert" className="text-sm text-red-800">
              {actionData.message}
            </p>
          )}
          <button type="submit" className="rounded-lg bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800">
            Anonimizar definitivamente
          </button>
        </Form>
      )}
    </div>
  );
}
