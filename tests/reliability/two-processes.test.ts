import { readdir } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@server/db/client";
import { limaToday } from "@core/lima-dates";
import { cookieHeader, registerCustomer } from "../support/accounts";
import { startCulqiMock, successfulCulqiCharges, type CulqiMock } from "../support/culqi-mock";
import { expectShopInvariants } from "../support/invariants";
import { classifyOrder, orderShapes } from "../support/order-outcomes";
import { startNginx, type Nginx } from "../support/nginx";
import { freePort } from "../support/shop-server";
import {
  checkoutBody,
  createShopDatabase,
  postCheckout,
  postSandboxAction,
  startShopProcess,
  type ShopDatabase,
  type ShopProcess,
} from "../support/shop-process";
import { newCustomer, subscribe } from "../support/subscription-fixture";

const SUBSCRIBERS = 6;

/**
 * Two server processes on one PostgreSQL behind nginx, configured as docs/operations.md shows
 * (tests/support/nginx.ts), as a shop scales out:
 * what one process knows, the other must too (sessions, rate limits, prices), and the jobs both
 * run do each renewal and each email exactly once.
 */
describe("two app processes on one PostgreSQL", () => {
  let database: ShopDatabase;
  let handle: DatabaseHandle;
  let processes: ShopProcess[] = [];
  let balancer: Nginx;
  const subscriptionIds: string[] = [];

  beforeAll(async () => {
    database = await createShopDatabase();
    handle = await database.open();
    // Subscribers whose next period is due today: both processes' jobs will want to renew them.
    for (let index = 0; index < SUBSCRIBERS; index += 1)
      subscriptionIds.push(await subscribe(handle.db, await newCustomer(handle.db, `doble-proceso-${index}`), "mensual"));
    await handle.db.execute(
      sql`update subscriptions set next_billing_date = ${limaToday(new Date())} where id in (${sql.join(
        subscriptionIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
    // Deployed as documented: both processes know the shop by nginx's address and trust its headers.
    const port = await freePort();
    const env = { JOBS_INTERVAL_SECONDS: "1", STOREFRONT_CACHE_SECONDS: "2", SITE_URL: `http://127.0.0.1:${port}`, TRUST_PROXY: "true" };
    processes = await Promise.all([startShopProcess({ database, env }), startShopProcess({ database, env })]);
    balancer = await startNginx({ backends: processes.map((process) => process.baseURL), port });
  });
  afterAll(async () => {
    await balancer?.close();
    await Promise.all(processes.map((process) => process.kill()));
    await handle?.close();
    await database?.drop();
  });

  it("keeps a session made on one process valid on the other", async () => {
    const customer = await registerCustomer(balancer.baseURL);
    for (const process of processes) {
      const page = await fetch(`${process.baseURL}/dashboard`, { headers: { Cookie: cookieHeader(customer.cookies) }, redirect: "manual" });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(customer.email);
    }
  });

  it("counts failed sign-ins of both processes against one limit", async () => {
    const customer = await registerCustomer(balancer.baseURL);
    const signIn = (password: string) =>
      fetch(`${balancer.baseURL}/login`, {
        method: "POST",
        headers: { Origin: balancer.baseURL, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: customer.email, password }),
        redirect: "manual",
      });
    const before = (await balancer.served()).length;
    // Five wrong passwords, alternating between the processes: the limit is five per address.
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await signIn("Incorrecta1")).status).not.toBe(302);
    expect(new Set((await balancer.served()).slice(before))).toEqual(new Set([0, 1]));
    // Now even the right password is refused, on whichever process answers.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refused = await signIn(customer.password);
      expect(refused.status).not.toBe(302);
      expect(await refused.text()).toMatch(/Demasiados intentos/);
    }
  });

  it("prices a checkout from the database on both processes at once, and shows a new price on every page within the cache's lifetime", async () => {
    const showsPrice = async (process: ShopProcess, price: string) => (await (await fetch(`${process.baseURL}/tienda`)).text()).includes(price);
    // Each process has the store page's reads in its cache, at the old price.
    expect(await Promise.all(processes.map((process) => showsPrice(process, "59.90")))).toEqual([true, true]);
    await handle.db.execute(sql`update products set price_cents = 6490 where id = 6`);
    for (const process of processes) {
      // The old price is refused at once (the checkout never prices from a cache)…
      expect((await postCheckout(process.baseURL, checkoutBody({ correo: "precio@rel.example.pe", clientSubtotalCents: 5990 }))).status).toBe(409);
      // …and the new one accepted.
      expect((await postCheckout(process.baseURL, checkoutBody({ correo: "precio@rel.example.pe", clientSubtotalCents: 6490 }))).status).toBe(302);
    }
    // The storefront cache lives two seconds in each process: both show the new price after it.
    const deadline = Date.now() + 10_000;
    let updated = [false, false];
    while (Date.now() < deadline && updated.includes(false)) {
      updated = await Promise.all(processes.map((process) => showsPrice(process, "64.90")));
      if (updated.includes(false)) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(updated).toEqual([true, true]);
  });

  it("renews each due subscription once and sends each email once while both processes run the jobs", async () => {
    // Customers buy through the balancer meanwhile: their confirmations go out through the same jobs.
    for (let index = 0; index < 4; index += 1) {
      const checkout = await postCheckout(balancer.baseURL, checkoutBody({ correo: `balanceo${index}@rel.example.pe`, clientSubtotalCents: 6490 }));
      expect((await postSandboxAction(balancer.baseURL, checkout.headers.get("location")!, "approve_card")).headers.get("location")).toMatch(/^\/success/);
    }
    const pending = async () =>
      (
        (await handle.db.execute(sql`
        select (select count(*)::int from outbox_emails where sent_at is null) as emails,
               (select count(*)::int from subscription_periods where period_number = 2 and status <> 'paid'
                  and subscription_id in (${sql.join(
                    subscriptionIds.map((id) => sql`${id}::uuid`),
                    sql`, `,
                  )})) +
               (select count(*)::int from subscriptions where next_billing_date <= ${limaToday(new Date())}
                  and id in (${sql.join(
                    subscriptionIds.map((id) => sql`${id}::uuid`),
                    sql`, `,
                  )})) as renewals`)) as unknown as { rows: { emails: number; renewals: number }[] }
      ).rows[0]!;
    const deadline = Date.now() + 60_000;
    let left = await pending();
    while ((left.emails > 0 || left.renewals > 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      left = await pending();
    }
    expect(left).toEqual({ emails: 0, renewals: 0 });

    // One paid second period, one charge and one order for each subscriber.
    const periods = (await handle.db.execute(sql`
      select s.id, count(p.id)::int as periods, count(distinct p.order_id)::int as orders,
             (select count(*)::int from sandbox_charges c where c.charge_key like s.id::text || ':2:%' and c.paid) as charges
      from subscriptions s left join subscription_periods p on p.subscription_id = s.id and p.period_number = 2 and p.status = 'paid'
      where s.id in (${sql.join(
        subscriptionIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) group by s.id`)) as unknown as { rows: { periods: number; orders: number; charges: number }[] };
    expect(periods.rows.map(({ periods: count, orders, charges }) => ({ count, orders, charges }))).toEqual(
      Array(SUBSCRIBERS).fill({ count: 1, orders: 1, charges: 1 }),
    );

    // Each email left through exactly one process, once: one file in one of the two outboxes.
    const sent = (await handle.db.execute(sql`select id::text from outbox_emails where sent_at is not null`)) as unknown as { rows: { id: string }[] };
    const files = (await Promise.all(processes.map((process) => readdir(process.outboxDir).catch(() => [] as string[]))))
      .flat()
      .filter((name) => name.endsWith(".json"));
    for (const { id } of sent.rows)
      expect(
        files.filter((name) => name.includes(id.slice(0, 8))),
        `email ${id}`,
      ).toHaveLength(1);
    expect(files).toHaveLength(sent.rows.length);

    await expectShopInvariants(handle.db);
  });
});

