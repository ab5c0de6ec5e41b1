import { data, isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/invoice-detail";
import { findInvoiceForUser } from "@server/invoices/index.server";
import { BackToInvoices, InvoiceDetailView } from "~/components/invoices/invoice-detail-view";
import { dbContext } from "~/server/db-context.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { userContext } from "~/server/session.server";

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const invoice = await findInvoiceForUser(context.get(dbContext), user.id, params.invoiceId, { now: new Date() });
  // Someone else's invoice answers exactly like one that does not exist (spec §6).
  if (!invoice) throw data("Factura no encontrada", { status: 404 });
  return { invoice };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(siteFromMatches(matches), {
    title: loaderData ? `Factura ${loaderData.invoice.invoiceNumber}` : "Factura no encontrada",
    description: "Detalle de tu comprobante electrónico.",
    path: "/dashboard/facturas",
    robots: "noindex,nofollow",
  });

export default function InvoiceDetailPage({ loaderData }: Route.ComponentProps) {
  return <InvoiceDetailView invoice={loaderData.invoice} />;
}

/** Spec §8 invoice detail messages. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <div className="space-y-4">
      <BackToInvoices />
      <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-red-800">
        <h1 className="text-xl font-bold">{notFound ? "Factura no encontrada" : "No se pudo cargar la factura"}</h1>
        <p className="mt-1 text-sm">{notFound ? "Esta factura no existe o no pertenece a tu cuenta." : "Por favor, inténtalo de nuevo en unos minutos."}</p>
      </div>
    </div>
  );
}
