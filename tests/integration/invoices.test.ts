import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { findLegalText, getIssuer } from "@server/content/index.server";
import { invoices, orders, outboxEmails, siteSettings, users } from "@server/db/schema";
import { emailInvoicesToUser, findInvoiceForUser, invoicesArchiveForUser, listInvoicesForUser, renderInvoicePdf } from "@server/invoices/index.server";
import { runDueJobs } from "@server/jobs/index.server";
import { deliverPendingEmails, folderTransport } from "@server/notifications/deliver";
import { applySandboxAction } from "@server/order-flows/index.server";
import { checkoutInput, type CheckoutOverrides } from "../support/checkout-fixture";
import { pdfPlainText } from "../support/pdf-text";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// 22:00 on Tuesday 24 November in Lima, already Wednesday 25 in UTC.
const now = new Date("2026-11-25T03:00:00Z");
const siteUrl = "http://shop.test";

describe("the customer's invoices", () => {
  let test: TestDatabase;
  let outbox: string;
  const ana = { id: randomUUID(), email: `ana-${randomUUID().slice(0, 6)}@example.pe`, firstName: "Ana" };
  const beto = { id: randomUUID(), email: `beto-${randomUUID().slice(0, 6)}@example.pe`, firstName: "Beto" };
  const ids: Record<string, string> = {};

  async function addUser(user: { id: string; email: string; firstName: string }) {
    await test.db
      .insert(users)
      .values({ id: user.id, name: `${user.firstName} Test`, email: user.email, emailVerified: true, firstName: user.firstName, lastName: "Test" });
  }

  /** A paid order through the real checkout and sandbox payment, then attached to the account. */
  async function paidInvoiceFor(userId: string, overrides: CheckoutOverrides = {}, issuedAt?: Date) {
    // 22:00 in Lima is past the cut-off for Wednesday's delivery: Friday is the first bookable day.
    const placed = await placeOrder(test.db, checkoutInput(now, { diaHabil: 5, fecha: "2026-11-27", ...overrides }), { now, provider: "sandbox" });
    if (!placed.ok) throw new Error(`order not placed: ${JSON.stringify(placed)}`);
    await applySandboxAction(test.db, placed.paymentId, "approve_card", { now, siteUrl });
    await test.db.update(orders).set({ userId }).where(eq(orders.id, placed.orderId));
    if (issuedAt) await test.db.update(invoices).set({ issuedAt, dueDate: "2026-10-01" }).where(eq(invoices.orderId, placed.orderId));
    const [invoice] = await test.db.select().from(invoices).where(eq(invoices.orderId, placed.orderId));
    return invoice!;
  }

  /** An unpaid invoice due on `dueDate` (as the demo data and credit sales have). */
  async function unpaidInvoiceFor(userId: string, dueDate: string) {
    const invoice = await paidInvoiceFor(userId);
    await test.db.update(invoices).set({ status: "pending", dueDate, paidAt: null }).where(eq(invoices.id, invoice.id));
    return invoice;
  }

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    outbox = await mkdtemp(path.join(tmpdir(), "invoices-outbox-"));
    await addUser(ana);
    await addUser(beto);
    ids.anaPaidOld = (await paidInvoiceFor(ana.id, { nombre: "Ana", apellido: "Test" }, new Date("2026-10-01T15:00:00Z"))).id;
    ids.anaFactura = (
      await paidInvoiceFor(ana.id, {
        ruc: "20131312955",
        razonSocial: "Estudio Test S.A.C.",
        items: [{ productId: 6, variantId: null, quantity: 2 }],
        clientSubtotalCents: 11980,
      })
    ).id;
    ids.anaDueToday = (await unpaidInvoiceFor(ana.id, "2026-11-24")).id;
    ids.anaDueYesterday = (await unpaidInvoiceFor(ana.id, "2026-11-23")).id;
    ids.beto = (await paidInvoiceFor(beto.id)).id;
  });
  afterAll(async () => {
    await test.close();
    await rm(outbox, { recursive: true, force: true });
  });

  it("lists only the customer's own invoices, unpaid first by due date, then paid newest first", async () => {
    const list = await listInvoicesForUser(test.db, ana.id, { now });
    expect(list.map((invoice) => invoice.id)).toEqual([ids.anaDueYesterday, ids.anaDueToday, ids.anaFactura, ids.anaPaidOld]);
    expect(list.map((invoice) => invoice.id)).not.toContain(ids.beto);
    expect(list[2]).toMatchObject({
      invoiceNumber: expect.stringMatching(/^F001-\d{8}$/),
      orderNumber: expect.stringMatching(/^VA-\d{6}$/),
      totalCents: 11980,
      status: "paid",
      paymentMethod: "card",
      issuedOn: "2026-11-24",
    });
    expect((await listInvoicesForUser(test.db, beto.id, { now })).map((invoice) => invoice.id)).toEqual([ids.beto]);
  });

  it("computes overdue from the due date in Lima's calendar, not the server's", async () => {
    const status = async (at: Date) =>
      Object.fromEntries((await listInvoicesForUser(test.db, ana.id, { now: at })).map((invoice) => [invoice.id, invoice.status]));
    // Still the 24th in Lima: due today is pending, due yesterday is overdue.
    expect(await status(now)).toMatchObject({ [ids.anaDueToday!]: "pending", [ids.anaDueYesterday!]: "overdue", [ids.anaFactura!]: "paid" });
    // Half past midnight in Lima on the 25th: due the 24th is now overdue.
    expect(await status(new Date("2026-11-25T05:30:00Z"))).toMatchObject({ [ids.anaDueToday!]: "overdue" });
  });

  it("finds an invoice with its order, items, delivery, district and customer for its owner only", async () => {
    const invoice = await findInvoiceForUser(test.db, ana.id, ids.anaFactura!, { now });
    expect(invoice).toMatchObject({
      documentType: "factura",
      status: "paid",
      totalCents: 11980,
      customer: { name: "Estudio Test S.A.C.", documentType: "ruc", documentNumber: "20131312955" },
      order: { districtName: "Miraflores", address: "Av. Larco 123", subtotalCents: 11980 },
      district: { name: "Miraflores", province: "Lima" },
      delivery: { deliveryDate: "2026-11-27", deliveryWindow: "manana", districtName: "Miraflores" },
    });
    expect(invoice!.items).toEqual([expect.objectContaining({ quantity: 2, unitPriceCents: 5990, lineTotalCents: 11980 })]);
    expect(invoice!.taxableCents + invoice!.igvCents).toBe(11980);

    expect(await findInvoiceForUser(test.db, beto.id, ids.anaFactura!, { now })).toBeNull();
    expect(await findInvoiceForUser(test.db, ana.id, randomUUID(), { now })).toBeNull();
    expect(await findInvoiceForUser(test.db, ana.id, "not-a-uuid'; drop table invoices;--", { now })).toBeNull();
  });

  it("prints the boleta with its number, the customer's DNI, the IGV and the amount in words", async () => {
    const invoice = (await findInvoiceForUser(test.db, ana.id, ids.anaPaidOld!, { now }))!;
    const pdf = await renderInvoicePdf(invoice, await getIssuer(test.db));
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const text = pdfPlainText(pdf);
    expect(text).toContain("BOLETA DE VENTA ELECTRÓNICA");
    expect(text).toContain(invoice.invoiceNumber);
    expect(text).toContain("DNI: 45678912");
    expect(text).toContain("Ana Test");
    expect(text).toContain("Op. gravada 50.76");
    expect(text).toContain("IGV 18% 9.14");
    expect(text).toContain("Importe total S/ 59.90");
    expect(text).toContain("SON: CINCUENTA Y NUEVE CON 90/100 SOLES");
    expect(text).toContain("R.U.C. 20601234565");
  });

  it("names the issuer from the site settings on the PDF and the legal pages alike", async () => {
    await test.db
      .update(siteSettings)
      .set({ issuerLegalName: "AGUAS DEL RÍMAC S.A.C.", issuerRuc: "20512345671", issuerFiscalAddress: "Jr. Cusco 120, Cercado de Lima", issuerIsDemo: false });
    try {
      const invoice = (await findInvoiceForUser(test.db, ana.id, ids.anaPaidOld!, { now }))!;
      const text = pdfPlainText(await renderInvoicePdf(invoice, await getIssuer(test.db)));
      expect(text).toContain("R.U.C. 20512345671");
      expect(text).toContain("AGUAS DEL RÍMAC S.A.C.");
      expect(text).toContain("Domicilio fiscal: Jr. Cusco 120, Cercado de Lima");
      expect(text).not.toContain("no tiene validez tributaria");
      for (const slug of ["terminos-condiciones", "politica-privacidad"] as const) {
        const legal = (await findLegalText(test.db, slug))!;
        expect(legal.html).toContain("<strong>AGUAS DEL RÍMAC S.A.C.</strong>, con RUC N.° 20512345671 y domicilio en Jr. Cusco 120, Cercado de Lima");
        expect(legal.html).not.toContain("{{");
      }
    } finally {
      await test.db.update(siteSettings).set({
        issuerLegalName: "VIDA ALCALINA S.A.C.",
        issuerRuc: "20601234565",
        issuerFiscalAddress: "Av. Benavides 1555, of. 302, Miraflores, Lima, Perú",
        issuerIsDemo: true,
      });
    }
  });

  it("prints the factura with the customer's RUC and razón social", async () => {
    const invoice = (await findInvoiceForUser(test.db, ana.id, ids.anaFactura!, { now }))!;
    const text = pdfPlainText(await renderInvoicePdf(invoice, await getIssuer(test.db)));
    expect(text).toContain("FACTURA ELECTRÓNICA");
    expect(text).toMatch(/F001-\d{8}/);
    expect(text).toContain("RUC: 20131312955");
    expect(text).toContain("Razón social: Estudio Test S.A.C.");
    expect(text).toContain("SON: CIENTO DIECINUEVE CON 80/100 SOLES");
  });

  it("zips one PDF per invoice, named by its number", async () => {
    const archive = await invoicesArchiveForUser(test.db, ana.id, { now });
    expect(archive).toMatchObject({ filename: "facturas.zip", contentType: "application/zip" });
    const files = unzipSync(new Uint8Array(archive.content));
    const list = await listInvoicesForUser(test.db, ana.id, { now });
    expect(Object.keys(files).sort()).toEqual(list.map((invoice) => `${invoice.invoiceNumber}.pdf`).sort());
    for (const [name, content] of Object.entries(files)) {
      expect(Buffer.from(content.subarray(0, 5)).toString()).toBe("%PDF-");
      expect(pdfPlainText(Buffer.from(content))).toContain(name.replace(".pdf", ""));
    }
  });

  it("queues one email however often it is asked, and delivers it with every PDF attached", async () => {
    const [first, second] = await Promise.all([emailInvoicesToUser(test.db, ana, { now, siteUrl }), emailInvoicesToUser(test.db, ana, { now, siteUrl })]);
    expect([first.status, second.status].sort()).toEqual(["already_sent", "queued"]);
    expect(await emailInvoicesToUser(test.db, ana, { now, siteUrl })).toEqual({ status: "already_sent", to: ana.email, count: 4 });
    const rows = await test.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, ana.email));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.kind).toBe("invoices");
    expect(rows[0]!.attachments?.map((ref) => ref.id).sort()).toEqual([ids.anaPaidOld, ids.anaFactura, ids.anaDueToday, ids.anaDueYesterday].sort());
    expect(rows[0]!.text).toContain(`${siteUrl}/dashboard/facturas`);

    // Without a renderer the email waits rather than leave without its files.
    expect(await deliverPendingEmails(test.db, folderTransport(outbox), now)).toMatchObject({ failed: 1 });
    const [waiting] = await test.db.select().from(outboxEmails).where(eq(outboxEmails.id, rows[0]!.id));
    expect(waiting).toMatchObject({ sentAt: null, lastError: expect.stringContaining("attachment") });

    // The jobs' pass, once the failed attempt's backoff has passed, renders the PDFs and sends it.
    await runDueJobs(test.db, { now: waiting!.nextAttemptAt, transport: folderTransport(outbox), siteUrl });
    const [sent] = await test.db.select().from(outboxEmails).where(eq(outboxEmails.id, rows[0]!.id));
    expect(sent!.sentAt).not.toBeNull();

    const files = await readdir(outbox);
    const jsonName = files.find((file) => file.endsWith(".json") && file.includes("-invoices-"))!;
    const email = JSON.parse(await readFile(path.join(outbox, jsonName), "utf8")) as {
      to: string;
      attachments: { filename: string; file: string; contentType: string }[];
    };
    expect(email.to).toBe(ana.email);
    const list = await listInvoicesForUser(test.db, ana.id, { now });
    expect(email.attachments.map((file) => file.filename).sort()).toEqual(list.map((invoice) => `${invoice.invoiceNumber}.pdf`).sort());
    for (const attachment of email.attachments) {
      expect(attachment.contentType).toBe("application/pdf");
      expect((await readFile(path.join(outbox, attachment.file))).subarray(0, 5).toString()).toBe("%PDF-");
    }
    const eml = await readFile(path.join(outbox, jsonName.replace(/\.json$/, ".eml")), "utf8");
    expect(eml).toContain("Content-Type: application/pdf");
    expect(eml).toContain(`filename=${list[0]!.invoiceNumber}.pdf`);
  });

  it("sends nothing for a customer without invoices", async () => {
    const carla = { id: randomUUID(), email: "carla@example.pe", firstName: "Carla" };
    await addUser(carla);
    expect(await emailInvoicesToUser(test.db, carla, { now, siteUrl })).toEqual({ status: "no_invoices", to: carla.email, count: 0 });
    expect(unzipSync(new Uint8Array((await invoicesArchiveForUser(test.db, carla.id, { now })).content))).toEqual({});
  });
});
