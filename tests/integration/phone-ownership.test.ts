/**
 * Issue 39: who owns a phone number. A number typed at a checkout is that order's delivery data
 * and proves nothing; only a number proven (its own WhatsApp answer, or staff's call) links a
 * person to consent, export, erasure and messages. Each finding as it was reproduced, then a
 * property over random people, orders and numbers.
 */
import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { anonymiseGuest, confirmCustomerPhoneByCall, exportGuestData } from "@server/customers/index.server";
import {
  deliveries,
  invoices,
  phoneProofs,
  staffActions,
  users,
  whatsappConsentEvents,
  whatsappInboundMessages,
  whatsappMessages,
  whatsappOptInAsks,
} from "@server/db/schema";
import { applySandboxAction } from "@server/order-flows/index.server";
import { cloudApiClient, sendDueWhatsappMessages, type WhatsappClient } from "@server/whatsapp/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { writeOnWhatsapp } from "../support/whatsapp-answer";
import { startWhatsappCloudMock, type WhatsappCloudMock } from "../support/whatsapp-cloud-mock";

const siteUrl = "http://shop.test";

describe("who owns a phone number (issue 39)", () => {
  let test: TestDatabase;
  let cloud: WhatsappCloudMock;
  let client: WhatsappClient;
  let admin: StaffActor;
  const now = new Date();
  const later = (ms: number) => new Date(now.getTime() + ms);

  beforeAll(async () => {
    cloud = await startWhatsappCloudMock();
    for (const [name, value] of Object.entries(cloud.env)) vi.stubEnv(name, value);
    client = cloudApiClient({ apiUrl: cloud.apiUrl, token: cloud.token, phoneNumberId: cloud.phoneNumberId });
    test = await createTestDatabase("seeded");
    const email = `admin-${randomUUID().slice(0, 8)}@demo.pe`;
    await test.db
      .insert(users)
      .values({ id: `staff-${email}`, name: "admin", email, emailVerified: true, firstName: "Ada", lastName: "Equipo", role: "admin" });
    admin = { id: `staff-${email}`, email, role: "admin", clientAddress: "127.0.0.1" };
  });
  afterAll(async () => {
    await test?.close();
    await cloud?.close();
    vi.unstubAllEnvs();
  });

  const mobile = () => `9${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  const answer = (number: string, text: string, at = now) => writeOnWhatsapp(test.db, number, text, at, cloud.phoneNumberId);
  const send = (at = now) => sendDueWhatsappMessages(test.db, client, at);

  /** A guest order, paid by card, with the WhatsApp box ticked for `phone`. */
  async function guestOrder(input: { phone: string; email?: string; name?: string }) {
    const email = input.email ?? `p-${randomUUID().slice(0, 8)}@prueba.pe`;
    const overrides = { correo: email, telefono: input.phone, whatsapp: true, nombre: input.name ?? "Rosa" };
    const placed = await placeOrder(test.db, checkoutInput(now, overrides), { now, provider: "sandbox" });
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("not placed");
    return { ...placed, email, number: `51${input.phone}` };
  }
  const pay = (paymentId: string, at = now) => applySandboxAction(test.db, paymentId, "approve_card", { now: at, siteUrl });

  /** Over, with its comprobante at SUNAT: what a guest's anonymisation waits for (decision 0061). */
  async function finish(orderId: string) {
    await test.db.update(deliveries).set({ status: "delivered" }).where(eq(deliveries.orderId, orderId));
    await test.db.update(invoices).set({ electronicStatus: "accepted" }).where(eq(invoices.orderId, orderId));
  }

  it("asks an unproven number once, sends it nothing else until it answers SÍ, then its order's messages go", async () => {
    const order = await guestOrder({ phone: mobile() });
    await pay(order.paymentId);
    const queued = await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.toPhone, order.number));
    expect(queued.map((message) => [message.kind, message.templateName])).toEqual([["opt_in_ask", "confirmar_avisos"]]);
    expect(queued[0]!.renderedText).toContain(`pedido ${order.orderNumber}`);
    expect(queued[0]!.renderedText).toContain("Responde SÍ para recibir avisos de tu pedido");
    expect(await test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.phone, order.number))).toEqual([]);
    expect((await send()).sent).toBe(1);

    await answer(order.number, "Sí, quiero avisos");
    const [consent] = await test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.phone, order.number));
    expect(consent).toMatchObject({ granted: true, source: "reply", orderId: order.orderId, email: order.email });
    const proofs = await test.db.select().from(phoneProofs).where(eq(phoneProofs.phone, order.number));
    expect(proofs).toEqual([expect.objectContaining({ orderId: order.orderId, userId: null, method: "whatsapp_reply" })]);
    // A second order of someone else with the same number is not proven by that answer.
    const other = await guestOrder({ phone: order.number.slice(2) });
    await pay(other.paymentId, later(1000));
    const aboutOther = await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.orderId, other.orderId));
    expect(aboutOther.filter((message) => message.kind === "template")).toEqual([]);
  });

  it("never revives a number that wrote BAJA: a later checkout's tick records nothing and sends nothing, not even the question", async () => {
    const victim = await guestOrder({ phone: mobile() });
    await answer(victim.number, "SI");
    await answer(victim.number, "BAJA", later(1000));
    const before = await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.toPhone, victim.number));

    const stranger = await guestOrder({ phone: victim.number.slice(2), name: "Hola Visita http://evil.example/pago ahora" });
    const events = await test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.phone, victim.number));
    expect(events.at(-1)).toMatchObject({ granted: false, source: "reply" });
    expect(await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.toPhone, victim.number))).toHaveLength(before.length);
    expect(await test.db.select().from(whatsappOptInAsks).where(eq(whatsappOptInAsks.orderId, stranger.orderId))).toEqual([]);

    // Once the number writes to the shop again itself, a tick may ask it again.
    await answer(victim.number, "hola, ¿tienen bidones?", later(60_000));
    const again = await guestOrder({ phone: victim.number.slice(2) });
    expect(await test.db.select().from(whatsappOptInAsks).where(eq(whatsappOptInAsks.orderId, again.orderId))).toHaveLength(1);
  });

  it("opens every template with a cleaned first name: a stranger's typed text never reads as the shop's words", async () => {
    const own = mobile();
    const order = await guestOrder({ phone: own, name: "Hola Visita http://evil.example/pago ahora" });
    await answer(`51${own}`, "sí");
    await pay(order.paymentId, later(1000));
    const templates = await test.db
      .select()
      .from(whatsappMessages)
      .where(and(eq(whatsappMessages.orderId, order.orderId), eq(whatsappMessages.kind, "template")));
    expect(templates.length).toBeGreaterThan(0);
    for (const message of templates) {
      expect(message.parameters!.body[0]).toBe("Hola");
      expect(message.renderedText).not.toMatch(/evil|http:\/\/evil/);
    }
  });

  it("exports a person's own WhatsApp data only: never the messages of a number merely typed on their order, never a live link", async () => {
    // María proves her number on her order and gets its messages, with the receipt link.
    const maria = await guestOrder({ phone: mobile() });
    await answer(maria.number, "Sí");
    await pay(maria.paymentId);
    await send(later(1000));
    const mariaMessages = await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.orderId, maria.orderId));
    expect(mariaMessages.some((message) => /token=/.test(message.renderedText))).toBe(true);

    // A stranger places a paid guest order with her number, and asks for his own data.
    const stranger = await guestOrder({ phone: maria.number.slice(2) });
    await pay(stranger.paymentId, later(2000));
    const exported = await exportGuestData(test.db, admin, stranger.orderId, later(3000));
    if (exported?.kind !== "guest") throw new Error("no export");
    const { whatsapp } = exported.value;
    expect(whatsapp.numbers).toEqual([]);
    expect(whatsapp.messagesReceived).toEqual([]);
    expect(whatsapp.messagesSent.map((message) => message.text).join("\n")).not.toContain(maria.orderNumber);
    expect(JSON.stringify(exported.value)).not.toContain(maria.email);

    // Her own export has her number and her messages, with the links' keys hidden.
    const own = await exportGuestData(test.db, admin, maria.orderId, later(3000));
    if (own?.kind !== "guest") throw new Error("no export");
    expect(own.value.whatsapp.numbers).toEqual([maria.number]);
    const texts = own.value.whatsapp.messagesSent.map((message) => message.text);
    expect(texts.some((text) => text.includes(maria.orderNumber))).toBe(true);
    for (const text of texts) expect(text).not.toMatch(/token=(?!\[oculto\])/);
  });

  it("anonymises a person without touching the consent, messages or inbound history of a number typed on their order that is someone else's", async () => {
    const maria = await guestOrder({ phone: mobile() });
    await answer(maria.number, "Sí");
    await pay(maria.paymentId);
    const stranger = await guestOrder({ phone: maria.number.slice(2) });
    await pay(stranger.paymentId, later(1000));
    await finish(stranger.orderId);

    const result = await anonymiseGuest(test.db, admin, stranger.orderId, later(2000));
    expect(result).toMatchObject({ ok: true });
    const consent = await test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.orderId, maria.orderId));
    expect(consent).toEqual([expect.objectContaining({ phone: maria.number, granted: true, email: maria.email })]);
    expect(await test.db.select().from(whatsappInboundMessages).where(eq(whatsappInboundMessages.fromId, maria.number))).toEqual([
      expect.objectContaining({ body: "Sí" }),
    ]);
    const hers = await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.orderId, maria.orderId));
    expect(hers.length).toBeGreaterThan(0);
    for (const message of hers) expect(message.toPhone).toBe(maria.number);
    expect(await test.db.select().from(phoneProofs).where(eq(phoneProofs.orderId, maria.orderId))).toEqual([expect.objectContaining({ phone: maria.number })]);
  });

  it("lets staff record «confirmado por teléfono» for the profile's number, audited, once", async () => {
    const id = `user-${randomUUID()}`;
    const phone = mobile();
    await test.db.insert(users).values({ id, name: "Ana Paz", email: `${id}@prueba.pe`, emailVerified: true, firstName: "Ana", lastName: "Paz", phone });
    expect(await confirmCustomerPhoneByCall(test.db, admin, id, now)).toMatchObject({ ok: true });
    expect(await confirmCustomerPhoneByCall(test.db, admin, id, now)).toMatchObject({ ok: true, message: expect.stringContaining("ya estaba") });
    expect(await test.db.select().from(phoneProofs).where(eq(phoneProofs.userId, id))).toEqual([
      expect.objectContaining({ phone: `51${phone}`, method: "staff_phone", staffUserId: admin.id }),
    ]);
    const audit = await test.db
      .select()
      .from(staffActions)
      .where(and(eq(staffActions.entityId, id), eq(staffActions.action, "customer.phone_confirmed")));
    expect(audit).toHaveLength(1);
    await test.db.update(users).set({ phone: null }).where(eq(users.id, id));
    expect(await confirmCustomerPhoneByCall(test.db, admin, id, now)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("property: over random people, orders and numbers, no export or erasure reaches another person's numbers", async () => {
    // A small seeded generator: the same draw on every run, and a failure names its seed.
    for (const seed of [7, 42]) {
      let state = seed;
      const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
      const people = Array.from({ length: 3 }, (_, index) => ({
        email: `prop-${seed}-${index}-${randomUUID().slice(0, 6)}@prueba.pe`,
        own: mobile(),
        orders: [] as { orderId: string; orderNumber: string }[],
      }));
      const numbers = people.map((person) => person.own);
      let clock = later(seed * 10_000_000);
      for (let step = 0; step < 6; step += 1) {
        const person = pick(people);
        // Each order's number is the buyer's own or anyone's; only its owner ever answers SÍ.
        const phone = random() < 0.5 ? person.own : pick(numbers);
        clock = new Date(clock.getTime() + 25 * 3_600_000);
        const placed = await placeOrder(test.db, checkoutInput(clock, { correo: person.email, telefono: phone, whatsapp: true }), {
          now: clock,
          provider: "sandbox",
        });
        if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("not placed");
        person.orders.push({ orderId: placed.orderId, orderNumber: placed.orderNumber });
        if (phone === person.own && random() < 0.7) await answer(`51${phone}`, "Sí", clock);
        await applySandboxAction(test.db, placed.paymentId, "approve_card", { now: clock, siteUrl });
      }
      for (const person of people.filter((candidate) => candidate.orders.length)) {
        const others = people.filter((candidate) => candidate !== person);
        const exported = await exportGuestData(test.db, admin, person.orders[0]!.orderId, clock);
        if (exported?.kind !== "guest") throw new Error(`seed ${seed}: no export`);
        const { whatsapp } = exported.value;
        expect(
          whatsapp.numbers.every((number) => number === `51${person.own}`),
          `seed ${seed}`,
        ).toBe(true);
        for (const message of whatsapp.messagesSent) {
          const aboutOthers = others.some((other) => other.orders.some((order) => message.text.includes(order.orderNumber)));
          expect(aboutOthers && message.to !== `51${person.own}`, `seed ${seed}: ${message.text}`).toBe(false);
        }
        expect(
          whatsapp.messagesReceived.every((received) => received.from === `51${person.own}`),
          `seed ${seed}`,
        ).toBe(true);
      }
      // Erasing one person leaves every other person's consent events and proofs as they were.
      const erased = people.find((person) => person.orders.length)!;
      const others = people.filter((person) => person !== erased && person.orders.length);
      const otherOrderIds = others.flatMap((person) => person.orders.map((order) => order.orderId));
      const snapshot = async () => ({
        consent: otherOrderIds.length ? await test.db.select().from(whatsappConsentEvents).where(inArray(whatsappConsentEvents.orderId, otherOrderIds)) : [],
        proofs: otherOrderIds.length ? await test.db.select().from(phoneProofs).where(inArray(phoneProofs.orderId, otherOrderIds)) : [],
      });
      const before = await snapshot();
      for (const order of erased.orders) await finish(order.orderId);
      expect(await anonymiseGuest(test.db, admin, erased.orders[0]!.orderId, clock), `seed ${seed}`).toMatchObject({ ok: true });
      expect(await snapshot(), `seed ${seed}`).toEqual(before);
    }
  });
});
