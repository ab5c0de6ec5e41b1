import { formatSoles } from "@core/money";
import { invoiceDocumentLabels } from "@core/invoice-list";
import { paymentMethodLabels } from "@core/order-labels";
import { IGV_RATE } from "@core/pricing";
import { amountInWords } from "./amount-in-words";
import type { InvoiceDetail } from "./customer-invoices";
import type { Issuer } from "../content/index.server";

/** The fields of an invoice its printed representation needs. */
export type PrintableInvoice = Pick<
  InvoiceDetail,
  | "invoiceNumber"
  | "documentType"
  | "issuedAt"
  | "issuedOn"
  | "dueDate"
  | "status"
  | "totalCents"
  | "taxableCents"
  | "igvCents"
  | "paymentMethod"
  | "customer"
  | "order"
  | "items"
  | "electronicStatus"
  | "qrText"
  | "hash"
  | "modifiesInvoiceNumber"
  | "creditNoteReason"
>;

const TITLES: Record<string, string> = {
  boleta: "BOLETA DE VENTA ELECTRÓNICA",
  factura: "FACTURA ELECTRÓNICA",
  nota_credito: "NOTA DE CRÉDITO ELECTRÓNICA",
};
const LEGEND_NAMES: Record<string, string> = {
  boleta: "Boleta de Venta Electrónica",
  factura: "Factura Electrónica",
  nota_credito: "Nota de Crédito Electrónica",
};
const QR_SIZE = 96;

const INK = "#1e293b";
const MUTED = "#475569";
const BRAND = "#0e7490";
const LINE = "#cbd5e1";
const LEFT = 40;
const RIGHT = 555;
const WIDTH = RIGHT - LEFT;

export function invoicePdfFilename(invoiceNumber: string): string {
  return `${invoiceNumber.replace(/[^A-Za-z0-9-]/g, "")}.pdf`;
}

/** '2026-11-24' → '24/11/2026', as Peruvian documents print dates. */
function peruvianDate(isoDate: string): string {
  const [year, month, day] = isoDate.split("-");
  return `${day}/${month}/${year}`;
}

function limaTime(instant: Date): string {
  return new Intl.DateTimeFormat("es-PE", { timeZone: "America/Lima", hour: "2-digit", minute: "2-digit", hour12: false }).format(instant);
}

function amount(cents: number): string {
  return formatSoles(cents).replace("S/ ", "");
}

/**
 * The printed representation of the boleta or factura (shared/reference/payments.md D.4): issuer
 * with RUC and fiscal address, title and series-number, issue date, customer and document, items,
 * op. gravada, IGV 18%, importe total and the amount in words. Helvetica's WinAnsi encoding
 * covers Spanish accents, so no font is embedded.
 */
export async function renderInvoicePdf(invoice: PrintableInvoice, issuer: Issuer): Promise<Buffer> {
  // Loaded on the first PDF, not at the server's start (they cost it about a quarter of a second).
  const [{ default: PDFDocument }, { default: QRCode }] = await Promise.all([import("pdfkit"), import("qrcode")]);
  // SUNAT's QR (decision 0045): the text the OSE returned, drawn only once the document reached it.
  const qr = invoice.qrText ? await QRCode.toBuffer(invoice.qrText, { type: "png", errorCorrectionLevel: "Q", margin: 1, width: QR_SIZE * 3 }) : null;
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: 40, bottom: 40, left: LEFT, right: 40 },
    info: {
      Title: `${TITLES[invoice.documentType] ?? "COMPROBANTE"} ${invoice.invoiceNumber}`,
      Author: issuer.legalName,
      Subject: `Pedido ${invoice.order.orderNumber}`,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  drawHeader(doc, invoice, issuer);
  let y = drawDocumentData(doc, invoice, 165);
  y = drawItems(doc, invoice, y + 14);
  y = drawTotals(doc, invoice, y + 10);
  drawFooter(doc, invoice, issuer, y + 18, qr);
  doc.end();
  return done;
}

