import { Link } from "react-router";
import { formatLimaDate } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { invoiceBadge, type InvoiceStatus } from "@core/invoice-list";

export interface InvoiceRow {
  id: string;
  invoiceNumber: string;
  orderId: string;
  orderNumber: string;
  issuedOn: string;
  dueDate: string;
  totalCents: number;
  status: InvoiceStatus;
  documentType: string;
  xmlUrl: string | null;
  cdrUrl: string | null;
}

/** Spec §4: Pagada green, Pendiente yellow, Vencida red; a nota de crédito says what it is. */
export function InvoiceStatusBadge({ status, documentType }: { status: InvoiceStatus; documentType: string }) {
  const badge = invoiceBadge(status, documentType);
  return (
    <span className={`inline-block rounded-full px-3 py-1 text-xs font-semibold whitespace-nowrap ${badge.tone}`} data-testid="invoice-status">
      {badge.label}
    </span>
  );
}

export function shortDate(isoDate: string): string {
  return formatLimaDate(isoDate, { day: "2-digit", month: "short", year: "numeric" });
}

export function invoicePdfHref(id: string): string {
  return `/dashboard/facturas/${id}/pdf`;
}

const actionClass = "rounded-full px-3 py-1.5 text-sm font-semibold";

function RowActions({ invoice }: { invoice: InvoiceRow }) {
  return (
    <div className="flex items-center justify-end gap-2">
      <Link
        to={`/dashboard/facturas/${invoice.id}`}
        aria-label={`Ver factura ${invoice.invoiceNumber}`}
        className={`${actionClass} border border-brand-700 text-brand-800 hover:bg-brand-50`}
      >
        Ver
      </Link>
      {/* A file, not a page: the browser downloads it (Content-Disposition) without leaving the list. */}
      <a
        href={invoicePdfHref(invoice.id)}
        aria-label={`Descargar PDF de ${invoice.invoiceNumber}`}
        className={`${actionClass} bg-brand-700 text-white hover:bg-brand-800`}
      >
        PDF
      </a>
      <ElectronicFileLinks invoice={invoice} className={`${actionClass} border border-brand-700 text-brand-800 hover:bg-brand-50`} />
    </div>
  );
}

/** The OSE's XML and SUNAT's CDR, when the comprobante went through one (decision 0045). */
export function ElectronicFileLinks({
  invoice,
  className,
}: {
  invoice: { invoiceNumber: string; xmlUrl: string | null; cdrUrl: string | null };
  className: string;
}) {
  return (
    <>
      {invoice.xmlUrl && (
        <a href={invoice.xmlUrl} aria-label={`Descargar XML de ${invoice.invoiceNumber}`} className={className} rel="noopener noreferrer">
          XML
        </a>
      )}
      {invoice.cdrUrl && (
        <a href={invoice.cdrUrl} aria-label={`Descargar CDR de SUNAT de ${invoice.invoiceNumber}`} className={className} rel="noopener noreferrer">
          CDR
        </a>
      )}
    </>
  );
}

/** Desktop table from the `md` breakpoint; cards below it (spec §2 Invoices). */
export function InvoiceRows({ rows }: { rows: InvoiceRow[] }) {
  return (
    <>
      <div className="hidden overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 ring-slate-100 md:block">
        <table className="w-full text-left text-sm" data-testid="invoice-table">
          <thead className="bg-slate-50 text-slate-600">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Factura
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Pedido
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Fecha
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Vencimiento
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                Monto
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Estado
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                Acciones
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((invoice) => (
              <tr key={invoice.id} data-testid="invoice-row">
                <td className="px-4 py-3 font-semibold text-slate-900">{invoice.invoiceNumber}</td>
                <td className="px-4 py-3">
                  <Link to={`/dashboard/pedidos/${invoice.orderId}`} className="text-brand-800 underline">
                    {invoice.orderNumber}
                  </Link>
                </td>
                <td className="px-4 py-3 whitespace-nowrap">{shortDate(invoice.issuedOn)}</td>
                <td className="px-4 py-3 whitespace-nowrap">{shortDate(invoice.dueDate)}</td>
                <td className="px-4 py-3 text-right font-semibold whitespace-nowrap">{formatSoles(invoice.totalCents)}</td>
                <td className="px-4 py-3">
                  <InvoiceStatusBadge status={invoice.status} documentType={invoice.documentType} />
                </td>
                <td className="px-4 py-3">
                  <RowActions invoice={invoice} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="space-y-3 md:hidden" data-testid="invoice-cards">
        {rows.map((invoice) => (
          <li key={invoice.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100" data-testid="invoice-card">
            <div className="flex items-start justify-between gap-3">
              <div>
                <p className="font-semibold text-slate-900">{invoice.invoiceNumber}</p>
                <p className="text-sm text-slate-600">
                  Pedido{" "}
                  <Link to={`/dashboard/pedidos/${invoice.orderId}`} className="text-brand-800 underline">
                    {invoice.orderNumber}
                  </Link>
                </p>
              </div>
              <InvoiceStatusBadge status={invoice.status} documentType={invoice.documentType} />
            </div>
            <dl className="mt-3 grid grid-cols-3 gap-2 text-sm">
              <div>
                <dt className="text-slate-500">Fecha</dt>
                <dd>{shortDate(invoice.issuedOn)}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Vence</dt>
                <dd>{shortDate(invoice.dueDate)}</dd>
              </div>
              <div className="text-right">
                <dt className="text-slate-500">Monto</dt>
                <dd className="font-semibold">{formatSoles(invoice.totalCents)}</dd>
              </div>
            </dl>
            <div className="mt-3">
              <RowActions invoice={invoice} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
