import { Form, Link } from "react-router";
import type { CustomerPicture, SubjectLists } from "@server/customers/index.server";
import { AccountSection } from "~/components/account/account-page";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { OrderStatusBadge } from "~/components/orders/receipt-view";
import { ELECTRONIC_STATUS_LABELS } from "@core/comprobante-labels";
import { deliveryStatusLabel } from "@core/delivery-labels";
import { formatLimaInstant } from "@core/lima-dates";
import { formatWhatsappNumber } from "@core/whatsapp";
import { formatSoles } from "@core/money";
import { orderTypeLabels } from "@core/order-labels";
import { frequencyLabel, subscriptionStatusLabel } from "~/lib/subscription-labels";

const STATUS_LABELS: Record<string, { label: string; tone: string }> = {
  active: { label: "Activa", tone: "bg-emerald-50 text-emerald-900 ring-emerald-200" },
  inactive: { label: "Desactivada", tone: "bg-amber-50 text-amber-900 ring-amber-200" },
  anonymized: { label: "Anonimizada", tone: "bg-slate-100 text-slate-800 ring-slate-300" },
};

/** A buyer who never had an account (decision 0061). */
export function GuestBadge({ anonymized = false }: { anonymized?: boolean }) {
  return (
    <span className="rounded-full bg-sky-50 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-sky-900 ring-1 ring-sky-200">
      {anonymized ? "Invitado anonimizado" : "Invitado (sin cuenta)"}
    </span>
  );
}

/** Someone who never bought, known by a complaint sheet, a message, a consent or a saved cart (decision 0064). */
export function PersonBadge({ anonymized = false }: { anonymized?: boolean }) {
  return (
    <span className="rounded-full bg-violet-50 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-violet-900 ring-1 ring-violet-200">
      {anonymized ? "Persona anonimizada" : "Sin compras"}
    </span>
  );
}