function drawHeader(doc: PDFKit.PDFDocument, invoice: PrintableInvoice, issuer: Issuer) {
  doc.fillColor(BRAND).font("Helvetica-Bold").fontSize(20).text(issuer.brandName, LEFT, 44, { width: 300 });
  doc.fillColor(INK).font("Helvetica-Bold").fontSize(9).text(issuer.legalName, LEFT, 72, { width: 300 });
  doc.font("Helvetica").fillColor(MUTED).fontSize(8.5);
  doc.text(`Domicilio fiscal: ${issuer.fiscalAddress}`, LEFT, 86, { width: 300 });
  doc.text(`${issuer.email} · ${issuer.phone}`, { width: 300 });

  // The SUNAT box: RUC, document title and series-number.
  const boxX = 365;
  const boxWidth = RIGHT - boxX;
  doc.lineWidth(1.2).strokeColor(BRAND).roundedRect(boxX, 40, boxWidth, 96, 6).stroke();
  doc.fillColor(INK).font("Helvetica-Bold").fontSize(11).text(`R.U.C. ${issuer.ruc}`, boxX, 54, { width: boxWidth, align: "center" });
  doc
    .fillColor(BRAND)
    .fontSize(11)
    .text(TITLES[invoice.documentType] ?? "COMPROBANTE ELECTRÓNICO", boxX + 8, 76, { width: boxWidth - 16, align: "center" });
  doc.fillColor(INK).fontSize(13).text(invoice.invoiceNumber, boxX, 110, { width: boxWidth, align: "center" });
}

function labelled(doc: PDFKit.PDFDocument, label: string, value: string, x: number, y: number, width: number): number {
  doc.font("Helvetica-Bold").fontSize(9).fillColor(INK).text(`${label}: `, x, y, { width, continued: true });
  doc.font("Helvetica").text(value);
  return doc.y + 2;
}

function drawDocumentData(doc: PDFKit.PDFDocument, invoice: PrintableInvoice, top: number): number {
  const isFactura = invoice.documentType === "factura";
  const columnWidth = WIDTH / 2 - 10;
  const rightX = LEFT + WIDTH / 2 + 10;

  let left = top;
  left = labelled(doc, "Fecha de emisión", `${peruvianDate(invoice.issuedOn)} ${limaTime(invoice.issuedAt)}`, LEFT, left, columnWidth);
  if (invoice.status !== "paid" || invoice.dueDate !== invoice.issuedOn)
    left = labelled(doc, "Fecha de vencimiento", peruvianDate(invoice.dueDate), LEFT, left, columnWidth);
  left = labelled(doc, "Moneda", "SOLES (PEN)", LEFT, left, columnWidth);
  // R.S. 193-2020/SUNAT: a factura states Contado or Crédito.
  left = labelled(doc, "Forma de pago", invoice.status === "paid" ? "Contado" : `Crédito, vence el ${peruvianDate(invoice.dueDate)}`, LEFT, left, columnWidth);
  if (invoice.paymentMethod)
    left = labelled(doc, "Medio de pago", paymentMethodLabels[invoice.paymentMethod] ?? invoice.paymentMethod, LEFT, left, columnWidth);
  left = labelled(doc, "Pedido", invoice.order.orderNumber, LEFT, left, columnWidth);
  if (invoice.modifiesInvoiceNumber) left = labelled(doc, "Documento que modifica", invoice.modifiesInvoiceNumber, LEFT, left, columnWidth);
  if (invoice.documentType === "nota_credito" && invoice.creditNoteReason) left = labelled(doc, "Motivo", invoice.creditNoteReason, LEFT, left, columnWidth);

  let right = top;
  const documentLabel = invoiceDocumentLabels[invoice.customer.documentType] ?? invoice.customer.documentType.toUpperCase();
  if (isFactura) {
    right = labelled(doc, "RUC", invoice.customer.documentNumber, rightX, right, columnWidth);
    right = labelled(doc, "Razón social", invoice.customer.name, rightX, right, columnWidth);
  } else {
    right = labelled(doc, "Cliente", invoice.customer.name, rightX, right, columnWidth);
    right = labelled(doc, documentLabel, invoice.customer.documentNumber, rightX, right, columnWidth);
  }
  right = labelled(doc, "Dirección", `${invoice.order.address}, ${invoice.order.districtName}, Lima`, rightX, right, columnWidth);
  right = labelled(doc, "Correo", invoice.customer.email, rightX, right, columnWidth);
  return Math.max(left, right);
}

const COLUMNS = [
  { title: "Cant.", x: LEFT, width: 40, align: "center" as const },
  { title: "Unidad", x: LEFT + 40, width: 45, align: "center" as const },
  { title: "Descripción", x: LEFT + 85, width: 260, align: "left" as const },
  { title: "P. unit.", x: LEFT + 345, width: 80, align: "right" as const },
  { title: "Importe", x: LEFT + 425, width: WIDTH - 425, align: "right" as const },
];

