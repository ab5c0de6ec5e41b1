import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import {
  COMPLAINT_KIND_DEFINITIONS,
  COMPLAINT_KIND_LABELS,
  COMPLAINT_LEGENDS,
  GOOD_TYPE_LABELS,
  type ComplaintKind,
  type GoodType,
} from "@core/complaints-book";
import { documentTypeLabels, type DocumentType } from "@core/documents";
import { formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { complaintAnswers, complaints } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

export type ComplaintRow = typeof complaints.$inferSelect;
export type ComplaintAnswerRow = typeof complaintAnswers.$inferSelect;

/** One labelled part of the sheet (the numbered boxes of Anexo I). */
export interface SheetSection {
  title: string;
  rows: [label: string, value: string][];
}

/**
 * The sheet as every copy shows it — page, PDF and e-mail — so none can leave a field out:
 * header, provider, the consumer's sections 1–3, the provider's section 4 (the answer, once given)
 * and the legends.
 */
export interface ComplaintSheetView {
  id: string;
  sheetNumber: string;
  /** "LIBRO DE RECLAMACIONES – HOJA DE RECLAMACIÓN N° 000000001-2026". */
  heading: string;
  filedAtLabel: string;
  consumerEmail: string;
  consumerName: string;
  kind: ComplaintKind;
  filedOn: string;
  orderId: string | null;
  sections: SheetSection[];
  answer: { text: string; answeredAtLabel: string; answeredByEmail: string } | null;
  legends: readonly string[];
}

export const hashAccessToken = (token: string) => createHash("sha256").update(token).digest("hex");

const instantLabel = (instant: Date) =>
  formatLimaInstant(instant, { day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

const documentLabel = (type: string | null) => (type ? (documentTypeLabels[type as DocumentType] ?? type.toUpperCase()) : "");

export function sheetHeading(sheetNumber: string): string {
  return `LIBRO DE RECLAMACIONES – HOJA DE RECLAMACIÓN N° ${sheetNumber}`;
}

export function complaintSheetView(sheet: ComplaintRow, answer: ComplaintAnswerRow | null): ComplaintSheetView {
  const kind = sheet.kind as ComplaintKind;
  const consumer: [string, string][] = [
    ["Nombres", sheet.consumerNames],
    ["Apellidos", sheet.consumerSurnames],
    [documentLabel(sheet.documentType), sheet.documentNumber],
    ["Domicilio", sheet.address],
    ["Teléfono", sheet.phone ?? "—"],
    ["Correo electrónico", sheet.email],
    ["Menor de edad", sheet.isMinor ? "Sí" : "No"],
  ];
  if (sheet.isMinor) {
    consumer.push(["Padre, madre o apoderado", sheet.guardianName ?? ""]);
    consumer.push([`Documento del apoderado (${documentLabel(sheet.guardianDocumentType)})`, sheet.guardianDocumentNumber ?? ""]);
  }
  return {
    id: sheet.id,
    sheetNumber: sheet.sheetNumber,
    heading: sheetHeading(sheet.sheetNumber),
    filedAtLabel: instantLabel(sheet.filedAt),
    consumerEmail: sheet.email,
    consumerName: `${sheet.consumerNames} ${sheet.consumerSurnames}`,
    kind,
    filedOn: sheet.filedOn,
    orderId: sheet.orderId,
    sections: [
      {
        title: "Proveedor",
        rows: [
          ["Razón social", sheet.issuerLegalName],
          ["RUC", sheet.issuerRuc],
          ["Domicilio", sheet.issuerAddress],
          ["Fecha y hora", instantLabel(sheet.filedAt)],
        ],
      },
      { title: "1. Identificación del consumidor reclamante", rows: consumer },
      {
        title: "2. Identificación del bien contratado",
        rows: [
          ["Tipo", GOOD_TYPE_LABELS[sheet.goodType as GoodType] ?? sheet.goodType],
          ["Monto reclamado", sheet.claimedAmountCents === null ? "—" : formatSoles(sheet.claimedAmountCents)],
          ["Descripción", sheet.goodDescription],
          ["N° de pedido", sheet.orderNumber ?? "—"],
        ],
      },
      {
        title: "3. Detalle de la reclamación y pedido del consumidor",
        rows: [
          ["Tipo", `${COMPLAINT_KIND_LABELS[kind] ?? sheet.kind}: ${COMPLAINT_KIND_DEFINITIONS[kind] ?? ""}`],
          ["Detalle", sheet.detail],
          ["Pedido", sheet.consumerRequest],
        ],
      },
      {
        title: "4. Observaciones y acciones adoptadas por el proveedor",
        rows: answer
          ? [
              ["Fecha de comunicación de la respuesta", instantLabel(answer.answeredAt)],
              ["Respuesta", answer.answer],
            ]
          : [["Estado", "Pendiente de respuesta"]],
      },
    ],
    answer: answer ? { text: answer.answer, answeredAtLabel: instantLabel(answer.answeredAt), answeredByEmail: answer.answeredByEmail } : null,
    legends: COMPLAINT_LEGENDS,
  };
}

async function withAnswer(db: DatabaseOrTransaction, sheet: ComplaintRow | undefined): Promise<ComplaintSheetView | null> {
  if (!sheet) return null;
  const [answer] = await db.select().from(complaintAnswers).where(eq(complaintAnswers.complaintId, sheet.id));
  return complaintSheetView(sheet, answer ?? null);
}

/** The consumer's copy, by the secret token of their confirmation link (never by the sequential number). */
export async function findComplaintByToken(db: DatabaseOrTransaction, token: string): Promise<ComplaintSheetView | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [sheet] = await db
    .select()
    .from(complaints)
    .where(eq(complaints.accessTokenHash, hashAccessToken(token)));
  return withAnswer(db, sheet);
}

/** Staff's view of one sheet (the id is checked by the route). */
export async function findComplaintById(db: DatabaseOrTransaction, id: string): Promise<ComplaintSheetView | null> {
  const [sheet] = await db.select().from(complaints).where(eq(complaints.id, id));
  return withAnswer(db, sheet);
}

export function complaintPdfFilename(sheetNumber: string): string {
  return `hoja-de-reclamacion-${sheetNumber.replace(/[^0-9-]/g, "")}.pdf`;
}