export function CustomerStatusBadge({ status }: { status: string }) {
  const shown = STATUS_LABELS[status] ?? { label: status, tone: "bg-slate-100 text-slate-800 ring-slate-300" };
  return <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ${shown.tone}`}>Cuenta {shown.label.toLowerCase()}</span>;
}

const shortInstant = (iso: string) => formatLimaInstant(iso, { day: "numeric", month: "short", year: "numeric" });
const listClass = "divide-y divide-slate-100 text-sm";
const rowClass = "flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2";

function Empty({ children }: { children: React.ReactNode }) {
  return <p className="text-sm text-slate-600">{children}</p>;
}

export function CustomerOrders({ picture }: { picture: SubjectLists }) {
  return (
    <AccountSection title={`Pedidos (${picture.ordersTotal})`}>
      {picture.orders.length === 0 ? (
        <Empty>Sin pedidos.</Empty>
      ) : (
        <ul className={listClass} data-testid="customer-orders">
          {picture.orders.map((order) => (
            <li key={order.id} className={rowClass}>
              <span className="min-w-0">
                <Link to={`/admin/pedidos/${order.id}`} className="font-semibold text-brand-800 underline">
                  {order.orderNumber}
                </Link>
                <span className="block text-xs text-slate-600">
                  {shortInstant(order.createdAt)} · {orderTypeLabels[order.orderType] ?? order.orderType}
                  {order.guest ? " · como invitado" : ""}
                </span>
              </span>
              <span className="flex items-center gap-2">
                <OrderStatusBadge status={order.status} />
                <span className="font-semibold whitespace-nowrap">{formatSoles(order.totalCents)}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      {picture.ordersTotal > picture.orders.length && (
        <p className="mt-2 text-xs text-slate-600">Se muestran los {picture.orders.length} más recientes; la exportación los incluye todos.</p>
      )}
    </AccountSection>
  );
}

export function CustomerSubscriptions({ picture }: { picture: CustomerPicture }) {
  return (
    <AccountSection title="Suscripciones">
      {picture.subscriptions.length === 0 ? (
        <Empty>Sin suscripciones.</Empty>
      ) : (
        <ul className={listClass}>
          {picture.subscriptions.map((subscription) => (
            <li key={subscription.id} className={rowClass}>
              <span>
                <span className="font-semibold">{subscription.subscriptionNumber}</span>
                <span className="block text-xs text-slate-600">
                  {frequencyLabel(subscription.frequency)} · {formatSoles(subscription.amountCents)}
                  {subscription.nextDeliveryDate ? ` · próxima entrega ${subscription.nextDeliveryDate}` : ""}
                </span>
              </span>
              <span className="text-slate-800">{subscriptionStatusLabel(subscription.status)}</span>
            </li>
          ))}
        </ul>
      )}
    </AccountSection>
  );
}

export function CustomerInvoices({ picture }: { picture: SubjectLists }) {
  return (
    <AccountSection title="Comprobantes">
      {picture.invoices.length === 0 ? (
        <Empty>Sin comprobantes.</Empty>
      ) : (
        <ul className={listClass}>
          {picture.invoices.map((invoice) => (
            <li key={invoice.id} className={rowClass}>
              <span>
                <Link to={`/admin/pedidos/${invoice.orderId}`} className="font-semibold text-brand-800 underline">
                  {invoice.invoiceNumber}
                </Link>
                <span className="block text-xs text-slate-600">{shortInstant(invoice.issuedAt)}</span>
              </span>
              <span className="flex items-center gap-2">
                <span className="text-slate-800">
                  {ELECTRONIC_STATUS_LABELS[invoice.electronicStatus as keyof typeof ELECTRONIC_STATUS_LABELS] ?? invoice.electronicStatus}
                </span>
                <span className="font-semibold whitespace-nowrap">{formatSoles(invoice.totalCents)}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </AccountSection>
  );
}

const CONSENT_SOURCE_LABELS: Record<string, string> = {
  checkout: "al comprar",
  signup: "al registrarse",
  preferences: "en sus preferencias",
  unsubscribe: "enlace de baja",
  telefono: "por teléfono, con el equipo",
};

export function CustomerDeliveries({ picture }: { picture: SubjectLists }) {
  return (
    <AccountSection title="Entregas">
      {picture.deliveries.length === 0 ? (
        <Empty>Sin entregas.</Empty>
      ) : (
        <ul className={listClass} data-testid="customer-deliveries">
          {picture.deliveries.map((delivery) => (
            <li key={delivery.id} className={rowClass}>
              <span className="font-semibold">{delivery.deliveryNumber}</span>
              <span className="text-xs text-slate-600">
                {delivery.deliveryDate} · {deliveryStatusLabel(delivery.status)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </AccountSection>
  );
}

export function CustomerEmails({ picture }: { picture: SubjectLists }) {
  return (
    <AccountSection title="Correos enviados">
      {picture.emails.length === 0 ? (
        <Empty>No le hemos escrito.</Empty>
      ) : (
        <ul className={listClass} data-testid="customer-emails">
          {picture.emails.map((email) => (
            <li key={email.id} className={rowClass}>
              <span className="min-w-0 break-words">{email.subject}</span>
              <span className="text-xs text-slate-600">
                {shortInstant(email.createdAt)} · {EMAIL_STATUS_LABELS[email.status] ?? email.status}
              </span>
            </li>
          ))}
        </ul>
      )}
    </AccountSection>
  );
}

const EMAIL_STATUS_LABELS: Record<string, string> = {
  pending: "En cola",
  sending: "Enviándose",
  sent: "Enviado",
  dead: "No se pudo enviar",
  withheld: "Retenido",
};

export function CustomerComplaintsAndConsent({ picture }: { picture: SubjectLists }) {
  const consent = picture.consent;
  return (
    <AccountSection title="Reclamos y consentimiento">
      <h3 className="text-sm font-bold text-slate-900">Libro de Reclamaciones</h3>
      {picture.complaints.length === 0 ? (
        <Empty>Sin hojas de reclamación con este correo.</Empty>
      ) : (
        <ul className={listClass}>
          {picture.complaints.map((complaint) => (
            <li key={complaint.id} className={rowClass}>
              <Link to={`/admin/reclamos/${complaint.id}`} className="font-semibold text-brand-800 underline">
                Hoja {complaint.sheetNumber}
              </Link>
              <span className="text-xs text-slate-600">
                {complaint.kind === "queja" ? "Queja" : "Reclamo"} · {shortInstant(complaint.filedAt)} · {complaint.answered ? "Respondida" : "Sin responder"}
              </span>
            </li>
          ))}
        </ul>
      )}
      <h3 className="mt-4 text-sm font-bold text-slate-900">Correos promocionales</h3>
      <p className="text-sm text-slate-800" data-testid="customer-consent">
        {consent === null
          ? "Nunca dio su consentimiento: no recibe promociones."
          : consent.granted
            ? `Aceptó recibir promociones el ${shortInstant(consent.at)}.`
            : `Retiró su consentimiento el ${shortInstant(consent.at)}: no recibe promociones.`}
      </p>
      {picture.consentHistory.length > 1 && (
        <ul className="mt-2 space-y-1 text-xs text-slate-600" aria-label="Historial de consentimiento">
          {picture.consentHistory.map((event, index) => (
            <li key={index}>
              {shortInstant(event.at)} · {event.granted ? "Aceptó" : "Retiró"} ({CONSENT_SOURCE_LABELS[event.source] ?? event.source})
            </li>
          ))}
        </ul>
      )}
      <CustomerWhatsapp numbers={picture.whatsapp} />
    </AccountSection>
  );
}

const WHATSAPP_SOURCE_LABELS: Record<string, string> = {
  checkout: "al comprar",
  signup: "al crear su cuenta",
  profile: "en su perfil",
  telefono: "por teléfono, con el equipo",
  reply: "respondiendo al WhatsApp de la tienda",
  staff: "confirmado por teléfono",
  demo: "datos de demostración",
};

/** Issue 25: each number's WhatsApp notices, as the customer chose them, and whether Meta can reach it. */
function CustomerWhatsapp({ numbers }: { numbers: SubjectLists["whatsapp"] }) {
  return (
    <>
      <h3 className="mt-4 text-sm font-bold text-slate-900">Avisos por WhatsApp</h3>
      {numbers.length === 0 ? (
        <Empty>Sin número de celular.</Empty>
      ) : (
        <ul className="space-y-1 text-sm text-slate-800" data-testid="customer-whatsapp">
          {numbers.map((number) => (
            <li key={number.phone} className="break-words">
              <span className="font-semibold">{formatWhatsappNumber(number.phone)}</span>:{" "}
              {!number.proven
                ? "escrito en su perfil, sin confirmar que es suyo: no recibe avisos hasta que responda SÍ por WhatsApp o lo confirmes llamándole."
                : number.unreachableSince
                  ? `no está en WhatsApp o no puede recibir mensajes (desde el ${shortInstant(number.unreachableSince)}); recibe solo correos.`
                  : number.latest === null
                    ? "nunca activó los avisos."
                    : number.latest.granted
                      ? `recibe avisos (los activó ${WHATSAPP_SOURCE_LABELS[number.latest.source] ?? number.latest.source} el ${shortInstant(number.latest.at)}).`
                      : `no recibe avisos (se dio de baja ${WHATSAPP_SOURCE_LABELS[number.latest.source] ?? number.latest.source} el ${shortInstant(number.latest.at)}).`}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function CustomerMessagesAndCart({ picture }: { picture: SubjectLists }) {
  const cart = picture.abandonedCart;
  return (
    <AccountSection title="Mensajes y carrito guardado">
      <h3 className="text-sm font-bold text-slate-900">Mensajes de contacto</h3>
      {picture.contactMessages.length === 0 ? (
        <Empty>No nos ha escrito por el formulario de contacto.</Empty>
      ) : (
        <ul className={listClass} data-testid="customer-messages">
          {picture.contactMessages.map((message) => (
            <li key={message.id} className={rowClass}>
              <span className="min-w-0 break-words">{message.subject}</span>
              <span className="text-xs text-slate-600">{shortInstant(message.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
      <h3 className="mt-4 text-sm font-bold text-slate-900">Carrito abandonado</h3>
      <p className="text-sm text-slate-800">
        {cart
          ? `${cart.items} producto(s) por ${formatSoles(cart.subtotalCents)}, guardado el ${shortInstant(cart.updatedAt)}${cart.reminderSentAt ? "; recordatorio enviado" : ""}.`
          : "Ninguno guardado."}
      </p>
    </AccountSection>
  );
}

export function StaffMessage({ ok, message }: { ok: boolean; message: string }) {
  return (
    <p
      role={ok ? "status" : "alert"}
      className={`rounded-xl border px-4 py-3 text-sm ${ok ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-red-200 bg-red-50 text-red-800"}`}
    >
      {message}
    </p>
  );
}