function drawItems(doc: PDFKit.PDFDocument, invoice: PrintableInvoice, top: number): number {
  const drawHead = (y: number) => {
    doc.rect(LEFT, y, WIDTH, 20).fill(BRAND);
    doc.fillColor("#ffffff").font("Helvetica-Bold").fontSize(9);
    for (const column of COLUMNS) doc.text(column.title, column.x + 4, y + 6, { width: column.width - 8, align: column.align });
    return y + 20;
  };
  let y = drawHead(top);
  doc.font("Helvetica").fontSize(9).fillColor(INK);
  for (const item of invoice.items) {
    const description = item.variantTitle ? `${item.title} - ${item.variantTitle}` : item.title;
    const cells = [String(item.quantity), "NIU", description, amount(item.unitPriceCents), amount(item.lineTotalCents)];
    const height = Math.max(...cells.map((cell, index) => doc.heightOfString(cell, { width: COLUMNS[index]!.width - 8 }))) + 10;
    if (y + height > doc.page.height - 220) {
      doc.addPage();
      y = drawHead(40);
      doc.font("Helvetica").fontSize(9).fillColor(INK);
    }
    cells.forEach((cell, index) => doc.text(cell, COLUMNS[index]!.x + 4, y + 5, { width: COLUMNS[index]!.width - 8, align: COLUMNS[index]!.align }));
    y += height;
    doc.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.5).strokeColor(LINE).stroke();
  }
  return y;
}

function drawTotals(doc: PDFKit.PDFDocument, invoice: PrintableInvoice, top: number): number {
  const rows: [string, string, boolean][] = [];
  const { order } = invoice;
  // A note's amounts are its own, not the order's.
  const isNote = invoice.documentType === "nota_credito";
  if (!isNote && (order.discountCents > 0 || order.shippingCents > 0)) rows.push(["Subtotal", amount(order.subtotalCents), false]);
  if (!isNote && order.discountCents > 0) rows.push(["Descuento", `-${amount(order.discountCents)}`, false]);
  if (!isNote && order.shippingCents > 0) rows.push(["Envío", amount(order.shippingCents), false]);
  rows.push(["Op. gravada", amount(invoice.taxableCents), false]);
  rows.push(["Op. exonerada", amount(0), false]);
  // The bidón garantía's line, outside IGV (decision 0075): what the total holds beyond the gravada base and its IGV.
  rows.push(["Op. inafecta", amount(invoice.totalCents - invoice.taxableCents - invoice.igvCents), false]);
  rows.push([`IGV ${Math.round(IGV_RATE * 100)}%`, amount(invoice.igvCents), false]);
  rows.push(["Importe total", `S/ ${amount(invoice.totalCents)}`, true]);
  let y = top;
  for (const [label, value, strong] of rows) {
    doc
      .font(strong ? "Helvetica-Bold" : "Helvetica")
      .fontSize(strong ? 11 : 9)
      .fillColor(INK);
    doc.text(label, 330, y, { width: 120, align: "right" });
    doc.text(value, 455, y, { width: RIGHT - 455, align: "right" });
    y += strong ? 18 : 14;
  }
  doc
    .font("Helvetica-Bold")
    .fontSize(9.5)
    .fillColor(INK)
    .text(`SON: ${amountInWords(invoice.totalCents)}`, LEFT, y + 8, { width: WIDTH });
  return doc.y;
}

function drawFooter(doc: PDFKit.PDFDocument, invoice: PrintableInvoice, issuer: Issuer, top: number, qr: Buffer | null) {
  if (top + QR_SIZE + 40 > doc.page.height - 40) {
    doc.addPage();
    top = 40;
  }
  doc.moveTo(LEFT, top).lineTo(RIGHT, top).lineWidth(0.5).strokeColor(LINE).stroke();
  const textWidth = qr ? WIDTH - QR_SIZE - 16 : WIDTH;
  if (qr) doc.image(qr, RIGHT - QR_SIZE, top + 8, { width: QR_SIZE, height: QR_SIZE });
  doc.font("Helvetica").fontSize(8).fillColor(MUTED);
  if (invoice.electronicStatus === "local") {
    // The offline provider (no OSE configured): say so on the document itself.
    doc
      .font("Helvetica-Bold")
      .fillColor(INK)
      .text("Este documento no es un comprobante electrónico: no fue enviado a SUNAT y no tiene validez tributaria.", LEFT, top + 8, { width: textWidth });
    doc.font("Helvetica").fillColor(MUTED);
  } else {
    doc.text(
      `Representación impresa de la ${LEGEND_NAMES[invoice.documentType] ?? "Comprobante Electrónico"}. Puede consultar sus comprobantes en ${issuer.consultationUrl}.`,
      LEFT,
      top + 8,
      { width: textWidth },
    );
    if (invoice.hash) doc.text(`Código hash: ${invoice.hash}`, { width: textWidth });
    if (invoice.electronicStatus === "pending" || invoice.electronicStatus === "sent" || invoice.electronicStatus === "format_error")
      doc.text("Comprobante en proceso de envío a SUNAT.", { width: textWidth });
  }
  if (issuer.isDemo)
    doc.text("Documento de demostración: los datos del emisor son de prueba y este comprobante no tiene validez tributaria.", { width: textWidth });
}
