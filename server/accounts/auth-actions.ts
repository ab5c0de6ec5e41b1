import { APIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { requestWhatsappOptIn } from "../whatsapp/index.server";
import { whatsappNumber } from "@core/whatsapp";
import { getIssuer, readDistrict } from "../content/index.server";
import { askForPromotionalConsent } from "../notifications/index.server";
import type { Database } from "../db/client";
import { sessions, users } from "../db/schema";
import { authFor, resetEmailOutcome, sendPasswordChangedEmail } from "./auth";
import { forgetSignedInUsers, sessionHeaders } from "./current-user";
import { RATE_LIMITS, consumeRateLimit, rateLimitMessage } from "./rate-limit";
import { isStaffRole, userRoleOf, type UserRole } from "@core/staff-roles";
import { attemptAbandoned, attemptFailed, attemptSucceeded, claimSignInAttempt } from "./sign-in-throttle";

export type AuthResult = { ok: true; headers: Headers } | { ok: false; message: string; field?: string };

const LOGIN_FAILED = "Correo o contraseña incorrectos";
const DEACTIVATED = "Tu cuenta está desactivada. Si crees que es un error, escribe a la administración de la tienda.";

/** A successful sign-in also says where the person lands when the page asked for nowhere in particular. */
export type SignInResult = { ok: true; headers: Headers; landingPath: string } | { ok: false; message: string; field?: string };

/** Issue 10: staff start in the back office, customers in their account. */
export function landingPathFor(role: UserRole): string {
  return isStaffRole(role) ? "/admin" : "/dashboard";
}

function failure(message: string, field?: string): { ok: false; message: string; field?: string } {
  return field ? { ok: false, message, field } : { ok: false, message };
}

function errorCode(error: unknown): string | undefined {
  if (error instanceof APIError) return (error.body as { code?: string } | undefined)?.code;
  return undefined;
}

/**
 * Sign-in under the throttle of docs/decisions/0029: only failed passwords count, per account on
 * this client, per account from anywhere (a high ceiling that only slows) and per client; a
 * refused attempt says in Spanish how long to wait and checks no password.
 */
export async function signIn(db: Database, input: { email: string; password: string; remember: boolean; client: string; now?: Date }): Promise<SignInResult> {
  const attempt = await claimSignInAttempt(db, { email: input.email, client: input.client }, input.now ?? new Date());
  if (!attempt.allowed) return failure(rateLimitMessage(attempt.retryAfterSeconds));
  try {
    const { headers, response } = await authFor(db).api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: input.remember },
      headers: new Headers(),
      returnHeaders: true,
    });
    await attemptSucceeded(db, attempt);
    const user = response.user as { status?: unknown; role?: unknown };
    if (user.status !== "active") {
      // A deactivated staff account (issue 10): the password was right, but no session may outlive this answer.
      await db.delete(sessions).where(eq(sessions.token, response.token));
      return failure(DEACTIVATED);
    }
    return { ok: true, headers, landingPath: landingPathFor(userRoleOf(typeof user.role === "string" ? user.role : "customer")) };
  } catch (error) {
    const code = errorCode(error);
    if (code === "INVALID_EMAIL_OR_PASSWORD" || code === "INVALID_PASSWORD" || code === "CREDENTIAL_ACCOUNT_NOT_FOUND") {
      await attemptFailed(db, attempt);
      return failure(LOGIN_FAILED);
    }
    await attemptAbandoned(db, attempt);
    if (error instanceof APIError) return failure("Error al iniciar sesión");
    throw error;
  }
}

