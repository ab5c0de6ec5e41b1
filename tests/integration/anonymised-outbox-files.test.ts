import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { anonymiseGuest } from "@server/customers/index.server";
import { deliveries, invoices, outboxEmails, users } from "@server/db/schema";
import { runDueJobs } from "@server/jobs/index.server";
import { applySandboxAction } from "@server/order-flows/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { expectConsoleError } from "../support/fail-on-console-error";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * Issue 39, finding 8: without SMTP every e-mail is also a set of files in OUTBOX_DIR (.eml, .html,
 * .json, attachments), and the local WhatsApp stand-in writes its messages there too. Anonymising a
 * person erases the rows and, with them, these copies: afterwards no file in the folder carries
 * their name, e-mail or phone, and other people's files are left alone.
 */
describe("the local outbox's files go with an anonymised person's rows", () => {
  let test: TestDatabase;
  let outbox: string;
  let admin: StaffActor;
  const siteUrl = "http://shop.test";

  beforeAll(async () => {
    outbox = await mkdtemp(path.join(tmpdir(), "shop-outbox-"));
    // Read once, on first use, after this: e-mails and WhatsApp messages both land in `outbox`.
    vi.stubEnv("OUTBOX_DIR", outbox);
    vi.stubEnv("SMTP_URL", "");
    vi.stubEnv("WHATSAPP_LOCAL_OUTBOX", "true");
    test = await createTestDatabase("seeded");
    const email = `admin-${randomUUID().slice(0, 8)}@demo.pe`;
    await test.db.insert(users).values({ id: `staff-${email}`, name: "Ana", email, emailVerified: true, firstName: "Ana", lastName: "Admin", role: "admin" });
    admin = { id: `staff-${email}`, email, role: "admin", clientAddress: "127.0.0.1" };
  }, 60_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await test?.close();
    await rm(outbox, { recursive: true, force: true });
  });

  /** A guest's paid order with WhatsApp ticked, its e-mails and WhatsApp messages sent to the outbox, then delivered and invoiced. */
  async function guestWithSentMessages(person: { nombre: string; apellido: string; correo: string; telefono: string }) {
    const now = new Date();
    const placed = await placeOrder(test.db, checkoutInput(now, { ...person, whatsapp: true }), {
      now,
      provider: "sandbox",
      client: { address: "203.0.113.7", userAgent: "Prueba/1.0" },
    });
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
    await applySandboxAction(test.db, placed.paymentId, "approve_card", { now, siteUrl });
    const report = await runDueJobs(test.db, { now: new Date(now.getTime() + 60_000), siteUrl, only: ["emails", "whatsapp"] });
    expect(report.failures).toEqual([]);
    // Anonymisation waits for the delivery and the comprobante (decision 0061).
    await test.db.update(deliveries).set({ status: "delivered" }).where(eq(deliveries.orderId, placed.orderId));
    await test.db.update(invoices).set({ electronicStatus: "accepted" }).where(eq(invoices.orderId, placed.orderId));
    return placed.orderId;
  }

  /** Every file of the outbox folder with its text. */
  async function outboxFiles(): Promise<{ name: string; text: string }[]> {
    const names = await readdir(outbox);
    return Promise.all(names.map(async (name) => ({ name, text: await readFile(path.join(outbox, name), "latin1") })));
  }
  const mentioning = (files: { name: string; text: string }[], ...traces: string[]) =>
    files.filter((file) => traces.some((trace) => file.text.includes(trace))).map((file) => file.name);

  it("removes the anonymised guest's e-mail and WhatsApp files and keeps everyone else's", async () => {
    const rosa = { nombre: "Zenobia", apellido: "Huallpa", correo: `zenobia-${randomUUID().slice(0, 8)}@prueba.pe`, telefono: "987650001" };
    const other = { nombre: "Casimira", apellido: "Ticona", correo: `casimira-${randomUUID().slice(0, 8)}@prueba.pe`, telefono: "987650002" };
    const orderId = await guestWithSentMessages(rosa);
    await guestWithSentMessages(other);

    // Her order's e-mails and WhatsApp message were written with her name, address and number.
    const before = await outboxFiles();
    const hers = mentioning(before, rosa.correo, rosa.apellido, `51${rosa.telefono}`);
    expect(hers.some((name) => name.endsWith(".eml"))).toBe(true);
    expect(hers.some((name) => name.includes("-whatsapp-"))).toBe(true);
    const theirs = mentioning(before, other.correo, other.apellido, `51${other.telefono}`);
    expect(theirs.length).toBeGreaterThan(0);

    expect(await anonymiseGuest(test.db, admin, orderId, new Date())).toMatchObject({ ok: true, alreadyAnonymized: false });

    const after = await outboxFiles();
    expect(mentioning(after, rosa.correo, rosa.apellido, rosa.nombre, rosa.telefono)).toEqual([]);
    expect(after.map((file) => file.name)).toEqual(expect.arrayContaining(theirs));
    // A second run finds her anonymised and has nothing left to remove.
    expect(await anonymiseGuest(test.db, admin, orderId, new Date())).toMatchObject({ ok: true });
  });

  it("rolls the anonymisation back, naming the file, when one cannot be removed; the retry erases everything", async () => {
    const person = { nombre: "Eleuteria", apellido: "Mamani", correo: `eleuteria-${randomUUID().slice(0, 8)}@prueba.pe`, telefono: "987650003" };
    const orderId = await guestWithSentMessages(person);
    const eml = mentioning(await outboxFiles(), person.correo).find((name) => name.endsWith(".eml"))!;
    expect(eml).toBeDefined();
    // Something in the way that cannot be unlinked (a folder where the .eml was): EISDIR, even for root.
    await rm(path.join(outbox, eml));
    await mkdir(path.join(outbox, eml));
    await writeFile(path.join(outbox, eml, "bloqueo"), "");

    expectConsoleError(new RegExp(`\\[outbox\\] Could not remove 1 outbox file\\(s\\): ${eml.replace(/[.-]/g, "\\$&")} \\(EISDIR\\)`));
    await expect(anonymiseGuest(test.db, admin, orderId, new Date())).rejects.toThrow(`Could not remove 1 outbox file(s): ${eml} (EISDIR)`);
    // Nothing committed: her rows still hold her address, and the staff member can press again.
    expect(await test.db.select({ id: outboxEmails.id }).from(outboxEmails).where(eq(outboxEmails.toAddress, person.correo))).not.toEqual([]);

    await rm(path.join(outbox, eml), { recursive: true });
    expect(await anonymiseGuest(test.db, admin, orderId, new Date())).toMatchObject({ ok: true, alreadyAnonymized: false });
    expect(mentioning(await outboxFiles(), person.correo, person.apellido, person.telefono)).toEqual([]);
    expect(await test.db.select({ id: outboxEmails.id }).from(outboxEmails).where(eq(outboxEmails.toAddress, person.correo))).toEqual([]);
  });
});
