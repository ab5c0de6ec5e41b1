/**
 * Issue 25: Meta's webhook at /webhooks/whatsapp, called over HTTP by the Cloud API stand-in with
 * signed and forged bodies. The signature is checked over the raw bytes (an "ñ" written as \u00f1
 * by Meta must verify; a signature of re-serialised JSON must not), statuses are recorded once and
 * never move a message back, BAJA ends WhatsApp for the number with one confirmation inside the
 * 24-hour window, and other messages wait for staff in Mensajes. Issue 39: an order's messages go
 * only to a number that answered SÍ to the question its ticked box sent; each item of a signed
 * delivery is read and written on its own — a NUL, a timestamp of 1e16 or an error code of 2^40
 * makes that item unreadable (200 for the batch), never the BAJA after it.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { users, whatsappConsentEvents, whatsappContacts, whatsappInboundMessages, whatsappMessages, whatsappStatusEvents } from "@server/db/schema";
import { applySandboxAction } from "@server/order-flows/index.server";
import {
  cloudApiClient,
  currentWhatsappConsent,
  listWhatsappInbox,
  markWhatsappMessageAttended,
  sendDueWhatsappMessages,
  type WhatsappClient,
} from "@server/whatsapp/index.server";
import { dbContext } from "~/server/db-context.server";
import * as webhookRoute from "~/routes/api/whatsapp-webhook";
import { checkoutInput } from "../support/checkout-fixture";
import { expectConsoleError } from "../support/fail-on-console-error";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { writeOnWhatsapp } from "../support/whatsapp-answer";
import { metaJson, signBody, startWhatsappCloudMock, type WhatsappCloudMock } from "../support/whatsapp-cloud-mock";

const placedAt = new Date("2026-11-24T15:00:00Z");
/** The route reads the real clock (a webhook is "now"), so what meets it is timed from the real now. */
const realNow = new Date();
const siteUrl = "http://shop.test";
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

