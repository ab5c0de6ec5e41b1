import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECOVERY_SEND_FAILED, requestPasswordReset } from "@server/accounts/index.server";
import type { StaffActor } from "@server/audit/index.server";
import { contactRateLimit, listContactMessages, markContactMessageAttended, sendContactMessage } from "@server/contact/index.server";
import { clearReadCaches } from "@server/db/read-cache";
import { contactMessages, outboxEmails, siteSettings, staffActions, users } from "@server/db/schema";
import { DEMO_CUSTOMER, DEMO_OPERACIONES } from "@server/db/seed/demo-accounts";
import { contactMessageSchema } from "@core/contact-schema";
import { expectConsoleError } from "../support/fail-on-console-error";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const message = {
  name: "Rosa Quispe",
  email: "rosa@example.pe",
  phone: "987 654 321",
  subject: "¿Reparten en Surco?",
  message: "Hola, quisiera saber si reparten bidones en Santiago de Surco los sábados.\n<b>Gracias</b>",
};

describe("contact messages (/contact and /admin/mensajes)", () => {
  let test: TestDatabase;
  let operaciones: StaffActor;
  let clientCount = 0;
  const newClient = () => `contact-test-${(clientCount += 1)}`;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [row] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_OPERACIONES.email));
    operaciones = { id: row!.id, email: DEMO_OPERACIONES.email, role: "operaciones", clientAddress: "203.0.113.9" };
  });
  afterAll(() => test.close());

  it("stores the message and queues one e-mail to the shop's contact address in the same step; the same form sent twice stores one", async () => {
    await test.db.update(siteSettings).set({ contactEmail: "atencion@prueba.pe" }).where(eq(siteSettings.id, 1));
    clearReadCaches();
    const submissionId = randomUUID();
    const input = { ...contactMessageSchema.parse(message), submissionId };
    const client = newClient();
    expect(await sendContactMessage(test.db, input, { client })).toEqual({ ok: true, duplicate: false });
    expect(await sendContactMessage(test.db, input, { client })).toEqual({ ok: true, duplicate: true });

    const stored = await test.db.select().from(contactMessages).where(eq(contactMessages.submissionId, submissionId));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ name: "Rosa Quispe", email: "rosa@example.pe", phone: "987 654 321", subject: "¿Reparten en Surco?", attendedAt: null });

    const emails = await test.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.dedupeKey, `contact-message:${stored[0]!.id}`));
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ kind: "contact_message", toAddress: "atencion@prueba.pe", subject: "Nuevo mensaje de contacto: ¿Reparten en Surco?" });
    expect(emails[0]!.text).toContain("Rosa Quispe <rosa@example.pe>");
    expect(emails[0]!.text).toContain("Santiago de Surco los sábados");
    // What a visitor typed is shown as text in the staff e-mail, never as markup.
    expect(emails[0]!.html).toContain("&lt;b&gt;Gracias&lt;/b&gt;");
    expect(emails[0]!.html).not.toContain("<b>Gracias</b>");
  });

  it("refuses a client past the hourly limit with a Spanish message, storing and sending nothing", async () => {
    const client = newClient();
    const { limit } = contactRateLimit();
    for (let sent = 0; sent < limit; sent += 1) {
      expect(await sendContactMessage(test.db, { ...contactMessageSchema.parse(message), submissionId: randomUUID() }, { client })).toMatchObject({ ok: true });
    }
    const submissionId = randomUUID();
    const refused = await sendContactMessage(test.db, { ...contactMessageSchema.parse(message), submissionId }, { client });
    expect(refused).toMatchObject({ ok: false, reason: "rate_limited" });
    expect((refused as { message: string }).message).toMatch(/^Demasiados intentos\. Espera \d+ minutos? e inténtalo de nuevo\.$/);
    expect(await test.db.select().from(contactMessages).where(eq(contactMessages.submissionId, submissionId))).toHaveLength(0);
    // Another client is not held back by this one.
    expect(await sendContactMessage(test.db, { ...contactMessageSchema.parse(message), submissionId: randomUUID() }, { client: newClient() })).toMatchObject({
      ok: true,
    });
  });

  it("validates the form in Spanish: name, e-mail, subject and message required, phone optional", () => {
    const empty = contactMessageSchema.safeParse({ name: " ", email: "no-es-correo", phone: "abc", subject: "", message: "hola" });
    expect(empty.success).toBe(false);
    const messages = Object.fromEntries(empty.error!.issues.map((issue) => [issue.path[0], issue.message]));
    expect(messages).toMatchObject({
      name: "Ingresa tu nombre",
      email: "Ingresa un correo válido",
      phone: "Ingresa un teléfono válido (solo números)",
      subject: "Escribe el asunto",
      message: "Cuéntanos un poco más (al menos 10 caracteres)",
    });
    expect(contactMessageSchema.parse({ ...message, phone: "" }).phone).toBeNull();
  });

  it("lists messages newest first for staff and marks one attended once, audited with who did it", async () => {
    const older = randomUUID();
    const newer = randomUUID();
    const now = Date.now();
    await sendContactMessage(
      test.db,
      { ...contactMessageSchema.parse({ ...message, subject: "Primero" }), submissionId: older },
      { client: newClient(), now: new Date(now + 60_000) },
    );
    await sendContactMessage(
      test.db,
      { ...contactMessageSchema.parse({ ...message, subject: "Segundo" }), submissionId: newer },
      { client: newClient(), now: new Date(now + 120_000) },
    );
    const before = await listContactMessages(test.db);
    expect(before.messages.slice(0, 2).map((row) => row.subject)).toEqual(["Segundo", "Primero"]);
    const target = before.messages[0]!;

    expect(await markContactMessageAttended(test.db, operaciones, target.id)).toEqual({ ok: true, changed: true });
    expect(await markContactMessageAttended(test.db, operaciones, target.id)).toEqual({ ok: true, changed: false });
    expect(await markContactMessageAttended(test.db, operaciones, randomUUID())).toEqual({ ok: false, reason: "not_found" });

    const after = await listContactMessages(test.db);
    expect(after.pending).toBe(before.pending - 1);
    expect(after.messages.find((row) => row.id === target.id)!.attendedByName).toBeTruthy();
    expect(after.messages.find((row) => row.id === target.id)!.attendedAt).toBeInstanceOf(Date);
    const audit = await test.db.select().from(staffActions).where(eq(staffActions.entityId, target.id));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "contact_message.attend",
      entityType: "contact_message",
      actorEmail: DEMO_OPERACIONES.email,
      clientAddress: "203.0.113.9",
    });
  });

  it("answers the spec's 'Error al enviar el correo de recuperación' when the recovery e-mail cannot be queued", async () => {
    // The forgot-password page's situation next door to /contact (it links there): the outbox is gone.
    // better-auth logs the failed e-mail itself ("Failed to run background task").
    expectConsoleError(/Failed to run background task/);
    await test.db.execute(sql`alter table outbox_emails rename to outbox_emails_away`);
    try {
      const result = await requestPasswordReset(test.db, { email: DEMO_CUSTOMER.email, client: newClient() });
      expect(result).toEqual({ ok: false, message: "Error al enviar el correo de recuperación" });
      expect(RECOVERY_SEND_FAILED).toBe("Error al enviar el correo de recuperación");
    } finally {
      await test.db.execute(sql`alter table outbox_emails_away rename to outbox_emails`);
    }
    expect(await requestPasswordReset(test.db, { email: DEMO_CUSTOMER.email, client: newClient() })).toMatchObject({ ok: true });
  });
});
