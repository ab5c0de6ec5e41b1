/**
 * A valid guest checkout for Miraflores (served Mon/Wed/Fri), for domain tests. Its delivery date is
 * the first Wednesday the checkout offers at `now` (decision 0070): the test's own clock, never a
 * fixed date, so the fixture is valid whatever day the suite runs.
 */
import { randomUUID } from "node:crypto";
import { checkoutSchema, type CheckoutInput } from "@core/checkout-schema";
import { bookableDates } from "./lima-clock";

export function checkoutInput(now: Date, overrides: Partial<Record<keyof CheckoutInput, unknown>> = {}): CheckoutInput {
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
    fecha: bookableDates(3, now, 1)[0],
    rangoHorario: "manana",
    items: [{ productId: 6, variantId: null, quantity: 1 }],
    clientSubtotalCents: 5990,
    ...overrides,
  });
}

/** What a test may change in the fixture's checkout. */
export type CheckoutOverrides = Parameters<typeof checkoutInput>[1];

let contacts = 0;

/**
 * A phone and an address no other order of this process uses: for tests that leave several
 * orders unpaid, which one phone or address may do only three times (issue 38).
 */
export function uniqueContact(): { telefono: string; direccion: string } {
  contacts += 1;
  const serial = (process.pid * 1000 + contacts) % 100_000_000;
  return { telefono: `9${String(serial).padStart(8, "0")}`, direccion: `Av. Prueba ${process.pid}-${contacts}` };
}
