import { describe, expect, it } from "vitest";
import { amountInWords, numberInSpanishWords } from "@server/invoices/amount-in-words";
import { effectiveInvoiceStatus, sortInvoicesForList } from "@server/invoices/invoice-status";
import { countByStatus, matchesInvoiceSearch, parseInvoiceStatusFilter, summarizeInvoices, type InvoiceStatus } from "@core/invoice-list";

describe("amount in words (SUNAT's 'SON:' line)", () => {
  it.each([
    [0, "CERO"],
    [1, "UNO"],
    [9, "NUEVE"],
    [10, "DIEZ"],
    [15, "QUINCE"],
    [16, "DIECISÉIS"],
    [20, "VEINTE"],
    [21, "VEINTIUNO"],
    [22, "VEINTIDÓS"],
    [26, "VEINTISÉIS"],
    [30, "TREINTA"],
    [31, "TREINTA Y UNO"],
    [99, "NOVENTA Y NUEVE"],
    [100, "CIEN"],
    [101, "CIENTO UNO"],
    [119, "CIENTO DIECINUEVE"],
    [200, "DOSCIENTOS"],
    [555, "QUINIENTOS CINCUENTA Y CINCO"],
    [700, "SETECIENTOS"],
    [999, "NOVECIENTOS NOVENTA Y NUEVE"],
    [1000, "MIL"],
    [1001, "MIL UNO"],
    [1100, "MIL CIEN"],
    [2000, "DOS MIL"],
    [21_000, "VEINTIÚN MIL"],
    [31_021, "TREINTA Y UN MIL VEINTIUNO"],
    [100_000, "CIEN MIL"],
    [101_000, "CIENTO UN MIL"],
    [999_999, "NOVECIENTOS NOVENTA Y NUEVE MIL NOVECIENTOS NOVENTA Y NUEVE"],
    [1_000_000, "UN MILLÓN"],
    [1_000_001, "UN MILLÓN UNO"],
    [2_500_000, "DOS MILLONES QUINIENTOS MIL"],
    [21_000_000, "VEINTIÚN MILLONES"],
    [1_000_000_000, "MIL MILLONES"],
  ])("writes %i as '%s'", (n, words) => {
    expect(numberInSpanishWords(n)).toBe(words);
  });

  it("writes céntimos as a fraction of 100 and names the currency", () => {
    expect(amountInWords(11990)).toBe("CIENTO DIECINUEVE CON 90/100 SOLES");
    expect(amountInWords(3600)).toBe("TREINTA Y SEIS CON 00/100 SOLES");
    expect(amountInWords(105)).toBe("UNO CON 05/100 SOLES");
    expect(amountInWords(0)).toBe("CERO CON 00/100 SOLES");
    expect(amountInWords(2_100_050)).toBe("VEINTIÚN MIL CON 50/100 SOLES");
  });

  it("refuses what is not a whole, non-negative amount", () => {
    expect(() => amountInWords(-1)).toThrow(RangeError);
    expect(() => amountInWords(10.5)).toThrow(RangeError);
    expect(() => numberInSpanishWords(1e12)).toThrow(RangeError);
  });
});

describe("effective invoice status", () => {
  it("keeps a paid invoice paid, even long after its due date", () => {
    expect(effectiveInvoiceStatus("paid", "2020-01-01", "2026-11-24")).toBe("paid");
  });

  it("turns a pending invoice overdue only once its due date is before today in Lima", () => {
    expect(effectiveInvoiceStatus("pending", "2026-11-24", "2026-11-24")).toBe("pending");
    expect(effectiveInvoiceStatus("pending", "2026-11-25", "2026-11-24")).toBe("pending");
    expect(effectiveInvoiceStatus("pending", "2026-11-23", "2026-11-24")).toBe("overdue");
  });

  it("treats any other stored value as overdue (spec §4)", () => {
    expect(effectiveInvoiceStatus("overdue", "2026-12-31", "2026-11-24")).toBe("overdue");
    expect(effectiveInvoiceStatus("anulada", "2026-12-31", "2026-11-24")).toBe("overdue");
  });
});

