/**
 * Issue 38: a newcomer tries «lo de siempre» on the local demo, without Meta. `npm run
 * whatsapp:say` posts the demo customer's message to the shop's webhook signed with the machine's
 * local key; the shop answers into the outbox folder; `--boton Confirmar` taps the summary's button
 * read from there, and the order is placed. A body signed with anything else is refused.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { orders, orderStatusChanges, users } from "@server/db/schema";
import { DEMO_CUSTOMER } from "@server/db/seed/demo-credentials";
import { localOutboxClient, sendDueWhatsappMessages } from "@server/whatsapp/index.server";
import { answerWhatsappConversations } from "@server/whatsapp-orders/index.server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { signBody } from "../support/whatsapp-cloud-mock";
import { serveWhatsappWebhook } from "../support/whatsapp-webhook-route";

const run = promisify(execFile);
const siteUrl = "http://shop.test";

describe("the local demo's «lo de siempre» (npm run whatsapp:say)", () => {
  let test: TestDatabase;
  let webhook: { url: string; close(): Promise<void> };
  const secret = randomBytes(32).toString("hex");
  const outbox = mkdtempSync(path.join(tmpdir(), "wa-say-"));

  beforeAll(async () => {
    vi.stubEnv("WHATSAPP_LOCAL_OUTBOX", "true");
    vi.stubEnv("SESSION_SECRET", secret);
    vi.stubEnv("OUTBOX_DIR", outbox);
    test = await createTestDatabase("seeded");
    webhook = await serveWhatsappWebhook(test.db);
  });
  afterAll(async () => {
    await webhook?.close();
    await test?.close();
    vi.unstubAllEnvs();
    rmSync(outbox, { recursive: true, force: true });
  });

  /** The script, as `npm run whatsapp:say -- …` runs it, pointed at this shop. */
  const say = (...args: string[]) =>
    run(process.execPath, ["scripts/whatsapp-say.mjs", ...args], {
      env: { ...process.env, SESSION_SECRET: secret, OUTBOX_DIR: outbox, SHOP_URL: webhook.url.replace(/\/webhooks\/whatsapp$/, "") },
    });
  /** The shop's passes: answer, then write what the answer queued into the outbox folder. */
  async function shopAnswers() {
    const at = new Date();
    await answerWhatsappConversations(test.db, { now: at, siteUrl });
    await sendDueWhatsappMessages(test.db, localOutboxClient(outbox), at);
  }
  const written = (extension: ".txt" | ".json") =>
    readdirSync(outbox)
      .filter((name) => name.endsWith(extension))
      .sort()
      .map((name) => readFileSync(path.join(outbox, name), "utf8"));

  it("answers the demo customer's «lo de siempre» into the outbox, and her «Confirmar» tapped from there places one order", async () => {
    await say("lo de siempre");
    await shopAnswers();
    const [summary] = written(".json").map((text) => JSON.parse(text) as { to: string; type: string; interactive: { body: { text: string } } });
    expect(summary).toMatchObject({ to: "51987654321", type: "interactive" });
    expect(summary!.interactive.body.text).toMatch(/^Hola María, este es tu pedido de siempre:/);

    await say("--boton", "Confirmar");
    await shopAnswers();
    const [customer] = await test.db.select().from(users).where(eq(users.email, DEMO_CUSTOMER.email));
    const placed = await test.db
      .select({ number: orders.orderNumber })
      .from(orders)
      .innerJoin(orderStatusChanges, eq(orderStatusChanges.orderId, orders.id))
      .where(and(eq(orders.userId, customer!.id), eq(orderStatusChanges.actor, "whatsapp")));
    expect(placed).toHaveLength(1);
    expect(written(".txt").some((text) => text.includes(`Listo, tu pedido ${placed[0]!.number} llega el `))).toBe(true);
  });

  it("refuses a body signed with any other key, and a tap with no summary to tap", async () => {
    const body = JSON.stringify({ object: "whatsapp_business_account", entry: [] });
    const forged = await fetch(webhook.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signBody(body, secret) },
      body,
    });
    expect(forged.status).toBe(403);
    await expect(say("--de", "51999888777", "--boton", "Confirmar")).rejects.toMatchObject({ code: 1 });
  });
});
