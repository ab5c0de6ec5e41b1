/**
 * The comprobante as the OSE receives it, built from the shop's own rows by pure functions
 * (decision 0045). Amounts stay in céntimos here; the provider adapter
 * writes soles. Every line's taxable base is round(total / 1.18) and its IGV the rest, and the
 * header totals are the sums of the lines, so they add up to the céntimo by construction.
 */
import { IGV_RATE } from "@core/pricing";
import { cadenceOf } from "@core/delivery-cadence";

export type ComprobanteKind = "boleta" | "factura" | "nota_credito";

/** SUNAT catalogue 06: RUC 6, DNI 1, carné de extranjería 4, pasaporte 7, none "-". */
export const SUNAT_DOCUMENT_TYPES: Record<string, string> = { ruc: "6", dni: "1", ce: "4", pasaporte: "7" };

/** From S/ 700 a boleta must name its buyer (nubefact.md, "What makes a boleta or factura legal"). */
export const IDENTIFIED_BUYER_FROM_CENTS = 70_000;

export interface ComprobanteLine {
  /**
   * SUNAT's tax treatment: `gravado` (IGV 18 %, tipo_de_igv 1) or `inafecto` (no IGV, tipo_de_igv 9:
   * the bidón garantía by default, decision 0075, VERIFY). Absent means gravado.
   */
  igvType?: "gravado" | "inafecto";
  code: string;
  description: string;
  /** NIU goods, ZZ services (delivery). */
  unit: "NIU" | "ZZ";
  quantity: number;
  totalCents: number;
  taxableCents: number;
  igvCents: number;
}

export interface ComprobanteDocument {
  kind: ComprobanteKind;
  series: string;
  number: number;
  /** Lima calendar date, YYYY-MM-DD. */
  issueDate: string;
  customer: { documentType: string; documentNumber: string; name: string; address: string; email: string };
  lines: ComprobanteLine[];
  totalCents: number;
  /** Total gravada: the taxable base of the gravado lines. */
  taxableCents: number;
  igvCents: number;
  /** Total inafecta: the inafecto lines (the garantía). */
  untaxedCents: number;
  /** Makes the OSE refuse a second document for the same thing (≤ 20 characters). */
  uniqueCode: string;
  paymentMethod: string | null;
  modifies?: { kind: "boleta" | "factura"; series: string; number: number };
  creditNoteType?: number;
  creditNoteReason?: string;
}

export class InvalidComprobanteError extends Error {
  override name = "InvalidComprobanteError";
}

/** One line from its gross (IGV-included) total. */
export function taxedLine(line: Omit<ComprobanteLine, "taxableCents" | "igvCents">): ComprobanteLine {
  const taxableCents = Math.round(line.totalCents / (1 + IGV_RATE));
  return { ...line, taxableCents, igvCents: line.totalCents - taxableCents };
}

/** A line outside IGV (inafecto): its value is its total. */
export function untaxedLine(line: Omit<ComprobanteLine, "taxableCents" | "igvCents" | "igvType">): ComprobanteLine {
  return { ...line, igvType: "inafecto", taxableCents: line.totalCents, igvCents: 0 };
}

/** The bidón garantía's line (decision 0075): its own, outside IGV, one quantity per bidón. */
export function garantiaLine(units: number, totalCents: number, description = "GARANTÍA DE BIDÓN RETORNABLE"): ComprobanteLine {
  return untaxedLine({ code: "GARANTIA", description: description.slice(0, 250), unit: "NIU", quantity: Math.max(1, units), totalCents });
}

/**
 * Splits `amount` over `weights` in proportion, in whole céntimos (largest remainder), so the
 * parts add up to `amount` exactly.
 */
export function allocate(amount: number, weights: number[]): number[] {
  const sum = weights.reduce((total, weight) => total + weight, 0);
  if (sum <= 0) return weights.map((_, index) => (index === 0 ? amount : 0));
  const exact = weights.map((weight) => (amount * weight) / sum);
  const parts = exact.map(Math.floor);
  let left = amount - parts.reduce((total, part) => total + part, 0);
  const byRemainder = exact.map((value, index) => ({ index, remainder: value - Math.floor(value) })).sort((a, b) => b.remainder - a.remainder);
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    parts[index]! += 1;
    left -= 1;
  }
  return parts;
}

export interface SaleOrder {
  subtotalCents: number;
  /** A subscription period's cadence (decision 0097): its multiple of the cart is deliveries, not months. */
  deliveryCadence?: string | null;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  /** The bidón garantía inside the total, and whether the comprobante carries it (decision 0075). */
  garantiaCents?: number;
  garantiaUnits?: number;
  garantiaOnComprobante?: boolean;
  items: { title: string; variantTitle: string | null; sku: string | null; quantity: number; lineTotalCents: number }[];
}

/**
 * The lines of an order's boleta or factura: the goods carry the order's total less delivery and
 * the garantía (a subscription's discount spread over them in proportion), delivery is its own
 * service line, and the bidón garantía its own inafecto line unless the order was placed with the
 * garantía outside the comprobante. An annual subscription bills twelve months of its cart, a
 * weekly or biweekly one its deliveries (decision 0097): each quantity is multiplied accordingly.
 */
