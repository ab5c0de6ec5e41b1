import type { ComplaintSheetView } from "./sheet";

const INK = "#1e293b";
const MUTED = "#475569";
const BRAND = "#0e7490";
const LINE = "#cbd5e1";
const LEFT = 40;
const WIDTH = 515;
const LABEL_WIDTH = 150;

/**
 * The consumer's full copy of the sheet (Anexo I): the same sections the page and the e-mail show,
 * then the legends. Helvetica's WinAnsi encoding covers Spanish, so no font is embedded.
 */
export async function renderComplaintPdf(sheet: ComplaintSheetView): Promise<Buffer> {
  // Loaded on the first PDF, not at the server's start (pdfkit costs it about a quarter of a second).
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: 40, bottom: 40, left: LEFT, right: 40 },
    info: { Title: sheet.heading, Subject: `Hoja de reclamación ${sheet.sheetNumber}` },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  doc.fillColor(BRAND).font("Helvetica-Bold").fontSize(13).text(sheet.heading, LEFT, 40, { width: WIDTH, align: "center" });
  doc.moveDown(0.3);
  doc.fillColor(MUTED).font("Helvetica").fontSize(9).text(`Fecha y hora: ${sheet.filedAtLabel}`, { width: WIDTH, align: "center" });
  doc.moveDown(0.8);

  for (const section of sheet.sections) {
    ensureRoom(doc, 60);
    const top = doc.y;
    doc.rect(LEFT, top, WIDTH, 18).fill("#ecfeff");
    doc
      .fillColor(BRAND)
      .font("Helvetica-Bold")
      .fontSize(10)
      .text(section.title, LEFT + 6, top + 5, { width: WIDTH - 12 });
    doc.y = top + 24;
    for (const [label, value] of section.rows) {
      ensureRoom(doc, 24);
      const rowTop = doc.y;
      doc
        .fillColor(INK)
        .font("Helvetica-Bold")
        .fontSize(9)
        .text(label, LEFT + 6, rowTop, { width: LABEL_WIDTH - 10 });
      const labelBottom = doc.y;
      doc.font("Helvetica").text(value, LEFT + LABEL_WIDTH, rowTop, { width: WIDTH - LABEL_WIDTH - 6 });
      doc.y = Math.max(doc.y, labelBottom) + 4;
    }
    doc
      .strokeColor(LINE)
      .lineWidth(0.5)
      .moveTo(LEFT, doc.y)
      .lineTo(LEFT + WIDTH, doc.y)
      .stroke();
    doc.y += 10;
  }

  ensureRoom(doc, 60);
  doc.fillColor(MUTED).font("Helvetica").fontSize(8.5);
  for (const legend of sheet.legends) {
    doc.text(`* ${legend}`, LEFT, doc.y, { width: WIDTH });
    doc.moveDown(0.4);
  }
  doc.end();
  return done;
}

function ensureRoom(doc: PDFKit.PDFDocument, height: number) {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}
