import { and, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changePassword, getSignedInUser, isResetTokenValid, register, requestPasswordReset, resetPassword, signIn } from "@server/accounts/index.server";
import { accounts, outboxEmails, sessions, users, verifications } from "@server/db/schema";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const PASSWORD = "Agua1234";

/** A request carrying the cookies better-auth set, as the browser would send them back. */
function requestWith(headers: Headers): Request {
  const cookie = headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  return new Request("http://localhost/dashboard", { headers: { cookie } });
}

async function registered(test: TestDatabase, email: string) {
  const result = await register(test.db, { firstName: "Rosa", lastName: "Quispe", email, password: PASSWORD, client: `register-${email}` });
  if (!result.ok) throw new Error(result.message);
  return result.headers;
}

async function queuedToken(test: TestDatabase, email: string, kind: string): Promise<string> {
  const [row] = await test.db
    .select()
    .from(outboxEmails)
    .where(and(eq(outboxEmails.toAddress, email), eq(outboxEmails.kind, kind)));
  const match = /token=([^\s"&]+)/.exec(row?.text ?? "");
  if (!match) throw new Error(`no ${kind} email for ${email}`);
  return decodeURIComponent(match[1]!);
}

describe("accounts", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  it("registers with an argon2id hash, signs the customer in and queues the verification email", async () => {
    const headers = await registered(test, "nueva@prueba.pe");
    const [user] = await test.db.select().from(users).where(eq(users.email, "nueva@prueba.pe"));
    expect(user).toMatchObject({ firstName: "Rosa", lastName: "Quispe", role: "customer", emailVerified: false });
    const [credential] = await test.db.select().from(accounts).where(eq(accounts.userId, user!.id));
    expect(credential!.password).toMatch(/^\$argon2id\$/);
    expect((await getSignedInUser(test.db, requestWith(headers)))?.email).toBe("nueva@prueba.pe");
    expect(await queuedToken(test, "nueva@prueba.pe", "email_verification")).toBeTruthy();
  });

  it("refuses a second account for the same email, whatever its case", async () => {
    const result = await register(test.db, { firstName: "Otra", lastName: "Persona", email: "Nueva@Prueba.PE", password: PASSWORD, client: "x" });
    expect(result).toMatchObject({ ok: false, field: "email" });
    const accountsNamedNueva = await test.db
      .select({ email: users.email })
      .from(users)
      .where(sql`lower(${users.email}) = 'nueva@prueba.pe'`);
    expect(accountsNamedNueva).toEqual([{ email: "nueva@prueba.pe" }]);
  });

  it("resets a password once with the emailed link, ending every session", async () => {
    const sessionHeaders = await registered(test, "olvido@prueba.pe");
    expect(await requestPasswordReset(test.db, { email: "olvido@prueba.pe", client: "c" })).toMatchObject({ ok: true });
    const token = await queuedToken(test, "olvido@prueba.pe", "password_reset");
    expect(await isResetTokenValid(test.db, token)).toBe(true);
    // The token is stored hashed: the verification table never holds the link's secret.
    const stored = await test.db
      .select()
      .from(verifications)
      .where(like(verifications.identifier, `%${token}%`));
    expect(stored).toHaveLength(0);

    expect(await resetPassword(test.db, { token, password: "NuevaClave9" })).toMatchObject({ ok: true });
    expect(await getSignedInUser(test.db, requestWith(sessionHeaders))).toBeNull();
    expect(await resetPassword(test.db, { token, password: "OtraClave9" })).toEqual({
      ok: false,
      message: "El enlace de recuperación no es válido o ha expirado.",
    });
    expect(await isResetTokenValid(test.db, token)).toBe(false);
    expect((await signIn(test.db, { email: "olvido@prueba.pe", password: "NuevaClave9", remember: true, client: "c" })).ok).toBe(true);
    const [changed] = await test.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.toAddress, "olvido@prueba.pe"), eq(outboxEmails.kind, "password_changed")));
    expect(changed?.subject).toBe("Tu contraseña fue cambiada");
  });

  it("refuses an expired reset link", async () => {
    await registered(test, "vencida@prueba.pe");
    await requestPasswordReset(test.db, { email: "vencida@prueba.pe", client: "d" });
    const token = await queuedToken(test, "vencida@prueba.pe", "password_reset");
    const [user] = await test.db.select().from(users).where(eq(users.email, "vencida@prueba.pe"));
    await test.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verifications.value, user!.id));
    expect(await isResetTokenValid(test.db, token)).toBe(false);
    expect(await resetPassword(test.db, { token, password: "NuevaClave9" })).toMatchObject({ ok: false });
  });

  it("answers a reset request for an unknown email like any other, and sends nothing", async () => {
    expect(await requestPasswordReset(test.db, { email: "fantasma@prueba.pe", client: "e" })).toMatchObject({ ok: true });
    expect(await test.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, "fantasma@prueba.pe"))).toHaveLength(0);
  });

  it("changing the password checks the current one and ends the other sessions", async () => {
    const first = await registered(test, "cambio@prueba.pe");
    const second = await signIn(test.db, { email: "cambio@prueba.pe", password: PASSWORD, remember: true, client: "f" });
    if (!second.ok) throw new Error("second sign-in failed");

    const wrong = await changePassword(test.db, requestWith(first), { currentPassword: "NoEsEsta1", newPassword: "NuevaClave9" });
    expect(wrong).toEqual({ ok: false, message: "La contraseña actual es incorrecta", field: "currentPassword" });

    const changed = await changePassword(test.db, requestWith(first), { currentPassword: PASSWORD, newPassword: "NuevaClave9" });
    if (!changed.ok) throw new Error(changed.message);
    expect(await getSignedInUser(test.db, requestWith(second.headers))).toBeNull();
    expect(await getSignedInUser(test.db, requestWith(first))).toBeNull();
    const current = await getSignedInUser(test.db, requestWith(changed.headers));
    expect(current?.email).toBe("cambio@prueba.pe");
    const [user] = await test.db.select().from(users).where(eq(users.email, "cambio@prueba.pe"));
    expect(await test.db.select().from(sessions).where(eq(sessions.userId, user!.id))).toHaveLength(1);
  });
});
