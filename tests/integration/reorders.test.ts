import { randomUUID } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { priceCartLines } from "@server/catalog/index.server";
import { updateRepeatSettings } from "@server/content/index.server";
import { orders, outboxEmails, productVariants, reorderReminders, subscriptions } from "@server/db/schema";
import { addDays, limaDayStart } from "@core/lima-dates";
import { applySandboxAction } from "@server/order-flows/index.server";
import { deliverPendingEmails } from "@server/notifications/index.server";
import { checkReorderToken, reorderCart, reorderToken, reorderUrl, sendReorderReminders, upcomingReorderReminders } from "@server/reorders/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { confirmedConsent, revokedConsent } from "../support/promotional-consent";
import { newCustomer } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Orders are placed on Tuesday 24 November 2026 (10:00 Lima) for Wednesday the 25th in Miraflores;
// every other instant is built from it and handed to the code.
const placedAt = new Date("2026-11-24T15:00:00Z");
const siteUrl = "http://shop.test";
const admin: StaffActor = { id: "staff-admin", email: "admin@demo.pe", role: "admin", clientAddress: "127.0.0.1" };
/** 10:00 in Lima on a calendar day. */
const limaMorning = (day: string) => new Date(limaDayStart(day).getTime() + 10 * 3_600_000);

