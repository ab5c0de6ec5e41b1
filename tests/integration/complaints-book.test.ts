import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import {
  answerComplaint,
  complaintDeadline,
  COMPLAINT_COPIES_PER_HOUR,
  complaintRateLimit,
  fileComplaint,
  findComplaintById,
  findComplaintByToken,
  listComplaintInbox,
  renderComplaintPdf,
} from "@server/complaints/index.server";
import { getIssuer } from "@server/content/index.server";
import { complaintAnswers, complaints, deliveryClosedDays, orders, outboxEmails, staffActions } from "@server/db/schema";
import { runDueJobs } from "@server/jobs/index.server";
import { folderTransport } from "@server/notifications/deliver";
import { COMPLAINT_LEGENDS, parseComplaintForm, type ComplaintForm } from "@core/complaints-book";
import { checkoutInput } from "../support/checkout-fixture";
import { pdfPlainText } from "../support/pdf-text";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const siteUrl = "http://shop.test";
// Friday 18 December 2026, 10:00 in Lima.
const filedAt = new Date("2026-12-18T15:00:00Z");
const operaciones: StaffActor = { id: "staff-ops", email: "operaciones@demo.pe", role: "operaciones", clientAddress: "127.0.0.1" };

function sheet(overrides: Record<string, unknown> = {}): ComplaintForm {
  const parsed = parseComplaintForm({
    consumerNames: "Lucía",
    consumerSurnames: "Ñahui Pérez",
    documentType: "dni",
    documentNumber: "45678912",
    address: "Jr. Huallaga 456, Cercado de Lima",
    phone: "987 654 321",
    email: "Lucia@Example.pe",
    goodType: "producto",
    claimedAmount: "59,90",
    goodDescription: "Bidón de agua alcalina de 20 L",
    orderNumber: "",
    kind: "reclamo",
    detail: "El bidón llegó con el sello roto y el agua con sabor extraño.",
    consumerRequest: "Cambio del bidón o devolución del dinero.",
    ...overrides,
  });
  if (!parsed.ok) throw new Error(`invalid sheet: ${JSON.stringify(parsed.fieldErrors)}`);
  return parsed.data;
}