describe("the WhatsApp webhook (issue 25)", () => {
  let test: TestDatabase;
  let cloud: WhatsappCloudMock;
  let client: WhatsappClient;
  let shop: Server;
  let webhookUrl: string;
  /** The stand-in's clock (its 24-hour windows and the timestamps it reports). */
  let cloudNow = realNow;

  beforeAll(async () => {
    cloud = await startWhatsappCloudMock({ now: () => cloudNow });
    for (const [name, value] of Object.entries(cloud.env)) vi.stubEnv(name, value);
    client = cloudApiClient({ apiUrl: cloud.apiUrl, token: cloud.token, phoneNumberId: cloud.phoneNumberId });
    test = await createTestDatabase("seeded");
    // The route module behind a real HTTP server, so the stand-in sends the bytes it signed.
    const context = new RouterContextProvider();
    context.set(dbContext, test.db);
    shop = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const request = new Request(`http://shop.test${incoming.url}`, {
          method: incoming.method,
          headers: Object.entries(incoming.headers).flatMap(([name, value]) => (typeof value === "string" ? [[name, value] as [string, string]] : [])),
          body: incoming.method === "POST" ? Buffer.concat(chunks) : undefined,
        });
        const args = { request, params: {}, context } as never;
        void (async () => {
          // As React Router does, a thrown Response is the answer (the bounded reader's 413).
          const response = await (incoming.method === "POST" ? webhookRoute.action(args) : Promise.resolve(webhookRoute.loader(args))).catch(
            (error: unknown) => {
              if (error instanceof Response) return error;
              // As React Router does: logged (an unexpected console.error fails the test), answered 500.
              console.error(error);
              return new Response(null, { status: 500 });
            },
          );
          outgoing.writeHead(response.status, Object.fromEntries(response.headers));
          outgoing.end(Buffer.from(await response.arrayBuffer()));
        })();
      });
    });
    await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
    webhookUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/webhooks/whatsapp`;
    cloud.webhookUrl = webhookUrl;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => shop?.close(() => resolve()));
    await test?.close();
    await cloud?.close();
    vi.unstubAllEnvs();
  });

  const number = () => `519${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  const inbound = () => test.db.select().from(whatsappInboundMessages);

  /**
   * Issue 39: the question the ticked box sent leaves, and the number answers SÍ (through the
   * webhook's handler: the route reads the real clock, more than the question's week after the
   * orders' date), which opts it in and proves it for the order.
   */
  async function answerTheQuestion(phone: string) {
    await sendDueWhatsappMessages(test.db, client, placedAt);
    const answered = await writeOnWhatsapp(test.db, phone, "Sí", later(placedAt, 500), cloud.phoneNumberId);
    expect(answered).toMatchObject({ status: 200, inbound: 1 });
    const [inboundAnswer] = await test.db.select().from(whatsappInboundMessages).where(eq(whatsappInboundMessages.fromId, phone));
    expect(inboundAnswer!.intent).toBe("opt_in");
  }
  const confirmationOf = async (orderId: string) =>
    (
      await test.db
        .select()
        .from(whatsappMessages)
        .where(and(eq(whatsappMessages.orderId, orderId), eq(whatsappMessages.templateName, "pedido_confirmado")))
    )[0]!;

  /** An opted-in customer's paid order: its «pedido confirmado» sent through the stand-in. */
  async function sentConfirmation() {
    const phone = number();
    const placed = await placeOrder(
      test.db,
      checkoutInput(placedAt, { correo: `c-${randomUUID().slice(0, 8)}@prueba.pe`, telefono: phone.slice(2), whatsapp: true }),
      {
        now: placedAt,
        provider: "sandbox",
      },
    );
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("not placed");
    await answerTheQuestion(phone);
    await applySandboxAction(test.db, placed.paymentId, "approve_card", { now: placedAt, siteUrl });
    await sendDueWhatsappMessages(test.db, client, later(placedAt, 1000));
    const message = await confirmationOf(placed.orderId);
    expect(message.status).toBe("accepted");
    return { phone, orderId: placed.orderId, message };
  }

  it("answers Meta's verification with the challenge only for our token", async () => {
    const verify = (mode: string, token: string) =>
      fetch(`${webhookUrl}?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`);
    const ok = await verify("subscribe", cloud.verifyToken);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("1158201444");
    expect((await verify("subscribe", "otro-token-cualquiera")).status).toBe(403);
    expect((await verify("unsubscribe", cloud.verifyToken)).status).toBe(403);
  });

  it("refuses unsigned, forged, tampered and re-serialised bodies without processing them", async () => {
    const before = (await inbound()).length;
    const from = number();
    expect((await cloud.customerWrites(from, "Hola, ¿mañana traen más agua?", { signature: "none" })).status).toBe(401);
    expect((await cloud.customerWrites(from, "Hola, ¿mañana traen más agua?", { signature: "malformed" })).status).toBe(401);
    expect((await cloud.customerWrites(from, "Hola, ¿mañana traen más agua?", { signature: "wrong-secret" })).status).toBe(403);
    // A signature of the JSON parsed and written again ("ñ" instead of "\u00f1"): not the bytes sent.
    expect((await cloud.customerWrites(from, "Hola, ¿mañana traen más agua?", { signature: "reserialised" })).status).toBe(403);
    const body = metaJson({ object: "whatsapp_business_account", entry: [] });
    const tampered = await fetch(webhookUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signBody(body, cloud.appSecret) },
      body: body.replace("entry", "entrx"),
    });
    expect(tampered.status).toBe(403);
    expect((await inbound()).length).toBe(before);
  });

  it("accepts a signed message with ñ and é however Meta writes them, and lands it in Mensajes once", async () => {
    const from = number();
    const id = `wamid.IN${randomUUID()}`;
    const text = "¿Mañana traen 3 bidones más? Gracias, José";
    const first = await cloud.customerWrites(from, text, { name: "José Núñez", id });
    expect(first.status).toBe(200);
    // Meta retries: the same message again changes nothing.
    expect((await cloud.customerWrites(from, text, { name: "José Núñez", id })).status).toBe(200);
    // The same kind of body with the characters as raw UTF-8 bytes, signed as sent, also verifies.
    const raw = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [
        {
          id: "1",
          changes: [
            {
              field: "messages",
              value: {
                metadata: { phone_number_id: cloud.phoneNumberId },
                contacts: [{ wa_id: from, profile: { name: "José Núñez" } }],
                messages: [
                  {
                    from,
                    id: `wamid.IN${randomUUID()}`,
                    timestamp: String(Math.floor(placedAt.getTime() / 1000)),
                    type: "text",
                    text: { body: "Señor, ¿qué hora?" },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    expect((await cloud.postWebhook(raw)).status).toBe(200);

    const stored = (await inbound()).filter((row) => row.fromId === from);
    expect(stored.map((row) => [row.body, row.profileName, row.intent])).toEqual(
      expect.arrayContaining([
        [text, "José Núñez", "message"],
        ["Señor, ¿qué hora?", "José Núñez", "message"],
      ]),
    );
    expect(stored).toHaveLength(2);
    const inbox = await listWhatsappInbox(test.db);
    const listed = inbox.messages.find((message) => message.body === text)!;
    expect(listed.attendedAt).toBeNull();

    const email = `operaciones-${randomUUID().slice(0, 8)}@demo.pe`;
    await test.db
      .insert(users)
      .values({ id: `staff-${email}`, name: "Ana", email, emailVerified: true, firstName: "Ana", lastName: "Ops", role: "operaciones" });
    const actor: StaffActor = { id: `staff-${email}`, email, role: "operaciones", clientAddress: "127.0.0.1" };
    expect(await markWhatsappMessageAttended(test.db, actor, listed.id, placedAt)).toEqual({ ok: true, changed: true });
    expect(await markWhatsappMessageAttended(test.db, actor, listed.id, placedAt)).toEqual({ ok: true, changed: false });
  });

  it("refuses a body over the limit (413) and one that is not Meta's shape (400)", async () => {
    const huge = "x".repeat(300 * 1024);
    expect((await cloud.postWebhook(huge)).status).toBe(413);
    expect((await cloud.postWebhook("{}")).status).toBe(400);
    expect((await cloud.postWebhook("no es json")).status).toBe(400);
  });

  it("refuses a signed body that is not posted as application/json (415) without processing it", async () => {
    const before = (await inbound()).length;
    const body = metaJson({ object: "whatsapp_business_account", entry: [] });
    const plain = await fetch(webhookUrl, {
      method: "POST",
      headers: { "Content-Type": "text/plain", "X-Hub-Signature-256": signBody(body, cloud.appSecret) },
      body,
    });
    expect(plain.status).toBe(415);
    expect(await plain.json()).toEqual({ error: "La solicitud debe enviarse como JSON (Content-Type: application/json)." });
    expect((await inbound()).length).toBe(before);
  });

  it("records late, repeated and out-of-order statuses once, never moving a message back", async () => {
    const { message } = await sentConfirmation();
    const wamid = message.wamid!;
    const at = (seconds: number) => later(placedAt, seconds * 1000);
    expect((await cloud.reportStatus(wamid, "delivered", { at: at(20) })).status).toBe(200);
    // "sent" arrives after "delivered", and twice at once.
    await Promise.all([cloud.reportStatus(wamid, "sent", { at: at(10) }), cloud.reportStatus(wamid, "sent", { at: at(10) })]);
    let [row] = await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.wamid, wamid));
    expect(row).toMatchObject({ status: "delivered", sentAt: at(10), deliveredAt: at(20) });
    await cloud.reportStatus(wamid, "read", { at: at(30) });
    await cloud.reportStatus(wamid, "read", { at: at(31) });
    await cloud.reportStatus(wamid, "delivered", { at: at(20) });
    await cloud.reportStatus(wamid, "failed", { at: at(40), errorCode: 131000, errorTitle: "Something went wrong" });
    [row] = await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.wamid, wamid));
    expect(row).toMatchObject({ status: "read", readAt: at(30), errorCode: null });
    const events = await test.db.select().from(whatsappStatusEvents).where(eq(whatsappStatusEvents.wamid, wamid));
    expect(events.map((event) => event.status).sort()).toEqual(["delivered", "failed", "read", "sent"]);
  });

  it("applies a status that arrived before the send's answer was recorded", async () => {
    const wamid = `wamid.EARLY${randomUUID()}`;
    expect((await cloud.reportStatus(wamid, "delivered", { at: later(placedAt, 5000) })).status).toBe(200);
    const phone = number();
    const placed = await placeOrder(
      test.db,
      checkoutInput(placedAt, { correo: `e-${randomUUID().slice(0, 8)}@prueba.pe`, telefono: phone.slice(2), whatsapp: true }),
      {
        now: placedAt,
        provider: "sandbox",
      },
    );
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("not placed");
    await answerTheQuestion(phone);
    // What else was due (the question, the "¡Listo!") has left; only the confirmation meets the client below.
    await sendDueWhatsappMessages(test.db, client, later(placedAt, 500));
    await applySandboxAction(test.db, placed.paymentId, "approve_card", { now: placedAt, siteUrl });
    // A Cloud API whose answer carries that id (the webhook outran the HTTP answer).
    const early: WhatsappClient = { send: async () => ({ ok: true, wamid }) };
    expect(await sendDueWhatsappMessages(test.db, early, later(placedAt, 6000))).toMatchObject({ sent: 1 });
    const row = await confirmationOf(placed.orderId);
    expect(row).toMatchObject({ wamid, status: "delivered" });
  });

  it("marks the number unreachable when Meta reports 131026 for a message", async () => {
    const { message, phone } = await sentConfirmation();
    await cloud.reportStatus(message.wamid!, "failed", { errorCode: 131026, errorTitle: "Message undeliverable" });
    const [row] = await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.id, message.id));
    expect(row).toMatchObject({ status: "failed", errorCode: 131026 });
    const [contact] = await test.db.select().from(whatsappContacts).where(eq(whatsappContacts.phone, phone));
    expect(contact!.unreachableAt).not.toBeNull();
  });

  it("ends WhatsApp for a number that answers BAJA at once, confirms it once inside the 24-hour window, and lists no BAJA in Mensajes", async () => {
    const { phone } = await sentConfirmation();
    cloudNow = later(realNow, 60_000);
    expect((await cloud.customerWrites(phone, " baja ", { at: cloudNow })).status).toBe(200);
    expect(await currentWhatsappConsent(test.db, phone)).toMatchObject({ granted: false, source: "reply" });
    await cloud.customerWrites(phone, "STOP", { at: later(cloudNow, 1000) });
    await sendDueWhatsappMessages(test.db, client, later(cloudNow, 5000));
    const confirmations = cloud.accepted.filter((message) => message.to === phone && message.type === "text");
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]!.text).toContain("ya no te enviará avisos por WhatsApp");
    expect((await listWhatsappInbox(test.db)).messages.map((message) => message.from)).not.toContain(phone);

    // A later order with that number sends nothing on WhatsApp until the customer opts in again.
    const placed = await placeOrder(test.db, checkoutInput(placedAt, { correo: `b-${randomUUID().slice(0, 8)}@prueba.pe`, telefono: phone.slice(2) }), {
      now: placedAt,
      provider: "sandbox",
    });
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("not placed");
    await applySandboxAction(test.db, placed.paymentId, "approve_card", { now: placedAt, siteUrl });
    expect(await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.orderId, placed.orderId))).toEqual([]);
    const events = await test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.phone, phone));
    // Issue 39: the opt-in was the number's SÍ to the checkout's question, the opt-out its BAJA.
    expect(events.map((event) => [event.granted, event.source])).toEqual([
      [true, "reply"],
      [false, "reply"],
    ]);
  });

  it("never sends the BAJA confirmation once the customer's 24-hour window has closed", async () => {
    const { phone } = await sentConfirmation();
    const wrote = later(realNow, 120_000);
    cloudNow = wrote;
    await cloud.customerWrites(phone, "No", { at: wrote });
    const requests = cloud.requests.length;
    const report = await sendDueWhatsappMessages(test.db, client, later(wrote, 25 * 3_600_000));
    expect(report).toMatchObject({ withheld: 1, sent: 0 });
    expect(cloud.requests.length).toBe(requests);
    const [reply] = await test.db
      .select()
      .from(whatsappMessages)
      .where(eq(whatsappMessages.dedupeKey, `opt-out-confirmation:${(await inbound()).find((row) => row.fromId === phone && row.body === "No")!.wamid}`));
    expect(reply).toMatchObject({ kind: "text", status: "withheld" });
  });

  describe("items no Meta would send, in a signed delivery (issue 39)", () => {
    const nowSeconds = () => String(Math.floor(Date.now() / 1000));
    const wamid = (tag: string) => `wamid.${tag}${randomUUID().replaceAll("-", "")}`;
    /** One `messages` change for the shop's number, as Meta delivers it. */
    const delivery = (value: Record<string, unknown>) => ({
      object: "whatsapp_business_account",
      entry: [
        { id: "1", changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { phone_number_id: cloud.phoneNumberId }, ...value } }] },
      ],
    });
    const text = (from: string, id: string, body: string, timestamp: string | number = nowSeconds()) => ({ from, id, timestamp, type: "text", text: { body } });
    const storedAs = async (id: string) => (await test.db.select().from(whatsappInboundMessages).where(eq(whatsappInboundMessages.wamid, id)))[0];

    it("stores a text and a sender with a NUL in them, without the NUL", async () => {
      const from = number();
      const inText = wamid("NULTEXT");
      const inFrom = wamid("NULFROM");
      const response = await cloud.postWebhook(
        delivery({
          contacts: [{ wa_id: from, profile: { name: "Rosa\u0000 Quispe" } }],
          messages: [text(from, inText, "Hola\u0000, ¿traen agua mañana?"), text(`${from.slice(0, 4)}\u0000${from.slice(4)}`, inFrom, "¿A qué hora?")],
        }),
      );
      expect(response.status).toBe(200);
      expect(await storedAs(inText)).toMatchObject({ fromId: from, body: "Hola, ¿traen agua mañana?", profileName: "Rosa Quispe", intent: "message" });
      expect(await storedAs(inFrom)).toMatchObject({ fromId: from, body: "¿A qué hora?", messageType: "text" });
      const [contact] = await test.db.select().from(whatsappContacts).where(eq(whatsappContacts.phone, from));
      expect(contact!.lastInboundAt).not.toBeNull();
    });

    it("keeps messages timed 1e16 and 1e300 for staff as unreadable, and still ends WhatsApp for a BAJA later in the same delivery", async () => {
      const { phone } = await sentConfirmation();
      const farFuture = wamid("TS16");
      const absurd = wamid("TS300");
      const baja = wamid("BAJA");
      const response = await cloud.postWebhook(
        delivery({
          contacts: [{ wa_id: phone, profile: { name: "Carla" } }],
          messages: [text(phone, farFuture, "¿Me traen 2 bidones?", "10000000000000000"), text(phone, absurd, "Hola", 1e300), text(phone, baja, "BAJA")],
        }),
      );
      expect(response.status).toBe(200);

      expect(await currentWhatsappConsent(test.db, phone)).toMatchObject({ granted: false, source: "reply" });
      const events = await test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.phone, phone));
      expect(events.map((event) => [event.granted, event.source])).toEqual([
        [true, "reply"],
        [false, "reply"],
      ]);
      // The unreadable ones wait for staff in Mensajes, with what could be read of them.
      const unreadable = await storedAs(farFuture);
      expect(unreadable).toMatchObject({
        fromId: phone,
        profileName: "Carla",
        messageType: "unreadable",
        intent: "message",
        body: "[Mensaje ilegible] ¿Me traen 2 bidones?",
      });
      expect(Math.abs(unreadable!.sentAt.getTime() - Date.now())).toBeLessThan(60_000);
      expect(await storedAs(absurd)).toMatchObject({ messageType: "unreadable", body: "[Mensaje ilegible] Hola" });
      const inbox = await listWhatsappInbox(test.db);
      expect(inbox.messages.filter((message) => message.from === phone).map((message) => message.body)).toEqual(
        expect.arrayContaining(["[Mensaje ilegible] ¿Me traen 2 bidones?", "[Mensaje ilegible] Hola"]),
      );
      // Delivered again, as Meta does: nothing more is stored.
      expect((await cloud.postWebhook(delivery({ messages: [text(phone, farFuture, "¿Me traen 2 bidones?", "10000000000000000")] }))).status).toBe(200);
      expect((await inbound()).filter((row) => row.wamid === farFuture)).toHaveLength(1);
    });

    it("leaves out a message with no usable id or sender and records the rest", async () => {
      const from = number();
      const noSender = wamid("NOSENDER");
      const after = wamid("AFTER");
      const before = (await inbound()).length;
      const response = await cloud.postWebhook(
        delivery({
          messages: [
            text(from, "wamid.\u0000", "id con NUL"),
            text(from, `wamid.${"A".repeat(300)}`, "id enorme"),
            { ...text(from, "", "id numérico"), id: 12345 },
            text("hola\u0000", noSender, "¿Quién soy?"),
            text(from, after, "Gracias"),
          ],
        }),
      );
      expect(response.status).toBe(200);
      expect(await storedAs(noSender)).toMatchObject({ fromId: "desconocido", messageType: "unreadable", body: "[Mensaje ilegible] ¿Quién soy?" });
      expect(await storedAs(after)).toMatchObject({ fromId: from, body: "Gracias", messageType: "text" });
      // The three without a usable id are only logged.
      expect((await inbound()).length).toBe(before + 2);
    });

    it("leaves out a status with error code 2^40 or timestamp 1e16, and applies the others of the delivery, NUL-free", async () => {
      const bad = await sentConfirmation();
      const late = await sentConfirmation();
      const good = await sentConfirmation();
      const undeliverable = await sentConfirmation();
      const status = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
        id,
        status: name,
        timestamp: nowSeconds(),
        recipient_id: "51900000000",
        ...extra,
      });
      const response = await cloud.postWebhook(
        delivery({
          statuses: [
            status(bad.message.wamid!, "failed", { errors: [{ code: 2 ** 40, title: "Message undeliverable" }] }),
            status(late.message.wamid!, "delivered", { timestamp: "10000000000000000" }),
            status(good.message.wamid!, "delivered"),
            status(undeliverable.message.wamid!, "failed", { errors: [{ code: 131026, title: "Message\u0000 undeliverable" }] }),
          ],
        }),
      );
      expect(response.status).toBe(200);
      const messageOf = async (id: string) => (await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.id, id)))[0]!;
      expect(await messageOf(bad.message.id)).toMatchObject({ status: "accepted", errorCode: null, failedAt: null });
      expect(await messageOf(late.message.id)).toMatchObject({ status: "accepted", deliveredAt: null });
      expect(await messageOf(good.message.id)).toMatchObject({ status: "delivered" });
      expect(await messageOf(undeliverable.message.id)).toMatchObject({ status: "failed", errorCode: 131026, lastError: "Message undeliverable" });
      const [contact] = await test.db.select().from(whatsappContacts).where(eq(whatsappContacts.phone, undeliverable.phone));
      expect(contact!.unreachableReason).toBe("Message undeliverable");
      const leftOut = await test.db.select().from(whatsappStatusEvents).where(eq(whatsappStatusEvents.wamid, bad.message.wamid!));
      expect(leftOut).toEqual([]);
    });

    it("records every other item when the database refuses one, then answers 500 so Meta delivers again, and the redelivery adds only what was missing", async () => {
      const { phone } = await sentConfirmation();
      const refused = wamid("REFUSED");
      const baja = wamid("BAJA");
      // A real refusal by PostgreSQL for one row (not a validation problem of the item).
      await test.db.execute(
        sql.raw(`create function refuse_one_inbound() returns trigger language plpgsql as $$
          begin
            if new.wamid like 'wamid.REFUSED%' then raise exception 'refused for the test'; end if;
            return new;
          end $$`),
      );
      await test.db.execute(
        sql.raw("create trigger refuse_one_inbound before insert on whatsapp_inbound_messages for each row execute function refuse_one_inbound()"),
      );
      const body = delivery({ messages: [text(phone, refused, "¿Tienen bidones de 7 litros?"), text(phone, baja, "baja")] });
      try {
        expectConsoleError(/webhook message wamid\.REFUSED\w+ could not be recorded/);
        expect((await cloud.postWebhook(body)).status).toBe(500);
        expect(await currentWhatsappConsent(test.db, phone)).toMatchObject({ granted: false, source: "reply" });
        expect(await storedAs(refused)).toBeUndefined();
      } finally {
        await test.db.execute(sql.raw("drop trigger refuse_one_inbound on whatsapp_inbound_messages"));
        await test.db.execute(sql.raw("drop function refuse_one_inbound()"));
      }
      expect((await cloud.postWebhook(body)).status).toBe(200);
      expect(await storedAs(refused)).toMatchObject({ fromId: phone, body: "¿Tienen bidones de 7 litros?" });
      const optOuts = await test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.phone, phone));
      expect(optOuts.filter((event) => !event.granted)).toHaveLength(1);
    });
  });

  it("gets 131047 from the Cloud API for free text outside the window, which it records as failed, not retried", async () => {
    const outcome = await client.send({
      id: randomUUID(),
      to: number(),
      kind: "text",
      templateName: null,
      languageCode: null,
      parameters: null,
      renderedText: "Hola",
      createdAt: placedAt,
    });
    expect(outcome).toMatchObject({ ok: false, retry: false, code: 131047 });
  });
});