export const actionButtonClass = "rounded-lg border px-4 py-2 text-sm font-semibold";

const REQUESTED_BY = { cliente: "del cliente", comprador: "del comprador", persona: "de la persona" } as const;

/** The admin's Ley 29733 actions on a customer's, a guest's or a non-buyer's page (decisions 0051, 0061, 0064). */
export function DataRequestActions({ basePath, who }: { basePath: string; who: keyof typeof REQUESTED_BY }) {
  return (
    <section aria-labelledby="datos-personales" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100 sm:p-6">
      <h2 id="datos-personales" className="text-lg font-bold text-slate-900">
        Datos personales (Ley 29733)
      </h2>
      <p className="mt-2 text-sm text-slate-700">
        A pedido {REQUESTED_BY[who]}: entrégale una copia de sus datos o {who === "persona" ? "anonimízala" : "anonimízalo"}.
      </p>
      <div className="mt-3 flex flex-wrap gap-3">
        <Form method="post" action={`${basePath}/exportar`} reloadDocument>
          <button type="submit" className={`${actionButtonClass} border-brand-700 text-brand-800 hover:bg-brand-50`}>
            Exportar sus datos (JSON)
          </button>
        </Form>
        <Link to={`${basePath}/anonimizar`} className={`${actionButtonClass} border-red-300 text-red-800 hover:bg-red-50`}>
          Anonimizar…
        </Link>
      </div>
    </section>
  );
}

