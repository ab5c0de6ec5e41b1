import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/admin.customer-anonymise";
import { anonymiseBlockers, anonymiseCustomer, blockerMessage, findCustomerProfile } from "@server/customers/index.server";
import { AdminPageHeader } from "~/components/admin/admin-shell";
import { CUSTOMER_NOT_FOUND, customerIdFrom } from "~/customers.server";
import { dbContext } from "~/db-context.server";
import { readFormData } from "~/request-body.server";
import { allowRoles, staffActor } from "~/staff.server";

/** Issue 11, Ley 29733 deletion request: irreversible, so the admin only and behind this confirmation page (decision 0051). */
export const middleware: Route.MiddlewareFunction[] = [allowRoles()];

const CONFIRMATION = "ANONIMIZAR";

export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const profile = await findCustomerProfile(db, customerIdFrom(params));
  if (!profile) throw data(CUSTOMER_NOT_FOUND, { status: 404 });
  if (profile.status === "anonymized") throw redirect(`/admin/clientes/${profile.id}`);
  return { profile, blocker: blockerMessage(await anonymiseBlockers(db, profile)) };
}

export const meta: Route.MetaFunction = () => [{ title: "Anonimizar cliente · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export async function action({ request, params, context }: Route.ActionArgs) {
  const userId = customerIdFrom(params);
  const form = await readFormData(request);
  const typed = String(form.get("confirmacion") ?? "");
  if (form.get("intent") !== "anonymise" || typed.trim().toUpperCase() !== CONFIRMATION)
    return data({ message: `Escribe ${CONFIRMATION} para confirmar.`, typed: typed.slice(0, 40) }, { status: 400 });
  const result = await anonymiseCustomer(context.get(dbContext), staffActor(context, request), userId, new Date());
  if (!result.ok && result.reason === "not_found") throw data(CUSTOMER_NOT_FOUND, { status: 404 });
  if (!result.ok) return data({ message: result.message, typed }, { status: 400 });
  return redirect(`/admin/clientes/${userId}?aviso=anonimizado`);
}

export default function AdminCustomerAnonymise({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, blocker } = loaderData;
  return (
    <div className="max-w-3xl space-y-6">
      <p>
        <Link to={`/admin/clientes/${profile.id}`} className="text-sm font-semibold text-brand-800 underline">
          Volver al cliente
        </Link>
      </p>
      <AdminPageHeader title="Anonimizar cliente" />
      <section className="space-y-3 rounded-2xl bg-white p-5 text-sm text-slate-800 shadow-sm ring-1 ring-slate-100 sm:p-6">
        <p>
          Vas a anonimizar a <strong>{`${profile.firstName} ${profile.lastName}`}</strong> (<span className="break-all">{profile.email}</span>) a su pedido (Ley
          29733). <strong>No se puede deshacer.</strong>
        </p>
        <h2 className="text-base font-bold text-slate-900">Qué se borra</h2>
        <ul className="list-disc space-y-1 pl-5">
          <li>Nombre, correo, teléfono, documento y direcciones de su cuenta, sus pedidos, entregas y suscripciones.</li>
          <li>Sus sesiones y su contraseña: ya no podrá ingresar. Sus suscripciones vigentes se cancelan sin más cobros.</li>
          <li>El contenido y la dirección de los correos que le enviamos, sus mensajes de contacto y la IP y el navegador de sus consentimientos.</li>
        </ul>
        <h2 className="text-base font-bold text-slate-900">Qué se conserva y por qué</h2>
        <ul className="list-disc space-y-1 pl-5">
          <li>Sus boletas y facturas tal como se emitieron (nombre y documento incluidos): la ley tributaria obliga a guardarlas.</li>
          <li>Montos, fechas y estados de pedidos, pagos y entregas, y el saldo de bidones: son registros contables.</li>
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
            Escribe {CONFIRMATION} para confirmar
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
