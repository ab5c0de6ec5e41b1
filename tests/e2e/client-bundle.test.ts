import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
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

type BuiltRoute = { module: string; imports?: string[]; parentId?: string };
type BuiltManifest = { entry: { module: string; imports?: string[] }; routes: Record<string, BuiltRoute> };

function builtManifest(): BuiltManifest {
  const manifestFile = readdirSync(path.resolve("build/client/assets")).find((name) => /^manifest-[\w-]+\.js$/.test(name))!;
  const sandbox = { window: {} as { __reactRouterManifest?: BuiltManifest } };
  new Function("window", readFileSync(path.resolve("build/client/assets", manifestFile), "utf8"))(sandbox.window);
  return sandbox.window.__reactRouterManifest!;
}

/** Every module file a document of this route loads before hydrating: the entry's, and its route chain's. */
function firstLoadModules(manifest: BuiltManifest, routeId: string): string[] {
  const files = new Set([manifest.entry.module, ...(manifest.entry.imports ?? [])]);
  for (let route: BuiltRoute | undefined = manifest.routes[routeId]; route; route = route.parentId ? manifest.routes[route.parentId] : undefined) {
    files.add(route.module);
    for (const file of route.imports ?? []) files.add(file);
  }
  return [...files];
}

/** Decision 0079: the driver app's service worker is built after React Router's build, from what it wrote. */
describe("the driver app's service worker (build/client/reparto-sw.js)", () => {
  it("keeps every file of /admin/reparto's first load, and only files that exist", () => {
    const worker = readFileSync(path.resolve("build/client/reparto-sw.js"), "utf8");
    const list = /const PRECACHE_ENTRIES = (\[.*?\]);/s.exec(worker)?.[1];
    const entries = JSON.parse(list!) as { url: string }[];
    const needed = firstLoadModules(builtManifest(), "routes/admin/reparto/reparto");
    const kept = entries.map((entry) => `/${entry.url}`);
    expect(needed.filter((url) => !kept.includes(url))).toEqual([]);
    expect(kept).toEqual(expect.arrayContaining(["/reparto.webmanifest", "/icons/reparto-192.png", "/icons/reparto-512.png"]));
    for (const url of kept) expect(() => readFileSync(path.resolve("build/client", url.slice(1))), url).not.toThrow();
  });
});

/**
 * Issue 43: a catalogue page's first-load JavaScript (gzip, as a phone receives it) may not grow by
 * more than 10 % over the recorded size without someone deciding so. When a change earns its bytes,
 * record the new sizes in tests/fixtures/catalogue-first-load-js.json (and why, in the commit).
 */
describe("the catalogue pages' first-load JavaScript", () => {
  const recorded = JSON.parse(readFileSync(path.resolve("tests/fixtures/catalogue-first-load-js.json"), "utf8")) as { bytesGzip: Record<string, number> };
  it.each(Object.keys(recorded.bytesGzip))("%s stays within 10 %% of its recorded size", (routeId) => {
    const files = firstLoadModules(builtManifest(), routeId);
    const bytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(path.resolve("build/client", file.slice(1)))).length, 0);
    expect(bytes, files.join("\n")).toBeLessThanOrEqual(recorded.bytesGzip[routeId]! * 1.1);
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
