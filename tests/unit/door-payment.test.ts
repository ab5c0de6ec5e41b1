import { describe, expect, it } from "vitest";
import { changeToBring, collectMethodNote, doorPaymentRefusal, payAtDoorSentence } from "@core/door-payment";
import { checkoutSchema, paysWithCents } from "@core/checkout-schema";
import { checkoutInput } from "../support/checkout-fixture";

describe("pago contra entrega's words and rules (issue 38)", () => {
  it("says what is paid and the change the driver brings, the same on the receipt and the driver's stop", () => {
    expect(changeToBring(5990, 10_000)).toBe(4010);
    expect(changeToBring(5990, 5990)).toBeNull();
    expect(changeToBring(5990, null)).toBeNull();
    expect(payAtDoorSentence(5990, "cash", 10_000)).toBe("Pagarás S/ 59.90 al recibir (efectivo, llevamos vuelto de S/ 40.10)");
    expect(payAtDoorSentence(5990, "cash", null)).toBe("Pagarás S/ 59.90 al recibir (efectivo)");
    expect(payAtDoorSentence(5990, "yape", null)).toBe("Pagarás S/ 59.90 al recibir (Yape o Plin al número de la tienda que te muestra el repartidor)");
    expect(collectMethodNote(5990, "cash", 10_000)).toBe("efectivo (paga con S/ 100.00: vuelto S/ 40.10)");
    expect(collectMethodNote(5990, "yape", 10_000)).toBe("Yape");
  });

  it("offers it only where the settings allow, with the reason in Spanish", () => {
    const settings = { enabled: true, maxCents: 30_000, customers: "all" as const };
    const order = { districtOffers: true, totalCents: 10_000, hasDeliveredOrder: false };
    expect(doorPaymentRefusal(settings, order)).toBeNull();
    expect(doorPaymentRefusal({ ...settings, enabled: false }, order)).toMatch(/no ofrecemos/);
    expect(doorPaymentRefusal(settings, { ...order, districtOffers: false })).toMatch(/distrito/);
    expect(doorPaymentRefusal(settings, { ...order, totalCents: 30_001 })).toMatch(/hasta S\/ 300.00/);
    expect(doorPaymentRefusal({ ...settings, customers: "delivered" }, order)).toMatch(/ya recibieron/);
    expect(doorPaymentRefusal({ ...settings, customers: "delivered" }, { ...order, hasDeliveredOrder: true })).toBeNull();
  });

  it("reads '¿Con cuánto pagas?' as soles typed, only for cash at the door, and parses the same after a round trip", () => {
    const base = { formaPago: "contra_entrega" as const, metodoContraEntrega: "efectivo" as const };
    expect(paysWithCents({ ...base, pagaCon: "100" })).toBe(10_000);
    expect(paysWithCents({ ...base, pagaCon: "S/ 50,50" })).toBe(5050);
    expect(paysWithCents({ ...base, metodoContraEntrega: "yape", pagaCon: "100" })).toBeNull();
    expect(paysWithCents({ ...base, formaPago: "en_linea", pagaCon: "100" })).toBeNull();
    // The browser posts the form it parsed; the server parses it again (a number here once failed).
    const parsed = checkoutInput(new Date(), { ...base, pagaCon: "100" });
    expect(checkoutSchema.parse(JSON.parse(JSON.stringify(parsed)))).toMatchObject({ pagaCon: "100" });
    expect(checkoutSchema.safeParse({ ...parsed, pagaCon: "cien" }).error?.issues[0]?.message).toBe("Escribe el monto en soles, por ejemplo 100");
  });
});
