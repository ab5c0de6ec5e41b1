import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/invoices";
import { emailInvoicesToUser, listInvoicesForUser, type EmailInvoicesResult } from "@server/invoices/index.server";
import { InvoiceFilters } from "~/components/invoices/invoice-filters";
import { InvoiceRows, type InvoiceRow } from "~/components/invoices/invoice-rows";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import {
  countByStatus,
  matchesInvoiceSearch,
  parseInvoiceStatusFilter,
  summarizeInvoices,
  type InvoiceStatusFilter,
  type InvoiceSummary,
} from "@core/invoice-list";
import { formatSoles } from "@core/money";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { userContext } from "~/server/session.server";
import { siteInfo } from "~/server/site-info.server";

const LOAD_ERROR = "No se pudieron cargar las facturas. Por favor, inténtalo de nuevo.";

type LoaderData =
  | { ok: true; status: InvoiceStatusFilter; query: string; rows: InvoiceRow[]; counts: Record<InvoiceStatusFilter, number>; summary: InvoiceSummary }
  | { ok: false; status: InvoiceStatusFilter; query: string };

export async function loader({ request, context }: Route.LoaderArgs): Promise<LoaderData> {
  const user = context.get(userContext);
  const url = new URL(request.url);
  const status = parseInvoiceStatusFilter(url.searchParams.get("status"));
  const query = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  try {
    const invoices = await listInvoicesForUser(context.get(dbContext), user.id, { now: new Date() });
    // Chip counts follow the search, the summary cards always count every invoice (decision 0017)
    // but not the notas de crédito, which give money back rather than ask for it (decision 0045).
    const matching = invoices.filter((invoice) => matchesInvoiceSearch(invoice, query));
    const rows = matching
      .filter((invoice) => status === "all" || invoice.status === status)
      .map(({ id, invoiceNumber, orderId, orderNumber, issuedOn, dueDate, totalCents, status, documentType, xmlUrl, cdrUrl }) => ({
        id,
        invoiceNumber,
        orderId,
        orderNumber,
        issuedOn,
        dueDate,
        totalCents,
        status,
        documentType,
        xmlUrl,
        cdrUrl,
      }));
    return {
      ok: true,
      status,
      query,
      rows,
      counts: countByStatus(matching),
      summary: summarizeInvoices(invoices.filter((invoice) => invoice.documentType !== "nota_credito")),
    };
  } catch (error) {
    console.error("The invoice list could not be loaded", error);
    return { ok: false, status, query };
  }
}

/** 'Enviar por email': one email with every invoice PDF, once however often it is clicked. */
export async function action({ request, context }: Route.ActionArgs): Promise<{ email: EmailInvoicesResult }> {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const form = await readFormData(request);
  if (form.get("intent") !== "email-invoices") throw new Response("Solicitud no válida", { status: 400 });
  const { siteUrl } = await siteInfo(db, request);
  const result = await emailInvoicesToUser(db, { id: user.id, email: user.email, firstName: user.firstName }, { now: new Date(), siteUrl });
  return { email: result };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Facturas",
    description: "Tus boletas y facturas: estado, descargas en PDF y envío por correo.",
    path: "/dashboard/facturas",
    robots: "noindex,nofollow",
  });

function emailMessage(result: EmailInvoicesResult): string {
  if (result.status === "queued") return `Te enviamos tus facturas a ${result.to}. Llegarán en unos minutos con los PDF adjuntos.`;
  if (result.status === "already_sent") return `Ya te enviamos estas facturas hoy a ${result.to}. Revisa tu bandeja de entrada o la carpeta de spam.`;
  return "No tienes facturas para enviar.";
}

function SummaryCards({ summary }: { summary: InvoiceSummary }) {
  const cards = [
    { label: "Total facturado", value: formatSoles(summary.billedCents), testId: "summary-billed" },
    { label: "Pendiente de pago", value: formatSoles(summary.pendingPaymentCents), testId: "summary-pending" },
    { label: "Número de facturas", value: String(summary.count), testId: "summary-count" },
  ];
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      {cards.map((card) => (
        <div key={card.label} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100">
          <p className="text-sm text-slate-600">{card.label}</p>
          <p className="mt-1 text-2xl font-bold text-brand-900" data-testid={card.testId}>
            {card.value}
          </p>
        </div>
      ))}
    </div>
  );
}

function BulkActions({ result }: { result: EmailInvoicesResult | undefined }) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "email-invoices";
  return (
    <div className="rounded-2xl bg-brand-50 p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-brand-900">Descarga o recibe por correo todos tus comprobantes en PDF.</p>
        <div className="flex flex-wrap gap-2">
          <a
            href="/dashboard/facturas/descargar-todas"
            className="rounded-full border border-brand-700 bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-100"
          >
            Descargar todas
          </a>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="email-invoices" />
            <button
              type="submit"
              disabled={sending}
              className="rounded-full bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
            >
              {sending ? "Enviando..." : "Enviar por email"}
            </button>
          </Form>
        </div>
      </div>
      {result && (
        <p role="status" className="mt-3 rounded-xl bg-white px-4 py-2 text-sm text-brand-900" data-testid="email-confirmation">
          {emailMessage(result)}
        </p>
      )}
    </div>
  );
}

function EmptyState({ filtered }: { filtered: boolean }) {
  return (
    <div className="rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-100" data-testid="invoices-empty">
      {/* Spec §8 empty states: 'Sin resultados' when a search or filter finds nothing. */}
      <p className="text-lg font-semibold text-slate-900">{filtered ? "Sin resultados" : "Aún no tienes facturas"}</p>
      <p className="mt-1 text-sm text-slate-600">
        {filtered ? "No encontramos facturas con esa búsqueda o filtro." : "Cada pedido pagado genera su boleta o factura electrónica."}
      </p>
      <div className="mt-5 flex flex-wrap justify-center gap-3">
        <Link to="/dashboard/pedidos" className="rounded-full border border-brand-700 px-5 py-2.5 text-sm font-semibold text-brand-800 hover:bg-brand-50">
          Ver mis pedidos
        </Link>
        <Form method="get" action="/dashboard/facturas">
          <button type="submit" className="rounded-full bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800">
            Limpiar filtros
          </button>
        </Form>
      </div>
    </div>
  );
}

export default function Invoices({ loaderData, actionData }: { loaderData: LoaderData; actionData?: { email: EmailInvoicesResult } }) {
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-3xl font-bold text-brand-900">Facturas</h1>
        <p className="mt-1 text-slate-600">Tus boletas y facturas electrónicas de cada pedido pagado.</p>
      </div>
      {loaderData.ok ? (
        <>
          <SummaryCards summary={loaderData.summary} />
          <InvoiceFilters status={loaderData.status} query={loaderData.query} counts={loaderData.counts} />
          {loaderData.rows.length > 0 ? (
            <>
              <BulkActions result={actionData?.email} />
              <InvoiceRows rows={loaderData.rows} />
            </>
          ) : (
            <EmptyState filtered={loaderData.status !== "all" || loaderData.query !== ""} />
          )}
        </>
      ) : (
        <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
          {LOAD_ERROR}
        </p>
      )}
    </div>
  );
}
