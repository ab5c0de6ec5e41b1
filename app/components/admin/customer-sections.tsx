import { Link } from "react-router";
import type { CustomerPicture } from "@server/customers/index.server";
import { AccountSection } from "~/components/account/account-page";
import { OrderStatusBadge } from "~/components/orders/receipt-view";
import { ELECTRONIC_STATUS_LABELS } from "@core/comprobante-labels";
import { formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { orderTypeLabels } from "@core/order-labels";
import { frequencyLabel, subscriptionStatusLabel } from "~/lib/subscription-labels";

const STATUS_LABELS: Record<string, { label: string; tone: string }> = {
  active: { label: "Activa", tone: "bg-emerald-50 text-emerald-900 ring-emerald-200" },
  inactive: { label: "Desactivada", tone: "bg-amber-50 text-amber-900 ring-amber-200" },
  anonymized: { label: "Anonimizada", tone: "bg-slate-100 text-slate-800 ring-slate-300" },
};

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

export function CustomerOrders({ picture }: { picture: CustomerPicture }) {
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

export function CustomerInvoices({ picture }: { picture: CustomerPicture }) {
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

export function CustomerEmails({ picture }: { picture: CustomerPicture }) {
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

export function CustomerComplaintsAndConsent({ picture }: { picture: CustomerPicture }) {
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
    </AccountSection>
  );
}
