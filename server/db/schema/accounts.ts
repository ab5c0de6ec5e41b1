import { boolean, doublePrecision, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { districts } from "./districts";

/*
 * better-auth's four tables (user, session, account, verification), written by hand because its
 * schema generator crashes on Node 20 (stack notes). Property names are the field names
 * better-auth expects; columns are snake_case like the rest of the schema. The profile columns
 * after `updatedAt` are ours, declared to better-auth as additional fields.
 */

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  /** Full name, kept by better-auth; first and last name are the profile's source of truth. */
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  documentType: text("document_type"),
  documentNumber: text("document_number"),
  phone: text("phone"),
  address: text("address"),
  districtId: integer("district_id").references(() => districts.id),
  /** The address's point on the map (issue 26), optional: sign-up and the profile set it, checkout starts from it. */
  addressLat: doublePrecision("address_lat"),
  addressLng: doublePrecision("address_lng"),
  /** decisions.md: `customer` (default) or `admin`. Never settable from a form. */
  role: text("role").notNull().default("customer"),
  status: text("status").notNull().default("active"),
  /**
   * Issue 24 (decision 0072): when the holder of the address set this account's password with
   * proof of the address in the same step (a password-reset link, or the password chosen on the
   * page the confirmation link opens). Only such an account receives the guest orders of its
   * address: a confirmed address alone is not enough, since whoever signed up chose the password.
   * Null until then (and for every account made before this rule).
   */
  ownershipProvenAt: timestamp("ownership_proven_at", { withTimezone: true }),
});

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    /** argon2id hash (server/accounts/password-hash.ts). */
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("accounts_user_idx").on(table.userId)],
);

/** Reset-password and email-verification tokens. */
export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

/**
 * Fixed-window counters for login, sign-up, recovery and the guest email check, per address and
 * per client (server/accounts/rate-limit.ts). In the database so every server process shares them.
 */
export const rateLimitBuckets = pgTable("rate_limit_buckets", {
  key: text("key").primaryKey(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
  hits: integer("hits").notNull(),
});

/**
 * Failed sign-ins, one row per throttled key: an account on one client, an account from anywhere,
 * a client for every account (server/accounts/sign-in-throttle.ts, docs/decisions/0029). Only
 * failures are counted; `blocked_until` is when the next attempt on the key is allowed.
 */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    key: text("key").primaryKey(),
    /** The e-mail tried, for the account's rows, so a password reset can clear them all. */
    account: text("account"),
    failures: integer("failures").notNull(),
    firstFailedAt: timestamp("first_failed_at", { withTimezone: true }).notNull(),
    lastFailedAt: timestamp("last_failed_at", { withTimezone: true }).notNull(),
    blockedUntil: timestamp("blocked_until", { withTimezone: true }),
  },
  (table) => [index("sign_in_failures_account_idx").on(table.account)],
);
