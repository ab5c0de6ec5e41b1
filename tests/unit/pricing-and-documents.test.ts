import { describe, expect, it } from "vitest";
import { documentNumberError, isPeruvianMobile, isValidRuc, normalizePeruvianMobile } from "@core/documents";
import { igvBreakdown, minimumOrderShortfall, orderSummary } from "@core/pricing";

describe("order summary (spec §9)", () => {
  it("charges the subtotal for a one-time purchase", () => {
    expect(orderSummary(6000, "one-time", "mensual")).toEqual({ subtotalCents: 6000, discountCents: 0, totalCents: 6000, discountRate: 0 });
  });

  it("takes 5% off a monthly subscription, never below S/ 50", () => {
    expect(orderSummary(10000, "subscription", "mensual")).toMatchObject({ discountCents: 500, totalCents: 9500 });
    // 95% of S/ 51.00 is S/ 48.45: the total stays at S/ 50.00 and the discount shrinks to match.
    expect(orderSummary(5100, "subscription", "mensual")).toMatchObject({ discountCents: 100, totalCents: 5000 });
  });

  it("charges twelve months at 85% for an annual subscription", () => {
    expect(orderSummary(6000, "subscription", "anual")).toEqual({ subtotalCents: 72000, discountCents: 10800, totalCents: 61200, discountRate: 0.15 });
  });

  it("says how much is missing to reach S/ 50", () => {
    expect(minimumOrderShortfall(3000)).toBe(2000);
    expect(minimumOrderShortfall(5000)).toBe(0);
  });

  it("splits IGV out of a total that includes it", () => {
    expect(igvBreakdown(11800)).toEqual({ taxableCents: 10000, igvCents: 1800 });
    // S/ 59.90 / 1.18 = S/ 50.7627…: S/ 50.76 taxable, and the IGV is the rest to the céntimo.
    expect(igvBreakdown(5990)).toEqual({ taxableCents: 5076, igvCents: 914 });
  });
});

describe("Peruvian documents and phones", () => {
  it("checks DNI, carné de extranjería and passport formats", () => {
    expect(documentNumberError("dni", "12345678")).toBeNull();
    expect(documentNumberError("dni", "1234567")).toBe("El DNI debe tener 8 dígitos");
    expect(documentNumberError("ce", "001234567")).toBeNull();
    expect(documentNumberError("ce", "12-34")).toMatch(/carné de extranjería/);
    expect(documentNumberError("pasaporte", "AB123456")).toBeNull();
    expect(documentNumberError("pasaporte", "A1")).toMatch(/pasaporte/);
    expect(documentNumberError("dni", " ")).toBe("Ingresa tu número de documento");
  });

  it("accepts Peruvian mobiles with or without +51", () => {
    expect(isPeruvianMobile("987654321")).toBe(true);
    expect(isPeruvianMobile("+51 987 654 321")).toBe(true);
    expect(normalizePeruvianMobile("+51 987-654-321")).toBe("987654321");
    expect(isPeruvianMobile("012345678")).toBe(false);
    expect(isPeruvianMobile("98765432")).toBe(false);
  });

  it("validates a RUC's check digit", () => {
    expect(isValidRuc("20100070970")).toBe(true);
    expect(isValidRuc("20100070971")).toBe(false);
    expect(isValidRuc("30100070970")).toBe(false);
  });
});
