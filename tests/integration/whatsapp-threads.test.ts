/**
 * Issue 38: Mensajes as WhatsApp conversations. One entry per number, the latest first, named by
 * the customer the number is proven for (else the profile name, shown as not verified); a thread
 * holds what the number wrote and everything the shop sent it, in time order. Staff answer in free
 * text through the route (its middleware first: anonymous, customers and repartidores refused),
 * only inside the 24-hour window (the page says why otherwise, and the server refuses too), once per
 * request key, audited, attending what waited. The demo customer's number is proven and opted in,
 * so a newcomer can try «lo de siempre». The Cloud API stand-in takes reply buttons only as Meta does.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { accountOwningPhone } from "@server/contacts/index.server";
import { staffActions, users, whatsappInboundMessages, whatsappMessages } from "@server/db/schema";
import { DEMO_CUSTOMER, DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import {
  cloudApiClient,
  currentWhatsappConsent,
  listWhatsappThreads,
  readWhatsappThread,
  replyOnWhatsappByStaff,
  sendDueWhatsappMessages,
  type WhatsappClient,
} from "@server/whatsapp/index.server";
import { answerWhatsappConversations } from "@server/whatsapp-orders/index.server";
import { WINDOW_CLOSED_MESSAGE } from "@core/whatsapp";
import { dbContext } from "~/server/db-context.server";
import * as adminLayout from "~/routes/admin/layout";
import * as threadRoute from "~/routes/admin/messages/whatsapp-thread";
import { postToRoute, sessionCookie } from "../support/route-call";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { startWhatsappCloudMock, type WhatsappCloudMock } from "../support/whatsapp-cloud-mock";
import { serveWhatsappWebhook } from "../support/whatsapp-webhook-route";

const siteUrl = "http://shop.test";
const HOUR = 3_600_000;

describe("WhatsApp conversations in Mensajes (issue 38)", () => {
  let test: TestDatabase;
  let cloud: WhatsappCloudMock;
  let client: WhatsappClient;
  let webhook: { url: string; close(): Promise<void> };
  let operaciones: StaffActor;
  let cloudNow: Date | null = null;

  beforeAll(async () => {
    cloud = await startWhatsappCloudMock({ now: () => cloudNow ?? new Date() });
    for (const [name, value] of Object.entries(cloud.env)) vi.stubEnv(name, value);
    client = cloudApiClient({ apiUrl: cloud.apiUrl, token: cloud.token, phoneNumberId: cloud.phoneNumberId });
    test = await createTestDatabase("seeded");
    webhook = await serveWhatsappWebhook(test.db);
    cloud.webhookUrl = webhook.url;
    const [member] = await test.db.select().from(users).where(eq(users.email, DEMO_OPERACIONES.email));
    operaciones = { id: member!.id, email: member!.email, role: "operaciones", clientAddress: "127.0.0.1" };
  });
  afterAll(async () => {
    await webhook?.close();
    await test?.close();
    await cloud?.close();
    vi.unstubAllEnvs();
  });

  const number = () => `519${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  const send = (at = new Date()) => sendDueWhatsappMessages(test.db, client, at);
  const reply = (phone: string, text: string, at = new Date(), requestKey: string = randomUUID()) =>
    replyOnWhatsappByStaff(test.db, operaciones, { phone, text, requestKey }, at);

  it("lists one conversation per number, the latest first, named as far as the shop may say", async () => {
    const [customer] = await test.db.select().from(users).where(eq(users.email, DEMO_CUSTOMER.email));
    const stranger = number();
    // Meta's timestamps are whole seconds: the messages a few seconds apart.
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    await cloud.customerWrites(stranger, "¿Tienen bidones de 20 L?", { name: "Juanito", at: minutesAgo(3) });
    await cloud.customerWrites(stranger, "¿Y reparten en Surco?", { name: "Juanito", at: minutesAgo(2) });
    // The demo customer's number is proven hers: her name, not the profile name she set.
    await cloud.customerWrites("51987654321", "Hola, ¿a qué hora llega mi pedido?", { name: "Mary ✨", at: minutesAgo(1) });

    const { threads, pending } = await listWhatsappThreads(test.db);
    expect(threads.map((thread) => thread.phone).slice(0, 2)).toEqual(["51987654321", stranger]);
    expect(threads[0]).toMatchObject({
      customer: { userId: customer!.id, name: "María Fernández" },
      profileName: "Mary ✨",
      lastText: "Hola, ¿a qué hora llega mi pedido?",
      lastFromCustomer: true,
      pending: 1,
    });
    expect(threads[1]).toMatchObject({ customer: null, profileName: "Juanito", lastText: "¿Y reparten en Surco?", pending: 2 });
    expect(pending).toBeGreaterThanOrEqual(3);
  });

  it("shows a thread's messages both ways in time order, and a reply attends what waited, once per request key, audited", async () => {
    const phone = number();
    const wrote = new Date();
    await cloud.customerWrites(phone, "Buenas, ¿tienen stock?", { at: new Date(wrote.getTime() - 2 * 60_000) });
    await cloud.customerWrites(phone, "¿Me avisan?", { at: new Date(wrote.getTime() - 60_000) });
    const requestKey = randomUUID();
    // The same form submitted twice at once.
    const at = new Date();
    const [first, again] = await Promise.all([
      reply(phone, "¡Hola! Sí, tenemos stock.", at, requestKey),
      reply(phone, "¡Hola! Sí, tenemos stock.", at, requestKey),
    ]);
    expect([first, again].filter((result) => result.ok && result.queued)).toHaveLength(1);
    expect([first, again].find((result) => result.ok && result.queued)).toEqual({ ok: true, queued: true, attended: 2 });
    await send();
    const sent = cloud.accepted.filter((message) => message.to === phone);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: "text", text: "¡Hola! Sí, tenemos stock." });

    const thread = await readWhatsappThread(test.db, phone, new Date());
    expect(thread.entries.map((entry) => [entry.direction, entry.text])).toEqual([
      ["in", "Buenas, ¿tienen stock?"],
      ["in", "¿Me avisan?"],
      ["out", "¡Hola! Sí, tenemos stock."],
    ]);
    const out = thread.entries[2]!;
    expect(out).toMatchObject({ direction: "out", title: "Respuesta (texto)", statusLabel: "Enviado" });
    const [member] = await test.db.select().from(users).where(eq(users.id, operaciones.id));
    expect(out.direction === "out" && out.staffName).toBe(member!.name);
    expect(thread.pending).toBe(0);
    const inbound = await test.db.select().from(whatsappInboundMessages).where(eq(whatsappInboundMessages.fromId, phone));
    expect(inbound.every((message) => message.attendedBy === operaciones.id)).toBe(true);
    const audit = await test.db.select().from(staffActions).where(eq(staffActions.entityId, phone));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "whatsapp.reply", actorId: operaciones.id, entityType: "whatsapp_number" });
  });

  it("refuses free text once 24 hours passed since the number's last message, and says so in Spanish", async () => {
    const phone = number();
    const wroteAt = new Date(Date.now() - 25 * HOUR);
    cloudNow = wroteAt;
    try {
      await cloud.customerWrites(phone, "Hola", { at: wroteAt });
    } finally {
      cloudNow = null;
    }
    const thread = await readWhatsappThread(test.db, phone, new Date());
    expect(thread.windowOpenUntil).toBeNull();
    expect(await reply(phone, "¿Sigue interesado?")).toEqual({ ok: false, reason: "window_closed", message: WINDOW_CLOSED_MESSAGE });
    expect(WINDOW_CLOSED_MESSAGE).toMatch(/^Pasaron más de 24 horas desde su último mensaje: WhatsApp solo permite plantillas aprobadas/);
    expect(await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.toPhone, phone))).toEqual([]);
    // Within the window (23 hours after it wrote) the same reply is taken.
    expect(await reply(phone, "¿Sigue interesado?", new Date(wroteAt.getTime() + 23 * HOUR))).toMatchObject({ ok: true, queued: true });
  });

  it("refuses a reply to a number that wrote BAJA and nothing since", async () => {
    const phone = number();
    await cloud.customerWrites(phone, "BAJA");
    expect(await reply(phone, "¿Por qué?")).toMatchObject({ ok: false, reason: "opted_out" });
    expect((await readWhatsappThread(test.db, phone, new Date())).optedOut).toBe(true);
  });

  it("takes a staff reply only from admin and operaciones, through the route and its guards", async () => {
    const phone = number();
    await cloud.customerWrites(phone, "¿Hacen factura?");
    const cookies = {
      customer: await sessionCookie(test.db, DEMO_CUSTOMER),
      repartidor: await sessionCookie(test.db, DEMO_REPARTIDOR),
      operaciones: await sessionCookie(test.db, DEMO_OPERACIONES),
    };
    const post = (cookie: string | undefined, text: string) =>
      postToRoute({
        db: test.db,
        dbContext,
        route: threadRoute,
        outer: adminLayout.middleware,
        path: `/admin/mensajes/whatsapp/${phone}`,
        params: { phone },
        body: new URLSearchParams({ intent: "reply", texto: text, requestKey: randomUUID() }),
        cookie,
      });
    const anonymous = await post(undefined, "anónimo");
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toMatch(/^\/login\?redirectTo=/);
    expect((await post(cookies.customer, "cliente")).status).toBe(404);
    expect((await post(cookies.repartidor, "repartidor")).status).toBe(404);
    expect(await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.toPhone, phone))).toEqual([]);
    const answered = await post(cookies.operaciones, "Sí, emitimos factura.");
    expect(answered).toMatchObject({ status: 303, location: `/admin/mensajes/whatsapp/${phone}?aviso=respondido` });
    const queued = await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.toPhone, phone));
    expect(queued.map((message) => [message.kind, message.renderedText])).toEqual([["text", "Sí, emitimos factura."]]);
  });

  it("has the demo customer's number proven hers and opted in, so her «lo de siempre» gets a summary", async () => {
    const [customer] = await test.db.select().from(users).where(eq(users.email, DEMO_CUSTOMER.email));
    expect(await accountOwningPhone(test.db, "51987654321")).toBe(customer!.id);
    expect(await currentWhatsappConsent(test.db, "51987654321")).toMatchObject({ granted: true });
    await cloud.customerWrites("51987654321", "lo de siempre");
    await answerWhatsappConversations(test.db, { now: new Date(), siteUrl });
    await send();
    const summary = cloud.accepted.filter((message) => message.to === "51987654321").at(-1)!;
    expect(summary.type).toBe("interactive");
    expect(summary.interactive!.body).toContain("Hola María, este es tu pedido de siempre:");
  });

  describe("the Cloud API stand-in's reply buttons", () => {
    const buttons = (count: number, title = "Opción") => Array.from({ length: count }, (_, index) => ({ id: `b${index}`, title: `${title} ${index}` }));
    const sendInteractive = (to: string, interactive: { body: string; footer: string | null; buttons: { id: string; title: string }[] }) =>
      client.send({
        id: randomUUID(),
        to,
        kind: "interactive",
        templateName: null,
        languageCode: null,
        parameters: null,
        interactive,
        renderedText: "",
        createdAt: new Date(),
      });

    it("takes them only inside the 24-hour window, with 1–3 buttons of 20 characters and a body of 1 024", async () => {
      const phone = number();
      expect(await sendInteractive(phone, { body: "Hola", footer: null, buttons: buttons(2) })).toMatchObject({ ok: false, code: 131047 });
      await cloud.customerWrites(phone, "hola");
      expect(await sendInteractive(phone, { body: "Hola", footer: null, buttons: buttons(2) })).toMatchObject({ ok: true });
      expect(await sendInteractive(phone, { body: "Hola", footer: null, buttons: buttons(4) })).toMatchObject({ ok: false, code: 131009 });
      expect(await sendInteractive(phone, { body: "Hola", footer: null, buttons: [{ id: "x", title: "Un título de más de veinte" }] })).toMatchObject({
        ok: false,
        code: 131009,
      });
      expect(await sendInteractive(phone, { body: "x".repeat(1025), footer: null, buttons: buttons(1) })).toMatchObject({ ok: false, code: 131009 });
      expect(await sendInteractive(phone, { body: "Hola", footer: "f".repeat(61), buttons: buttons(1) })).toMatchObject({ ok: false, code: 131009 });
      expect(await sendInteractive(phone, { body: "Hola", footer: null, buttons: [] })).toMatchObject({ ok: false, code: 131009 });
    });
  });
});
