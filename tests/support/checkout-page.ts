/** Browser steps shared by the checkout journeys: a stored cart, then the checkout form filled in. */
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import boxLine from "../fixtures/box-cart-line.json";
import { uniqueContact } from "./checkout-fixture";
import { bookableDates } from "./lima-clock";

/** One Caja de 20 L con dispensador (S/ 59.90) as the cart stores it; the bench's /carrito measure reads the same file. */
export { boxLine };

export async function openCheckoutWithCart(page: Page, baseURL: string, items: unknown[] = [boxLine]) {
  await page.goto(`${baseURL}/tienda`);
  await page.evaluate((stored) => window.localStorage.setItem("va-cart:v1", JSON.stringify(stored)), items);
  await page.goto(`${baseURL}/checkout`);
  await page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
  await page.getByLabel("Nombre", { exact: true }).waitFor();
}

/** A guest in Miraflores, delivery on the first Wednesday offered, in the morning; answers the phone and address typed. */
export async function fillCheckout(page: Page) {
  await page.getByLabel("Nombre", { exact: true }).fill("Rosa");
  await page.getByLabel("Apellido").fill("Quispe");
  await page.getByLabel("Correo electrónico").fill("rosa@example.pe");
  return fillPhoneDocumentAndDelivery(page);
}

/** The rest of the form (a signed-in customer's name and email come filled in): Miraflores, first Wednesday, morning. */
export async function fillPhoneDocumentAndDelivery(page: Page) {
  // A number and a door of its own: one number or door may hold only two unpaid cash codes (issue 38),
  // and the tests of a worker share one shop.
  const contact = uniqueContact();
  await page.getByLabel("Celular").fill(contact.telefono);
  await page.getByLabel("Número de documento").fill("45678912");
  await page.getByLabel("Distrito").fill("Miraflores");
  await page.getByLabel("Dirección", { exact: true }).fill(contact.direccion);
  await page.getByLabel("Día de entrega").selectOption({ label: "Miércoles" });
  await page.locator('input[name="fecha"]').first().check();
  await page.getByLabel(/^Mañana/).check();
  return contact;
}

/** The JSON a guest's one-time checkout posts to /checkout (Miraflores, a Wednesday still bookable). */
export function guestCheckoutBody(email: string, names: { nombre: string; apellido: string } = { nombre: "Rosa", apellido: "Quispe" }): string {
  return JSON.stringify({
    checkoutKey: randomUUID(),
    purchaseType: "one-time",
    subscriptionFrequency: "mensual",
    ...names,
    correo: email,
    telefono: "987654321",
    tipo_documento: "dni",
    dni: "45678912",
    districtId: 22,
    direccion: "Av. Larco 123",
    diaHabil: 3,
    fecha: bookableDates(3)[0],
    rangoHorario: "manana",
    items: [{ productId: boxLine.productId, variantId: null, quantity: 1 }],
    clientSubtotalCents: boxLine.price,
  });
}
