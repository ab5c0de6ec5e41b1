import { z } from "zod";
import { parseTrustProxy, type TrustProxy } from "./client-address";

/**
 * Every environment variable the shop reads, validated once at boot so a typo fails loudly
 * with a message that names the variable instead of surfacing later as a broken page.
 */
const booleanFlag = z.enum(["true", "false"], { message: 'must be "true" or "false"' }).transform((value) => value === "true");

/** Together they turn WhatsApp on (issue 25); a partial set is refused at boot. */
export const WHATSAPP_SECRETS = ["WHATSAPP_TOKEN", "WHATSAPP_PHONE_NUMBER_ID", "WHATSAPP_APP_SECRET", "WHATSAPP_VERIFY_TOKEN"] as const;

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    /** The interface the HTTP server listens on; unset: every interface. */
    HOST: z.string().min(1).optional(),
    /**
     * One log line per request (request id, method, route pattern, status, duration, role) from
     * scripts/serve.mjs, at info level; health checks and /metrics are logged at debug level only.
     */
    LOG_REQUESTS: booleanFlag.default(true),
    /** `json`: one JSON object a line, for a log shipper; `pretty`: coloured lines for a person. Default: json in production. */
    LOG_FORMAT: z.enum(["json", "pretty"], { message: 'must be "json" or "pretty"' }).optional(),
    /** The least severe level written (pino's levels). */
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** `/metrics` answers only `Authorization: Bearer <this>`; unset, `/metrics` is a 404 (docs/operations.md). */
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters (e.g. `openssl rand -hex 24`)").optional(),
    /** On SIGTERM, how long in-flight requests and the job runner's current row may take before the process exits anyway. */
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
    /** PostgreSQL (DATABASE_URL only): how long opening a connection may take before the request fails. */
    PG_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
    /**
     * PostgreSQL: the longest one statement may run (server-side statement_timeout, lock waits
     * included); the client also gives up on an answer a little after it, for a server that is silent.
     */
    PG_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    /** PostgreSQL: a session idle inside an open transaction longer than this is ended by the server. */
    PG_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /** PostgreSQL: connections each process keeps at most. */
    PG_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    /** How long scripts/serve.mjs reuses a cookieless page (decision 0011); 0 turns the page cache off. */
    PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
    PGLITE_DATA_DIR: z.string().min(1).default(".data/pglite"),
    /**
     * The public origin of every emailed link, canonical URL and redirect to a provider. Required in
     * production: a link must never take its host from the request's Host header (docs/security.md).
     */
    SITE_URL: z.url({ message: "must be a full URL, e.g. https://vidaalcalina.pe" }).optional(),
    /** Signs cookies and emailed links; required in production, generated into .data/app-secret elsewhere. */
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    /** SMTP server for outgoing email, e.g. smtp://user:pass@mail.example.com:587; unset keeps email in the local outbox. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
      .optional(),
    MAIL_FROM: z.string().min(3).default("Vida Alcalina <hola@vidaalcalina.pe>"),
    /** Where emails are written when SMTP_URL is unset: one .eml and one .html file per email. */
    OUTBOX_DIR: z.string().min(1).default(".data/outbox"),
    /** Where images staff upload (products, organisation logos) are kept, resized, and served from /media. */
    UPLOADS_DIR: z.string().min(1).default(".data/uploads"),
    /**
     * Media on an S3-compatible object store (AWS S3, Cloudflare R2, MinIO…) instead of UPLOADS_DIR:
     * set S3_BUCKET (and the others as the provider needs); every process of the shop then reads
     * and writes the same pictures (docs/operations.md, decision 0080).
     */
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name (3-63 lowercase letters, digits, dots, dashes)")
      .optional(),
    /** The store's endpoint, e.g. https://<account>.r2.cloudflarestorage.com; unset for AWS itself. */
    S3_ENDPOINT: z.url({ message: "must be a full URL, e.g. https://s3.example.com" }).optional(),
    S3_REGION: z.string().min(1).default("us-east-1"),
    /** Unset: the SDK's own credential chain (an instance role, AWS_* variables). */
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** Path-style URLs (endpoint/bucket/key), as MinIO and most self-hosted stores want. */
    S3_FORCE_PATH_STYLE: booleanFlag.default(false),
    /**
     * A public URL the bucket's objects are read from (a CDN or a public bucket), e.g.
     * https://media.vidaalcalina.pe: /media/<file> then redirects there for good.
     */
    MEDIA_PUBLIC_URL: z
      .url({ message: "must be a full URL, e.g. https://media.vidaalcalina.pe" })
      .transform((value) => value.replace(/\/+$/, ""))
      .optional(),
    /** How often the in-process jobs (email delivery, order expiry, cart reminders) run; 0 turns them off. */
    JOBS_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(30),
    /**
     * Multiplies the per-client limits of login, sign-up, recovery and the guest email check. The
     * browser tests share one address, so they raise it; per-address limits are never scaled.
     */
    CLIENT_RATE_LIMIT_FACTOR: z.coerce.number().int().min(1).max(10_000).default(1),
    /**
     * Which proxies' X-Forwarded-For is believed for the client address: unset or false (none: the
     * socket address), true (loopback and private networks), a hop count, or a list of IPs/CIDRs.
     */
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((value, context): TrustProxy => {
        const parsed = parseTrustProxy(value);
        if (typeof parsed === "string") context.addIssue({ code: "custom", message: parsed });
        return typeof parsed === "string" ? { kind: "none" } : parsed;
      }),
    /** Culqi: both keys select Culqi as the payment provider; without them the offline sandbox is used. */
    CULQI_PUBLIC_KEY: z
      .string()
      .regex(/^pk_(test|live)_/, "must start with pk_test_ or pk_live_")
      .optional(),
    CULQI_SECRET_KEY: z
      .string()
      .regex(/^sk_(test|live)_/, "must start with sk_test_ or sk_live_")
      .optional(),
    CULQI_API_BASE: z.url().default("https://api.culqi.com/v2"),
    /** Basic auth credentials configured for the webhook in CulqiPanel, as user:password (optional there, recommended). */
    CULQI_WEBHOOK_AUTH: z
      .string()
      .regex(/^[^:]+:.+$/, "must be user:password")
      .optional(),
    /**
     * Flow (flow.cl): both keys make Flow the card provider of subscriptions (card registration and
     * renewals); one-time payments stay with CULQI_* or the sandbox. From "Mis datos" in Flow's panel.
     */
    FLOW_API_KEY: z
      .string()
      .regex(/^[\w-]{8,}$/, "must be the ApiKey from Flow's panel (letters, digits and dashes)")
      .optional(),
    FLOW_SECRET_KEY: z
      .string()
      .regex(/^\S{16,}$/, "must be the SecretKey from Flow's panel (16 or more characters, no spaces)")
      .optional(),
    FLOW_API_BASE: z.url().default("https://www.flow.cl/api"),
    /**
     * Nubefact (OSE/PSE): the account's route URL and token select it as the comprobante provider;
     * without them the shop prints local PDFs that are not tax documents (decision 0045).
     */
    NUBEFACT_URL: z.url({ message: "must be the account's route, e.g. https://api.nubefact.com/api/v1/<uuid>" }).optional(),
    NUBEFACT_TOKEN: z
      .string()
      .regex(/^\S{16,}$/, "must be the token from Nubefact's panel (16 or more characters, no spaces)")
      .optional(),
    /**
     * WhatsApp Business Platform, Cloud API (issue 25, docs/whatsapp.md): the four secrets below
     * together turn WhatsApp on; none of them means e-mail only. The API's base with its version.
     */
    WHATSAPP_API_URL: z
      .url({ message: "must be the Graph API's base with its version, e.g. https://graph.facebook.com/v24.0" })
      .default("https://graph.facebook.com/v24.0"),
    /** A System User access token of the WhatsApp Business Account (Business Settings → System users). */
    WHATSAPP_TOKEN: z
      .string()
      .regex(/^\S{20,}$/, "must be the access token from Meta (20 or more characters, no spaces)")
      .optional(),
    /** The id of the business phone number the messages leave from (WhatsApp Manager → API setup). */
    WHATSAPP_PHONE_NUMBER_ID: z
      .string()
      .regex(/^\d{6,20}$/, "must be the phone number's id from WhatsApp Manager (digits only), not the phone number")
      .optional(),
    /** The Meta app's App Secret: webhooks are accepted only when signed with it (X-Hub-Signature-256). */
    WHATSAPP_APP_SECRET: z
      .string()
      .regex(/^\S{16,}$/, "must be the app's App Secret (16 or more characters, no spaces)")
      .optional(),
    /** Any secret string of ours, typed again in the app's webhook settings; Meta's verification GET must carry it. */
    WHATSAPP_VERIFY_TOKEN: z
      .string()
      .regex(/^\S{8,}$/, "must be 8 or more characters without spaces")
      .optional(),
    /**
     * Without the secrets above, write the WhatsApp messages the shop would send into OUTBOX_DIR
     * (the local demo's stand-in; `npm start` turns it on). Ignored when WhatsApp is configured.
     */
    WHATSAPP_LOCAL_OUTBOX: booleanFlag.optional(),
    /** Days a boleta may take to reach SUNAT (7 by most sources, 3 by some: the accountant decides); facturas: 3, by law. */
    BOLETA_DEADLINE_DAYS: z.coerce.number().int().min(1).max(7).default(3),
    /**
     * A VROOM server (vroom-express, usually with OSRM for road times) that optimises Despacho's
     * routes instead of the built-in solver, e.g. http://vroom.internal:3000/ (decision 0077).
     */
    ROUTING_URL: z
      .url({ message: "must be the VROOM server's URL, e.g. http://localhost:3000/" })
      .regex(/^https?:\/\//, "must start with http:// or https://")
      .optional(),
    /** How long the shop waits for the VROOM server's answer before giving up. */
    ROUTING_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
    /** How long storefront reads are reused in memory; 0 turns the cache off. */
    STOREFRONT_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
    /**
     * The demo accounts (admin@demo.pe with the admin role, cliente@demo.pe) and their history. On by
     * default except in production, where only an explicit "true" seeds them (docs/security.md).
     */
    SEED_DEMO_DATA: booleanFlag.optional(),
    /** The shop's own data on an empty database: settings, catalogue, districts, organisations, history, legal texts. */
    SEED_BASE_DATA: booleanFlag.default(true),
    /**
     * Production refuses to start on the offline sandbox (it confirms payments nobody made) unless
     * this says so, e.g. for a staging site.
     */
    ALLOW_SANDBOX_PAYMENTS: booleanFlag.default(false),
    /**
     * The map's raster tiles (issue 26): an XYZ template with {z}, {x} and {y} (and optionally {s} for
     * a, b, c subdomains). OpenStreetMap's by default; its host joins the pages' img-src.
     */
    MAP_TILES_URL: z
      .string()
      .regex(/^https?:\/\/[^/\s]+\/\S*$/, "must be an http(s) URL template")
      .refine((value) => ["{z}", "{x}", "{y}"].every((part) => value.includes(part)), "must contain {z}, {x} and {y}")
      .refine((value) => !/[\s"'<>]/.test(value), "must not contain spaces or quotes")
      .default("https://tile.openstreetmap.org/{z}/{x}/{y}.png"),
    /** The tiles' attribution, shown on the map (plain text; OpenStreetMap's licence asks for it). */
    MAP_TILES_ATTRIBUTION: z.string().min(3).max(300).default("© OpenStreetMap contributors"),
    /**
     * How often the customer's tracking (Mis envíos, /orden/{id}) asks for the route's progress on
     * the delivery day, in seconds (issue 26); the browser tests shorten it.
     */
    TRACKING_POLL_SECONDS: z.coerce.number().int().min(2).max(600).default(30),
  })
  .superRefine((config, context) => {
    // One Flow key without the other would silently leave subscriptions on the other provider.
    if (Boolean(config.FLOW_API_KEY) !== Boolean(config.FLOW_SECRET_KEY)) {
      const missing = config.FLOW_API_KEY ? "FLOW_SECRET_KEY" : "FLOW_API_KEY";
      context.addIssue({ code: "custom", path: [missing], message: "Flow needs both FLOW_API_KEY and FLOW_SECRET_KEY" });
    }
    if (Boolean(config.NUBEFACT_URL) !== Boolean(config.NUBEFACT_TOKEN)) {
      const missing = config.NUBEFACT_URL ? "NUBEFACT_TOKEN" : "NUBEFACT_URL";
      context.addIssue({ code: "custom", path: [missing], message: "Nubefact needs both NUBEFACT_URL and NUBEFACT_TOKEN" });
    }
    if (Boolean(config.CULQI_PUBLIC_KEY) !== Boolean(config.CULQI_SECRET_KEY)) {
      const missing = config.CULQI_PUBLIC_KEY ? "CULQI_SECRET_KEY" : "CULQI_PUBLIC_KEY";
      context.addIssue({ code: "custom", path: [missing], message: "Culqi needs both CULQI_PUBLIC_KEY and CULQI_SECRET_KEY" });
    }
    const whatsapp = WHATSAPP_SECRETS.filter((name) => config[name] !== undefined);
    if (whatsapp.length > 0 && whatsapp.length < WHATSAPP_SECRETS.length) {
      const missing = WHATSAPP_SECRETS.filter((name) => config[name] === undefined);
      context.addIssue({
        code: "custom",
        path: [missing[0]!],
        message: `WhatsApp needs all of ${WHATSAPP_SECRETS.join(", ")}; missing: ${missing.join(", ")} (or unset them all for e-mail only)`,
      });
    }
    if (Boolean(config.S3_ACCESS_KEY_ID) !== Boolean(config.S3_SECRET_ACCESS_KEY)) {
      const missing = config.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID";
      context.addIssue({
        code: "custom",
        path: [missing],
        message: "S3 needs both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (or neither, for the SDK's own credentials)",
      });
    }
    for (const name of ["S3_ENDPOINT", "S3_ACCESS_KEY_ID", "MEDIA_PUBLIC_URL"] as const) {
      if (config[name] && !config.S3_BUCKET) context.addIssue({ code: "custom", path: [name], message: "has no effect without S3_BUCKET" });
    }
    if (config.NODE_ENV !== "production") return;
    // Safe by default in production (docs/security.md): nothing that only suits a laptop.
    if (!config.SITE_URL) {
      context.addIssue({
        code: "custom",
        path: ["SITE_URL"],
        message: "required in production: the shop's public origin, e.g. https://vidaalcalina.pe (emailed links are built from it)",
      });
    }
    if (!config.SESSION_SECRET) {
      context.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "required in production: 32 or more random characters, e.g. the output of `openssl rand -hex 32`",
      });
    }
    if (!config.CULQI_PUBLIC_KEY && !config.CULQI_SECRET_KEY && !config.ALLOW_SANDBOX_PAYMENTS) {
      context.addIssue({
        code: "custom",
        path: ["CULQI_PUBLIC_KEY"],
        message:
          "production needs a payment provider: set CULQI_PUBLIC_KEY and CULQI_SECRET_KEY, or ALLOW_SANDBOX_PAYMENTS=true to take orders through the offline sandbox (it collects no money)",
      });
    }
  })
  .transform(({ SEED_DEMO_DATA, WHATSAPP_LOCAL_OUTBOX, LOG_FORMAT, ...config }) => ({
    ...config,
    SEED_DEMO_DATA: SEED_DEMO_DATA ?? config.NODE_ENV !== "production",
    // `npm run dev` shows the messages too; production and the tests only when asked.
    WHATSAPP_LOCAL_OUTBOX: WHATSAPP_LOCAL_OUTBOX ?? config.NODE_ENV === "development",
    LOG_FORMAT: LOG_FORMAT ?? (config.NODE_ENV === "production" ? "json" : "pretty"),
  }));

export type Env = z.infer<typeof envSchema>;

export class InvalidEnvironmentError extends Error {
  override name = "InvalidEnvironmentError";
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings are how shells and .env files say "unset".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`);
    throw new InvalidEnvironmentError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * The shop's public origin for emailed links, canonical URLs and provider redirects: SITE_URL
 * (required in production), or this machine's own address in development. Never the request's
 * Host header, which anyone can set (docs/security.md).
 */
export function publicSiteUrl(): string {
  const config = env();
  return config.SITE_URL ?? `http://localhost:${config.PORT}`;
}

/**
 * The map tiles' origin for the Content-Security-Policy's img-src: `https://tile.example.org`, or
 * `https://*.tile.example.org` for a template with {s} subdomains.
 */
export function mapTilesOrigin(template: string): string {
  const match = /^(https?:\/\/)([^/]+)/.exec(template)!;
  return `${match[1]}${match[2]!.replace(/^\{s\}\./, "*.").replace(/\{s\}/g, "*")}`;
}
