import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@server/db/client";
import { DEMO_ADMIN } from "@server/db/seed/demo-accounts";
import { cookieHeader, signInCookies } from "../support/accounts";
import { createShopDatabase, startShopProcess, type ShopDatabase, type ShopProcess } from "../support/shop-process";

const SETTINGS = {
  brandName: "Vida Alcalina",
  whatsappGreeting: "¡Hola! Quisiera información.",
  contactEmail: "hola@vidaalcalina.pe",
  instagramUrl: "",
  facebookUrl: "",
  tiktokUrl: "",
  closingCtaLabel: "Compra ahora",
};

/**
 * Decision 0040: two processes on one PostgreSQL, each keeping storefront reads for ten minutes and
 * public pages for a minute. A settings change saved through one shows on the other's stored pages
 * within a few seconds — through NOTIFY, and through the once-a-second look when the listener is gone.
 */
describe("a content change reaches every process's caches within seconds", () => {
  let database: ShopDatabase;
  let handle: DatabaseHandle;
  let processes: ShopProcess[] = [];
  let adminCookie = "";

  beforeAll(async () => {
    database = await createShopDatabase();
    handle = await database.open();
    const env = { STOREFRONT_CACHE_SECONDS: "600", PAGE_CACHE_SECONDS: "60" };
    processes = await Promise.all([startShopProcess({ database, env }), startShopProcess({ database, env })]);
    adminCookie = cookieHeader(await signInCookies(processes[0]!.baseURL, DEMO_ADMIN.email, DEMO_ADMIN.password));
  });
  afterAll(async () => {
    await Promise.all(processes.map((process) => process.kill()));
    await handle?.close();
    await database?.drop();
  });

  /** The home page as an anonymous visitor gets it: the very page the process stores and replays. */
  const chatNumberOn = async (process: ShopProcess) => /wa\.me\/(\d+)/.exec(await (await fetch(`${process.baseURL}/`)).text())?.[1];
  const listeners = async () =>
    (
      (await handle.db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen storefront_cache%'`,
      )) as unknown as { rows: { n: number }[] }
    ).rows[0]!.n;

  async function saveWhatsappThroughFirstProcess(number: string) {
    const response = await fetch(`${processes[0]!.baseURL}/admin/contenido/ajustes`, {
      method: "POST",
      headers: { Origin: processes[0]!.baseURL, Cookie: adminCookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "site", whatsappNumber: number, ...SETTINGS }),
      redirect: "manual",
    });
    expect(response.status).toBe(302);
  }

  async function secondsUntilShown(process: ShopProcess, number: string): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < 10_000) {
      if ((await chatNumberOn(process)) === number) return (Date.now() - started) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return Number.POSITIVE_INFINITY;
  }

  it("shows a WhatsApp number saved through one process on the other's stored home page within a few seconds", async () => {
    // Both processes hold the home page and its reads, with the old number.
    for (const process of processes) expect([await chatNumberOn(process), await chatNumberOn(process)]).toEqual(["51987654321", "51987654321"]);
    expect(await listeners()).toBe(2);
    await saveWhatsappThroughFirstProcess("51911111111");
    expect(await secondsUntilShown(processes[1]!, "51911111111")).toBeLessThan(5);
    expect(await chatNumberOn(processes[0]!)).toBe("51911111111");
  });

  it("still shows the next change within a few seconds after the listeners' connections are cut, and the listeners come back", async () => {
    await handle.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen storefront_cache%'`,
    );
    expect(await chatNumberOn(processes[1]!)).toBe("51911111111");
    await saveWhatsappThroughFirstProcess("51922222222");
    expect(await secondsUntilShown(processes[1]!, "51922222222")).toBeLessThan(5);
    // Each process listens again a few seconds later.
    const deadline = Date.now() + 20_000;
    while ((await listeners()) < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await listeners()).toBe(2);
  });
});