describe("invoice order (spec §9)", () => {
  const invoice = (invoiceNumber: string, status: InvoiceStatus, dueDate: string, issuedAt: string) => ({
    invoiceNumber,
    status,
    dueDate,
    issuedAt: new Date(issuedAt),
  });

  it("puts unpaid invoices first by due date ascending, then paid ones newest first", () => {
    const sorted = sortInvoicesForList([
      invoice("B001-00000001", "paid", "2026-01-10", "2026-01-10T15:00:00Z"),
      invoice("B001-00000005", "pending", "2026-12-05", "2026-11-20T15:00:00Z"),
      invoice("B001-00000003", "paid", "2026-03-10", "2026-03-10T15:00:00Z"),
      invoice("B001-00000004", "overdue", "2026-11-01", "2026-10-20T15:00:00Z"),
      invoice("B001-00000006", "pending", "2026-11-30", "2026-11-22T15:00:00Z"),
      invoice("B001-00000002", "paid", "2026-02-10", "2026-02-10T15:00:00Z"),
    ]);
    expect(sorted.map((row) => row.invoiceNumber)).toEqual([
      "B001-00000004",
      "B001-00000006",
      "B001-00000005",
      "B001-00000003",
      "B001-00000002",
      "B001-00000001",
    ]);
  });

  it("breaks ties by invoice number, so the list never reshuffles", () => {
    const sorted = sortInvoicesForList([
      invoice("B001-00000009", "pending", "2026-12-01", "2026-11-01T00:00:00Z"),
      invoice("B001-00000008", "pending", "2026-12-01", "2026-11-02T00:00:00Z"),
    ]);
    expect(sorted.map((row) => row.invoiceNumber)).toEqual(["B001-00000008", "B001-00000009"]);
  });
});

describe("invoice search, chips and summary", () => {
  const row = { invoiceNumber: "B001-00000012", orderNumber: "VA-001005", totalCents: 125_000 };

  it("matches the invoice number, the order number or the amount, ignoring case and spaces", () => {
    expect(matchesInvoiceSearch(row, "")).toBe(true);
    expect(matchesInvoiceSearch(row, "b001-00000012")).toBe(true);
    expect(matchesInvoiceSearch(row, "12")).toBe(true);
    expect(matchesInvoiceSearch(row, "va-001005")).toBe(true);
    expect(matchesInvoiceSearch(row, "1250")).toBe(true);
    expect(matchesInvoiceSearch(row, "S/ 1,250.00")).toBe(true);
    expect(matchesInvoiceSearch(row, "1250.00")).toBe(true);
    expect(matchesInvoiceSearch(row, "F001")).toBe(false);
    expect(matchesInvoiceSearch(row, "999")).toBe(false);
    expect(matchesInvoiceSearch(row, "S/")).toBe(false);
  });

  it("reads the status filter from the URL, anything unknown meaning all", () => {
    expect(parseInvoiceStatusFilter("pending")).toBe("pending");
    expect(parseInvoiceStatusFilter("overdue")).toBe("overdue");
    expect(parseInvoiceStatusFilter("paid")).toBe("paid");
    expect(parseInvoiceStatusFilter("todas")).toBe("all");
    expect(parseInvoiceStatusFilter(null)).toBe("all");
  });

  it("counts pending and overdue invoices as pending payment", () => {
    const invoices = [
      { status: "paid" as const, totalCents: 10_000 },
      { status: "pending" as const, totalCents: 2_000 },
      { status: "overdue" as const, totalCents: 500 },
    ];
    expect(summarizeInvoices(invoices)).toEqual({ billedCents: 12_500, pendingPaymentCents: 2_500, count: 3 });
    expect(countByStatus(invoices)).toEqual({ all: 3, paid: 1, pending: 1, overdue: 1 });
  });
});
