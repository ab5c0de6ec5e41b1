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
});
