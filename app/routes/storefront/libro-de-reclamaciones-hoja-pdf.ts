import type { Route } from "./+types/libro-de-reclamaciones-hoja-pdf";
import { complaintPdfFilename, findComplaintByToken, renderComplaintPdf } from "@server/complaints/index.server";
import { dbContext } from "~/server/db-context.server";
import { privatePageHeaders } from "~/server/order-receipt.server";

function plainText(message: string, status: number): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...privatePageHeaders } });
}

/** The consumer's sheet as PDF, by the same secret token as its page. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const sheet = await findComplaintByToken(context.get(dbContext), params.token);
  if (!sheet) return plainText("Hoja de reclamación no encontrada", 404);
  let pdf: Buffer;
  try {
    pdf = await renderComplaintPdf(sheet);
  } catch (error) {
    console.error("Complaint sheet PDF failed", error);
    return plainText("No se pudo descargar la hoja de reclamación", 500);
  }
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${complaintPdfFilename(sheet.sheetNumber)}"`,
      "Content-Length": String(pdf.length),
      ...privatePageHeaders,
    },
  });
}
