import { describe, expect, it } from "vitest";
import { garantiaCharge, garantiaCreditToApply, garantiaReturnCents, MINIMUM_CHARGE_CENTS } from "@core/garantia";
import { addDays } from "@core/lima-dates";
import { reminderTiming, reorderIntervalDays } from "@core/reorder-pace";
import { garantiaBidones } from "@core/returnable-bidones";
import { documentTotals, saleLines, validateComprobante, type ComprobanteDocument } from "@server/invoices/comprobante-document";

describe("the bidón garantía's rules (decision 0075)", () => {
  it("counts the bidones of recargas and packs, never a container the customer buys", () => {
    expect(garantiaBidones("VA-BH20-REC", 2)).toBe(2);
    expect(garantiaBidones("VA-BO20-R4", 1)).toBe(4);
    expect(garantiaBidones("VA-BH20-ENV", 1)).toBe(0);
    expect(garantiaBidones("VA-P625-12", 3)).toBe(0);
    expect(garantiaBidones(null, 3)).toBe(0);
  });

  it("charges only the bidones the customer does not hold, each at its product's amount", () => {
    const lines = [
      { bidones: 3, unitCents: 2000 },
      { bidones: 4, unitCents: 2500 },
      { bidones: 0, unitCents: 2000 },
    ];
    expect(garantiaCharge(lines, 0)).toEqual({ units: 7, cents: 3 * 2000 + 4 * 2500 });
    // Held bidones cover the lines in order: an exchange costs nothing.
    expect(garantiaCharge(lines, 5)).toEqual({ units: 2, cents: 2 * 2500 });
    expect(garantiaCharge(lines, 7)).toEqual({ units: 0, cents: 0 });
    expect(garantiaCharge(lines, 20)).toEqual({ units: 0, cents: 0 });
    // A negative balance (more empties collected than lent) holds nothing.
    expect(garantiaCharge(lines, -2)).toEqual({ units: 7, cents: 16000 });
    expect(garantiaCharge([{ bidones: 3, unitCents: 0 }], 0)).toEqual({ units: 0, cents: 0 });
  });

  it("returns a held garantía bidón by bidón to the céntimo", () => {
    // Three bidones held for S/ 50.00: one, one, then the last takes what rounding left.
    expect(garantiaReturnCents(3, 5000, 1)).toBe(1667);
    expect(garantiaReturnCents(2, 5000 - 1667, 1)).toBe(1667);
    expect(garantiaReturnCents(1, 5000 - 1667 - 1667, 1)).toBe(1666);
    expect(garantiaReturnCents(3, 6000, 5)).toBe(6000);
  });

  it("spends credit up to the order's total, leaving the providers' minimum charge", () => {
    expect(garantiaCreditToApply(4000, 5990)).toBe(4000);
    expect(garantiaCreditToApply(9000, 5990)).toBe(5990 - MINIMUM_CHARGE_CENTS);
    expect(garantiaCreditToApply(0, 5990)).toBe(0);
    expect(garantiaCreditToApply(500, 50)).toBe(0);
  });

  it("puts the garantía on the boleta as a non-taxed line the header adds apart", () => {
    const order = {
      subtotalCents: 6000,
      discountCents: 0,
      shippingCents: 0,
      totalCents: 12000,
      garantiaCents: 6000,
      garantiaUnits: 3,
      garantiaOnComprobante: true,
      items: [{ title: "Bidón retornable hogar 20 L", variantTitle: "Pack 3 recargas", sku: "VA-BH20-R3", quantity: 1, lineTotalCents: 6000 }],
    };
    const lines = saleLines(order);
    expect(lines.map((line) => [line.code, line.igvType ?? "gravado", line.totalCents, line.taxableCents, line.igvCents])).toEqual([
      ["VA-BH20-R3", "gravado", 6000, 5085, 915],
      ["GARANTIA", "inafecto", 6000, 6000, 0],
    ]);
    const totals = documentTotals(lines);
    expect(totals).toEqual({ totalCents: 12000, taxableCents: 5085, igvCents: 915, untaxedCents: 6000 });
    const document: ComprobanteDocument = {
      kind: "boleta",
      series: "B001",
      number: 1,
      issueDate: "2026-11-24",
      customer: { documentType: "1", documentNumber: "45678912", name: "ROSA QUISPE", address: "AV. LARCO 123", email: "rosa@example.pe" },
      lines,
      ...totals,
      uniqueCode: "B001-1",
      paymentMethod: null,
    };
    expect(() => validateComprobante(document)).not.toThrow();
    expect(() => validateComprobante({ ...document, untaxedCents: 0 })).toThrow(/header says/);
    // Outside the comprobante: the sale alone.
    expect(documentTotals(saleLines({ ...order, garantiaOnComprobante: false })).totalCents).toBe(6000);
  });
});

describe("each customer's pace (decision 0076)", () => {
  it("is the median of the days between their order days, none before two", () => {
    expect(reorderIntervalDays([])).toBeNull();
    expect(reorderIntervalDays(["2027-03-01"])).toBeNull();
    // Two orders on one day count once.
    expect(reorderIntervalDays(["2027-03-01", "2027-03-01"])).toBeNull();
    expect(reorderIntervalDays(["2027-03-01", "2027-03-11"])).toBe(10);
    expect(reorderIntervalDays(["2027-03-21", "2027-03-01", "2027-03-11", "2027-04-04"])).toBe(10);
    // An even number of gaps: the mean of the middle two (10 and 14), across a month's end.
    expect(reorderIntervalDays(["2027-01-25", "2027-02-04", "2027-02-14", "2027-02-28", "2027-03-26"])).toBe(12);
  });

  it("reminds two days before the usual day, up to five days after, and not for intervals out of range", () => {
    expect(reminderTiming("2027-12-28", 10)).toEqual({ intervalDays: 10, runsOutOn: "2028-01-07", remindOn: "2028-01-05", lastDay: "2028-01-12" });
    expect(reminderTiming("2027-03-01", 4)).toBeNull();
    expect(reminderTiming("2027-03-01", 121)).toBeNull();
    expect(reminderTiming("2027-03-01", null)).toBeNull();
    expect(reminderTiming("2027-03-01", 5)?.remindOn).toBe(addDays("2027-03-01", 3));
  });
});
