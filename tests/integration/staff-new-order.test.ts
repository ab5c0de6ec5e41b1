/**
 * Issue 38, "Nuevo pedido": an order the office types in is a normal order placed by the checkout,
 * for the caller's account or as a guest's, priced by the server whatever the form says, in a slot
 * by the checkout's capacity rules (a full window only with a reason, audited), with the staff
 * member in its history and the audit log, once per form however often it is sent, and only by
 * admin and operaciones. Decision 0091.
 */
import { randomInt, randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signIn } from "@server/accounts/index.server";
import type { StaffActor } from "@server/audit/index.server";
import { loadCallerPicture } from "@server/customers/index.server";
import {
  districts,
  orderItems,
  orders,
  orderStatusChanges,
  outboxEmails,
  payments,
  promotionalConsentEvents,
  promotionalConsentRequests,
  staffActions,
  users,
  whatsappConsentEvents,
  whatsappMessages,
  whatsappOptInAsks,
} from "@server/db/schema";
import { recordPhoneProof } from "@server/contacts/index.server";
import { recordWhatsappConsent } from "@server/whatsapp/index.server";
import { DEMO_ADMIN, DEMO_CUSTOMER, DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { capacityForDay, setDefaultCapacities } from "@server/deliveries/index.server";
import { placeStaffOrder } from "@server/staff-orders/index.server";
import { NEW_ADDRESS, type StaffOrderValues } from "@core/staff-order-form";
import { MAX_OPEN_UNPAID_ORDERS } from "@core/door-payment";
import { dbContext } from "~/server/db-context.server";
import * as adminLayout from "~/routes/admin/layout";
import * as newOrder from "~/routes/admin/orders/new-order";
import { bookableDates } from "../support/lima-clock";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Tuesday 24 November 2026, 10:00 in Lima: every domain call gets this clock; Miraflores is served on Wednesdays.
const now = new Date("2026-11-24T15:00:00Z");
const WEDNESDAY = "2026-11-25";
const CAJA = { productId: 6, variantId: null, key: "6:0" };
const origin = "http://shop.test";

type Who = "anonymous" | "customer" | "repartidor" | "operaciones" | "admin";
type Module = { middleware?: unknown[]; loader?: unknown; action?: unknown };
type Handler = (args: { request: Request; params: Record<string, string>; context: RouterContextProvider }) => unknown;
type Middleware = (args: { request: Request; params: Record<string, string>; context: RouterContextProvider }, next: () => Promise<unknown>) => unknown;

describe("Nuevo pedido: the order the office types in (issue 38)", () => {
  let test: TestDatabase;
  let actor: StaffActor;
  let miraflores = 0;
  let cajaPriceCents = 0;
  const cookies = {} as Record<Who, string>;
  const tag = randomUUID().slice(0, 6);

  const values = (overrides: Partial<StaffOrderValues> = {}): StaffOrderValues => ({
    checkoutKey: randomUUID(),
    cliente: "",
    nombre: "Rosa",
    apellido: "Quispe",
    correo: `rosa-${tag}-${randomUUID().slice(0, 4)}@prueba.pe`,
    // Each order its own phone and door: contra entrega allows 3 unpaid orders per phone and per address.
    telefono: `9${randomInt(10_000_000, 100_000_000)}`,
    tipo_documento: "dni",
    dni: "45678912",
    ruc: "",
    razonSocial: "",
    direccionElegida: NEW_ADDRESS,
    districtId: String(miraflores),
    direccion: `Av. Larco ${randomInt(100, 100_000)}`,
    referencia: "Frente al parque",
    coordenadas: "",
    horario: `${WEDNESDAY}|manana`,
    motivoSobrecupo: "",
    pago: "contra_entrega",
    metodoContraEntrega: "efectivo",
    pagaCon: "",
    promociones: false,
    whatsapp: false,
    cantidades: { [CAJA.key]: "1" },
    ...overrides,
  });
  const place = (form: StaffOrderValues) => placeStaffOrder(test.db, form, { actor, now, provider: "sandbox" });
  const ordersWithKey = (key: string) => test.db.select().from(orders).where(eq(orders.checkoutKey, key));
  const auditOf = (orderId: string) =>
    test.db
      .select()
      .from(staffActions)
      .where(and(eq(staffActions.entityType, "order"), eq(staffActions.entityId, orderId)))
      .orderBy(asc(staffActions.id));

  /** A route module's loader or action behind the staff layout's middleware and its own, as the server runs it. */
  async function run(kind: "loader" | "action", who: Who, path: string, form?: Record<string, string>) {
    const headers: Record<string, string> = { origin };
    if (cookies[who]) headers.cookie = cookies[who];
    if (form) headers["content-type"] = "application/x-www-form-urlencoded";
    const request = new Request(`${origin}${path}`, { method: form ? "POST" : "GET", headers, body: form ? new URLSearchParams(form) : undefined });
    const context = new RouterContextProvider();
    context.set(dbContext, test.db);
    const args = { request, params: {}, context };
    const modules: Module[] = [adminLayout, newOrder];
    const middleware = modules.flatMap((module) => (module.middleware ?? []) as Middleware[]);
    const handler = newOrder[kind] as unknown as Handler;
    const step = async (index: number): Promise<unknown> => (index < middleware.length ? middleware[index]!(args, () => step(index + 1)) : handler(args));
    let value: unknown;
    try {
      value = await step(0);
    } catch (thrown) {
      value = thrown;
    }
    if (value instanceof Response) return { status: value.status, location: value.headers.get("location"), body: null as unknown };
    if (value && typeof value === "object" && (value as { type?: string }).type === "DataWithResponseInit") {
      const { data, init } = value as { data: unknown; init: ResponseInit | null };
      return { status: init?.status ?? 200, location: null, body: data };
    }
    if (value instanceof Error) throw value;
    return { status: 200, location: null, body: value };
  }

  /** The form as the page posts it: every field by its name, quantities as `cantidad:<key>`, ticked boxes as "on". */
  function posted(form: StaffOrderValues, extra: Record<string, string> = {}): Record<string, string> {
    const { cantidades, promociones, whatsapp, ...text } = form;
    const body: Record<string, string> = { ...text, ...extra };
    for (const [key, quantity] of Object.entries(cantidades)) body[`cantidad:${key}`] = quantity;
    if (promociones) body.promociones = "on";
    if (whatsapp) body.whatsapp = "on";
    return body;
  }

  async function signInAs(email: string, password: string): Promise<string> {
    const result = await signIn(test.db, { email, password, remember: true, client: `nuevo-pedido-${randomUUID()}` });
    if (!result.ok) throw new Error(`${email} could not sign in`);
    return result.headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .join("; ");
  }

  beforeAll(async () => {
    // The local demo's WhatsApp channel: the WhatsApp box exists (read once, before anything reads the environment).
    vi.stubEnv("WHATSAPP_LOCAL_OUTBOX", "true");
    test = await createTestDatabase("seeded");
    const [staff] = await test.db.select().from(users).where(eq(users.email, DEMO_OPERACIONES.email));
    actor = { id: staff!.id, email: staff!.email, role: "operaciones", clientAddress: "198.51.100.7" };
    const [district] = await test.db.select({ id: districts.id }).from(districts).where(eq(districts.name, "Miraflores"));
    miraflores = district!.id;
    cookies.anonymous = "";
    cookies.customer = await signInAs(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    cookies.repartidor = await signInAs(DEMO_REPARTIDOR.email, DEMO_REPARTIDOR.password);
    cookies.operaciones = await signInAs(DEMO_OPERACIONES.email, DEMO_OPERACIONES.password);
    cookies.admin = await signInAs(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const { listSellableLines } = await import("@server/catalog/index.server");
    cajaPriceCents = (await listSellableLines(test.db)).find((line) => line.productId === CAJA.productId && line.variantId === null)!.unitPriceCents;
  }, 60_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await test.close();
  });

  it("places a new customer's order as a guest's, with the staff member as its history's actor and one audit row", async () => {
    const form = values({ telefono: "+51 987 654 321", direccion: "Av. Larco 123" });
    const result = await place(form);
    expect(result).toMatchObject({ ok: true, created: true, payment: "contra_entrega" });
    if (!result.ok) return;
    const [order] = await ordersWithKey(form.checkoutKey);
    expect(order).toMatchObject({ userId: null, customerEmail: form.correo, customerPhone: "987654321", address: "Av. Larco 123", deliveryDate: WEDNESDAY });
    expect(order!.deliveryNotes).toBe("Frente al parque");
    const [first] = await test.db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, result.orderId)).orderBy(asc(orderStatusChanges.id));
    expect(first).toMatchObject({ fromStatus: null, actor: DEMO_OPERACIONES.email });
    const audit = await auditOf(result.orderId);
    expect(audit.map((row) => [row.action, row.actorEmail])).toEqual([["order.staff_created", DEMO_OPERACIONES.email]]);
    expect(audit[0]!.after).toMatchObject({ orderNumber: order!.orderNumber, customer: "new", userId: null, payment: "contra_entrega" });
    // No account is created for a new customer.
    expect(await test.db.select().from(users).where(eq(users.email, form.correo))).toEqual([]);
  });

  it("places a returning account's order in that account, at the address picked from its history", async () => {
    const email = `cuenta-${tag}@prueba.pe`;
    const [account] = await test.db
      .insert(users)
      .values({
        id: `user-${email}`,
        name: "Ana Flores",
        email,
        firstName: "Ana",
        lastName: "Flores",
        phone: "911222333",
        address: "Av. Benavides 45",
        districtId: miraflores,
      })
      .returning({ id: users.id });
    const caller = (await loadCallerPicture(test.db, `cuenta:${account!.id}`))!;
    const saved = caller.addresses.find((address) => address.address === "Av. Benavides 45")!;
    const form = values({
      cliente: caller.reference,
      correo: email,
      telefono: "911222333",
      direccionElegida: saved.key,
      districtId: "",
      direccion: "otra cosa",
    });
    const result = await place(form);
    expect(result).toMatchObject({ ok: true });
    const [order] = await ordersWithKey(form.checkoutKey);
    expect(order).toMatchObject({ userId: account!.id, address: "Av. Benavides 45", districtId: miraflores });
    expect((await auditOf(order!.id))[0]!.after).toMatchObject({ customer: "account", userId: account!.id });
  });

  it("keeps a guest caller's order a guest's, and refuses an address that is not theirs", async () => {
    const first = values();
    expect(await place(first)).toMatchObject({ ok: true });
    const [guestOrder] = await ordersWithKey(first.checkoutKey);
    const form = values({ cliente: `invitado:${guestOrder!.id}`, correo: first.correo });
    const result = await place(form);
    expect(result).toMatchObject({ ok: true });
    expect((await ordersWithKey(form.checkoutKey))[0]!.userId).toBeNull();

    const stranger = values({ cliente: `invitado:${guestOrder!.id}`, direccionElegida: "0123456789abcdef" });
    expect(await place(stranger)).toMatchObject({ ok: false, fieldErrors: { direccionElegida: expect.any(String) } });
    expect(await ordersWithKey(stranger.checkoutKey)).toEqual([]);
  });

  it("keeps every field as typed and names what to fix in Spanish, writing nothing", async () => {
    const form = values({ telefono: "12345", cantidades: { [CAJA.key]: "1,5" }, horario: "" });
    const result = await place(form);
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: {
        telefono: "Ingresa un celular válido de 9 dígitos que empiece con 9",
        items: "Escribe cantidades enteras, de 0 a 999",
        horario: "Elige la fecha y el horario de entrega.",
      },
    });
    expect(await ordersWithKey(form.checkoutKey)).toEqual([]);
  });

  it("refuses a full window without a reason, writing nothing; with one, places the order and audits the override", async () => {
    const used = (await capacityForDay(test.db, WEDNESDAY)).shop.find((row) => row.window === "tarde")!.used;
    await setDefaultCapacities(test.db, actor, [{ dayNumber: 3, window: "tarde", capacity: Math.max(used, 1) }]);
    // Fill the last place if one is left, as a customer would.
    if (used < 1) expect(await place(values({ horario: `${WEDNESDAY}|tarde` }))).toMatchObject({ ok: true });
    try {
      const refused = values({ horario: `${WEDNESDAY}|tarde` });
      expect(await place(refused)).toMatchObject({ ok: false, fieldErrors: { motivoSobrecupo: expect.stringContaining("no tiene cupos") } });
      expect(await ordersWithKey(refused.checkoutKey)).toEqual([]);

      const form = values({ horario: `${WEDNESDAY}|tarde`, motivoSobrecupo: "Cliente frecuente, la ruta de la tarde pasa por su casa" });
      const result = await place(form);
      expect(result).toMatchObject({ ok: true });
      if (!result.ok) return;
      const [order] = await ordersWithKey(form.checkoutKey);
      expect(order).toMatchObject({ deliveryDate: WEDNESDAY, deliveryWindow: "tarde" });
      const audit = await auditOf(result.orderId);
      expect(audit.map((row) => row.action)).toEqual(["order.staff_created", "order.capacity_override"]);
      expect(audit[1]).toMatchObject({
        actorEmail: DEMO_OPERACIONES.email,
        after: { reason: "Cliente frecuente, la ruta de la tarde pasa por su casa", date: WEDNESDAY, window: "tarde" },
      });
    } finally {
      await setDefaultCapacities(test.db, actor, [{ dayNumber: 3, window: "tarde", capacity: 120 }]);
    }
  });

  it("creates one order, with one audit row, for a form sent twice at once", async () => {
    const form = values();
    const [one, two] = await Promise.all([place(form), place(form)]);
    expect(one).toMatchObject({ ok: true });
    expect(two).toMatchObject({ ok: true });
    if (!one.ok || !two.ok) return;
    expect(two.orderId).toBe(one.orderId);
    expect([one.created, two.created].sort()).toEqual([false, true]);
    expect(await ordersWithKey(form.checkoutKey)).toHaveLength(1);
    expect((await auditOf(one.orderId)).filter((row) => row.action === "order.staff_created")).toHaveLength(1);
    // And once more later (a reload of the refused page, a retry): still the same order.
    expect(await place(form)).toMatchObject({ ok: true, orderId: one.orderId, created: false });
  });

  it("asks for the consent the customer gave on the phone, as every box asks, and grants nothing by itself", async () => {
    {
      const unticked = values();
      const none = await place(unticked);
      if (!none.ok) throw new Error("not placed");
      expect(await test.db.select().from(promotionalConsentRequests).where(eq(promotionalConsentRequests.email, unticked.correo))).toEqual([]);
      expect(await test.db.select().from(whatsappOptInAsks).where(eq(whatsappOptInAsks.orderId, none.orderId))).toEqual([]);

      const form = values({ telefono: "944 555 666", promociones: true, whatsapp: true });
      const result = await place(form);
      if (!result.ok) throw new Error("not placed");
      const [promotions] = await test.db.select().from(promotionalConsentRequests).where(eq(promotionalConsentRequests.email, form.correo));
      expect(promotions).toMatchObject({ source: "telefono", confirmedAt: null, clientAddress: actor.clientAddress });
      expect(await test.db.select().from(promotionalConsentEvents).where(eq(promotionalConsentEvents.email, form.correo))).toEqual([]);
      const [ask] = await test.db.select().from(whatsappOptInAsks).where(eq(whatsappOptInAsks.orderId, result.orderId));
      expect(ask).toMatchObject({ phone: "51944555666", source: "telefono", answeredAt: null });
      expect(await test.db.select().from(whatsappConsentEvents).where(eq(whatsappConsentEvents.phone, "51944555666"))).toEqual([]);
      expect((await auditOf(result.orderId))[0]!.after).toMatchObject({ consentByPhone: { promociones: "asked", whatsapp: "asked" } });
    }
  });

  describe("the page /admin/pedidos/nuevo", () => {
    const path = "/admin/pedidos/nuevo";
    // The page runs on the real clock: the first Wednesday the checkout offers now.
    const wednesday = () => bookableDates(3)[0]!;

    it("refuses anonymous visitors (to /login), customers and repartidores (the 404), page and action alike, writing nothing", async () => {
      for (const who of ["anonymous", "customer", "repartidor"] as const) {
        const form = values({ horario: `${wednesday()}|manana` });
        for (const answer of [await run("loader", who, `${path}?telefono=987654321`), await run("action", who, path, posted(form, { intent: "crear" }))]) {
          if (who === "anonymous") {
            expect(answer.status, who).toBe(302);
            expect(answer.location, who).toMatch(/^\/login\?redirectTo=%2Fadmin%2Fpedidos%2Fnuevo/);
          } else expect(answer.status, who).toBe(404);
        }
        expect(await ordersWithKey(form.checkoutKey), who).toEqual([]);
      }
    });

    it("reads a search or a caller with a control character in the URL as nothing, never a server error", async () => {
      const answer = await run("loader", "operaciones", `${path}?q=%00&cliente=cuenta%3Ax%00y&telefono=9%0012`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ query: "912", matches: [], caller: null });
    });

    it("prices the order from the catalogue: a price or total added to the form is ignored", async () => {
      const form = values({ horario: `${wednesday()}|manana`, cantidades: { [CAJA.key]: "2" } });
      const answer = await run(
        "action",
        "operaciones",
        path,
        posted(form, { intent: "crear", clientSubtotalCents: "1", total: "1", totalCents: "1", precio: "1", [`precio:${CAJA.key}`]: "1", unitPriceCents: "1" }),
      );
      expect(answer.status).toBe(302);
      expect(answer.location).toMatch(/^\/admin\/pedidos\/nuevo\?creado=[0-9a-f-]{36}&pago=contra_entrega$/);
      const [order] = await ordersWithKey(form.checkoutKey);
      expect(order).toMatchObject({ subtotalCents: 2 * cajaPriceCents, totalCents: 2 * cajaPriceCents });
      const [line] = await test.db.select().from(orderItems).where(eq(orderItems.orderId, order!.id));
      expect(line).toMatchObject({ unitPriceCents: cajaPriceCents, quantity: 2 });
      // The page shows it back to the office, and Pedidos finds it by the caller's phone.
      const shown = await run("loader", "operaciones", answer.location!);
      expect(shown.body).toMatchObject({ created: { orderNumber: order!.orderNumber, toPayCents: 2 * cajaPriceCents, payment: "contra_entrega" } });
    });

    it("«Enviar link de pago» places an online order and e-mails the customer its payment page", async () => {
      const form = values({ horario: `${wednesday()}|manana`, pago: "link" });
      const answer = await run("action", "admin", path, posted(form, { intent: "crear" }));
      expect(answer.status).toBe(302);
      expect(answer.location).toContain("pago=link&enviado=correo");
      const [order] = await ordersWithKey(form.checkoutKey);
      const [payment] = await test.db.select().from(payments).where(eq(payments.orderId, order!.id));
      const [email] = await test.db
        .select()
        .from(outboxEmails)
        .where(and(eq(outboxEmails.toAddress, form.correo), eq(outboxEmails.kind, "payment_link")));
      expect(email!.subject).toBe(`Tu link de pago del pedido ${order!.orderNumber}`);
      expect(email!.text).toContain(`/pago/sandbox/${payment!.id}`);
      // The same form again (a double click, a retry) sends nothing twice.
      await run("action", "admin", path, posted(form, { intent: "crear" }));
      expect(
        await test.db
          .select()
          .from(outboxEmails)
          .where(and(eq(outboxEmails.toAddress, form.correo), eq(outboxEmails.kind, "payment_link"))),
      ).toHaveLength(1);
    });

    it("«Enviar link de pago» also goes by WhatsApp to an account whose number is proven and receives notices", async () => {
      const email = `link-wa-${tag}@prueba.pe`;
      const phone = `9${randomInt(10_000_000, 100_000_000)}`;
      const [account] = await test.db
        .insert(users)
        .values({ id: `user-${email}`, name: "Elsa Paz", email, firstName: "Elsa", lastName: "Paz", phone })
        .returning({ id: users.id });
      await recordPhoneProof(test.db, { phone: `51${phone}`, userId: account!.id, orderId: null, method: "staff_phone", staffUserId: actor.id }, now);
      await recordWhatsappConsent(test.db, { phone: `51${phone}`, granted: true, source: "profile", userId: account!.id, email }, now);
      const form = values({ cliente: `cuenta:${account!.id}`, correo: email, telefono: phone, horario: `${wednesday()}|manana`, pago: "link" });
      const answer = await run("action", "operaciones", path, posted(form, { intent: "crear" }));
      expect(answer.location).toContain("pago=link&enviado=correo_whatsapp");
      const [order] = await ordersWithKey(form.checkoutKey);
      expect(order!.userId).toBe(account!.id);
      const [message] = await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.orderId, order!.id));
      expect(message).toMatchObject({ templateName: "link_de_pago", toPhone: `51${phone}` });
      // Sent again (a double click): nothing new, and the page still says it went by WhatsApp.
      const again = await run("action", "operaciones", path, posted(form, { intent: "crear" }));
      expect(again.location).toContain("enviado=correo_whatsapp");
      expect(await test.db.select().from(whatsappMessages).where(eq(whatsappMessages.orderId, order!.id))).toHaveLength(1);
    });

    it("«Código de pago» issues the provider's cash code and shows it to the office to dictate", async () => {
      const form = values({ horario: `${wednesday()}|manana`, pago: "codigo" });
      const answer = await run("action", "operaciones", path, posted(form, { intent: "crear" }));
      expect(answer.status).toBe(302);
      const [order] = await ordersWithKey(form.checkoutKey);
      const [payment] = await test.db
        .select()
        .from(payments)
        .where(inArray(payments.orderId, [order!.id]));
      expect(payment).toMatchObject({ status: "pending", method: "cash", paymentCode: expect.stringMatching(/^\d{8}$/) });
      const shown = await run("loader", "operaciones", answer.location!);
      expect(shown.body).toMatchObject({ created: { payment: "codigo", code: { code: payment!.paymentCode } } });
    });

    it("«Código de pago» for a phone holding the most unpaid orders allowed says so, and «Enviar link de pago» sends the link instead", async () => {
      const telefono = `9${randomInt(10_000_000, 100_000_000)}`;
      for (let held = 0; held < MAX_OPEN_UNPAID_ORDERS; held++) {
        expect(await run("action", "operaciones", path, posted(values({ telefono, horario: `${wednesday()}|manana` }), { intent: "crear" }))).toMatchObject({
          status: 302,
        });
      }
      const form = values({ telefono, horario: `${wednesday()}|manana`, pago: "codigo" });
      const answer = await run("action", "operaciones", path, posted(form, { intent: "crear" }));
      expect(answer.location).toContain("pago=codigo&codigo=limite");
      const [order] = await ordersWithKey(form.checkoutKey);
      expect((await test.db.select().from(payments).where(eq(payments.orderId, order!.id)))[0]).toMatchObject({ status: "created", paymentCode: null });
      expect((await run("loader", "operaciones", answer.location!)).body).toMatchObject({ created: { payment: "codigo", code: null, codeRefused: true } });

      const link = await run("action", "operaciones", path, { intent: "enviar_link", pedido: order!.id });
      expect(link.location).toBe(`${path}?creado=${order!.id}&pago=link&enviado=correo`);
      expect(
        await test.db
          .select()
          .from(outboxEmails)
          .where(and(eq(outboxEmails.toAddress, form.correo), eq(outboxEmails.kind, "payment_link"))),
      ).toHaveLength(1);
    });

    it("answers a form it cannot place with everything typed and the reasons, and «Lo de siempre» fills the last order without JavaScript", async () => {
      const form = values({ horario: `${wednesday()}|manana`, nombre: "", cantidades: {} });
      const answer = await run("action", "operaciones", path, posted(form, { intent: "crear" }));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        values: { ...form, nombre: "" },
        fieldErrors: { nombre: "Ingresa tu nombre", items: "Agrega al menos un producto." },
      });

      const first = values({ horario: `${wednesday()}|manana`, cantidades: { [CAJA.key]: "3" } });
      await run("action", "operaciones", path, posted(first, { intent: "crear" }));
      const [previous] = await ordersWithKey(first.checkoutKey);
      const usual = await run("action", "operaciones", path, posted(values({ cliente: `invitado:${previous!.id}` }), { intent: "lo_de_siempre" }));
      expect(usual.body).toMatchObject({ values: { cantidades: { [CAJA.key]: "3" } }, preview: { subtotalCents: 3 * cajaPriceCents } });
    });
  });
});
