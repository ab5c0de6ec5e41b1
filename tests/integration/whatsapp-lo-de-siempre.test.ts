/**
 * Issue 38: "lo de siempre" with one reply. A proven customer's "lo de siempre" (typed, or the
 * reminder's quick reply) is answered with an interactive summary of their last order priced
 * today — lines, next date and window, total, paid at the door — with «Confirmar» and «Cambiar»;
 * «Confirmar» (or a typed «sí») places exactly that once, however often and however concurrently
 * Meta delivers it; «Cambiar» answers the «Repetir pedido» link; a summary past its two hours is
 * answered with a fresh one; a number proven nobody's gets directions and nothing is ordered.
 * Everything goes through the real webhook route, signed by the Cloud API stand-in, and the
 * jobs' passes that answer and send.
 */
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { recordPhoneProof } from "@server/contacts/index.server";
import { anonymiseCustomer, exportCustomerData } from "@server/customers/index.server";
import { openDatabase, type Database, type DatabaseHandle } from "@server/db/client";
import {
  deliveries,
  deliveryClosedDays,
  invoices,
  orderItems,
  orders,
  orderStatusChanges,
  payments,
  productVariants,
  siteSettings,
  users,
  whatsappInboundMessages,
  whatsappMessages,
  whatsappRepeatQuotes,
} from "@server/db/schema";
import { applySandboxAction } from "@server/order-flows/index.server";
import { checkReorderToken } from "@server/reorders/index.server";
import { cloudApiClient, recordWhatsappConsent, sendDueWhatsappMessages, type WhatsappClient } from "@server/whatsapp/index.server";
import { UNPAID_LIMIT_MESSAGE } from "@core/door-payment";
import { answerWhatsappConversations, QUOTE_VALID_MS, repeatCheckoutKey } from "@server/whatsapp-orders/index.server";
import { REPEAT_QUICK_REPLY } from "@core/whatsapp-repeat";
import { checkoutInput } from "../support/checkout-fixture";
import { bookableDates } from "../support/lima-clock";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { startWhatsappCloudMock, type AcceptedMessage, type WhatsappCloudMock } from "../support/whatsapp-cloud-mock";
import { serveWhatsappWebhook } from "../support/whatsapp-webhook-route";

const siteUrl = "http://shop.test";
/** Miraflores (the checkout fixture's district) is served on Mondays, Wednesdays and Fridays. */
const MIRAFLORES_DAYS = [1, 3, 5];