export function saleLines(order: SaleOrder): ComprobanteLine[] {
  const garantiaCents = order.garantiaCents ?? 0;
  const goodsCents = order.totalCents - order.shippingCents - garantiaCents;
  const itemsCents = order.items.reduce((total, item) => total + item.lineTotalCents, 0);
  const months = itemsCents > 0 && order.subtotalCents % itemsCents === 0 ? order.subtotalCents / itemsCents : 1;
  // Monthly deliveries bill months of the cart ("12 meses"); a weekly or biweekly period its deliveries ("4 entregas").
  const multiple = cadenceOf(order.deliveryCadence) === "monthly" ? `(${months} meses)` : `(${months} entregas)`;
  const parts = allocate(
    goodsCents,
    order.items.map((item) => item.lineTotalCents),
  );
  const lines = order.items.map((item, index) =>
    taxedLine({
      code: item.sku ?? "ITEM",
      description: (item.variantTitle ? `${item.title} - ${item.variantTitle}` : item.title) + (months > 1 ? ` ${multiple}` : ""),
      unit: "NIU",
      quantity: item.quantity * months,
      totalCents: parts[index]!,
    }),
  );
  if (order.shippingCents > 0)
    lines.push(taxedLine({ code: "DELIV", description: "SERVICIO DE DELIVERY", unit: "ZZ", quantity: 1, totalCents: order.shippingCents }));
  if (garantiaCents > 0 && order.garantiaOnComprobante !== false) lines.push(garantiaLine(order.garantiaUnits ?? 1, garantiaCents));
  return lines.filter((line) => line.totalCents > 0);
}

/** Header totals as sums of the lines (nubefact.md: line amounts must add up to the header), gravada and inafecta apart. */
export function documentTotals(lines: ComprobanteLine[]): { totalCents: number; taxableCents: number; igvCents: number; untaxedCents: number } {
  return lines.reduce(
    (sum, line) => {
      const untaxed = line.igvType === "inafecto";
      return {
        totalCents: sum.totalCents + line.totalCents,
        taxableCents: sum.taxableCents + (untaxed ? 0 : line.taxableCents),
        igvCents: sum.igvCents + line.igvCents,
        untaxedCents: sum.untaxedCents + (untaxed ? line.taxableCents : 0),
      };
    },
    { totalCents: 0, taxableCents: 0, igvCents: 0, untaxedCents: 0 },
  );
}

/**
 * The lines of a nota de crédito for `amountCents` of an original document: the original's own
 * lines when everything goes back (devolución total, anulación), one line for a partial refund.
 */
export function creditNoteLines(original: ComprobanteLine[], amountCents: number, description: string): ComprobanteLine[] {
  const originalTotal = documentTotals(original).totalCents;
  if (amountCents === originalTotal) return original;
  return [taxedLine({ code: "DEVOL", description: description.slice(0, 250) || "DEVOLUCIÓN", unit: "ZZ", quantity: 1, totalCents: amountCents })];
}

/**
 * What the OSE would refuse for its format, refused here first with the reason: lines that do not
 * add up, a factura without RUC, a boleta of S/ 700 or more without the buyer's document.
 */
export function validateComprobante(document: ComprobanteDocument): void {
  const sums = documentTotals(document.lines);
  if (document.lines.length === 0) throw new InvalidComprobanteError("the document has no lines");
  if (
    sums.totalCents !== document.totalCents ||
    sums.taxableCents !== document.taxableCents ||
    sums.igvCents !== document.igvCents ||
    sums.untaxedCents !== document.untaxedCents
  )
    throw new InvalidComprobanteError(
      `the lines add up to ${JSON.stringify(sums)}, the header says ${document.totalCents}/${document.taxableCents}/${document.igvCents}/${document.untaxedCents}`,
    );
  for (const line of document.lines) {
    if (line.taxableCents + line.igvCents !== line.totalCents || line.quantity <= 0 || line.totalCents <= 0)
      throw new InvalidComprobanteError(`line "${line.description}" is inconsistent`);
    if (line.igvType === "inafecto" && line.igvCents !== 0) throw new InvalidComprobanteError(`inafecto line "${line.description}" carries IGV`);
  }
  const saleKind = document.kind === "nota_credito" ? document.modifies?.kind : document.kind;
  if (saleKind === "factura" && document.customer.documentType !== "6") throw new InvalidComprobanteError("a factura needs the buyer's RUC");
  const identified = document.customer.documentType !== "-" && document.customer.documentNumber.trim() !== "";
  if (saleKind === "boleta" && document.totalCents >= IDENTIFIED_BUYER_FROM_CENTS && !identified)
    throw new InvalidComprobanteError("a boleta of S/ 700 or more needs the buyer's document");
  if (document.kind === "nota_credito" && !document.modifies) throw new InvalidComprobanteError("a nota de crédito names the document it modifies");
}
