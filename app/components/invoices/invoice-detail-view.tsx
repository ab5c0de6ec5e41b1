import { Link } from "react-router";
import type { InvoiceDetail } from "@server/invoices/index.server";
import { deliveryWindowLabels } from "@core/delivery-schedule";
import { invoiceDocumentLabels, invoiceDocumentTitles } from "@core/invoice-list";
import { formatLimaDate, limaToday } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { orderStatusLabel, paymentMethodLabels } from "@core/order-labels";
import { IGV_RATE } from "@core/pricing";
import { DownloadPdfButton } from "./download-pdf-button";
import { ElectronicFileLinks, InvoiceStatusBadge, shortDate } from "./invoice-rows";
import { ScrollRegion } from "~/components/ui/scroll-region";

/** Spec §4 delivery states, as the customer reads them. */
const deliveryStatusLabels: Record<string, string> = {
  pending: "Pendiente",
  preparing: "En preparación",
  scheduled: "Programado",
  shipped: "Despachado",
  in_transit: "En camino",
  delivered: "Entregado",
  failed: "Fallido",
  rescheduled: "Reprogramado",
  cancelled: "Cancelado",
};

export function BackToInvoices() {
  return (
    <Link to="/dashboard/facturas" className="inline-flex items-center gap-1 text-sm font-semibold text-brand-800 hover:underline">
      <span aria-hidden="true">←</span> Volver a facturas
    </Link>
  );
}

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId: string }) {
  return (
    <section aria-labelledby={`${testId}-title`} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100" data-testid={testId}>
      <h2 id={`${testId}-title`} className="text-lg font-bold text-brand-900">
        {title}
      </h2>
      <div className="mt-3 text-sm">{children}</div>
    </section>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right font-medium text-slate-900">{children}</dd>
    </div>
  );
}

function longDate(isoDate: string): string {
  return formatLimaDate(isoDate, { day: "numeric", month: "long", year: "numeric" });
}

/** Where the comprobante is with SUNAT, in the customer's words (decision 0045). */
function ElectronicNotice({ invoice }: { invoice: InvoiceDetail }) {
  const text =
    invoice.electronicStatus === "local"
      ? "Este PDF no es un comprobante electrónico: no fue enviado a SUNAT y no tiene validez tributaria."
      : invoice.electronicStatus === "accepted" || invoice.electronicStatus === "observed"
        ? "Comprobante aceptado por SUNAT."
        : "Estamos enviando este comprobante a SUNAT. Cuando lo acepte te lo enviaremos por correo.";
  return (
    <p className="rounded-xl bg-brand-50 px-4 py-2 text-sm text-brand-900" data-testid="invoice-electronic-status">
      {invoice.modifiesInvoiceNumber ? `Modifica el comprobante ${invoice.modifiesInvoiceNumber}. ` : ""}
      {text}
    </p>
  );
}

