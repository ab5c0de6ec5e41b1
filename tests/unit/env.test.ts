import { describe, expect, it } from "vitest";
import { InvalidEnvironmentError, parseEnv } from "@server/config/env";

describe("environment", () => {
  it("defaults to the embedded database on port 3000 with demo data", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 3000, PGLITE_DATA_DIR: ".data/pglite", SEED_DEMO_DATA: true, NODE_ENV: "development" });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "" }).DATABASE_URL).toBeUndefined();
  });

  it("names every bad variable in one clear message", () => {
    let error: unknown;
    try {
      parseEnv({ PORT: "abc", DATABASE_URL: "mysql://x", SITE_URL: "not a url", SEED_DEMO_DATA: "yes" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidEnvironmentError);
    const message = (error as Error).message;
    for (const name of ["PORT", "DATABASE_URL", "SITE_URL", "SEED_DEMO_DATA"]) expect(message).toContain(`- ${name}:`);
    expect(message).toContain("postgres://");
  });

  it("sets the operations defaults: JSON logs in production, pool timeouts, a ten-second shutdown, local media (issue 27)", () => {
    expect(parseEnv({})).toMatchObject({ LOG_FORMAT: "pretty", LOG_REQUESTS: true, SHUTDOWN_TIMEOUT_SECONDS: 10, PG_CONNECT_TIMEOUT_SECONDS: 5 });
    const production = parseEnv({ NODE_ENV: "production", SITE_URL: "https://x.pe", SESSION_SECRET: "x".repeat(32), ALLOW_SANDBOX_PAYMENTS: "true" });
    expect(production).toMatchObject({ LOG_FORMAT: "json", PG_STATEMENT_TIMEOUT_SECONDS: 30, PG_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS: 60 });
    expect(production.S3_BUCKET).toBeUndefined();
    expect(production.METRICS_TOKEN).toBeUndefined();
  });

  it("refuses half an S3 configuration, a short metrics token and S3 settings without a bucket, naming each", () => {
    const message = (() => {
      try {
        parseEnv({ S3_ACCESS_KEY_ID: "AKIA", MEDIA_PUBLIC_URL: "https://cdn.example.pe/", METRICS_TOKEN: "short", S3_BUCKET: undefined });
      } catch (error) {
        return (error as Error).message;
      }
      return "";
    })();
    for (const name of ["S3_SECRET_ACCESS_KEY", "S3_ACCESS_KEY_ID", "MEDIA_PUBLIC_URL", "METRICS_TOKEN"]) expect(message).toContain(`- ${name}:`);
    const configured = parseEnv({ S3_BUCKET: "vida-media", S3_ENDPOINT: "http://127.0.0.1:9000", MEDIA_PUBLIC_URL: "https://cdn.example.pe/" });
    expect(configured).toMatchObject({
      S3_BUCKET: "vida-media",
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: false,
      MEDIA_PUBLIC_URL: "https://cdn.example.pe",
    });
  });

  describe("in production", () => {
    const production = {
      NODE_ENV: "production",
      SITE_URL: "https://vidaalcalina.pe",
      SESSION_SECRET: "x".repeat(32),
      CULQI_PUBLIC_KEY: "pk_live_abc",
      CULQI_SECRET_KEY: "sk_live_abc",
    };
    const messageOf = (source: Record<string, string | undefined>) => {
      try {
        parseEnv(source);
      } catch (error) {
        return (error as Error).message;
      }
      return null;
    };

    it("starts with a public origin, a session key and Culqi, and seeds no demo accounts", () => {
      const config = parseEnv(production);
      expect(config).toMatchObject({ SEED_DEMO_DATA: false, SEED_BASE_DATA: true, ALLOW_SANDBOX_PAYMENTS: false });
    });

    it("requires SITE_URL and SESSION_SECRET, saying what to set", () => {
      const message = messageOf({ ...production, SITE_URL: undefined, SESSION_SECRET: "" });
      expect(message).toMatch(/- SITE_URL: required in production/);
      expect(message).toMatch(/- SESSION_SECRET: required in production/);
      // Outside production both stay optional (the local demo and the tests).
      expect(messageOf({ NODE_ENV: "development" })).toBeNull();
    });

    it("refuses the sandbox payment provider unless ALLOW_SANDBOX_PAYMENTS=true", () => {
      const sandbox = { ...production, CULQI_PUBLIC_KEY: undefined, CULQI_SECRET_KEY: undefined };
      expect(messageOf(sandbox)).toMatch(/- CULQI_PUBLIC_KEY: production needs a payment provider.*ALLOW_SANDBOX_PAYMENTS=true/);
      expect(messageOf({ ...sandbox, ALLOW_SANDBOX_PAYMENTS: "true" })).toBeNull();
      expect(messageOf({ ...production, CULQI_SECRET_KEY: undefined })).toMatch(/- CULQI_SECRET_KEY: Culqi needs both/);
    });

    it("seeds the demo accounts only when SEED_DEMO_DATA says so explicitly", () => {
      expect(parseEnv({ ...production, SEED_DEMO_DATA: "true" }).SEED_DEMO_DATA).toBe(true);
      expect(parseEnv({ NODE_ENV: "development" }).SEED_DEMO_DATA).toBe(true);
      expect(parseEnv({ NODE_ENV: "development", SEED_DEMO_DATA: "false" }).SEED_DEMO_DATA).toBe(false);
    });
  });
});