export async function register(
  db: Database,
  input: {
    firstName: string;
    lastName: string;
    email: string;
    password: string;
    client: string;
    /** Issue 12: the ticked promotional consent, with who asked (evidence); absent when unticked. */
    promotionsConsent?: { clientAddress: string; userAgent: string | null } | null;
    /** Issue 25: an optional mobile for the profile, and the ticked WhatsApp opt-in for it. */
    phone?: string | null;
    whatsappConsent?: { clientAddress: string; userAgent: string | null } | null;
    /** Issue 26: the optional delivery address and its pin given at sign-up. */
    districtId?: number | null;
    address?: string | null;
    point?: { lat: number; lng: number } | null;
  },
): Promise<AuthResult> {
  const limit = await consumeRateLimit(db, `register:${input.client}`, RATE_LIMITS.registerPerClient);
  if (!limit.allowed) return failure(rateLimitMessage(limit.retryAfterSeconds));
  try {
    const { headers, response } = await authFor(db).api.signUpEmail({
      body: {
        name: `${input.firstName} ${input.lastName}`,
        email: input.email,
        password: input.password,
        firstName: input.firstName,
        lastName: input.lastName,
        ...(input.phone ? { phone: input.phone } : {}),
        rememberMe: false,
      },
      headers: new Headers(),
      returnHeaders: true,
    });
    // Issue 24 (decision 0072): the ticked box asks; the consent exists once confirmed from its e-mail.
    if (input.promotionsConsent) {
      await askForPromotionalConsent(db, { email: input.email, source: "signup", ...input.promotionsConsent }, await getIssuer(db), new Date());
    }
    const whatsappPhone = input.whatsappConsent ? whatsappNumber(input.phone) : null;
    if (whatsappPhone) {
      // Issue 39: the typed number is asked first; the opt-in exists once it answers SÍ.
      const request = { phone: whatsappPhone, source: "signup" as const, email: input.email, userId: response.user.id };
      await requestWhatsappOptIn(db, { ...request, ...input.whatsappConsent }, new Date());
    }
    if (input.districtId || input.address || input.point) {
      const district = input.districtId ? await readDistrict(db, input.districtId) : null;
      await db
        .update(users)
        .set({
          districtId: district?.id ?? null,
          address: input.address ?? null,
          addressLat: input.point?.lat ?? null,
          addressLng: input.point?.lng ?? null,
        })
        .where(eq(users.email, input.email));
    }
    return { ok: true, headers };
  } catch (error) {
    const code = errorCode(error);
    if (code?.startsWith("USER_ALREADY_EXISTS")) return failure("Ya existe una cuenta con este correo. Inicia sesión o recupera tu contraseña.", "email");
    if (error instanceof APIError) return failure("No se pudo crear la cuenta. Intenta nuevamente.");
    throw error;
  }
}

export async function signOut(db: Database, request: Request): Promise<Headers> {
  try {
    const { headers } = await authFor(db).api.signOut({ headers: sessionHeaders(request), returnHeaders: true });
    return headers;
  } catch (error) {
    if (error instanceof APIError) return new Headers();
    throw error;
  } finally {
    forgetSignedInUsers();
  }
}

/**
 * decisions.md: the answer never says whether the address has an account. Over the limit the
 * request is dropped silently for the same reason, unless the client itself is flooding.
 */
export async function requestPasswordReset(db: Database, input: { email: string; client: string }): Promise<AuthResult> {
  const byClient = await consumeRateLimit(db, `recovery:${input.client}`, RATE_LIMITS.recoveryPerClient);
  if (!byClient.allowed) return failure(rateLimitMessage(byClient.retryAfterSeconds));
  const byEmail = await consumeRateLimit(db, `recovery-email:${input.email}`, RATE_LIMITS.recoveryPerEmail);
  if (!byEmail.allowed) return { ok: true, headers: new Headers() };
  // Spec §8, forgot password: the provider's message (English here, so not shown) or this one.
  const outcome = { failed: false };
  try {
    await resetEmailOutcome.run(outcome, () => authFor(db).api.requestPasswordReset({ body: { email: input.email } }));
  } catch (error) {
    console.error("[accounts] password reset e-mail could not be queued", error);
    return failure(RECOVERY_SEND_FAILED);
  }
  // better-auth has already logged why.
  if (outcome.failed) return failure(RECOVERY_SEND_FAILED);
  return { ok: true, headers: new Headers() };
}

export const RECOVERY_SEND_FAILED = "Error al enviar el correo de recuperación";

export async function isResetTokenValid(db: Database, token: string): Promise<boolean> {
  if (!token) return false;
  const context = await authFor(db).$context;
  const verification = await context.internalAdapter.findVerificationValue(`reset-password:${token}`);
  return Boolean(verification && verification.expiresAt > new Date());
}

export const INVALID_RESET_LINK = "El enlace de recuperación no es válido o ha expirado.";

/** Single use: better-auth consumes the token in the same transaction that saves the password. */
export async function resetPassword(db: Database, input: { token: string; password: string }): Promise<AuthResult> {
  try {
    await authFor(db).api.resetPassword({ body: { token: input.token, newPassword: input.password } });
    forgetSignedInUsers();
    return { ok: true, headers: new Headers() };
  } catch (error) {
    const code = errorCode(error);
    if (code === "INVALID_TOKEN" || code === "USER_NOT_FOUND") return failure(INVALID_RESET_LINK);
    if (error instanceof APIError) return failure("No se pudo actualizar la contraseña");
    throw error;
  }
}

/** Checks the current password, saves the new one and ends every other session (issue 4). */
export async function changePassword(db: Database, request: Request, input: { currentPassword: string; newPassword: string }): Promise<AuthResult> {
  const auth = authFor(db);
  try {
    const { headers, response } = await auth.api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
      headers: sessionHeaders(request),
      returnHeaders: true,
    });
    forgetSignedInUsers();
    await sendPasswordChangedEmail(db, response.user as { id: string; email: string; name: string; firstName?: unknown });
    return { ok: true, headers };
  } catch (error) {
    const code = errorCode(error);
    if (code === "INVALID_PASSWORD") return failure("La contraseña actual es incorrecta", "currentPassword");
    if (error instanceof APIError) return failure("Error al cambiar la contraseña");
    throw error;
  }
}
