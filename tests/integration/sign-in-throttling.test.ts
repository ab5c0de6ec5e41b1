import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register, requestPasswordReset, resetPassword, signIn, type AuthResult } from "@server/accounts/index.server";
import { outboxEmails } from "@server/db/schema";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const PASSWORD = "Agua1234";
const WRONG = "Equivocada1";
const LOGIN_FAILED = { ok: false, message: "Correo o contraseña incorrectos" };

const at = (start: Date, seconds: number) => new Date(start.getTime() + seconds * 1000);

function waitMessage(result: AuthResult): string | undefined {
  return result.ok ? undefined : /^Demasiados intentos\. Espera (\d+ (?:segundos?|minutos?))/.exec(result.message)?.[1];
}

describe("sign-in throttling", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
  });
  afterAll(() => test.close());

  async function customer(email: string) {
    const result = await register(test.db, { firstName: "Rosa", lastName: "Quispe", email, password: PASSWORD, client: `register-${email}` });
    if (!result.ok) throw new Error(result.message);
  }
  const attempt = (email: string, password: string, client: string, now?: Date) => signIn(test.db, { email, password, remember: false, client, now });

  it("never lets a stranger's failures on one client block the owner on another", async () => {
    await customer("duena@prueba.pe");
    const start = new Date();
    for (let failure = 0; failure < 8; failure += 1) await attempt("duena@prueba.pe", WRONG, "198.51.100.7", at(start, failure * 1000));
    // The stranger's client is slowed down …
    expect(waitMessage(await attempt("duena@prueba.pe", PASSWORD, "198.51.100.7", at(start, 7001)))).toBeDefined();
    // … the owner, elsewhere, is not.
    expect((await attempt("duena@prueba.pe", PASSWORD, "203.0.113.20", at(start, 7001))).ok).toBe(true);
  });

  it("lets forty successful sign-ins from one address in a few minutes all in", async () => {
    await customer("oficina@prueba.pe");
    for (let signInNumber = 1; signInNumber <= 40; signInNumber += 1) {
      const result = await attempt("oficina@prueba.pe", PASSWORD, "198.51.100.50");
      expect(result.ok, `sign-in ${signInNumber}: ${result.ok ? "" : result.message}`).toBe(true);
    }
  });

  it("after five failures makes each further attempt wait twice as long, and says how long in Spanish", async () => {
    await customer("lenta@prueba.pe");
    const start = new Date();
    for (let failure = 0; failure < 5; failure += 1) expect(await attempt("lenta@prueba.pe", WRONG, "a", start)).toEqual(LOGIN_FAILED);

    // Waiting: even the right password is not checked.
    expect(waitMessage(await attempt("lenta@prueba.pe", PASSWORD, "a", at(start, 1)))).toBe("29 segundos");
    expect(await attempt("lenta@prueba.pe", WRONG, "a", at(start, 30))).toEqual(LOGIN_FAILED);
    expect(waitMessage(await attempt("lenta@prueba.pe", WRONG, "a", at(start, 31)))).toBe("59 segundos");
    expect(await attempt("lenta@prueba.pe", WRONG, "a", at(start, 90))).toEqual(LOGIN_FAILED);
    expect(waitMessage(await attempt("lenta@prueba.pe", WRONG, "a", at(start, 91)))).toBe("2 minutos");
    expect(await attempt("lenta@prueba.pe", WRONG, "a", at(start, 210))).toEqual(LOGIN_FAILED);
    expect(waitMessage(await attempt("lenta@prueba.pe", PASSWORD, "a", at(start, 211)))).toBe("4 minutos");
    // Refused attempts were not failures: the wait did not grow while they were made.
    expect((await attempt("lenta@prueba.pe", PASSWORD, "a", at(start, 450))).ok).toBe(true);
    // And a success starts this client's count over.
    for (let failure = 0; failure < 5; failure += 1) expect(await attempt("lenta@prueba.pe", WRONG, "a", at(start, 451))).toEqual(LOGIN_FAILED);
  });

  it("slows one client guessing across many accounts, not the others", async () => {
    const start = new Date();
    for (let guess = 0; guess < 30; guess += 1) expect(await attempt(`nadie${guess}@prueba.pe`, "x", "203.0.113.9", start)).toEqual(LOGIN_FAILED);
    expect(waitMessage(await attempt("cliente@demo.pe", "Cliente123", "203.0.113.9", start))).toBe("2 segundos");
    expect((await attempt("cliente@demo.pe", "Cliente123", "203.0.113.10", start)).ok).toBe(true);
  });

  it("lets only one of a burst of parallel guesses through a free slot", async () => {
    await customer("rafaga@prueba.pe");
    const start = new Date();
    for (let failure = 0; failure < 5; failure += 1) await attempt("rafaga@prueba.pe", WRONG, "b", start);
    const burst = await Promise.all(Array.from({ length: 8 }, () => attempt("rafaga@prueba.pe", WRONG, "b", at(start, 30))));
    expect(burst.filter((result) => !result.ok && result.message === LOGIN_FAILED.message)).toHaveLength(1);
    expect(burst.filter((result) => waitMessage(result) !== undefined)).toHaveLength(7);
  });

  it("only slows the owner when guesses come from everywhere: the account's ceiling waits 30 seconds at most", async () => {
    await customer("asediada@prueba.pe");
    const start = new Date();
    for (let client = 0; client < 60; client += 1) await attempt("asediada@prueba.pe", WRONG, `10.9.0.${client}`, at(start, client));
    const slowed = await attempt("asediada@prueba.pe", PASSWORD, "203.0.113.77", at(start, 60));
    expect(waitMessage(slowed)).toMatch(/^\d+ segundos$/);
    expect((await attempt("asediada@prueba.pe", PASSWORD, "203.0.113.77", at(start, 59 + 30))).ok).toBe(true);
  });

  it("clears the account's failures when its password is reset", async () => {
    await customer("olvido@prueba.pe");
    const start = new Date();
    for (let failure = 0; failure < 8; failure += 1) await attempt("olvido@prueba.pe", WRONG, "c", at(start, failure * 1000));
    expect(waitMessage(await attempt("olvido@prueba.pe", PASSWORD, "c", at(start, 7001)))).toBeDefined();

    await requestPasswordReset(test.db, { email: "olvido@prueba.pe", client: "c" });
    const [email] = await test.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.toAddress, "olvido@prueba.pe"), eq(outboxEmails.kind, "password_reset")));
    const token = decodeURIComponent(/token=([^\s"&]+)/.exec(email!.text)![1]!);
    expect(await resetPassword(test.db, { token, password: "NuevaClave9" })).toMatchObject({ ok: true });

    expect((await attempt("olvido@prueba.pe", "NuevaClave9", "c", at(start, 7002))).ok).toBe(true);
  });

  it("e-mails the owner once per window when their account is being guessed at", async () => {
    await customer("vigilada@prueba.pe");
    const notices = async () =>
      test.db
        .select()
        .from(outboxEmails)
        .where(and(eq(outboxEmails.toAddress, "vigilada@prueba.pe"), eq(outboxEmails.kind, "sign_in_attempts")));
    const start = new Date();
    for (let failure = 0; failure < 9; failure += 1) await attempt("vigilada@prueba.pe", WRONG, `192.0.2.${failure}`, start);
    expect(await notices()).toHaveLength(0);
    await attempt("vigilada@prueba.pe", WRONG, "192.0.2.100", start);
    const [notice] = await notices();
    expect(notice).toMatchObject({ subject: "Intentos de acceso a tu cuenta" });
    expect(notice!.text).toContain("10 veces");
    for (let failure = 0; failure < 10; failure += 1) await attempt("vigilada@prueba.pe", WRONG, `192.0.2.${failure + 120}`, at(start, 1));
    expect(await notices()).toHaveLength(1);

    // An hour without failures ends the window; the next wave is reported again.
    const later = at(start, 61 * 60);
    for (let failure = 0; failure < 10; failure += 1) await attempt("vigilada@prueba.pe", WRONG, `192.0.2.${failure + 200}`, later);
    expect(await notices()).toHaveLength(2);
  });
});
