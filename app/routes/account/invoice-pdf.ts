import type { Route } from "./+types/invoice-pdf";
import { getIssuer } from "@server/content/index.server";
import { findInvoiceForUser, invoicePdfFilename, renderInvoicePdf } from "@server/invoices/index.server";
import { dbContext } from "~/server/db-context.server";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { requireUserMiddleware, userContext } from "~/server/session.server";

export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware];

function plainText(message: string, status: number): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...privatePageHeaders } });
}

/** /dashboard/facturas/{id}/pdf: the printed invoice, for its owner only (spec §6). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const invoice = await findInvoiceForUser(db, user.id, params.invoiceId, { now: new Date() });
  if (!invoice) return plainText("Factura no encontrada", 404);
  let pdf: Buffer;
  try {
    pdf = await renderInvoicePdf(invoice, await getIssuer(db));
  } catch (error) {
    console.error("Invoice PDF failed", error);
    return plainText("No se pudo descargar la factura", 500);
  }
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${invoicePdfFilename(invoice.invoiceNumber)}"`,
      "Content-Length": String(pdf.length),
      ...privatePageHeaders,
    },
  });
}