export function InvoiceDetailView({ invoice }: { invoice: InvoiceDetail }) {
  const { order, customer, delivery } = invoice;
  const documentLabel = invoiceDocumentLabels[customer.documentType] ?? customer.documentType.toUpperCase();
  const isFactura = invoice.documentType === "factura";
  return (
    <div className="space-y-5">
      <BackToInvoices />
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm font-semibold text-slate-600">{invoiceDocumentTitles[invoice.documentType] ?? "Comprobante electrónico"}</p>
          <h1 className="text-3xl font-bold text-brand-900">Factura {invoice.invoiceNumber}</h1>
        </div>
        <div className="flex flex-wrap gap-2">
          <DownloadPdfButton invoiceId={invoice.id} />
          <ElectronicFileLinks
            invoice={invoice}
            className="inline-flex items-center justify-center rounded-full border border-brand-700 px-5 py-2.5 font-semibold text-brand-800 hover:bg-brand-50"
          />
        </div>
      </header>
      <ElectronicNotice invoice={invoice} />

      <Section title="Resumen" testId="invoice-summary">
        <div className="grid gap-4 sm:grid-cols-4">
          <div>
            <p className="text-slate-600">Importe total</p>
            <p className="text-2xl font-bold text-brand-900" data-testid="invoice-total">
              {formatSoles(invoice.totalCents)}
            </p>
          </div>
          <div>
            <p className="text-slate-600">Estado</p>
            <p className="mt-1">
              <InvoiceStatusBadge status={invoice.status} documentType={invoice.documentType} />
            </p>
          </div>
          <div>
            <p className="text-slate-600">Emitida</p>
            <p className="font-semibold">{shortDate(invoice.issuedOn)}</p>
          </div>
          <div>
            <p className="text-slate-600">Vence</p>
            <p className="font-semibold">{shortDate(invoice.dueDate)}</p>
          </div>
        </div>
      </Section>

      <div className="grid gap-5 lg:grid-cols-2">
        <Section title="Datos del cliente" testId="invoice-customer">
          <dl>
            {isFactura && <Fact label="Razón social">{customer.name}</Fact>}
            <Fact label={isFactura ? "Contacto" : "Nombre"}>{`${customer.firstName} ${customer.lastName}`}</Fact>
            <Fact label={documentLabel}>{customer.documentNumber}</Fact>
            <Fact label="Correo">{customer.email}</Fact>
            <Fact label="Teléfono">{customer.phone}</Fact>
          </dl>
        </Section>
        <Section title="Dirección de entrega" testId="invoice-address">
          <address className="not-italic">
            {order.address}
            <br />
            {order.districtName}
            {invoice.district && `, ${invoice.district.province}`}
          </address>
          {order.deliveryNotes && <p className="mt-2 text-slate-600">Referencia: {order.deliveryNotes}</p>}
        </Section>
      </div>

      <Section title="Detalles de la factura" testId="invoice-details">
        <dl className="grid gap-x-8 sm:grid-cols-2">
          <Fact label="Comprobante">{invoiceDocumentTitles[invoice.documentType] ?? invoice.documentType}</Fact>
          <Fact label="Serie y número">{invoice.invoiceNumber}</Fact>
          <Fact label="Pedido">
            <Link to={`/dashboard/pedidos/${order.id}`} className="text-brand-800 underline">
              {order.orderNumber}
            </Link>
          </Fact>
          <Fact label="Estado del pedido">{orderStatusLabel(order.status)}</Fact>
          <Fact label="Fecha de emisión">{longDate(invoice.issuedOn)}</Fact>
          <Fact label="Fecha de vencimiento">{longDate(invoice.dueDate)}</Fact>
          <Fact label="Medio de pago">{invoice.paymentMethod ? (paymentMethodLabels[invoice.paymentMethod] ?? invoice.paymentMethod) : "—"}</Fact>
          <Fact label="Pagada el">{invoice.paidAt ? shortDate(limaToday(invoice.paidAt)) : "Pendiente de pago"}</Fact>
        </dl>
      </Section>

      <Section title="Productos" testId="invoice-products">
        <ScrollRegion label="Productos de la factura">
          <table className="w-full text-left">
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="py-2 font-semibold">
                  Producto
                </th>
                <th scope="col" className="py-2 text-right font-semibold">
                  Cantidad
                </th>
                <th scope="col" className="py-2 text-right font-semibold">
                  P. unitario
                </th>
                <th scope="col" className="py-2 text-right font-semibold">
                  Total
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {invoice.items.map((item, index) => (
                <tr key={index}>
                  <td className="py-2">
                    {item.title}
                    {item.variantTitle && <span className="text-slate-600"> · {item.variantTitle}</span>}
                  </td>
                  <td className="py-2 text-right">{item.quantity}</td>
                  <td className="py-2 text-right whitespace-nowrap">{formatSoles(item.unitPriceCents)}</td>
                  <td className="py-2 text-right whitespace-nowrap">{formatSoles(item.lineTotalCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </Section>

      <div className="grid gap-5 lg:grid-cols-2">
        <Section title="Resumen de pago" testId="invoice-payment">
          <dl>
            <Fact label="Subtotal">{formatSoles(order.subtotalCents)}</Fact>
            {order.discountCents > 0 && <Fact label="Descuento">- {formatSoles(order.discountCents)}</Fact>}
            <Fact label="Envío">{order.shippingCents === 0 ? "Gratis" : formatSoles(order.shippingCents)}</Fact>
            <Fact label="Op. gravada">{formatSoles(invoice.taxableCents)}</Fact>
            <Fact label={`IGV ${Math.round(IGV_RATE * 100)}%`}>{formatSoles(invoice.igvCents)}</Fact>
            <div className="mt-2 flex justify-between border-t border-slate-100 pt-2 text-base font-bold">
              <dt>Importe total</dt>
              <dd>{formatSoles(invoice.totalCents)}</dd>
            </div>
          </dl>
        </Section>
        <Section title="Información de entrega" testId="invoice-delivery">
          <dl>
            {delivery ? (
              <>
                <Fact label="Envío">{delivery.deliveryNumber}</Fact>
                <Fact label="Estado">{deliveryStatusLabels[delivery.status] ?? delivery.status}</Fact>
                <Fact label="Fecha">{longDate(delivery.deliveryDate)}</Fact>
                <Fact label="Horario">{deliveryWindowLabels[delivery.deliveryWindow] ?? delivery.deliveryWindow}</Fact>
                {delivery.trackingCode && <Fact label="Seguimiento">{delivery.trackingCode}</Fact>}
                {delivery.notes && <Fact label="Notas">{delivery.notes}</Fact>}
              </>
            ) : (
              <>
                <Fact label="Fecha elegida">{longDate(order.deliveryDate)}</Fact>
                <Fact label="Horario">{deliveryWindowLabels[order.deliveryWindow] ?? order.deliveryWindow}</Fact>
                <Fact label="Estado">Aún sin programar</Fact>
              </>
            )}
          </dl>
          {delivery && (
            <Link to={`/dashboard/envios/${delivery.id}`} className="mt-3 inline-block font-semibold text-brand-800 underline">
              Ver el envío
            </Link>
          )}
        </Section>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-3">
        <BackToInvoices />
        <DownloadPdfButton invoiceId={invoice.id} />
      </div>
    </div>
  );
}