/**
 * The page of an account (decision 0051) or of a guest buyer (decision 0061): the way back, the
 * header, a notice, then the page's own sections (`actions`), and the lists both share around the
 * `profile` and any `extra` section (an account's subscriptions).
 */
export function CustomerPage({
  title,
  badge,
  notice,
  actions,
  profile,
  extra,
  garantia,
  picture,
  dataRequests,
}: {
  title: string;
  badge: React.ReactNode;
  notice: string | null;
  actions?: React.ReactNode;
  profile: React.ReactNode;
  extra?: React.ReactNode;
  /** The bidón garantía section (decision 0075), where the page has one. */
  garantia?: React.ReactNode;
  picture: SubjectLists;
  dataRequests: React.ReactNode;
}) {
  return (
    <div className="space-y-6">
      <p>
        <Link to="/admin/clientes" className="text-sm font-semibold text-brand-800 underline">
          Volver a clientes
        </Link>
      </p>
      <AdminPageHeader title={title}>{badge}</AdminPageHeader>
      {notice && <StaffMessage ok message={notice} />}
      {actions}
      <div className="grid gap-6 lg:grid-cols-2">
        {profile}
        <CustomerOrders picture={picture} />
        {extra}
        <CustomerDeliveries picture={picture} />
        {garantia}
        <CustomerInvoices picture={picture} />
        <CustomerEmails picture={picture} />
        <CustomerComplaintsAndConsent picture={picture} />
        <CustomerMessagesAndCart picture={picture} />
      </div>
      {dataRequests}
    </div>
  );
}

/** What a staff page says after an anonymisation it redirected from (`?aviso=anonimizado`). */
export function anonymisedNotice(request: Request, who: "Cliente" | "Comprador" | "Persona"): string | null {
  if (new URL(request.url).searchParams.get("aviso") !== "anonimizado") return null;
  // Decision 0064: someone who never bought has no comprobantes; their complaint sheets stay.
  if (who === "Persona") return "Persona anonimizada. Sus hojas de reclamación se conservan como exige la ley.";
  return `${who} anonimizado. Sus comprobantes y hojas de reclamación se conservan como exige la ley.`;
}
