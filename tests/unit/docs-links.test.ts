/**
 * The documentation is a front door (README.md) and pages by reader (docs/): a newcomer follows its
 * links, and an operator looks up every setting there (issue 28, decision 0082). This test fails
 * when a relative link points to a file or a heading that does not exist, and when an environment
 * variable validated in server/config/ has no row in a docs page's table, or more than one, and
 * when a code comment names a file of this repository that does not exist (issue 42).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownFiles(join(folder, entry.name)) : entry.name.endsWith(".md") ? [join(folder, entry.name)] : [],
  );
}

/** The code's own files (sources, tests, scripts), without installed packages or generated output. */
function codeFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? ["node_modules", ".tmp", "build"].includes(entry.name)
        ? []
        : codeFiles(join(folder, entry.name))
      : /\.(ts|tsx|mjs|js)$/.test(entry.name)
        ? [join(folder, entry.name)]
        : [],
  );
}

const pages = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))];

/** Text outside fenced code blocks (a `# comment` in a shell example is not a heading). */
function withoutFences(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "");
}

/** Text outside code: fenced blocks and inline code spans hold examples, not links. */
function withoutCode(text: string): string {
  return withoutFences(text).replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFences(readFileSync(file, "utf8")).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every `[text](target)` whose target is a path in this repository (not a URL, not mail). */
function relativeLinks(file: string): { target: string; line: number }[] {
  const text = withoutCode(readFileSync(file, "utf8"));
  const links: { target: string; line: number }[] = [];
  for (const match of text.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    links.push({ target, line: text.slice(0, match.index).split("\n").length });
  }
  return links;
}

describe("the documentation", () => {
  it("holds the spec the code cites: every `spec §N` names a section of docs/spec/shop-spec.md", () => {
    const spec = readFileSync(join(root, "docs/spec/shop-spec.md"), "utf8");
    const sections = new Set([...spec.matchAll(/^## (\d+)\./gm)].map((match) => match[1]!));
    expect(sections.size).toBeGreaterThan(5);
    expect(readFileSync(join(root, "docs/spec/decisions.md"), "utf8")).toMatch(/^# Decisions on what the spec leaves open/m);
    const cited = ["app", "core", "server", "scripts", "tests"].flatMap((folder) =>
      codeFiles(join(root, folder)).flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/[Ss]pec §(\d+)/g)].map((match) => ({ file: relative(root, file), section: match[1]! })),
      ),
    );
    expect(cited.length).toBeGreaterThan(100);
    expect(cited.filter((citation) => !sections.has(citation.section))).toEqual([]);
  });

  it("has a front door and the pages it promises", () => {
    for (const page of ["operations", "back-office", "payments", "subscriptions", "testing", "security", "storefront"]) {
      expect(existsSync(join(root, "docs", `${page}.md`)), page).toBe(true);
    }
    expect(readFileSync(join(root, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(250);
  });

  it("links only to files and headings that exist", () => {
    const broken: string[] = [];
    for (const file of pages) {
      for (const { target, line } of relativeLinks(file)) {
        const [path, anchor] = target.split("#") as [string, string | undefined];
        const destination = path === "" ? file : resolve(dirname(file), decodeURI(path));
        const where = `${relative(root, file)}:${line} → ${target}`;
        if (!existsSync(destination)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor && destination.endsWith(".md") && statSync(destination).isFile() && !anchorsOf(destination).has(decodeURI(anchor))) {
          broken.push(`${where} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("names in code comments only files of this repository that exist", () => {
    // A path of ours in a comment line: from a top folder, ending in a file name with an extension.
    // One that follows another project's name ("VROOM-Project/vroom docs/API.md") is theirs; bench/.tmp
    // is what the benchmarks write.
    const path = /(?<![\w./@~-])((?:docs|app|server|core|scripts|tests|bench)\/[\w.[\]/+-]*\.[a-z]+)\b/g;
    const comment = /^\s*(?:\/\/|\/?\*|#)|\s\/\/\s/;
    const broken: string[] = [];
    let checked = 0;
    for (const folder of ["app", "core", "server", "scripts", "tests", "bench"]) {
      for (const file of codeFiles(join(root, folder))) {
        readFileSync(file, "utf8")
          .split("\n")
          .forEach((line, at) => {
            if (!comment.test(line)) return;
            for (const match of line.matchAll(path)) {
              const target = match[1]!;
              if (target.startsWith("bench/.tmp") || /[\w-]+\/[\w-]+ $/.test(line.slice(0, match.index))) continue;
              checked += 1;
              if (!existsSync(join(root, target))) broken.push(`${relative(root, file)}:${at + 1} → ${target}`);
            }
          });
      }
    }
    expect(checked).toBeGreaterThan(150);
    expect(broken).toEqual([]);
  });

  it("gives every environment variable validated in server/config/ exactly one row in a docs page's table", () => {
    const configDir = join(root, "server/config");
    const validated = new Set<string>();
    for (const name of readdirSync(configDir).filter((file) => file.endsWith(".ts"))) {
      // The schema's keys: `NAME: z…` or `NAME: booleanFlag…`, and the names of grouped secrets.
      const source = readFileSync(join(configDir, name), "utf8");
      for (const match of source.matchAll(/^\s+([A-Z][A-Z0-9_]+):\s*(?:z\b|booleanFlag)/gm)) validated.add(match[1]!);
    }
    // The reader of the schema must find the variables it validates, or the test checks nothing.
    expect(validated.size).toBeGreaterThan(30);
    for (const known of ["DATABASE_URL", "SESSION_SECRET", "CULQI_WEBHOOK_AUTH", "WHATSAPP_TOKEN", "ROUTING_URL"]) expect(validated).toContain(known);

    const rows = markdownFiles(join(root, "docs")).flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line.startsWith("|"))
        .map((line) => ({ file: relative(root, file), names: [...(line.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!) })),
    );
    const problems: string[] = [];
    for (const name of [...validated].sort()) {
      const found = rows.filter((row) => row.names.includes(name));
      if (found.length !== 1) problems.push(`${name}: ${found.length} rows (${found.map((row) => row.file).join(", ") || "none"})`);
    }
    expect(problems).toEqual([]);
  });
});
