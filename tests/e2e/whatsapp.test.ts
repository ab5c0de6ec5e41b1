/**
 * Issue 25 in the browser, at phone width, against the real server wired to the local Cloud API
 * stand-in: a guest buys with the WhatsApp box ticked; the number is asked «confirmar avisos» and
 * answers SÍ (issue 39: a typed number proves nothing, so nothing else goes to it before); the demo
 * driver marks the stop «En camino» on /admin/reparto; the stand-in holds exactly one «en camino»
 * template for the customer's number, and Meta's "delivered" (posted signed to /webhooks/whatsapp)
 * shows on the staff order page. Then the stop fails and the customer picks a new date from the
 * WhatsApp button's link.
 *
 * Between the checkout and the route the delivery is moved to today's route with the server
 * stopped (the embedded database has one owner at a time; dispatch would do it on a real day).
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "@server/db/client";
import { deliveries, orders, orderStatusChanges, users } from "@server/db/schema";
import { DEMO_ADMIN, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import { limaToday } from "@core/lima-dates";
import { DEMO_CUSTOMER, signInCookies } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { expectPageError, launchBrowser, MOBILE, NOT_FOUND_DOCUMENT, openPage } from "../support/browser";
import { openCheckoutWithCart, fillCheckout } from "../support/checkout-page";
import { auditLayout } from "../support/layout-audit";
import { createShopDatabase, startShopServer, type ShopServer } from "../support/shop-server";
import { startWhatsappCloudMock, type AcceptedMessage, type WhatsappCloudMock } from "../support/whatsapp-cloud-mock";

const PHONE = { ...MOBILE, viewport: { width: 360, height: 740 } };
const NUMBER = "51987111222";
const ADDRESS = "Jr. WhatsApp 2525";

describe("WhatsApp notices at phone width (issue 25)", () => {
  let cloud: WhatsappCloudMock;
  let server: ShopServer;
  let browser: Browser;
  let database: Awaited<ReturnType<typeof createShopDatabase>>;
  let orderId = "";
  // One key across the restart, so links signed before it still open.
  const env = () => ({ ...database.env, ...cloud.env, SESSION_SECRET: secret, JOBS_INTERVAL_SECONDS: "1", METRICS_TOKEN: metricsToken });
  const metricsToken = randomBytes(16).toString("hex");

  /** How many passes of the WhatsApp job the server has finished (its /metrics counter). */
  async function whatsappPasses(): Promise<number> {
    const response = await fetch(`${server.baseURL}/metrics`, { headers: { Authorization: `Bearer ${metricsToken}` } });
    const count = /^shop_job_runs_total\{job="whatsapp"\} (\d+)$/m.exec(await response.text())?.[1];
    return Number(count ?? 0);
  }
  const secret = randomBytes(32).toString("hex");

  async function start() {
    server = await startShopServer({ env: env() });
    cloud.webhookUrl = `${server.baseURL}/webhooks/whatsapp`;
  }

  beforeAll(async () => {
    cloud = await startWhatsappCloudMock();
    database = await createShopDatabase({ templates: inject("databaseTemplates") });
    await start();
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await database?.drop();
    await cloud?.close();
  });

  /** Polls the stand-in (the jobs run every second) for a message to the customer. */
  async function waitForMessage(match: (message: AcceptedMessage) => boolean, what: string, to = NUMBER): Promise<AcceptedMessage> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const found = cloud.accepted.find((message) => message.to === to && match(message));
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`No ${what} reached the stand-in in 30 s: ${JSON.stringify(cloud.accepted.map((message) => [message.to, message.templateName]))}`);
  }

  const toCustomer = () => cloud.accepted.filter((message) => message.to === NUMBER);

  async function phoneReady(page: Page, label: string) {
    expect(await seriousAxeViolations(page, label)).toEqual([]);
    expect((await auditLayout(page)).filter((problem) => problem.kind !== "under-chat-button")).toEqual([]);
  }

  async function signedIn(account: { email: string; password: string }) {
    const cookies = await signInCookies(server.baseURL, account.email, account.password);
    const tracked = await openPage(browser, PHONE);
    await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    return tracked;
  }

  it("checkout with the WhatsApp box → the driver marks it en camino → the stand-in holds one template for the customer's number", async () => {
    const { page, errors, close } = await openPage(browser, PHONE);
    await openCheckoutWithCart(page, server.baseURL);
    await fillCheckout(page);
    await page.getByLabel("Dirección", { exact: true }).fill(ADDRESS);
    const box = page.getByLabel("Quiero recibir avisos de mis pedidos por WhatsApp");
    expect(await box.isChecked()).toBe(false);
    await box.check();
    // A number WhatsApp cannot take is refused in Spanish, and what was typed stays.
    await page.getByLabel("Celular").fill("01 555 1234");
    await page.getByRole("button", { name: "Finalizar compra" }).click();
    await page.getByText("Ingresa un celular válido de 9 dígitos que empiece con 9").first().waitFor();
    expect(await page.getByLabel("Celular").inputValue()).toBe("01 555 1234");
    expect(await box.isChecked()).toBe(true);
    await page.getByLabel("Celular").fill("987 111 222");
    await phoneReady(page, "checkout con WhatsApp");
    await page.getByRole("button", { name: "Finalizar compra" }).click();
    await page.getByRole("button", { name: "Simular pago exitoso" }).click();
    await page.getByRole("heading", { name: "Pago confirmado" }).waitFor();
    orderId = new URL(page.url()).searchParams.get("orderId") ?? "";
    expect(orderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(errors).toEqual([]);
    await close();
    // Issue 39: the box asked the number, naming the order; nothing about the order goes to it
    // before its SÍ (the payment's «pedido confirmado» was not queued: the e-mail carries it).
    const question = await waitForMessage((message) => message.templateName === "confirmar_avisos", "«confirmar avisos»");
    const [placed] = toCustomer();
    expect(placed).toBe(question);
    expect(question.bodyParameters[1]).toMatch(/^pedido [A-Z]+-\d+$/);
    // The customer answers SÍ (the template's quick reply), signed to the real server: the shop confirms inside the window it opened.
    expect((await cloud.customerWrites(NUMBER, "Sí, quiero avisos", { name: "Rosa Quispe" })).status).toBe(200);
    const ready = await waitForMessage((message) => message.type === "text", "«¡Listo!»");
    expect(ready.text).toMatch(/^¡Listo! .+ te avisará por aquí de tus pedidos y entregas\./);
    expect(toCustomer().filter((message) => message.templateName === "pedido_confirmado")).toEqual([]);

    // Dispatch puts it last on the demo driver's route of today.
    await server.stop();
    const handle = await openDatabase(
      database.env.DATABASE_URL ? { kind: "postgres", url: database.env.DATABASE_URL } : { kind: "pglite", dataDir: database.env.PGLITE_DATA_DIR! },
    );
    try {
      const [driver] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email));
      await handle.db
        .update(deliveries)
        .set({ deliveryDate: limaToday(new Date()), assignedDriverId: driver!.id, routePosition: 99, status: "scheduled" })
        .where(eq(deliveries.orderId, orderId));
      await handle.db
        .update(orders)
        .set({ deliveryDate: limaToday(new Date()) })
        .where(eq(orders.id, orderId));
    } finally {
      await handle.close();
    }
    await start();

    const driverPhone = await signedIn(DEMO_REPARTIDOR);
    await driverPhone.page.goto(`${server.baseURL}/admin/reparto`);
    const cards = driverPhone.page.getByTestId("driver-stop");
    const statuses = await cards.getByTestId("delivery-status").allTextContents();
    const ours = (await cards.allTextContents()).findIndex((text) => text.includes(ADDRESS));
    expect(ours).toBeGreaterThanOrEqual(0);
    const ahead = statuses.slice(0, ours).filter((status) => status !== "Entregado" && status !== "No entregado").length;
    const card = cards.filter({ hasText: ADDRESS });
    await card.getByRole("button", { name: "Marcar en camino" }).click();
    await driverPhone.page.getByText("Parada marcada en camino. Avisamos al cliente.").waitFor();
    expect(driverPhone.errors).toEqual([]);

    const onTheWay = await waitForMessage((message) => message.templateName === "pedido_en_camino", "«en camino»");
    expect(onTheWay.bodyParameters[0]).toBe("Rosa");
    expect(onTheWay.bodyParameters[3]).toBe(
      ahead === 1 ? "Falta 1 parada antes de la tuya" : ahead === 0 ? "Eres la siguiente parada" : `Faltan ${ahead} paradas antes de la tuya`,
    );
    // Two more passes of the job (the first may have begun before the message was sent): still
    // exactly one, and every message a template but the «¡Listo!» inside the window the SÍ opened.
    const passes = await whatsappPasses();
    await expect.poll(whatsappPasses).toBeGreaterThanOrEqual(passes + 2);
    expect(toCustomer().filter((message) => message.templateName === "pedido_en_camino")).toHaveLength(1);
    expect(toCustomer().map((message) => [message.type, message.templateName])).toEqual([
      ["template", "confirmar_avisos"],
      ["text", null],
      ["template", "pedido_en_camino"],
    ]);

    // Meta reports it delivered, signed, to the real server; staff see it on the order's page.
    expect((await cloud.reportStatus(onTheWay.wamid, "delivered")).status).toBe(200);
    const admin = await signedIn(DEMO_ADMIN);
    await admin.page.goto(`${server.baseURL}/admin/pedidos/${orderId}`);
    const whatsapp = admin.page.getByTestId("whatsapp-message");
    expect(await whatsapp.filter({ hasText: "En camino" }).getByText("Entregado", { exact: true }).count()).toBe(1);
    expect(await whatsapp.filter({ hasText: "Confirmar avisos" }).getByText("Enviado", { exact: true }).count()).toBe(1);
    await phoneReady(admin.page, "pedido con WhatsApp");

    // The customer writes back: it waits for staff in Mensajes, in the number's conversation
    // (issue 38), named by the profile name, not verified (the number is proven for a guest order, no account).
    expect((await cloud.customerWrites(NUMBER, "¿A qué hora llegan? Estoy en la oficina hasta las 6", { name: "Rosa Quispe" })).status).toBe(200);
    await admin.page.goto(`${server.baseURL}/admin/mensajes`);
    const thread = admin.page.getByTestId("whatsapp-thread").filter({ hasText: "¿A qué hora llegan?" });
    expect(await thread.getByText("1 por atender").count()).toBe(1);
    await phoneReady(admin.page, "mensajes de WhatsApp");
    await thread.getByRole("link", { name: "Rosa Quispe (nombre de WhatsApp, sin verificar)" }).click();
    await admin.page.getByRole("heading", { level: 1, name: "WhatsApp: Rosa Quispe" }).waitFor();
    // Both directions in time order: the question, the shop's «¡Listo!», the «en camino», then the new message.
    const inbound = admin.page.getByTestId("whatsapp-inbound").filter({ hasText: "¿A qué hora llegan?" });
    expect(await inbound.getByText("Por atender").count()).toBe(1);
    const outbound = admin.page.getByTestId("whatsapp-outbound");
    expect(await outbound.filter({ hasText: "En camino" }).count()).toBe(1);
    expect(await admin.page.getByRole("link", { name: "Crear pedido" }).getAttribute("href")).toBe("/admin/pedidos/nuevo?telefono=987111222");
    await phoneReady(admin.page, "conversación de WhatsApp");
    // Staff answer in free text inside the 24-hour window: it leaves by the outbox, and attends the message.
    await admin.page.getByLabel("Tu respuesta").fill("Hola Rosa, llegamos entre las 10 y las 11. ¡Gracias!");
    await admin.page.getByRole("button", { name: "Enviar respuesta" }).click();
    await admin.page.getByText("Respuesta en cola: sale por WhatsApp en unos segundos.").waitFor();
    const answered = await waitForMessage(
      (message) => message.type === "text" && message.text === "Hola Rosa, llegamos entre las 10 y las 11. ¡Gracias!",
      "the staff's answer",
    );
    expect(answered.to).toBe(NUMBER);
    expect(await admin.page.getByLabel("Tu respuesta").inputValue()).toBe("");
    await admin.page.reload();
    expect(await admin.page.getByTestId("whatsapp-inbound").filter({ hasText: "¿A qué hora llegan?" }).getByText("Atendido", { exact: true }).count()).toBe(1);
    expect(
      await admin.page
        .getByTestId("whatsapp-outbound")
        .filter({ hasText: "llegamos entre las 10 y las 11" })
        .getByText(/Enviado|Entregado|Leído/)
        .count(),
    ).toBe(1);
    expect(admin.errors).toEqual([]);
    await admin.close();
    await driverPhone.close();
  }, 240_000);

  it("a stop that fails sends the link where the customer picks the new date, at phone width", async () => {
    expect(orderId).not.toBe("");
    const driverPhone = await signedIn(DEMO_REPARTIDOR);
    await driverPhone.page.goto(`${server.baseURL}/admin/reparto`);
    const card = driverPhone.page.getByTestId("driver-stop").filter({ hasText: ADDRESS });
    await card.getByText("No se pudo entregar", { exact: true }).click();
    await card.getByLabel("Cliente ausente").check();
    await card.getByRole("button", { name: "Registrar no entregado" }).click();
    await driverPhone.page.getByText(/Registramos que no se pudo entregar/).waitFor();
    await driverPhone.close();

    const failed = await waitForMessage((message) => message.templateName === "pedido_no_entregado", "«no se pudo entregar»");
    expect(failed.buttonSuffix).toMatch(new RegExp(`^orden/${orderId}/nueva-fecha\\?token=`));

    const customer = await openPage(browser, PHONE);
    // Without the link's token the page does not exist (Chromium logs the 404 it asked for).
    expectPageError(NOT_FOUND_DOCUMENT);
    const refused = await customer.page.goto(`${server.baseURL}/orden/${orderId}/nueva-fecha`);
    expect(refused?.status()).toBe(404);
    await customer.page.goto(`${server.baseURL}/${failed.buttonSuffix}`);
    await customer.page.getByRole("heading", { name: "Elige una nueva fecha de entrega" }).waitFor();
    await phoneReady(customer.page, "nueva fecha");
    const option = customer.page.locator("fieldset label").first();
    const label = (await option.textContent()) ?? "";
    await option.getByRole("radio").check();
    await customer.page.getByRole("button", { name: "Confirmar nueva fecha" }).click();
    await customer.page.getByText(/^Listo: te lo entregaremos el /).waitFor();
    const notice = (await customer.page.getByText(/^Listo: te lo entregaremos el /).textContent()) ?? "";
    expect(notice.toLowerCase()).toContain(
      label
        .replace(/(Mañana|Tarde).*$/, "")
        .trim()
        .toLowerCase(),
    );
    expect(customer.errors.filter((error) => !/404/.test(error))).toEqual([]);
    await customer.close();
  }, 180_000);

  it("offers the box, with a mobile, at sign-up at phone width, asks the number, and records its SÍ", async () => {
    const { page, errors, close } = await openPage(browser, PHONE);
    await page.goto(`${server.baseURL}/register`);
    await page.getByLabel("Nombre", { exact: true }).fill("Lucía");
    await page.getByLabel("Apellido").fill("Torres");
    await page.getByLabel("Correo electrónico").fill(`lucia-${randomBytes(4).toString("hex")}@prueba.pe`);
    await page.getByLabel("Contraseña", { exact: true }).fill("Agua1234");
    await page.getByLabel("Confirmar contraseña", { exact: true }).fill("Agua1234");
    const box = page.getByLabel("Quiero recibir avisos de mis pedidos por WhatsApp");
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    // Without a mobile the box cannot work: refused, with what was typed kept.
    await page.getByText("Ingresa tu celular para recibir avisos por WhatsApp").waitFor();
    expect(await page.getByLabel("Nombre", { exact: true }).inputValue()).toBe("Lucía");
    expect(await page.getByLabel("Quiero recibir avisos de mis pedidos por WhatsApp").isChecked()).toBe(true);
    await phoneReady(page, "registro con WhatsApp");
    await page.getByLabel("Celular (opcional)").fill("987 333 444");
    await page.getByLabel("Contraseña", { exact: true }).fill("Agua1234");
    await page.getByLabel("Confirmar contraseña", { exact: true }).fill("Agua1234");
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    await page.waitForURL(/\/dashboard/);
    // Issue 39: the number is asked first; the profile says so until it answers SÍ.
    await page.goto(`${server.baseURL}/dashboard/perfil`);
    expect(await page.getByText("Avisos por WhatsApp").count()).toBe(1);
    expect(await page.getByText("Te enviamos un WhatsApp: responde SÍ para activarlos", { exact: true }).count()).toBe(1);
    expect(await page.getByText("Activados", { exact: true }).count()).toBe(0);
    const question = await waitForMessage((message) => message.templateName === "confirmar_avisos", "«confirmar avisos»", "51987333444");
    expect(question.bodyParameters[1]).toBe("tu cuenta");
    expect((await cloud.customerWrites("51987333444", "SI", { name: "Lucía Torres" })).status).toBe(200);
    await page.reload();
    expect(await page.getByText("Activados", { exact: true }).count()).toBe(1);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);
  it("«lo de siempre» from the demo customer's number → the summary → «Confirmar», delivered twice → one order, in her account and in Mensajes", async () => {
    const DEMO_NUMBER = "51987654321";
    const fromDemo = () => cloud.accepted.filter((message) => message.to === DEMO_NUMBER);
    const before = fromDemo().length;
    expect((await cloud.customerWrites(DEMO_NUMBER, "Hola, lo de siempre por favor", { name: "María" })).status).toBe(200);
    const summary = await waitForMessage((message) => message.type === "interactive", "the summary", DEMO_NUMBER);
    expect(summary.interactive!.body).toMatch(/^Hola María, este es tu pedido de siempre:/);
    expect(summary.interactive!.body).toContain("Pagas al recibir (contra entrega, en efectivo).");
    expect(summary.interactive!.buttons.map((button) => button.title)).toEqual(["Confirmar", "Cambiar"]);

    // The tap reaches the shop twice at the same moment, and once more later: one order, one answer.
    const id = `wamid.TAP${randomBytes(8).toString("hex")}`;
    const [first, second] = await Promise.all([
      cloud.customerTapsButton(summary, "Confirmar", { id, name: "María" }),
      cloud.customerTapsButton(summary, "Confirmar", { id, name: "María" }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const confirmed = await waitForMessage((message) => message.type === "text" && /^Listo, tu pedido /.test(message.text ?? ""), "«Listo»", DEMO_NUMBER);
    const orderNumber = /^Listo, tu pedido (VA-\d+) llega el /.exec(confirmed.text!)![1]!;
    expect(confirmed.text).toMatch(/\. Pagas S\/ \d+\.\d{2} al recibir\.$/);
    expect((await cloud.customerTapsButton(summary, "Confirmar", { id, name: "María" })).status).toBe(200);
    // Two more passes of the sender: nothing more for her than the summary and the one answer.
    const passes = await whatsappPasses();
    await expect.poll(whatsappPasses).toBeGreaterThanOrEqual(passes + 2);
    // Her stop on today's demo route may run late at this hour (issue 40's «pedido_retrasado»): not part of this conversation.
    expect(
      fromDemo()
        .slice(before)
        .filter((message) => message.templateName !== "pedido_retrasado")
        .map((message) => message.type),
    ).toEqual(["interactive", "text"]);

    // Her account lists the order (the newest, first).
    const customer = await signedIn(DEMO_CUSTOMER);
    await customer.page.goto(`${server.baseURL}/dashboard/pedidos`);
    expect(await customer.page.getByText(orderNumber, { exact: true }).filter({ visible: true }).count()).toBe(1);
    expect(customer.errors).toEqual([]);
    await customer.close();
    // Staff see the conversation under her name, answered by the shop.
    const admin = await signedIn(DEMO_ADMIN);
    await admin.page.goto(`${server.baseURL}/admin/mensajes/whatsapp/${DEMO_NUMBER}`);
    await admin.page.getByRole("heading", { level: 1, name: "WhatsApp: María Fernández" }).waitFor();
    expect(await admin.page.getByTestId("whatsapp-inbound").filter({ hasText: "Confirmar" }).getByText("Confirmó su pedido por WhatsApp").count()).toBe(1);
    const aboutTheOrder = admin.page.getByTestId("whatsapp-outbound").filter({ hasText: orderNumber });
    expect(await aboutTheOrder.filter({ hasText: "Listo, tu pedido" }).count()).toBe(1);
    // The «pedido confirmado» template said the same: withheld, and staff see why.
    expect(await aboutTheOrder.filter({ hasText: "Pedido confirmado" }).getByText("No enviado", { exact: true }).count()).toBe(1);
    expect(await aboutTheOrder.filter({ hasText: "confirmó el pedido en la conversación" }).count()).toBe(1);
    await phoneReady(admin.page, "conversación de «lo de siempre»");
    expect(admin.errors).toEqual([]);
    await admin.close();

    // In the database (the server stopped: the embedded database has one owner): one order from the
    // summary, paid at the door, placed by WhatsApp.
    await server.stop();
    const handle = await openDatabase(
      database.env.DATABASE_URL ? { kind: "postgres", url: database.env.DATABASE_URL } : { kind: "pglite", dataDir: database.env.PGLITE_DATA_DIR! },
    );
    try {
      const placed = await handle.db
        .select({ number: orders.orderNumber, provider: orders.paymentProvider })
        .from(orders)
        .innerJoin(orderStatusChanges, eq(orderStatusChanges.orderId, orders.id))
        .where(eq(orderStatusChanges.actor, "whatsapp"));
      expect(placed).toEqual([{ number: orderNumber, provider: "contra_entrega" }]);
    } finally {
      await handle.close();
    }
    await start();
  }, 120_000);
});
