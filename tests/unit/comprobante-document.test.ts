import { describe, expect, it } from "vitest";
import { orderSummary, type PurchaseType, type SubscriptionFrequency } from "@core/pricing";
import { parseEnv } from "@server/config/env";
import {
  creditNoteLines,
  documentTotals,
  saleLines,
  validateComprobante,
  type ComprobanteDocument,
  type SaleOrder,
} from "@server/invoices/comprobante-document";
import { nubefactPayload, readNubefactAnswer, readNubefactError } from "@server/invoices/providers/nubefact";

/** A small deterministic generator, so a failure names a cart that can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const PRICES = [590, 1290, 1990, 2390, 2990, 3490, 5990, 7990, 12990, 1];

function generatedOrder(seed: number): SaleOrder {
  const next = random(seed);
  const items = Array.from({ length: 1 + Math.floor(next() * 5) }, (_, index) => {
    const unit = PRICES[Math.floor(next() * PRICES.length)]!;
    const quantity = 1 + Math.floor(next() * 12);
    return { title: `Producto ${index}`, variantTitle: next() < 0.3 ? "Pack" : null, sku: `SKU${index}`, quantity, lineTotalCents: unit * quantity };
  });
  const cart = items.reduce((total, item) => total + item.lineTotalCents, 0);
  const purchase: PurchaseType = next() < 0.5 ? "one-time" : "subscription";
  const frequency: SubscriptionFrequency = next() < 0.5 ? "mensual" : "anual";
  const summary = orderSummary(cart, purchase, frequency);
  const shippingCents = next() < 0.3 ? Math.floor(next() * 1500) : 0;
  return { ...summary, shippingCents, totalCents: summary.totalCents + shippingCents, items };
}

function document(order: SaleOrder, overrides: Partial<ComprobanteDocument> = {}): ComprobanteDocument {
  const lines = saleLines(order);
  return {
    kind: "boleta",
    series: "B001",
    number: 1,
    issueDate: "2026-11-24",
    customer: { documentType: "1", documentNumber: "45678912", name: "ROSA QUISPE", address: "AV. LARCO 123", email: "rosa@example.pe" },
    lines,
    ...documentTotals(lines),
    uniqueCode: "B001-1",
    paymentMethod: "TARJETA",
    ...overrides,
  };
}

const cents = (value: unknown) => Math.round(Number(value) * 100);

describe("the comprobante's lines add up to its totals", () => {
  it("to the céntimo, in céntimos and in the soles Nubefact receives, over 1 000 generated orders and a partial refund of each", () => {
    for (let seed = 1; seed <= 1_000; seed += 1) {
      const order = generatedOrder(seed);
      const sale = document(order);
      expect(sale.totalCents, `seed ${seed}`).toBe(order.totalCents);
      validateComprobante(sale);
      const payload = nubefactPayload(sale);
      const items = payload.items as Record<string, unknown>[];
      for (const field of [
        ["total", "total"],
        ["subtotal", "total_gravada"],
        ["igv", "total_igv"],
      ] as const) {
        expect(
          items.reduce((sum, item) => sum + cents(item[field[0]]), 0),
          `seed ${seed} ${field[1]}`,
        ).toBe(cents(payload[field[1]]));
      }
      for (const item of items) {
        // What Nubefact recomputes from each line: quantity × price, to the céntimo.
        expect(Math.abs(cents(Number(item.cantidad) * Number(item.precio_unitario)) - cents(item.total)), `seed ${seed}`).toBeLessThanOrEqual(0);
      }
      const refunded = 1 + Math.floor(random(seed * 7)() * (order.totalCents - 1));
      const lines = creditNoteLines(sale.lines, refunded, "Devolución parcial");
      const note = document(order, {
        kind: "nota_credito",
        series: "BC01",
        lines,
        ...documentTotals(lines),
        modifies: { kind: "boleta", series: "B001", number: 1 },
        creditNoteType: 7,
      });
      expect(note.totalCents).toBe(refunded);
      validateComprobante(note);
    }
    // A thousand orders of pure arithmetic: CPU-bound, so a loaded CI machine gets room (no waiting involved).
  }, 30_000);

  it("a full refund's note repeats the sale's own lines", () => {
    const order = generatedOrder(42);
    const sale = document(order);
    expect(creditNoteLines(sale.lines, sale.totalCents, "x")).toEqual(sale.lines);
  });
});

describe("what the OSE would refuse is refused first", () => {
  const big: SaleOrder = {
    subtotalCents: 71_880,
    discountCents: 0,
    shippingCents: 0,
    totalCents: 71_880,
    items: [{ title: "Bidón", variantTitle: null, sku: "B", quantity: 12, lineTotalCents: 71_880 }],
  };

  it("a boleta of S/ 700 or more without the buyer's document", () => {
    expect(() => validateComprobante(document(big, { customer: { documentType: "-", documentNumber: "-", name: "VARIOS", address: "-", email: "" } }))).toThrow(
      /S\/ 700/,
    );
    expect(() => validateComprobante(document(big))).not.toThrow();
    const small = generatedOrder(3);
    expect(() =>
      validateComprobante(document(small, { customer: { documentType: "-", documentNumber: "-", name: "VARIOS", address: "-", email: "" } })),
    ).not.toThrow();
  });

  it("a factura without RUC, and a header that does not match its lines", () => {
    expect(() => validateComprobante(document(big, { kind: "factura", series: "F001" }))).toThrow(/RUC/);
    expect(() => validateComprobante(document(big, { totalCents: big.totalCents + 1 }))).toThrow(/add up/);
  });
});

describe("Nubefact's answers", () => {
  it("reads accepted, observed, rejected and not-yet-answered documents, and its error codes", () => {
    expect(readNubefactAnswer({ aceptada_por_sunat: true, sunat_responsecode: "0", enlace_del_xml: "x.xml" })).toMatchObject({
      kind: "accepted",
      links: { xml: "x.xml" },
    });
    expect(readNubefactAnswer({ aceptada_por_sunat: true, sunat_responsecode: "4287" }).kind).toBe("observed");
    expect(readNubefactAnswer({ aceptada_por_sunat: false, sunat_responsecode: "2800" }).kind).toBe("rejected");
    expect(readNubefactAnswer({ aceptada_por_sunat: false, sunat_responsecode: null }).kind).toBe("sent");
    expect(readNubefactError(400, { codigo: 20, errors: "formato" }).kind).toBe("format_error");
    expect(readNubefactError(400, { codigo: 23, errors: "ya existe" }).kind).toBe("already_exists");
    expect(readNubefactError(401, { codigo: 10, errors: "token" }).kind).toBe("needs_staff");
    expect(readNubefactError(500, { codigo: 40, errors: "interno" }).kind).toBe("unavailable");
  });

  it("is configured by NUBEFACT_URL and NUBEFACT_TOKEN together", () => {
    expect(() => parseEnv({ NUBEFACT_URL: "https://api.nubefact.com/api/v1/abc" })).toThrow(/NUBEFACT_TOKEN/);
    expect(() => parseEnv({ NUBEFACT_URL: "not a url", NUBEFACT_TOKEN: "x".repeat(20) })).toThrow(/NUBEFACT_URL/);
    expect(parseEnv({ NUBEFACT_URL: "https://api.nubefact.com/api/v1/abc", NUBEFACT_TOKEN: "x".repeat(20) }).BOLETA_DEADLINE_DAYS).toBe(3);
  });
});
