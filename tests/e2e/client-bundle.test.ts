import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** The browser bundle (built by the e2e global setup) must carry no database, server or secret code. */
describe("client bundle", () => {
  const assets = path.resolve("build/client/assets");
  const scripts = readdirSync(assets).filter((name) => name.endsWith(".js"));

  it("contains no database driver, server module or environment secret", () => {
    expect(scripts.length).toBeGreaterThan(0);
    const forbidden = [
      /drizzle-orm/,
      /@electric-sql\/pglite/,
      /PGlite/,
      /DATABASE_URL/,
      /pg_advisory_lock/,
      /sanitize-html/,
      /node:fs/,
      /seedBaseData/,
      /seedDemoAccounts/,
    ];
    const found: string[] = [];
    for (const name of scripts) {
      const source = readFileSync(path.join(assets, name), "utf8");
      for (const pattern of forbidden) if (pattern.test(source)) found.push(`${name}: ${pattern}`);
    }
    expect(found).toEqual([]);
  });

  it("is a production build (the browser tests and npm start serve what customers get)", () => {
    const sources = scripts.map((name) => readFileSync(path.join(assets, name), "utf8")).join("\n");
    expect(sources).not.toMatch(/jsxDEV/);
  });
});

/** Issue 13: `db:migrate` and `jobs:run` run in production, where only `dependencies` are installed. */
describe("operator commands (build/cli)", () => {
  const { dependencies } = JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> };
  const packageOf = (specifier: string) =>
    specifier
      .split("/")
      .slice(0, specifier.startsWith("@") ? 2 : 1)
      .join("/");

  it.each(["migrate", "jobs"])("%s needs only production dependencies and Node's own modules", (name) => {
    const source = readFileSync(path.resolve("build/cli", `${name}.mjs`), "utf8");
    const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((match) => match[1]!);
    expect(specifiers.length).toBeGreaterThan(0);
    const outside = specifiers.filter((specifier) => !specifier.startsWith("node:") && !specifier.startsWith(".") && !(packageOf(specifier) in dependencies));
    expect(outside).toEqual([]);
  });
});