describe("the Libro de Reclamaciones", () => {
  let test: TestDatabase;
  let outbox: string;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    outbox = await mkdtemp(path.join(tmpdir(), "complaints-outbox-"));
  });
  afterAll(() => test.close());

  it("refuses a sheet without the data that makes it filed, every message in Spanish at once", () => {
    const refused = parseComplaintForm({ documentType: "dni", documentNumber: "123", isMinor: "on", kind: "", goodType: "producto" });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.fieldErrors).toMatchObject({
      consumerNames: "Ingresa tus nombres",
      documentNumber: "El DNI debe tener 8 dígitos",
      address: "Ingresa tu domicilio",
      email: expect.stringMatching(/correo/),
      detail: expect.stringMatching(/detalle/),
      kind: "Elige si es un reclamo o una queja",
      guardianName: "Ingresa el nombre de tu padre, madre o apoderado",
    });
  });

  it("numbers the first sheet of the year 000000001, keeps the provider's data, finds it only by its token, and e-mails the full copy with its PDF", async () => {
    const filed = await fileComplaint(test.db, sheet(), { now: filedAt, client: "client-a", siteUrl });
    if (!filed.ok) throw new Error("not filed");
    expect(filed.sheetNumber).toBe("000000001-2026");
    expect(filed.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const view = await findComplaintByToken(test.db, filed.token);
    const issuer = await getIssuer(test.db);
    expect(view?.heading).toBe("LIBRO DE RECLAMACIONES – HOJA DE RECLAMACIÓN N° 000000001-2026");
    const rows = new Map(view!.sections.flatMap((section) => section.rows));
    expect(rows.get("Razón social")).toBe(issuer.legalName);
    expect(rows.get("RUC")).toBe(issuer.ruc);
    expect(rows.get("Monto reclamado")).toBe("S/ 59.90");
    expect(rows.get("Correo electrónico")).toBe("lucia@example.pe");
    expect(view!.legends).toEqual(COMPLAINT_LEGENDS);
    // Neither a wrong token nor the sequential number opens it.
    expect(await findComplaintByToken(test.db, `${filed.token.slice(0, -1)}${filed.token.endsWith("A") ? "B" : "A"}`)).toBeNull();
    expect(await findComplaintByToken(test.db, "000000001-2026")).toBeNull();

    const [queued] = await test.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.dedupeKey, `complaint-copy:${filed.id}`));
    expect(queued).toMatchObject({ toAddress: "lucia@example.pe", attachments: [{ kind: "complaint_pdf", id: filed.id }] });
    expect(queued!.text).toContain("Jr. Huallaga 456, Cercado de Lima");
    expect(queued!.text).toContain("El bidón llegó con el sello roto");
    expect(queued!.text).toContain(`${siteUrl}/libro-de-reclamaciones/hoja/${filed.token}`);
    for (const legend of COMPLAINT_LEGENDS) expect(queued!.text).toContain(legend);

    await runDueJobs(test.db, { now: filedAt, transport: folderTransport(outbox), siteUrl, only: ["emails"] });
    const [sent] = await test.db.select().from(outboxEmails).where(eq(outboxEmails.id, queued!.id));
    expect(sent!.sentAt).not.toBeNull();
    const files = await readdir(outbox);
    const json = JSON.parse(
      await readFile(
        path.join(
          outbox,
          files.find((file) => file.endsWith(".json") && file.includes("complaint_copy"))!,
        ),
        "utf8",
      ),
    ) as {
      attachments: { filename: string; file: string; contentType: string }[];
    };
    expect(json.attachments).toMatchObject([{ filename: "hoja-de-reclamacion-000000001-2026.pdf", contentType: "application/pdf" }]);
    const pdf = pdfPlainText(await readFile(path.join(outbox, json.attachments[0]!.file)));
    expect(pdf).toContain("HOJA DE RECLAMACIÓN N° 000000001-2026");
    expect(pdf).toContain("Lucía");
    expect(pdf).toContain(issuer.ruc);
    expect(pdf).toContain("quince (15) días hábiles");
  });

  it("gives twenty sheets filed at once the numbers 1 to 20 of their year, with no gap and no repeat", async () => {
    const newYear = new Date("2027-01-04T15:00:00Z");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        fileComplaint(test.db, sheet({ consumerNames: `Cliente ${index}` }), { now: newYear, client: `burst-${index}`, siteUrl }),
      ),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    const numbers = await test.db.select({ number: complaints.number }).from(complaints).where(eq(complaints.year, 2027)).orderBy(asc(complaints.number));
    expect(numbers.map((row) => row.number)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    const sheetNumbers = results.map((result) => (result.ok ? result.sheetNumber : "")).sort();
    expect(sheetNumbers[0]).toBe("000000001-2027");
    expect(new Set(sheetNumbers).size).toBe(20);
    const copies = await test.db
      .select({ n: sql<number>`count(*)::int` })
      .from(outboxEmails)
      .where(eq(outboxEmails.kind, "complaint_copy"));
    expect(copies[0]!.n).toBe(21);
  });

  it("refuses more sheets from one client than the hourly limit, saying how long to wait", async () => {
    const at = new Date("2026-12-21T15:00:00Z");
    const { limit } = complaintRateLimit();
    for (let index = 0; index < limit; index += 1) expect((await fileComplaint(test.db, sheet(), { now: at, client: "busy", siteUrl })).ok).toBe(true);
    const refused = await fileComplaint(test.db, sheet(), { now: at, client: "busy", siteUrl });
    expect(refused).toMatchObject({ ok: false, reason: "rate_limited" });
    // Another client is not affected.
    expect((await fileComplaint(test.db, sheet(), { now: at, client: "calm", siteUrl })).ok).toBe(true);
  });

  it("paces the copies the whole shop e-mails, whoever files the sheets, and still files every sheet (issue 24)", async () => {
    // Later than every other filing in this file, so the shop-wide pace starts idle whatever the order.
    const at = new Date("2027-02-08T15:10:00Z");
    const interval = (60 * 60_000) / COMPLAINT_COPIES_PER_HOUR;
    const burst = COMPLAINT_COPIES_PER_HOUR + 2;
    const filed: string[] = [];
    for (let index = 0; index < burst; index += 1) {
      const result = await fileComplaint(test.db, sheet({ email: `copia-${index}@example.pe` }), { now: at, client: `cliente-${index}`, siteUrl });
      expect(result.ok).toBe(true);
      if (result.ok) filed.push(result.id);
    }
    const dueAt = async (id: string) => (await copyOf(id)).nextAttemptAt.getTime();
    // The first N an hour go out at once; the rest wait their turn, one every 3600/N seconds.
    for (const id of filed.slice(0, COMPLAINT_COPIES_PER_HOUR)) expect(await dueAt(id)).toBe(at.getTime());
    expect(await dueAt(filed[COMPLAINT_COPIES_PER_HOUR]!)).toBe(at.getTime() + interval);
    expect(await dueAt(filed[COMPLAINT_COPIES_PER_HOUR + 1]!)).toBe(at.getTime() + 2 * interval);

    await sendEverythingDue(at);
    expect((await copyOf(filed[COMPLAINT_COPIES_PER_HOUR - 1]!)).sentAt).not.toBeNull();
    expect((await copyOf(filed[COMPLAINT_COPIES_PER_HOUR]!)).sentAt).toBeNull();
    await sendEverythingDue(new Date(at.getTime() + interval));
    expect((await copyOf(filed[COMPLAINT_COPIES_PER_HOUR]!)).sentAt).not.toBeNull();
    expect((await copyOf(filed[COMPLAINT_COPIES_PER_HOUR + 1]!)).sentAt).toBeNull();

    // Once the shop has been quiet for an hour, a copy goes out at once again.
    const later = new Date(at.getTime() + 2 * 60 * 60_000);
    const quiet = await fileComplaint(test.db, sheet({ email: "otra@example.pe" }), { now: later, client: "otro-cliente", siteUrl });
    expect(quiet.ok && (await dueAt(quiet.id))).toBe(later.getTime());
  });

  /** Runs the e-mail sender until nothing due at `now` is left (one run sends a bounded number). */
  async function sendEverythingDue(now: Date) {
    while (((await runDueJobs(test.db, { now, transport: folderTransport(outbox), siteUrl, only: ["emails"] })).results.emails?.sent ?? 0) > 0);
  }

  async function copyOf(complaintId: string) {
    const [row] = await test.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.dedupeKey, `complaint-copy:${complaintId}`));
    return row!;
  }

  it("links the order the consumer names, and keeps an unknown order number as typed", async () => {
    const placed = await placeOrder(test.db, checkoutInput(new Date("2026-11-25T03:00:00Z"), { diaHabil: 5, fecha: "2026-11-27" }), {
      now: new Date("2026-11-25T03:00:00Z"),
      provider: "sandbox",
    });
    if (!placed.ok) throw new Error("order not placed");
    const [order] = await test.db.select({ orderNumber: orders.orderNumber }).from(orders).where(eq(orders.id, placed.orderId));
    const linked = await fileComplaint(test.db, sheet({ orderNumber: order!.orderNumber.toLowerCase() }), { now: filedAt, client: "order-a", siteUrl });
    const unknown = await fileComplaint(test.db, sheet({ orderNumber: "VA-999999" }), { now: filedAt, client: "order-b", siteUrl });
    if (!linked.ok || !unknown.ok) throw new Error("not filed");
    expect((await findComplaintById(test.db, linked.id))?.orderId).toBe(placed.orderId);
    const unknownView = await findComplaintById(test.db, unknown.id);
    expect(unknownView?.orderId).toBeNull();
    expect(new Map(unknownView!.sections.flatMap((section) => section.rows)).get("N° de pedido")).toBe("VA-999999");
  });

  it("never lets a sheet or an answer be edited or deleted", async () => {
    await expect(test.db.update(complaints).set({ detail: "cambiado" })).rejects.toThrow();
    await expect(test.db.delete(complaints)).rejects.toThrow();
    await expect(test.db.delete(complaintAnswers)).rejects.toThrow();
  });

  it("appends one answer, e-mails it with the whole sheet and audits it; a second answer changes nothing", async () => {
    const filed = await fileComplaint(test.db, sheet({ kind: "queja", email: "queja@example.pe" }), { now: filedAt, client: "answer", siteUrl });
    if (!filed.ok) throw new Error("not filed");
    const answeredAt = new Date("2026-12-22T16:00:00Z");
    const answer = "Lamentamos lo ocurrido. Le cambiaremos el bidón el lunes sin costo.";
    expect(await answerComplaint(test.db, operaciones, { complaintId: filed.id, answer }, { now: answeredAt })).toEqual({
      ok: true,
      sheetNumber: filed.sheetNumber,
    });
    expect(await answerComplaint(test.db, operaciones, { complaintId: filed.id, answer: "Otra respuesta distinta" }, { now: answeredAt })).toEqual({
      ok: false,
      reason: "already_answered",
    });
    expect(await answerComplaint(test.db, operaciones, { complaintId: "00000000-0000-4000-8000-000000000000", answer }, { now: answeredAt })).toEqual({
      ok: false,
      reason: "not_found",
    });

    const answers = await test.db.select().from(complaintAnswers).where(eq(complaintAnswers.complaintId, filed.id));
    expect(answers).toMatchObject([{ answer, answeredByEmail: "operaciones@demo.pe" }]);
    const view = await findComplaintByToken(test.db, filed.token);
    expect(view?.answer?.text).toBe(answer);
    expect(new Map(view!.sections.flatMap((section) => section.rows)).get("Respuesta")).toBe(answer);
    expect(new Map(view!.sections.flatMap((section) => section.rows)).get("Detalle")).toBe(sheet().detail);

    const mails = await test.db.select().from(outboxEmails).where(eq(outboxEmails.kind, "complaint_answer"));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ toAddress: "queja@example.pe" });
    expect(mails[0]!.text).toContain(answer);
    expect(mails[0]!.text).toContain(filed.sheetNumber);
    const audit = await test.db.select().from(staffActions).where(eq(staffActions.entityId, filed.id));
    expect(audit).toMatchObject([{ action: "complaint.answer", entityType: "complaint", actorEmail: "operaciones@demo.pe" }]);

    // The PDF of an answered sheet carries section 4 with the answer.
    expect(pdfPlainText(await renderComplaintPdf(view!))).toContain("Le cambiaremos el bidón");
  });

  it("counts the deadline in business days with the calendar's holidays, not the shop's own closed days", async () => {
    // Filed Friday 18 December 2026: Navidad and Año Nuevo (seeded holidays) push it to 12 January.
    await test.db.insert(deliveryClosedDays).values({ closedOn: "2026-12-28", kind: "cierre", name: "Inventario" });
    expect(await complaintDeadline(test.db, "2026-12-18", { now: new Date("2027-01-08T15:00:00Z") })).toEqual({
      deadline: "2027-01-12",
      countdown: { state: "open", daysLeft: 2, label: "Quedan 2 días hábiles" },
    });
    // Staff add a holiday: the deadline moves.
    await test.db.insert(deliveryClosedDays).values({ closedOn: "2027-01-11", kind: "feriado", name: "Feriado de prueba" });
    expect((await complaintDeadline(test.db, "2026-12-18", { now: filedAt })).deadline).toBe("2027-01-13");

    const inbox = await listComplaintInbox(test.db, "pendientes", { now: new Date("2027-01-14T15:00:00Z") });
    const first = inbox.find((row) => row.sheetNumber === "000000001-2026");
    expect(first).toMatchObject({ deadline: "2027-01-13", countdown: { state: "overdue", label: "Vencido" }, answeredAt: null });
    expect(inbox.every((row) => row.answeredAt === null)).toBe(true);
    const answered = await listComplaintInbox(test.db, "respondidos", { now: filedAt });
    expect(answered).toHaveLength(1);
    expect(answered[0]).toMatchObject({ kind: "queja", countdown: null });
  });
});