describe("«lo de siempre» on WhatsApp (issue 38)", () => {
  let test: TestDatabase;
  let cloud: WhatsappCloudMock;
  let client: WhatsappClient;
  /** A second process's connection to the same database (PostgreSQL), or the same one (embedded). */
  let second: { db: Database; handle: DatabaseHandle | null };
  const webhooks: { url: string; close(): Promise<void> }[] = [];
  /**
   * The tests' clock: the real now (the webhook route reads it: a message is due for its answer
   * from when it arrived), moved on where a test needs time to pass.
   */
  const now = new Date();
  let cloudNow: Date | null = null;

  beforeAll(async () => {
    cloud = await startWhatsappCloudMock({ now: () => cloudNow ?? new Date() });
    for (const [name, value] of Object.entries(cloud.env)) vi.stubEnv(name, value);
    client = cloudApiClient({ apiUrl: cloud.apiUrl, token: cloud.token, phoneNumberId: cloud.phoneNumberId });
    test = await createTestDatabase("seeded");
    const secondHandle = test.env.DATABASE_URL ? await openDatabase({ kind: "postgres", url: test.env.DATABASE_URL }) : null;
    second = { db: secondHandle?.db ?? test.db, handle: secondHandle };
    webhooks.push(await serveWhatsappWebhook(test.db), await serveWhatsappWebhook(second.db));
    cloud.webhookUrl = webhooks[0]!.url;
  });
  afterAll(async () => {
    for (const webhook of webhooks) await webhook.close();
    await second?.handle?.close();
    await test?.close();
    await cloud?.close();
    vi.unstubAllEnvs();
  });

  const mobile = () => `9${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  /** The shop's passes after a webhook: answer what it marked, then send what that queued. */
  async function shopAnswers(at = new Date()) {
    const answered = await answerWhatsappConversations(test.db, { now: at, siteUrl });
    await sendDueWhatsappMessages(test.db, client, at);
    return answered;
  }
  const toNumber = (number: string) => cloud.accepted.filter((message) => message.to === number);
  const lastTo = (number: string) => toNumber(number).at(-1)!;
  const ordersOf = (userId: string) => test.db.select().from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.createdAt));
  const quotesOf = (number: string) =>
    test.db.select().from(whatsappRepeatQuotes).where(eq(whatsappRepeatQuotes.phone, number)).orderBy(asc(whatsappRepeatQuotes.createdAt));

  /** The checkout's first offered date for Miraflores at `at`: the earliest of its weekdays (tests' own calendar). */
  const firstMirafloresDate = (at: Date) => MIRAFLORES_DAYS.map((day) => bookableDates(day, at, 1)[0]!).sort()[0]!;

  /**
   * A customer with an account whose number is proven theirs (staff called it), and one earlier
   * order of theirs, paid: a Caja 20 L and a pack of bidón refills (the bidón carries a garantía).
   */
  async function provenCustomer(options: { orderLines?: { productId: number; variantId: number | null; quantity: number }[] } = {}) {
    const phone = mobile();
    const email = `siempre-${randomUUID().slice(0, 8)}@prueba.pe`;
    const userId = `cliente-${randomUUID()}`;
    await test.db
      .insert(users)
      .values({ id: userId, name: "Rosa Quispe", email, emailVerified: true, firstName: "Rosa", lastName: "Quispe", role: "customer", phone });
    const [refills] = await test.db.select().from(productVariants).where(eq(productVariants.sku, "VA-BH20-R3"));
    const items = options.orderLines ?? [
      { productId: 6, variantId: null, quantity: 1 },
      { productId: refills!.productId, variantId: refills!.id, quantity: 1 },
    ];
    const subtotal = items.reduce((sum, item) => sum + item.quantity * (item.variantId ? refills!.priceCents : 5990), 0);
    // Each at an address of their own: pago contra entrega bounds unpaid orders per phone and per address.
    const direccion = `Av. Larco ${Math.floor(Math.random() * 1e6)}`;
    const placed = await placeOrder(test.db, checkoutInput(now, { correo: email, telefono: phone, direccion, items, clientSubtotalCents: subtotal }), {
      now,
      provider: "sandbox",
      userId,
    });
    if (!placed.ok) throw new Error(`earlier order not placed: ${JSON.stringify(placed)}`);
    await applySandboxAction(test.db, placed.paymentId, "approve_card", { now, siteUrl });
    await recordPhoneProof(test.db, { phone: `51${phone}`, userId, orderId: null, method: "staff_phone" }, now);
    return { userId, email, phone, number: `51${phone}`, lastOrderId: placed.orderId };
  }

  /** The customer writes «lo de siempre»; the shop answers with the summary. */
  async function askForTheUsual(number: string, text = "lo de siempre") {
    expect((await cloud.customerWrites(number, text)).status).toBe(200);
    expect(await shopAnswers()).toMatchObject({ answered: 1 });
    const summary = lastTo(number);
    expect(summary.type).toBe("interactive");
    return summary;
  }

  it("answers a proven customer's «lo de siempre» with their last order, today's prices, the next date, the total and two buttons", async () => {
    const customer = await provenCustomer();
    const summary = await askForTheUsual(customer.number, "Hola, lo de siempre por favor!");

    const [quote] = await quotesOf(customer.number);
    expect(quote).toMatchObject({ userId: customer.userId, sourceOrderId: customer.lastOrderId, status: "open", districtName: "Miraflores" });
    const [lastOrder] = await test.db.select().from(orders).where(eq(orders.id, customer.lastOrderId));
    const lastItems = await test.db.select().from(orderItems).where(eq(orderItems.orderId, customer.lastOrderId)).orderBy(asc(orderItems.id));
    expect(quote!.lines.map(({ productId, variantId, quantity }) => ({ productId, variantId, quantity }))).toEqual(
      lastItems.map(({ productId, variantId, quantity }) => ({ productId, variantId, quantity })),
    );
    expect(quote!.subtotalCents).toBe(lastItems.reduce((sum, item) => sum + item.lineTotalCents, 0));
    expect(quote).toMatchObject({ address: lastOrder!.address, lat: lastOrder!.addressLat, lng: lastOrder!.addressLng, deliveryWindow: "manana" });
    expect(quote!.deliveryDate).toBe(firstMirafloresDate(quote!.createdAt));
    expect(quote!.expiresAt.getTime() - quote!.createdAt.getTime()).toBe(QUOTE_VALID_MS);

    // The interactive message as Meta takes it: body, footer, and the two reply buttons naming the summary.
    expect(summary.interactive!.buttons).toEqual([
      { id: `repeat_confirm:${quote!.id}`, title: "Confirmar" },
      { id: `repeat_change:${quote!.id}`, title: "Cambiar" },
    ]);
    const body = summary.interactive!.body;
    expect(body).toContain("Hola Rosa, este es tu pedido de siempre:");
    expect(body).toContain("• 1 × Caja de 20 L con dispensador: S/ 59.90");
    expect(body).toContain(`Dirección: ${lastOrder!.address}, Miraflores`);
    expect(body).toMatch(/Entrega: (lunes|miércoles|viernes) \d{1,2} de \w+ \(mañana, 9–12\)/);
    expect(body).toContain(`Total: S/ ${(quote!.payCents / 100).toFixed(2)}. Pagas al recibir (contra entrega, en efectivo).`);
    expect(body.length).toBeLessThanOrEqual(1024);
    // The inbound message is the shop's to answer, not staff's.
    const [inbound] = await test.db.select().from(whatsappInboundMessages).where(eq(whatsappInboundMessages.fromId, customer.number));
    expect(inbound).toMatchObject({ intent: "repeat_request", answerState: "done" });
    expect(inbound!.attendedAt).not.toBeNull();
  });

  it("answers the reminder's quick reply «Pedir lo de siempre» the same way", async () => {
    const customer = await provenCustomer();
    expect((await cloud.customerTapsQuickReply(customer.number, REPEAT_QUICK_REPLY)).status).toBe(200);
    await shopAnswers();
    expect(lastTo(customer.number).type).toBe("interactive");
    expect(await quotesOf(customer.number)).toHaveLength(1);
  });

  it("tells a number that is nobody's where to order, and orders nothing", async () => {
    const stranger = `51${mobile()}`;
    expect((await cloud.customerWrites(stranger, "Quiero mi pedido")).status).toBe(200);
    await shopAnswers();
    const answers = toNumber(stranger);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.type).toBe("text");
    expect(answers[0]!.text).toContain("Hola, para pedir por aquí necesitamos confirmar tu número.");
    expect(answers[0]!.text).toContain(`pide en ${siteUrl}`);
    expect(answers[0]!.text).toContain("hola@vidaalcalina.pe");
    expect(await quotesOf(stranger)).toEqual([]);
    expect(
      await test.db
        .select()
        .from(orders)
        .where(eq(orders.customerPhone, stranger.slice(2))),
    ).toEqual([]);
  });

  it("places exactly the summary once when «Confirmar» arrives twice at once on two processes and is answered twice at once", async () => {
    const customer = await provenCustomer();
    const summary = await askForTheUsual(customer.number);
    const [quote] = await quotesOf(customer.number);
    const before = await ordersOf(customer.userId);

    // Meta delivers the tap to two processes at the same moment (the same bytes, the same id).
    const id = `wamid.TAP${randomUUID()}`;
    const [first] = await Promise.all([cloud.customerTapsButton(summary, "Confirmar", { id, alsoTo: [webhooks[1]!.url] })]);
    expect(first.status).toBe(200);
    // Both processes' passes answer at once.
    const at = new Date();
    const reports = await Promise.all([
      answerWhatsappConversations(test.db, { now: at, siteUrl }),
      answerWhatsappConversations(second.db, { now: at, siteUrl }),
    ]);
    expect(reports.reduce((sum, report) => sum + report.answered, 0)).toBe(1);
    // And Meta delivers it once more later, after the answer (our 200 was lost).
    expect((await cloud.customerTapsButton(summary, "Confirmar", { id })).status).toBe(200);
    await shopAnswers();

    const after = await ordersOf(customer.userId);
    expect(after).toHaveLength(before.length + 1);
    const placed = after.at(-1)!;
    expect(placed.checkoutKey).toBe(repeatCheckoutKey(quote!.id));
    expect(placed).toMatchObject({
      orderType: "one-time",
      districtId: quote!.districtId,
      address: quote!.address,
      addressLat: quote!.lat,
      addressLng: quote!.lng,
      deliveryDate: quote!.deliveryDate,
      deliveryWindow: quote!.deliveryWindow,
      subtotalCents: quote!.subtotalCents,
      totalCents: quote!.totalCents,
      garantiaCreditCents: quote!.creditCents,
      customerPhone: customer.phone,
    });
    const items = await test.db.select().from(orderItems).where(eq(orderItems.orderId, placed.id)).orderBy(asc(orderItems.id));
    expect(items.map(({ productId, variantId, quantity, unitPriceCents }) => ({ productId, variantId, quantity, unitPriceCents }))).toEqual(
      quote!.lines.map(({ productId, variantId, quantity, unitPriceCents }) => ({ productId, variantId, quantity, unitPriceCents })),
    );
    const [closed] = await quotesOf(customer.number);
    expect(closed).toMatchObject({ status: "confirmed", orderId: placed.id, orderNumber: placed.orderNumber });
    // Paid at the door in cash, for what the summary said; recorded as placed by WhatsApp.
    const [payment] = await test.db.select().from(payments).where(eq(payments.orderId, placed.id));
    expect(payment).toMatchObject({ provider: "contra_entrega", status: "pending", method: "cash", amountCents: quote!.payCents });
    const [history] = await test.db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, placed.id));
    expect(history).toMatchObject({ toStatus: "pending", actor: "whatsapp" });

    // One answer to the one message: the order's number, day and what to pay at the door.
    const confirmations = toNumber(customer.number).filter((message) => message.type === "text");
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]!.text).toMatch(
      new RegExp(
        `^Listo, tu pedido ${placed.orderNumber} llega el (lunes|miércoles|viernes) \\d{1,2} de \\w+ \\(mañana, 9–12\\)\\. Pagas S/ ${(quote!.payCents / 100).toFixed(2).replace(".", "\\.")} al recibir\\.$`,
      ),
    );
    const inbound = await test.db.select().from(whatsappInboundMessages).where(eq(whatsappInboundMessages.wamid, id));
    expect(inbound).toHaveLength(1);
    expect(inbound[0]).toMatchObject({ intent: "repeat_confirm", answerState: "done", replyId: `repeat_confirm:${quote!.id}` });

    // A second tap (another message) finds the order placed: still one order, told so.
    await cloud.customerTapsButton(summary, "Confirmar");
    await shopAnswers();
    expect(await ordersOf(customer.userId)).toHaveLength(before.length + 1);
    expect(lastTo(customer.number).text).toContain(`Tu pedido ${placed.orderNumber} ya está confirmado`);
  });

  it("places the order once when its answer is tried again after a crash between the order and the reply", async () => {
    const customer = await provenCustomer();
    const summary = await askForTheUsual(customer.number);
    const before = (await ordersOf(customer.userId)).length;
    const id = `wamid.TAP${randomUUID()}`;
    await cloud.customerTapsButton(summary, "Confirmar", { id });
    await shopAnswers();
    const repliesBefore = toNumber(customer.number).length;
    // As if the pass had died after the order and before writing its answer: the message is due again.
    await test.db
      .update(whatsappInboundMessages)
      .set({ answerState: "pending", answerNextAt: new Date(), answerClaimedAt: null, answerClaimToken: null })
      .where(eq(whatsappInboundMessages.wamid, id));
    await shopAnswers();
    expect(await ordersOf(customer.userId)).toHaveLength(before + 1);
    // The answer's dedupe key is the message's id: nothing new left for the customer.
    expect(toNumber(customer.number)).toHaveLength(repliesBefore);
    const answers = await test.db
      .select()
      .from(whatsappMessages)
      .where(eq(whatsappMessages.dedupeKey, `repeat-answer:${id}`));
    expect(answers).toHaveLength(1);
  });

  it("confirms the open summary when the customer types «sí»", async () => {
    const customer = await provenCustomer();
    await askForTheUsual(customer.number);
    const before = (await ordersOf(customer.userId)).length;
    await cloud.customerWrites(customer.number, "Sí");
    await shopAnswers();
    const after = await ordersOf(customer.userId);
    expect(after).toHaveLength(before + 1);
    expect(lastTo(customer.number).text).toMatch(new RegExp(`^Listo, tu pedido ${after.at(-1)!.orderNumber} llega el `));
    const [typed] = await test.db
      .select()
      .from(whatsappInboundMessages)
      .where(and(eq(whatsappInboundMessages.fromId, customer.number), eq(whatsappInboundMessages.body, "Sí")));
    expect(typed).toMatchObject({ intent: "repeat_confirm", answerState: "done" });
  });

  it("leaves a «sí» without an open summary to staff", async () => {
    const customer = await provenCustomer();
    await cloud.customerWrites(customer.number, "si");
    await shopAnswers();
    expect(toNumber(customer.number)).toEqual([]);
    const [typed] = await test.db.select().from(whatsappInboundMessages).where(eq(whatsappInboundMessages.fromId, customer.number));
    expect(typed).toMatchObject({ intent: "message", answerState: "done", attendedAt: null });
  });

  it("answers «Cambiar» with the signed «Repetir pedido» link of the order it repeats, and orders nothing", async () => {
    const customer = await provenCustomer();
    const summary = await askForTheUsual(customer.number);
    const before = (await ordersOf(customer.userId)).length;
    await cloud.customerTapsButton(summary, "Cambiar");
    await shopAnswers();
    const answer = lastTo(customer.number);
    expect(answer.type).toBe("text");
    const link = new URL(/https?:\/\/\S+/.exec(answer.text!)![0]);
    expect(link.origin).toBe(siteUrl);
    expect(link.pathname).toBe(`/repetir-pedido/${customer.lastOrderId}`);
    expect(checkReorderToken(customer.lastOrderId, link.searchParams.get("token"), new Date())).toEqual({ valid: true, expired: false });
    expect(await ordersOf(customer.userId)).toHaveLength(before);
    const [quote] = await quotesOf(customer.number);
    expect(quote!.status).toBe("changed");
    // Its «Confirmar» afterwards places nothing.
    await cloud.customerTapsButton(summary, "Confirmar");
    await shopAnswers();
    expect(await ordersOf(customer.userId)).toHaveLength(before);
    expect(lastTo(customer.number).text).toContain("Ese resumen ya no está vigente");
  });

  it("answers «Confirmar» on a summary past its two hours with a fresh one, and orders nothing until that is confirmed", async () => {
    const customer = await provenCustomer();
    const summary = await askForTheUsual(customer.number);
    const before = (await ordersOf(customer.userId)).length;
    const [shown] = await quotesOf(customer.number);
    const afterExpiry = new Date(shown!.expiresAt.getTime() + 60_000);
    cloudNow = afterExpiry;
    try {
      await cloud.customerTapsButton(summary, "Confirmar", { at: afterExpiry });
      await shopAnswers(afterExpiry);
      expect(await ordersOf(customer.userId)).toHaveLength(before);
      const [expired, fresh] = await quotesOf(customer.number);
      expect(expired!.status).toBe("expired");
      expect(fresh!.status).toBe("open");
      expect(fresh!.deliveryDate).toBe(firstMirafloresDate(afterExpiry));
      const answer = lastTo(customer.number);
      expect(answer.type).toBe("interactive");
      expect(answer.interactive!.body).toMatch(/^Ese resumen ya venció\. Este es el actualizado:/);
      expect(answer.interactive!.buttons[0]!.id).toBe(`repeat_confirm:${fresh!.id}`);
      // The fresh one places.
      await cloud.customerTapsButton(answer, "Confirmar", { at: afterExpiry });
      await shopAnswers(afterExpiry);
      expect(await ordersOf(customer.userId)).toHaveLength(before + 1);
    } finally {
      cloudNow = null;
    }
  });

  it("answers an older summary's buttons with a note once a newer one was sent", async () => {
    const customer = await provenCustomer();
    const older = await askForTheUsual(customer.number);
    await askForTheUsual(customer.number, "REPETIR");
    const before = (await ordersOf(customer.userId)).length;
    await cloud.customerTapsButton(older, "Confirmar");
    await shopAnswers();
    expect(await ordersOf(customer.userId)).toHaveLength(before);
    expect(lastTo(customer.number).text).toContain("Ese resumen ya no está vigente");
    const statuses = (await quotesOf(customer.number)).map((quote) => quote.status);
    expect(statuses).toEqual(["replaced", "open"]);
  });

  it("refuses a tap naming another number's summary", async () => {
    const customer = await provenCustomer();
    const summary = await askForTheUsual(customer.number);
    const intruder = `51${mobile()}`;
    const forged: AcceptedMessage = { ...summary, to: intruder };
    await cloud.customerTapsButton(forged, "Confirmar");
    await shopAnswers();
    expect(
      await test.db
        .select()
        .from(orders)
        .where(inArray(orders.checkoutKey, [repeatCheckoutKey((await quotesOf(customer.number))[0]!.id)])),
    ).toEqual([]);
    const [tap] = await test.db.select().from(whatsappInboundMessages).where(eq(whatsappInboundMessages.fromId, intruder));
    expect(tap).toMatchObject({ intent: "message", attendedAt: null });
  });
  it("answers the order's confirmation once, in the conversation: the «pedido confirmado» template of an opted-in number is withheld", async () => {
    const customer = await provenCustomer();
    await recordWhatsappConsent(
      test.db,
      { phone: customer.number, granted: true, source: "profile", textShown: "Quiero avisos", userId: customer.userId },
      now,
    );
    const summary = await askForTheUsual(customer.number);
    await cloud.customerTapsButton(summary, "Confirmar");
    await shopAnswers();
    const placed = (await ordersOf(customer.userId)).at(-1)!;
    const [template] = await test.db
      .select()
      .from(whatsappMessages)
      .where(eq(whatsappMessages.dedupeKey, `order-confirmed:${placed.id}`));
    expect(template).toMatchObject({ status: "withheld" });
    expect(template!.lastError).toContain("confirmó el pedido en la conversación");
    expect(toNumber(customer.number).map((message) => message.templateName ?? message.type)).toEqual(["interactive", "text"]);
  });

  it("answers politely and orders nothing when the number already holds three orders to pay at the door", async () => {
    const customer = await provenCustomer();
    for (let order = 0; order < 3; order += 1) {
      const summary = await askForTheUsual(customer.number);
      await cloud.customerTapsButton(summary, "Confirmar");
      await shopAnswers();
      expect(lastTo(customer.number).text).toMatch(/^Listo, tu pedido /);
    }
    const before = (await ordersOf(customer.userId)).length;
    const summary = await askForTheUsual(customer.number);
    await cloud.customerTapsButton(summary, "Confirmar");
    await shopAnswers();
    expect(await ordersOf(customer.userId)).toHaveLength(before);
    const answer = lastTo(customer.number);
    expect(answer.type).toBe("text");
    expect(answer.text).toContain(UNPAID_LIMIT_MESSAGE);
    expect(answer.text).toContain(`${siteUrl}/repetir-pedido/`);
  });
  it("puts the account's summaries in its Ley 29733 export and erases their number, address and pin with it", async () => {
    const customer = await provenCustomer();
    const summary = await askForTheUsual(customer.number);
    await cloud.customerTapsButton(summary, "Cambiar");
    await shopAnswers();
    const [admin] = await test.db.select().from(users).where(eq(users.role, "admin")).limit(1);
    const actor = { id: admin!.id, email: admin!.email, role: "admin" as const, clientAddress: "127.0.0.1" };
    const exported = (await exportCustomerData(test.db, actor, customer.userId, new Date()))!;
    const [offered] = await quotesOf(customer.number);
    expect(exported.whatsapp.repeatSummaries).toEqual([
      expect.objectContaining({ phone: customer.number, address: offered!.address, lat: offered!.lat, status: "changed", totalCents: offered!.totalCents }),
    ]);
    // Nothing left open: the earlier order delivered, its comprobante at SUNAT.
    await test.db.update(deliveries).set({ status: "delivered" }).where(eq(deliveries.orderId, customer.lastOrderId));
    await test.db.update(invoices).set({ electronicStatus: "accepted" }).where(eq(invoices.orderId, customer.lastOrderId));
    expect(await anonymiseCustomer(test.db, actor, customer.userId, new Date())).toMatchObject({ ok: true });
    const [erased] = await test.db.select().from(whatsappRepeatQuotes).where(eq(whatsappRepeatQuotes.id, offered!.id));
    expect(erased).toMatchObject({
      phone: "[anonimizado]",
      address: "[anonimizado]",
      lat: null,
      lng: null,
      status: "changed",
      totalCents: offered!.totalCents,
    });
  });
  it("answers «Confirmar» with a fresh summary when the shown date is no longer offered (closed since), and orders nothing", async () => {
    const customer = await provenCustomer();
    const summary = await askForTheUsual(customer.number);
    const [shown] = await quotesOf(customer.number);
    const before = (await ordersOf(customer.userId)).length;
    await test.db.insert(deliveryClosedDays).values({ closedOn: shown!.deliveryDate, kind: "cierre", name: "Inventario" });
    try {
      await cloud.customerTapsButton(summary, "Confirmar");
      await shopAnswers();
      expect(await ordersOf(customer.userId)).toHaveLength(before);
      const [expired, fresh] = await quotesOf(customer.number);
      expect(expired!.status).toBe("expired");
      expect(fresh!.deliveryDate).not.toBe(shown!.deliveryDate);
      const answer = lastTo(customer.number);
      expect(answer.type).toBe("interactive");
      expect(answer.interactive!.body).toMatch(/^La fecha que te ofrecimos ya no está disponible\. Te proponemos esta:/);
    } finally {
      await test.db.delete(deliveryClosedDays).where(eq(deliveryClosedDays.closedOn, shown!.deliveryDate));
    }
  });

  it("answers politely and orders nothing when pago contra entrega is switched off", async () => {
    const customer = await provenCustomer();
    const summary = await askForTheUsual(customer.number);
    const before = (await ordersOf(customer.userId)).length;
    await test.db.update(siteSettings).set({ doorPaymentEnabled: false });
    try {
      await cloud.customerTapsButton(summary, "Confirmar");
      await shopAnswers();
    } finally {
      await test.db.update(siteSettings).set({ doorPaymentEnabled: true });
    }
    expect(await ordersOf(customer.userId)).toHaveLength(before);
    const answer = lastTo(customer.number);
    expect(answer.text).toMatch(/^Por ahora no ofrecemos pago contra entrega\./);
    expect(answer.text).toContain(`Puedes hacer tu pedido y pagarlo en línea aquí: ${siteUrl}/repetir-pedido/${customer.lastOrderId}?token=`);
  });
});
