import { may } from "@core/staff-permissions";
import { data, Form } from "react-router";
import type { Route } from "./+types/customer-detail";
import { findCustomerProfile } from "@server/customers/index.server";
import { resendCustomerVerification, sendCustomerPasswordReset, setCustomerStatus } from "@server/accounts/index.server";
import { confirmCustomerPhoneByCall, loadCustomerPicture, type CustomerPicture } from "@server/customers/index.server";
import { AccountSection, FactList } from "~/components/account/account-page";
import {
  actionButtonClass,
  anonymisedNotice,
  CustomerPage,
  CustomerStatusBadge,
  CustomerSubscriptions,
  DataRequestActions,
  StaffMessage,
} from "~/components/admin/customer-sections";
import { CustomerGarantia, settleAnswerOf } from "~/components/admin/customer-garantia";
import { CUSTOMER_NOT_FOUND, customerIdFrom, recordBidonReturnFromForm, settleGarantiaFromForm } from "~/routes/admin/customers/customers.server";
import { dbContext } from "~/server/db-context.server";
import { formatLimaInstant } from "@core/lima-dates";
import { readFormData } from "~/server/request-body.server";
import { allowStaff, staffActor, staffContext } from "~/server/staff.server";

/** Issue 11: admin and operaciones see the picture and act on the account; export and anonymise are the admin's (their own routes). */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("clientes.gestionar")];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const picture = await loadCustomerPicture(context.get(dbContext), customerIdFrom(params));
  if (!picture) throw data(CUSTOMER_NOT_FOUND, { status: 404 });
  return { picture, notice: anonymisedNotice(request, "Cliente"), mayHandleDataRequests: may(context.get(staffContext).role, "datos-personales.gestionar") };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: `${loaderData ? `${loaderData.picture.profile.firstName} ${loaderData.picture.profile.lastName}` : "Cliente no encontrado"} · Clientes · Back office`,
  },
  { name: "robots", content: "noindex,nofollow" },
];

const INTENTS = ["verify", "reset", "deactivate", "reactivate"] as const;
type Intent = (typeof INTENTS)[number];

export async function action({ request, params, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const userId = customerIdFrom(params);
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "");
  const actor = staffActor(context, request);
  if (intent === "bidon_return" || intent === "garantia_settle") {
    // Decision 0075: bidones brought back outside a delivery, or a garantía staff gave back by hand;
    // the account's own e-mail names its ledger.
    const profile = await findCustomerProfile(db, userId);
    if (!profile || profile.status === "anonymized") throw data(CUSTOMER_NOT_FOUND, { status: 404 });
    const customer = { userId, email: profile.email };
    if (intent === "garantia_settle") return settleGarantiaFromForm(db, actor, customer, form);
    return recordBidonReturnFromForm(db, actor, customer, form);
  }
  if (intent === "confirm_phone") {
    // Issue 39: staff called the profile's number and the person confirmed it is theirs (audited).
    const result = await confirmCustomerPhoneByCall(db, actor, userId, new Date());
    if (!result.ok && result.reason === "not_found") throw data(CUSTOMER_NOT_FOUND, { status: 404 });
    return data({ ok: result.ok, message: result.message }, { status: result.ok ? 200 : 400 });
  }
  if (!(INTENTS as readonly string[]).includes(intent)) return data({ ok: false, message: "Acción no reconocida." }, { status: 400 });
  const run: Record<Intent, () => ReturnType<typeof setCustomerStatus>> = {
    verify: () => resendCustomerVerification(db, actor, userId),
    reset: () => sendCustomerPasswordReset(db, actor, userId),
    deactivate: () => setCustomerStatus(db, actor, { userId, status: "inactive" }),
    reactivate: () => setCustomerStatus(db, actor, { userId, status: "active" }),
  };
  const result = await run[intent as Intent]();
  if (!result.ok && result.reason === "not_found") throw data(CUSTOMER_NOT_FOUND, { status: 404 });
  return data({ ok: result.ok, message: result.message }, { status: result.ok ? 200 : 400 });
}

function ActionButton({ intent, label, tone = "plain" }: { intent: Intent; label: string; tone?: "plain" | "danger" }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <button
        type="submit"
        className={`${actionButtonClass} ${tone === "danger" ? "border-red-300 text-red-800 hover:bg-red-50" : "border-brand-700 text-brand-800 hover:bg-brand-50"}`}
      >
        {label}
      </button>
    </Form>
  );
}