/**
 * Issue 24, defect 9 (decision 0071): a double click on "Pagar" whose two posts a balancer sends to
 * two processes. Each process used to queue charges of one payment in its own memory, so both
 * called Culqi: one charged, the other's reused token was refused and failed the payment.
 */
describe("a card token double-clicked into two app processes", () => {
  let culqi: CulqiMock;
  let database: ShopDatabase;
  let processes: ShopProcess[] = [];

  beforeAll(async () => {
    culqi = await startCulqiMock();
    database = await createShopDatabase();
    const env = { CULQI_PUBLIC_KEY: culqi.publicKey, CULQI_SECRET_KEY: culqi.secretKey, CULQI_API_BASE: culqi.apiBase };
    processes = await Promise.all([startShopProcess({ database, env }), startShopProcess({ database, env })]);
  });
  afterAll(async () => {
    await Promise.all(processes.map((process) => process.kill()));
    await database?.drop();
    await culqi?.close();
  });

  it("charges the card once, and both clicks land on the receipt", async () => {
    const email = "dos-procesos@rel.example.pe";
    const checkout = await postCheckout(processes[0]!.baseURL, checkoutBody({ correo: email }));
    const paymentPath = checkout.headers.get("location")!;
    const paymentId = paymentPath.split("/").at(-1)!;
    const token = await culqi.tokenize("4111111111111111", email);
    // Culqi takes its time over the first charge: the second click arrives while it is in flight.
    culqi.delayNextCharge(800);
    const answers = await Promise.all(
      processes.map((process) =>
        fetch(`${process.baseURL}${paymentPath}`, {
          method: "POST",
          headers: { Origin: process.baseURL },
          body: new URLSearchParams({ token }),
          redirect: "manual",
        }),
      ),
    );
    expect(answers.map((answer) => answer.headers.get("location") ?? `HTTP ${answer.status}`).filter((to) => !to.startsWith("/success"))).toEqual([]);
    expect(successfulCulqiCharges(culqi).filter((charge) => charge.paymentId === paymentId)).toHaveLength(1);
    const handle = await database.open();
    try {
      expect((await orderShapes(handle.db, { emailLike: email })).map(classifyOrder)).toEqual(["paid"]);
      await expectShopInvariants(handle.db, { providerCharges: successfulCulqiCharges(culqi) });
    } finally {
      await handle.close();
    }
  });
});
