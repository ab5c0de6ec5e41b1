/** A valid guest checkout for Miraflores (served Mon/Wed/Fri) on Wednesday 2026-11-25, for domain tests. */
import { randomUUID } from "node:crypto";
import { checkoutSchema, type CheckoutInput } from "@core/checkout-schema";

export function checkoutInput(overrides: Partial<Record<keyof CheckoutInput, unknown>> = {}): CheckoutInput {
  return checkoutSchema.parse({
    checkoutKey: randomUUID(),
    purchaseType: "one-time",
    subscriptionFrequency: "mensual",
    nombre: "Rosa",
    apellido: "Quispe",
    correo: "rosa@example.pe",
    telefono: "987654321",
    tipo_documento: "dni",
    dni: "45678912",
    districtId: 22,
    direccion: "Av. Larco 123",
    diaHabil: 3,
    fecha: "2026-11-25",
    rangoHorario: "manana",
    items: [{ productId: 6, variantId: null, quantity: 1 }],
    clientSubtotalCents: 5990,
    ...overrides,
  });
}