describe("one-tap reorder and reminders at each customer's pace (decision 0076)", () => {
  let test: TestDatabase;
  let pack12: { productId: number; variantId: number };

  async function paidOrder(input: {
    email: string;
    userId?: string | null;
    lines?: { productId: number; variantId: number | null; quantity: number }[];
    type?: "one-time" | "subscription";
  }) {
    const lines = input.lines ?? [{ productId: 6, variantId: null, quantity: 1 }];
    const priced = await priceCartLines(test.db, lines);
    const placed = await placeOrder(
      test.db,
      checkoutInput(placedAt, {
        correo: input.email,
        items: lines,
        clientSubtotalCents: priced.subtotalCents,
        purchaseType: input.type ?? "one-time",
        direccion: "Av. Pardo 456",
        referencia: "Timbre 3",
      }),
      { now: placedAt, provider: "sandbox", userId: input.userId ?? null },
    );
    if (!placed.ok) throw new Error(`order not placed: ${JSON.stringify(placed)}`);
    if (placed.nextStep === "process_payment") await applySandboxAction(test.db, placed.paymentId, "approve_card", { now: placedAt, siteUrl });
    return placed.orderId;
  }

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [row] = await test.db
      .select({ productId: productVariants.productId, variantId: productVariants.id })
      .from(productVariants)
      .where(eq(productVariants.sku, "VA-P625-12"));
    pack12 = row ?? { productId: 1, variantId: 1 };
  });
  afterAll(() => test.close());

  describe("the signed link", () => {
    it("is valid for its order until it expires, and for nothing else", () => {
      const orderId = randomUUID();
      const token = reorderToken(orderId, new Date(placedAt.getTime() + 86_400_000));
      expect(checkReorderToken(orderId, token, placedAt)).toEqual({ valid: true, expired: false });
      expect(checkReorderToken(orderId, token, new Date(placedAt.getTime() + 2 * 86_400_000))).toEqual({ valid: true, expired: true });
      expect(checkReorderToken(randomUUID(), token, placedAt)).toEqual({ valid: false });
      expect(checkReorderToken(orderId, `${token.slice(0, -2)}xx`, placedAt)).toEqual({ valid: false });
      // The expiry is signed too: moving it forward breaks the signature.
      const [, signature] = token.split(".");
      expect(checkReorderToken(orderId, `${(Math.floor(placedAt.getTime() / 1000) + 10 * 86_400).toString(36)}.${signature}`, placedAt)).toEqual({
        valid: false,
      });
      expect(checkReorderToken(orderId, null, placedAt)).toEqual({ valid: false });
      const url = new URL(reorderUrl(orderId, { now: placedAt, siteUrl }));
      expect(url.pathname).toBe(`/repetir-pedido/${orderId}`);
      expect(checkReorderToken(orderId, url.searchParams.get("token"), new Date(placedAt.getTime() + 29 * 86_400_000))).toEqual({
        valid: true,
        expired: false,
      });
    });

    it("is in the order's confirmation e-mail", async () => {
      const orderId = await paidOrder({ email: "correo-enlace@example.pe" });
      const [email] = await test.db
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.dedupeKey, `order-confirmation:${orderId}`));
      const link = /http:\/\/shop\.test\/repetir-pedido\/[0-9a-f-]+\?token=\S+/.exec(email!.text)?.[0];
      expect(link).toBeDefined();
      expect(email!.html).toContain("Repetir pedido");
      expect(checkReorderToken(orderId, new URL(link!).searchParams.get("token"), placedAt)).toEqual({ valid: true, expired: false });
    });
  });

  describe("the cart it fills", () => {
    it("gives the order's customer the same products at today's prices, leaves out a withdrawn one with a note, and fills their last address", async () => {
      const customer = await newCustomer(test.db, "repite");
      const orderId = await paidOrder({
        email: customer.email,
        userId: customer.id,
        lines: [
          { productId: 6, variantId: null, quantity: 2 },
          { ...pack12, quantity: 1 },
        ],
      });
      await test.db.update(productVariants).set({ active: false }).where(eq(productVariants.id, pack12.variantId));
      try {
        const cart = await reorderCart(test.db, { orderId, userId: customer.id, token: null, now: placedAt });
        if (!cart.ok) throw new Error("not found");
        expect(cart.access).toBe("owner");
        expect(cart.lines.map((line) => [line.productId, line.variantId, line.quantity, line.unitPriceCents])).toEqual([[6, null, 2, 5990]]);
        expect(cart.notes).toEqual([expect.stringMatching(/ya no está disponible y no lo agregamos a tu carrito\.$/)]);
        expect(cart.purchaseType).toBe("one-time");
        expect(cart.prefill).toEqual({ districtName: "Miraflores", direccion: "Av. Pardo 456", referencia: "Timbre 3" });
      } finally {
        await test.db.update(productVariants).set({ active: true }).where(eq(productVariants.id, pack12.variantId));
      }
    });

    it("repeats a subscription's order as a one-time purchase, saying so, never as a second subscription", async () => {
      const customer = await newCustomer(test.db, "plan");
      const orderId = await paidOrder({ email: customer.email, userId: customer.id, lines: [{ ...pack12, quantity: 2 }], type: "subscription" });
      const cart = await reorderCart(test.db, { orderId, userId: customer.id, token: null, now: placedAt });
      expect(cart).toMatchObject({ ok: true, purchaseType: "one-time" });
      expect(cart.ok && cart.notes).toContain(
        "Este pedido es de una suscripción: lo repetimos como compra única, con los precios de hoy. Tu suscripción sigue igual.",
      );
    });

    it("gives a guest with a valid link the order's contact and address (never the document), and after expiry the cart alone", async () => {
      const orderId = await paidOrder({ email: "invitada@example.pe" });
      const token = reorderToken(orderId, new Date(placedAt.getTime() + 86_400_000));
      const valid = await reorderCart(test.db, { orderId, userId: null, token, now: placedAt });
      expect(valid).toMatchObject({
        ok: true,
        access: "link",
        prefill: {
          nombre: "Rosa",
          apellido: "Quispe",
          correo: "invitada@example.pe",
          telefono: "987654321",
          districtName: "Miraflores",
          direccion: "Av. Pardo 456",
        },
      });
      expect(JSON.stringify(valid)).not.toContain("45678912");

      const expired = await reorderCart(test.db, { orderId, userId: null, token, now: new Date(placedAt.getTime() + 2 * 86_400_000) });
      if (!expired.ok) throw new Error("not found");
      expect(expired.access).toBe("cart_only");
      expect(expired.prefill).toEqual({});
      expect(expired.lines).toHaveLength(1);
      expect(JSON.stringify(expired)).not.toMatch(/Av\. Pardo|987654321|invitada@/);
      expect(expired.notes).toContain("Por tu seguridad, este enlace ya no completa tus datos de contacto ni tu dirección: escríbelos o inicia sesión.");
    });

    it("shows another signed-in customer holding the link the cart only, and refuses anyone without the link or the order", async () => {
      const owner = await newCustomer(test.db, "duena");
      const other = await newCustomer(test.db, "otra");
      const orderId = await paidOrder({ email: owner.email, userId: owner.id });
      const token = reorderToken(orderId, new Date(placedAt.getTime() + 86_400_000));
      const withLink = await reorderCart(test.db, { orderId, userId: other.id, token, now: placedAt });
      expect(withLink).toMatchObject({ ok: true, access: "cart_only", prefill: {} });
      expect(await reorderCart(test.db, { orderId, userId: other.id, token: null, now: placedAt })).toEqual({ ok: false });
      expect(await reorderCart(test.db, { orderId, userId: null, token: null, now: placedAt })).toEqual({ ok: false });
      expect(await reorderCart(test.db, { orderId: randomUUID(), userId: owner.id, token: null, now: placedAt })).toEqual({ ok: false });
    });
  });

  describe("the reminders", () => {
    /** A customer who bought on each of `days` (Lima), with promotional consent unless told otherwise. */
    async function buyer(days: string[], options: { consent?: boolean; account?: boolean } = {}) {
      const customer = options.account ? await newCustomer(test.db, "ritmo") : { id: null, email: `ritmo-${randomUUID().slice(0, 8)}@example.pe` };
      const ids: string[] = [];
      for (const day of days) {
        const orderId = await paidOrder({ email: customer.email, userId: customer.id });
        await test.db
          .update(orders)
          .set({ paidAt: limaMorning(day) })
          .where(eq(orders.id, orderId));
        ids.push(orderId);
      }
      if (options.consent !== false) await confirmedConsent(test.db, customer.email, limaMorning(days[0]!));
      return { ...customer, orderIds: ids };
    }
    const remindersOf = (email: string) =>
      test.db
        .select()
        .from(outboxEmails)
        .where(and(eq(outboxEmails.toAddress, email), eq(outboxEmails.kind, "reorder-reminder")));
    const first = "2027-03-01";

    it("sends one e-mail two days before the customer usually runs out, with the reorder link, and never a second for the same interval", async () => {
      // Every 10 days, then 14: the median of 10, 10 and 14 is 10.
      const customer = await buyer([first, addDays(first, 10), addDays(first, 20), addDays(first, 34)]);
      const last = addDays(first, 34);
      expect(await remindersOf(customer.email)).toEqual([]);
      await sendReorderReminders(test.db, { now: limaMorning(addDays(last, 7)), siteUrl });
      expect(await remindersOf(customer.email)).toEqual([]);

      const due = limaMorning(addDays(last, 8));
      const [a, b] = await Promise.all([sendReorderReminders(test.db, { now: due, siteUrl }), sendReorderReminders(test.db, { now: due, siteUrl })]);
      expect(a.sent + b.sent).toBeGreaterThanOrEqual(1);
      const sent = await remindersOf(customer.email);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.subject).toBe("PUBLICIDAD: ¿Te queda agua?");
      expect(sent[0]!.text).toContain("Sueles pedir cada 10 días");
      const link = new URL(/http:\/\/shop\.test\/repetir-pedido\/\S+/.exec(sent[0]!.text)![0]);
      expect(link.pathname).toBe(`/repetir-pedido/${customer.orderIds.at(-1)}`);
      expect(checkReorderToken(customer.orderIds.at(-1)!, link.searchParams.get("token"), due)).toEqual({ valid: true, expired: false });

      await sendReorderReminders(test.db, { now: limaMorning(addDays(last, 9)), siteUrl });
      expect(await remindersOf(customer.email)).toHaveLength(1);
      const [row] = await test.db.select().from(reorderReminders).where(eq(reorderReminders.email, customer.email));
      expect(row).toMatchObject({ intervalDays: 10, runsOutOn: addDays(last, 10), channel: "email", lastOrderId: customer.orderIds.at(-1) });
    });

    it("learns nothing from a single order, and stays silent without consent, after an opt-out, for subscribers and when turned off", async () => {
      const once = await buyer([first]);
      const noConsent = await buyer([first, addDays(first, 10)], { consent: false });
      const optedOut = await buyer([first, addDays(first, 10)]);
      await revokedConsent(test.db, optedOut.email, limaMorning(addDays(first, 12)));
      const subscriber = await buyer([first, addDays(first, 10)], { account: true });
      await paidOrder({ email: subscriber.email, userId: subscriber.id!, lines: [{ ...pack12, quantity: 2 }], type: "subscription" });
      const subscription = await test.db.select().from(subscriptions).where(eq(subscriptions.userId, subscriber.id!));
      expect(subscription).toHaveLength(1);
      const paused = await buyer([first, addDays(first, 10)]);

      await updateRepeatSettings(test.db, admin, { reorderRemindersEnabled: false, garantiaComprobanteMode: "inafecto" }, limaMorning(first));
      expect(await sendReorderReminders(test.db, { now: limaMorning(addDays(first, 18)), siteUrl })).toEqual({ sent: 0 });
      expect(await remindersOf(paused.email)).toEqual([]);
      await updateRepeatSettings(test.db, admin, { reorderRemindersEnabled: true, garantiaComprobanteMode: "inafecto" }, limaMorning(first));

      await sendReorderReminders(test.db, { now: limaMorning(addDays(first, 18)), siteUrl });
      for (const silent of [once, noConsent, optedOut, subscriber]) expect(await remindersOf(silent.email)).toEqual([]);
      expect(await remindersOf(paused.email)).toHaveLength(1);
    });

    it("lists the upcoming reminders for staff, with consent only", async () => {
      const soon = await buyer([first, addDays(first, 20)]);
      const silent = await buyer([first, addDays(first, 20)], { consent: false });
      const { enabled, upcoming } = await upcomingReorderReminders(test.db, limaMorning(addDays(first, 30)));
      expect(enabled).toBe(true);
      const mine = upcoming.find((row) => row.email === soon.email);
      expect(mine).toMatchObject({ intervalDays: 20, runsOutOn: addDays(first, 40), remindOn: addDays(first, 38), sentAt: null });
      expect(upcoming.some((row) => row.email === silent.email)).toBe(false);
    });

    it("queues the reminder as a promotion, so one queued before an opt-out is withheld when it leaves", async () => {
      const customer = await buyer([first, addDays(first, 10)]);
      await sendReorderReminders(test.db, { now: limaMorning(addDays(first, 18)), siteUrl });
      const [queued] = await test.db
        .select()
        .from(outboxEmails)
        .where(like(outboxEmails.dedupeKey, "reorder-reminder:%"))
        .then((rows) => rows.filter((row) => row.toAddress === customer.email));
      expect(queued).toMatchObject({ kind: "reorder-reminder", status: "pending" });
      expect(queued!.text).toContain("Dejar de recibir promociones");
      await revokedConsent(test.db, customer.email, limaMorning(addDays(first, 18)));
      const delivered: string[] = [];
      await deliverPendingEmails(
        test.db,
        {
          send: async (message) => {
            delivered.push(`${message.kind}:${message.to}`);
          },
        },
        limaMorning(addDays(first, 18)),
        { siteUrl },
      );
      expect(delivered).toContain(`order-confirmation:${customer.email}`);
      expect(delivered).not.toContain(`reorder-reminder:${customer.email}`);
      const [after] = await test.db.select().from(outboxEmails).where(eq(outboxEmails.id, queued!.id));
      expect(after!.status).toBe("withheld");
    });
  });
});