/** Decision 0061: saved cards are deleted at the provider after an anonymisation, by the jobs, until it confirms. */
function cardErasureText(summary: NonNullable<CustomerPicture["cardErasures"]>): string {
  if (summary.pending === 0) return `Eliminadas (${summary.done})`;
  return `${summary.pending} por eliminar; se reintenta automáticamente${summary.lastError ? ` (último error: ${summary.lastError})` : ""}`;
}

/** Issue 11, Customers: one customer's whole picture and what staff may do about their account. */
export default function AdminCustomerDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { picture, notice, mayHandleDataRequests } = loaderData;
  const { profile } = picture;
  const anonymized = profile.status === "anonymized";
  return (
    <CustomerPage
      title={`${profile.firstName} ${profile.lastName}`}
      badge={<CustomerStatusBadge status={profile.status} />}
      notice={notice}
      picture={picture}
      actions={
        !anonymized && (
          <section aria-labelledby="acciones" className="space-y-3">
            <h2 id="acciones" className="text-lg font-bold text-slate-900">
              Acciones sobre la cuenta
            </h2>
            <div className="flex flex-wrap gap-3">
              {profile.status === "active" && !profile.emailVerified && <ActionButton intent="verify" label="Reenviar verificación de correo" />}
              {profile.status === "active" && <ActionButton intent="reset" label="Enviar enlace para cambiar contraseña" />}
              {profile.status === "active" ? (
                <ActionButton intent="deactivate" label="Desactivar cuenta" tone="danger" />
              ) : (
                <ActionButton intent="reactivate" label="Reactivar cuenta" />
              )}
            </div>
            {profile.phone && picture.whatsapp.some((number) => !number.proven) && (
              <Form method="post" className="space-y-1">
                <input type="hidden" name="intent" value="confirm_phone" />
                <button type="submit" className={`${actionButtonClass} border-brand-700 text-brand-800 hover:bg-brand-50`}>
                  Celular confirmado por teléfono
                </button>
                <p className="text-xs text-slate-600">
                  Solo si llamaste a {profile.phone} y la persona confirmó ser el cliente: el número queda como suyo (para sus avisos, su exportación y su
                  borrado) y se registra que lo confirmaste tú.
                </p>
              </Form>
            )}
            {actionData && !("intent" in actionData) && <StaffMessage ok={actionData.ok} message={actionData.message} />}
            <p className="text-xs text-slate-600">
              Desactivar cierra sus sesiones e impide que ingrese; sus pedidos y suscripciones siguen igual (gestiónalos desde sus páginas).
            </p>
          </section>
        )
      }
      profile={
        <AccountSection title="Perfil">
          <FactList
            testId="customer-profile"
            facts={[
              ["E-mail", <span className="break-all">{profile.email}</span>],
              ["Correo verificado", profile.emailVerified ? "Sí" : "No"],
              ["Teléfono", profile.phone ?? "—"],
              ["Documento", profile.documentNumber ? `${(profile.documentType ?? "").toUpperCase()} ${profile.documentNumber}`.trim() : "—"],
              ["Dirección", profile.address ? `${profile.address}${profile.districtName ? `, ${profile.districtName}` : ""}` : "—"],
              ["Cliente desde", formatLimaInstant(profile.createdAt, { day: "numeric", month: "long", year: "numeric" })],
              ["Bidones en su poder", `${picture.bidones.balance} (prestados ${picture.bidones.lent}, devueltos ${picture.bidones.returned})`],
              ...(picture.cardErasures ? [["Tarjetas en el proveedor de pagos", cardErasureText(picture.cardErasures)] as [string, string]] : []),
            ]}
          />
        </AccountSection>
      }
      extra={<CustomerSubscriptions picture={picture} />}
      garantia={
        <CustomerGarantia
          garantia={picture.garantia}
          bidones={picture.bidones}
          canRecordReturn={!anonymized}
          canSettle={!anonymized}
          result={actionData && "intent" in actionData && !("releaseId" in actionData) ? actionData : null}
          settleResult={settleAnswerOf(actionData)}
        />
      }
      dataRequests={mayHandleDataRequests && !anonymized && <DataRequestActions basePath={`/admin/clientes/${profile.id}`} who="cliente" />}
    />
  );
}
