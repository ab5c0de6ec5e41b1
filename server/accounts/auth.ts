import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { appSecret } from "../config/app-secret";
import { publicSiteUrl } from "../config/env";
import type { Database } from "../db/client";
import { accounts, sessions, users, verifications } from "../db/schema";
import { getSiteSettings } from "../content/index.server";
import { enqueueEmail } from "../notifications/index.server";
import { emailVerificationEmail, passwordChangedEmail, passwordResetEmail } from "../notifications/index.server";
import { proveOwnershipByPasswordReset } from "./email-proof";
import { hashPassword, verifyPassword } from "./password-hash";
import { clearAccountFailures } from "./sign-in-throttle";

/**
 * better-auth logs and swallows an error of `sendResetPassword` (it runs it as a "background
 * task"), so the request would look sent; this tells `requestPasswordReset` it failed (spec §8).
 */
export const resetEmailOutcome = new AsyncLocalStorage<{ failed: boolean }>();

const SEVEN_DAYS = 7 * 24 * 60 * 60;

/** Email links carry tokens; the outbox's dedupe key only needs a fingerprint of one. */
const fingerprint = (token: string) => createHash("sha256").update(token).digest("hex").slice(0, 32);

function buildAuth(db: Database) {
  const siteUrl = publicSiteUrl();
  return betterAuth({
    appName: "Vida Alcalina",
    baseURL: siteUrl,
    basePath: "/api/auth",
    secret: appSecret(),
    database: drizzleAdapter(db, {
      provider: "pg",
      usePlural: true,
      schema: { users, sessions, accounts, verifications },
      transaction: true,
    }),
    user: {
      additionalFields: {
        firstName: { type: "string", required: true },
        lastName: { type: "string", required: true },
        documentType: { type: "string", required: false },
        documentNumber: { type: "string", required: false },
        phone: { type: "string", required: false },
        address: { type: "string", required: false },
        districtId: { type: "number", required: false },
        role: { type: "string", required: false, defaultValue: "customer", input: false },
        status: { type: "string", required: false, defaultValue: "active", input: false },
      },
    },
    session: {
      // "Recordarme" keeps the session 7 days; without it better-auth sets a browser-session
      // cookie and a one-day session row (decisions.md, Accounts and security).
      expiresIn: SEVEN_DAYS,
      updateAge: 24 * 60 * 60,
    },
    // Reset tokens are looked up by identifier; storing it hashed means a database leak does
    // not hand out working reset links.
    verification: { storeIdentifier: "hashed" },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, token }) {
        try {
          const settings = await getSiteSettings(db);
          const resetUrl = `${siteUrl}/reset-password?token=${encodeURIComponent(token)}`;
          const email = passwordResetEmail({ brandName: settings.brandName, firstName: firstNameOf(user), resetUrl });
          await enqueueEmail(db, { dedupeKey: `password-reset:${fingerprint(token)}`, kind: "password_reset", to: user.email, ...email }, new Date());
        } catch (error) {
          const outcome = resetEmailOutcome.getStore();
          if (outcome) outcome.failed = true;
          throw error;
        }
      },
      async onPasswordReset({ user }) {
        // The owner proved themselves: failures counted against the account no longer apply, and
        // the link that reached the address plus the password chosen now prove who owns it
        // (decision 0072): the address is confirmed and its guest orders attach.
        await clearAccountFailures(db, user.email);
        await proveOwnershipByPasswordReset(db, user.id, new Date());
        await sendPasswordChangedEmail(db, user);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      expiresIn: 24 * 60 * 60,
      async sendVerificationEmail({ user, token }) {
        const settings = await getSiteSettings(db);
        const verifyUrl = `${siteUrl}/verificar-correo?token=${encodeURIComponent(token)}`;
        const email = emailVerificationEmail({ brandName: settings.brandName, firstName: firstNameOf(user), verifyUrl });
        await enqueueEmail(db, { dedupeKey: `verify-email:${fingerprint(token)}`, kind: "email_verification", to: user.email, ...email }, new Date());
      },
      // The link opens /verificar-correo, whose button confirms (a POST, never the link's GET);
      // guest orders attach only with proof of ownership (server/accounts/email-proof.ts, 0072).
    },
    advanced: {
      cookiePrefix: "va",
      // Secure (and __Secure- prefixed) whenever the shop is served over https (issue 9).
      useSecureCookies: siteUrl.startsWith("https://"),
      // Our own middleware checks Origin on every state-changing request (app/server/csrf.server.ts);
      // the route actions call better-auth in-process, without a browser Origin to compare.
      disableCSRFCheck: true,
      disableOriginCheck: true,
    },
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
  });
}

export async function sendPasswordChangedEmail(db: Database, user: { id: string; email: string; name: string; firstName?: unknown }) {
  const settings = await getSiteSettings(db);
  const email = passwordChangedEmail({ brandName: settings.brandName, firstName: firstNameOf(user), forgotUrl: `${publicSiteUrl()}/forgot-password` });
  await enqueueEmail(db, { dedupeKey: `password-changed:${user.id}:${Date.now()}`, kind: "password_changed", to: user.email, ...email }, new Date());
}

function firstNameOf(user: { name: string; firstName?: unknown }): string {
  return typeof user.firstName === "string" && user.firstName ? user.firstName : (user.name.split(" ")[0] ?? "");
}

export type Auth = ReturnType<typeof buildAuth>;

const instances = new WeakMap<Database, Auth>();

/** One better-auth instance per database (the server has one; each test file has its own). */
export function authFor(db: Database): Auth {
  let auth = instances.get(db);
  if (!auth) {
    auth = buildAuth(db);
    instances.set(db, auth);
  }
  return auth;
}
