import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { getStaffHome } from "@server/accounts/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { invoices, outboxEmails, refunds, staffActions } from "@server/db/schema";
import {
  comprobantesNearDeadline,
  listComprobantesForStaff,
  nubefactProvider,
  offlineComprobanteProvider,
  reissueRejectedComprobante,
  renderInvoiceAttachments,
  retryComprobante,
} from "@server/invoices/index.server";
import { runDueJobs } from "@server/jobs/index.server";
import { applySandboxAction, cancelOrderByStaff, refundOrder } from "@server/order-flows/index.server";
import { checkoutInput, type CheckoutOverrides } from "../support/checkout-fixture";
import { expectConsoleError } from "../support/fail-on-console-error";
import { pdfPlainText } from "../support/pdf-text";
import { startNubefactMock, type NubefactMock } from "../support/nubefact-mock";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Tuesday 10:00 in Lima.
const placedAt = new Date("2026-11-24T15:00:00Z");
const siteUrl = "http://shop.test";
const admin: StaffActor = { id: "staff-admin", email: "admin@demo.pe", role: "admin", clientAddress: "127.0.0.1" };
const minutes = (count: number) => new Date(placedAt.getTime() + count * 60_000);

describe("electronic comprobantes through Nubefact (decision 0045)", () => {
  let test: TestDatabase;
  let nubefact: NubefactMock;
  let provider: ReturnType<typeof nubefactProvider>;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    nubefact = await startNubefactMock();
    // Generous: a loaded machine must not turn a quick answer into a timeout (the slow test has its own).
    provider = nubefactProvider({ url: nubefact.url, token: nubefact.token, timeoutMs: 5_000 });
    nubefact.slowMs = 1_200;
  });
  afterAll(async () => {
    await nubefact.close();
    await test.close();
  });
  beforeEach(() => nubefact.setMode("accept"));

  const send = (now: Date) => runDueJobs(test.db, { now, siteUrl, only: ["comprobantes"], comprobantes: provider });
  const invoiceOf = async (id: string) => (await test.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
  const invoicesOfOrder = (orderId: string) =>
    test.db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(asc(invoices.issuedAt), asc(invoices.number));
  const storedAt = (invoice: { documentType: string; series: string; number: number }) =>
    nubefact.documents.get(`${{ factura: 1, boleta: 2, nota_credito: 3 }[invoice.documentType]}-${invoice.series}-${invoice.number}`);

  async function paidOrder(overrides: CheckoutOverrides = {}, quantity = 1) {
    const correo = `c-${randomUUID().slice(0, 8)}@example.pe`;
    const placed = await placeOrder(
      test.db,
      checkoutInput(placedAt, { correo, items: [{ productId: 6, variantId: null, quantity }], clientSubtotalCents: 5990 * quantity, ...overrides }),
      { now: placedAt, provider: "sandbox" },
    );
    if (!placed.ok) throw new Error(`order not placed: ${JSON.stringify(placed)}`);
    await applySandboxAction(test.db, placed.paymentId, "approve_card", { now: placedAt, siteUrl });
    const [invoice] = await invoicesOfOrder(placed.orderId);
    return { ...placed, correo, invoice: invoice! };
  }

  it("numbers the boleta in the payment and leaves the sending to the job, which records SUNAT's acceptance, links, QR and hash", async () => {
    const { invoice, correo } = await paidOrder({}, 2);
    expect(invoice.electronicStatus).toBe("pending");
    expect(storedAt(invoice)).toBeUndefined();

    const report = await send(minutes(1));
    expect(report.failures).toEqual([]);
    expect(report.results.comprobantes?.accepted).toBeGreaterThanOrEqual(1);
    const sent = await invoiceOf(invoice.id);
    expect(sent).toMatchObject({ electronicStatus: "accepted", sunatCode: "0", invoiceNumber: invoice.invoiceNumber });
    expect(sent.xmlUrl).toMatch(/\.xml$/);
    expect(sent.cdrUrl).toMatch(/\.cdr$/);
    expect(sent.qrText).toContain(`|02|${invoice.series}|${invoice.number}|`);
    expect(sent.hash).toBeTruthy();
    const body = storedAt(invoice)!.body;
    expect(body).toMatchObject({ tipo_de_comprobante: 2, serie: "B001", numero: invoice.number, cliente_tipo_de_documento: "1", total: 119.8 });
    expect(Math.round(Number(body.total_gravada) * 100) + Math.round(Number(body.total_igv) * 100)).toBe(11980);
    const [email] = await test.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.kind, "comprobante-accepted"), eq(outboxEmails.toAddress, correo)));
    expect(email?.text).toContain(sent.cdrUrl!);
    expect(email?.attachments).toEqual([{ kind: "invoice_pdf", id: invoice.id }]);

    // The printed form carries SUNAT's QR (an image) and the hash.
    const [pdf] = await renderInvoiceAttachments(test.db, [{ kind: "invoice_pdf", id: invoice.id }], { now: minutes(2) });
    expect(pdfPlainText(pdf!.content)).toContain(`Código hash: ${sent.hash}`);
    expect(pdf!.content.toString("latin1")).toMatch(/\/Subtype\s*\/Image/);

    // A second pass has nothing left to send.
    const generated = nubefact.generateRequests.length;
    await send(minutes(30));
    expect(nubefact.generateRequests.length).toBe(generated);
  });

  it("keeps a document SUNAT has not answered as sent and consults it later (pending, then accepted)", async () => {
    nubefact.setMode("pending-then-accept");
    const { invoice } = await paidOrder();
    await send(minutes(1));
    expect((await invoiceOf(invoice.id)).electronicStatus).toBe("sent");
    await send(minutes(2));
    expect((await invoiceOf(invoice.id)).electronicStatus).toBe("accepted");
    expect(nubefact.generateRequests.filter((body) => body.serie === invoice.series && body.numero === invoice.number)).toHaveLength(1);
  });

  it("records an accepted-with-observations answer as observed", async () => {
    nubefact.setMode("observe");
    const { invoice } = await paidOrder();
    await send(minutes(1));
    expect(await invoiceOf(invoice.id)).toMatchObject({ electronicStatus: "observed", sunatCode: "4287" });
  });

  it("burns a rejected number; staff re-issue the sale with the next number, sent and accepted, the order keeping both", async () => {
    nubefact.setMode("reject");
    const { invoice, orderId } = await paidOrder();
    await send(minutes(1));
    expect(await invoiceOf(invoice.id)).toMatchObject({ electronicStatus: "rejected", sunatCode: "2800" });

    nubefact.setMode("accept");
    const reissued = await reissueRejectedComprobante(test.db, admin, invoice.id, minutes(5));
    expect(reissued.ok).toBe(true);
    const again = await reissueRejectedComprobante(test.db, admin, invoice.id, minutes(6));
    expect(again).toEqual(reissued);
    await send(minutes(7));
    const [burnt, current] = await invoicesOfOrder(orderId);
    expect(burnt).toMatchObject({ id: invoice.id, electronicStatus: "rejected" });
    expect(current).toMatchObject({ relatedInvoiceId: invoice.id, electronicStatus: "accepted", series: "B001" });
    expect(current!.number).toBeGreaterThan(invoice.number);
    expect(reissued).toEqual({ ok: true, invoiceNumber: current!.invoiceNumber });
    const audit = await test.db
      .select()
      .from(staffActions)
      .where(and(eq(staffActions.entityId, invoice.id), eq(staffActions.action, "comprobante.reissue")));
    expect(audit).toHaveLength(1);
    // An accepted document cannot be re-issued.
    expect(await reissueRejectedComprobante(test.db, admin, current!.id, minutes(8))).toMatchObject({ ok: false, code: "refused" });
  });

  it("holds a document whose data the OSE would refuse (format error) and resends it, fixed, with the same number after Reintentar", async () => {
    const { invoice } = await paidOrder();
    // A factura without a RUC is refused for its format before anything is sent.
    await test.db.update(invoices).set({ documentType: "factura" }).where(eq(invoices.id, invoice.id));
    expectConsoleError(/refused for its format/);
    await send(minutes(1));
    const held = await invoiceOf(invoice.id);
    expect(held).toMatchObject({ electronicStatus: "format_error" });
    expect(held.lastSendError).toContain("RUC");
    expect(storedAt(held)).toBeUndefined();

    await test.db.update(invoices).set({ documentType: "boleta" }).where(eq(invoices.id, invoice.id));
    expect(await retryComprobante(test.db, admin, invoice.id, minutes(3))).toEqual({ ok: true, invoiceNumber: invoice.invoiceNumber });
    await send(minutes(3));
    expect(await invoiceOf(invoice.id)).toMatchObject({ electronicStatus: "accepted", number: invoice.number });
    const audit = await test.db
      .select()
      .from(staffActions)
      .where(and(eq(staffActions.entityId, invoice.id), eq(staffActions.action, "comprobante.retry")));
    expect(audit).toHaveLength(1);
  });

  it("survives Nubefact down for an hour: nothing lost, each document sent once under its own number on recovery", async () => {
    nubefact.setMode("down");
    const orders = [await paidOrder(), await paidOrder(), await paidOrder()];
    const ids = orders.map((order) => order.invoice.id);
    for (let minute = 0; minute <= 60; minute += 5) await send(minutes(minute));
    const during = await test.db.select().from(invoices).where(inArray(invoices.id, ids));
    expect(during.every((invoice) => invoice.electronicStatus === "pending" && invoice.sendAttempts >= 3)).toBe(true);
    expect(during.every((invoice) => storedAt(invoice) === undefined)).toBe(true);

    nubefact.setMode("accept");
    // The backoff never exceeds ten minutes: the first pass after it runs out sends everything.
    await send(minutes(71));
    const after = await test.db.select().from(invoices).where(inArray(invoices.id, ids));
    expect(after.map((invoice) => invoice.electronicStatus)).toEqual(["accepted", "accepted", "accepted"]);
    expect(after.map((invoice) => invoice.number).sort()).toEqual(orders.map((order) => order.invoice.number).sort());
    for (const invoice of after)
      expect(nubefact.generateRequests.filter((body) => body.serie === invoice.series && body.numero === invoice.number)).toHaveLength(1);
  });

  it("treats a slow answer as lost: the retry with the same number is 'already exists' (code 23), consulted and accepted", async () => {
    nubefact.setMode("slow");
    const { invoice } = await paidOrder();
    const impatient = nubefactProvider({ url: nubefact.url, token: nubefact.token, timeoutMs: 300 });
    await runDueJobs(test.db, { now: minutes(1), siteUrl, only: ["comprobantes"], comprobantes: impatient });
    expect((await invoiceOf(invoice.id)).electronicStatus).toBe("pending");
    // The mock finishes the slow request after the shop stopped waiting: it now holds the document.
    await expect.poll(() => storedAt(invoice) !== undefined, { timeout: 3_000 }).toBe(true);
    nubefact.setMode("accept");
    await send(minutes(5));
    expect(await invoiceOf(invoice.id)).toMatchObject({ electronicStatus: "accepted", number: invoice.number });
    expect(nubefact.generateRequests.filter((body) => body.serie === invoice.series && body.numero === invoice.number)).toHaveLength(2);
  });

  it("a sender killed after Nubefact took the document: the lease runs out, the resend is code 23, one document under one number", async () => {
    const { invoice } = await paidOrder();
    // What the dead process did: claimed the row and sent the document, then died before writing.
    await test.db
      .update(invoices)
      .set({ sendClaimedAt: minutes(1), sendClaimToken: randomUUID(), sendAttempts: 1 })
      .where(eq(invoices.id, invoice.id));
    nubefact.dropNextAnswer();
    const { comprobanteForInvoice } = await import("@server/invoices/comprobante-for-invoice");
    expect((await provider.send(await comprobanteForInvoice(test.db, invoice))).kind).toBe("unavailable");
    expect(storedAt(invoice)).toBeDefined();

    await send(minutes(2));
    expect((await invoiceOf(invoice.id)).electronicStatus).toBe("pending");
    await send(minutes(4));
    expect(await invoiceOf(invoice.id)).toMatchObject({ electronicStatus: "accepted", number: invoice.number });
    expect((await invoicesOfOrder(invoice.orderId)).length).toBe(1);
    expect([...nubefact.documents.values()].filter((doc) => doc.body.codigo_unico === `${invoice.series}-${invoice.number}`)).toHaveLength(1);
  });

  it("a staff refund of an invoiced order makes a nota de crédito for the refunded amount, numbered in the refund and sent like the rest", async () => {
    const { invoice, orderId } = await paidOrder({}, 2);
    const answer = await refundOrder(
      test.db,
      admin,
      { orderId, amountCents: 2550, reason: "Un bidón llegó golpeado", requestKey: randomUUID() },
      { now: minutes(10), siteUrl, culqi: null },
    );
    expect(answer).toMatchObject({ ok: true, status: "succeeded" });
    const [refund] = await test.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    const [note] = await test.db.select().from(invoices).where(eq(invoices.refundId, refund!.id));
    expect(note).toMatchObject({ documentType: "nota_credito", series: "BC01", totalCents: 2550, relatedInvoiceId: invoice.id, creditNoteType: 7 });
    expect(note!.taxableCents + note!.igvCents).toBe(2550);

    await send(minutes(11));
    expect(await invoiceOf(note!.id)).toMatchObject({ electronicStatus: "accepted" });
    expect(storedAt(note!)!.body).toMatchObject({
      tipo_de_comprobante: 3,
      serie: "BC01",
      total: 25.5,
      documento_que_se_modifica_tipo: 2,
      documento_que_se_modifica_serie: "B001",
      documento_que_se_modifica_numero: invoice.number,
      tipo_de_nota_de_credito: 7,
    });

    // Cancelling the order gives the rest back: a second note, with its own number.
    const cancelled = await cancelOrderByStaff(test.db, admin, { orderId, reason: "El cliente ya no lo necesita" }, { now: minutes(12), siteUrl, culqi: null });
    expect(cancelled.ok).toBe(true);
    const notes = await test.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, orderId), eq(invoices.documentType, "nota_credito")));
    expect(notes.map((row) => row.totalCents).sort((a, b) => a - b)).toEqual([2550, 11980 - 2550].sort((a, b) => a - b));
    expect(new Set(notes.map((row) => row.number)).size).toBe(2);
    expect(notes.every((row) => row.taxableCents + row.igvCents === row.totalCents)).toBe(true);
  });

  it("a cancelled order refunded in full gets a nota de crédito of type 1 (anulación) with the sale's own lines", async () => {
    const { invoice, orderId } = await paidOrder({}, 3);
    const cancelled = await cancelOrderByStaff(test.db, admin, { orderId, reason: "Sin stock" }, { now: minutes(20), siteUrl, culqi: null });
    expect(cancelled.ok).toBe(true);
    const [note] = await test.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, orderId), eq(invoices.documentType, "nota_credito")));
    expect(note).toMatchObject({ totalCents: invoice.totalCents, taxableCents: invoice.taxableCents, igvCents: invoice.igvCents, creditNoteType: 1 });
    await send(minutes(21));
    expect(storedAt(note!)!.body).toMatchObject({ tipo_de_nota_de_credito: 1, total: 179.7, items: [expect.objectContaining({ cantidad: 3, total: 179.7 })] });
  });

  it("lists comprobantes by state for staff with each open one's deadline, and warns a day before it passes", async () => {
    nubefact.setMode("down");
    const { invoice } = await paidOrder();
    await send(minutes(1));
    const panel = await listComprobantesForStaff(test.db, { status: "open" });
    const row = panel.rows.find((candidate) => candidate.id === invoice.id);
    // Issued Tuesday 24 November in Lima: three days for a boleta by default.
    expect(row).toMatchObject({ deadline: "2026-11-27", electronicStatus: "pending" });
    expect(panel.counts.pending).toBeGreaterThanOrEqual(1);
    expect(panel.counts.accepted).toBeGreaterThanOrEqual(1);
    expect((await comprobantesNearDeadline(test.db, "2026-11-24")).some((near) => near.id === invoice.id)).toBe(false);
    expect((await comprobantesNearDeadline(test.db, "2026-11-26")).some((near) => near.id === invoice.id)).toBe(true);
    // The staff home carries the alarm for whoever runs the day, not for the driver.
    const home = await getStaffHome(test.db, { id: randomUUID(), role: "operaciones" }, "2026-11-26");
    expect(home.comprobantesDue?.some((near) => near.invoiceNumber === invoice.invoiceNumber)).toBe(true);
    expect((await getStaffHome(test.db, { id: randomUUID(), role: "repartidor" }, "2026-11-26")).comprobantesDue).toBeNull();
  });

  it("with the offline provider keeps the local PDF only, marked as not a tax document", async () => {
    const { invoice } = await paidOrder();
    await runDueJobs(test.db, { now: minutes(1), siteUrl, only: ["comprobantes"], comprobantes: offlineComprobanteProvider });
    expect(await invoiceOf(invoice.id)).toMatchObject({ electronicStatus: "local", provider: "offline", xmlUrl: null });
    const [pdf] = await renderInvoiceAttachments(test.db, [{ kind: "invoice_pdf", id: invoice.id }], { now: minutes(2) });
    const text = pdfPlainText(pdf!.content);
    expect(text).toContain("no es un comprobante electrónico");
    expect(pdf!.content.toString("latin1")).not.toMatch(/\/Subtype\s*\/Image/);
  });
});
