/**
 * Decision 0086: the driver app's document carries only the part of the shop's stylesheet its own
 * markup uses. The whole file is 54 KB (10.5 KB gzip) and was most of the document's bytes: on a
 * phone's first round trip (about 14 KB) the first paint waited for a second one. The whole file
 * applies once the page is idle, through its own held-back <link> (inline-stylesheet.server.ts),
 * before anything the page draws later (a banner, a refused tap, another admin page) needs it.
 *
 * Kept: everything that is not a class rule (the base layer, `@font-face`, attribute rules), every
 * class rule that names at least one class of the document, and the theme variables, keyframes and
 * registered custom properties that what is kept reads. A rule kept too many only costs bytes; the
 * file's order is kept, so the cascade is the file's own.
 */
import postcss, { type ChildNode } from "postcss";

type Statement =
  | { kind: "always"; text: string }
  | { kind: "classes"; text: string; classes: string[]; reads: string[] }
  | { kind: "keyframes"; text: string; name: string }
  | { kind: "property"; text: string; name: string }
  | { kind: "block"; open: string; children: Statement[]; close: string }
  | { kind: "theme"; open: string; variables: { name: string; text: string; reads: string[] }[]; close: string };

export interface StylesheetIndex {
  statements: Statement[];
  /** The variables read by what every page keeps (the base layer reads the theme's fonts). */
  alwaysReads: string[];
}

/** A CSS identifier with its escapes resolved: `md\:flex` → `md:flex`, `w-1\/2` → `w-1/2`. */
function unescapeCss(identifier: string): string {
  return identifier.replace(/\\([0-9a-fA-F]{1,6}\s?|[^0-9a-fA-F])/g, (_, escaped: string) =>
    /^[0-9a-fA-F]/.test(escaped) ? String.fromCodePoint(Number.parseInt(escaped.trim(), 16)) : escaped,
  );
}

const CLASS_IN_SELECTOR = /\.((?:\\[0-9a-fA-F]{1,6}\s?|\\[^0-9a-fA-F]|[\w-])+)/g;

/** The custom properties a text reads: `var(--color-slate-800)` → `--color-slate-800`. */
function variablesRead(text: string): string[] {
  return [...text.matchAll(/var\((--[\w-]+)/g)].map((match) => match[1]!);
}

/** A node as written; a statement at-rule (`@layer components;`) gets back the semicolon its parent held. */
function textOf(node: ChildNode): string {
  return node.type === "atrule" && node.nodes === undefined ? `${node.toString()};` : node.toString();
}

function statementOf(node: ChildNode): Statement | null {
  if (node.type === "comment") return null;
  const text = textOf(node);
  if (node.type === "rule") {
    const classes = [...node.selector.matchAll(CLASS_IN_SELECTOR)].map((match) => unescapeCss(match[1]!));
    return classes.length ? { kind: "classes", text, classes, reads: variablesRead(text) } : { kind: "always", text };
  }
  if (node.type === "atrule" && /keyframes$/i.test(node.name)) return { kind: "keyframes", text, name: node.params };
  if (node.type === "atrule" && node.name === "property") return { kind: "property", text, name: node.params };
  // `@media (width>=48rem){.md\:flex{…}…}` holds every `md:` utility: each is chosen on its own.
  if (node.type === "atrule" && node.nodes?.some((child) => child.type === "rule" || child.type === "atrule")) {
    const children = node.nodes.map(statementOf).filter((child) => child !== null);
    return { kind: "block", open: `@${node.name}${node.params ? ` ${node.params}` : ""}{`, children, close: "}" };
  }
  return { kind: "always", text };
}

/** `@layer theme{:root,:host{--color-brand-600:…;…}}`: each variable kept only when something kept reads it. */
function themeOf(node: ChildNode): Statement | null {
  if (node.type !== "atrule" || node.name !== "layer" || node.params !== "theme") return null;
  const rule = node.nodes?.length === 1 ? node.first : undefined;
  if (rule?.type !== "rule" || !rule.nodes.every((decl) => decl.type === "decl")) return null;
  const variables = rule.nodes.flatMap((decl) => (decl.type === "decl" ? [{ name: decl.prop, text: decl.toString(), reads: variablesRead(decl.value) }] : []));
  return { kind: "theme", open: `@layer theme{${rule.selector}{`, variables, close: "}}" };
}

/** Parses the stylesheet once; `subsetFor` then picks from it per document. */
export function indexStylesheet(css: string): StylesheetIndex {
  const statements: Statement[] = [];
  for (const node of postcss.parse(css).nodes) {
    // The utilities are chosen one by one; the properties, base and components layers are kept whole.
    const wholeLayer = node.type === "atrule" && node.name === "layer" && node.params !== "utilities";
    const statement = themeOf(node) ?? (wholeLayer ? { kind: "always" as const, text: textOf(node) } : statementOf(node));
    if (statement) statements.push(statement);
  }
  const alwaysReads: string[] = [];
  const collect = (statement: Statement) => {
    if (statement.kind === "always") alwaysReads.push(...variablesRead(statement.text));
    if (statement.kind === "block") statement.children.forEach(collect);
  };
  statements.forEach(collect);
  return { statements, alwaysReads };
}

const HTML_ENTITIES: Record<string, string> = { "&amp;": "&", "&quot;": '"', "&#x27;": "'", "&#39;": "'", "&lt;": "<", "&gt;": ">" };

/** Every class the document's markup names (React escapes &, quotes and angle brackets in attributes). */
export function documentClasses(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of match[1]!.split(/\s+/)) {
      if (name) classes.add(name.replace(/&(?:amp|quot|#x27|#39|lt|gt);/g, (entity) => HTML_ENTITIES[entity]!));
    }
  }
  return classes;
}

/**
 * The part of the stylesheet the document needs: for the classes its markup names, and for
 * `alsoClasses` (what its scripts can draw later without a new document, decision 0086).
 */
export function subsetFor(index: StylesheetIndex, html: string, alsoClasses: Iterable<string> = []): string {
  const classes = documentClasses(html);
  for (const name of alsoClasses) classes.add(name);
  const keep = (statement: { classes: string[] }) => statement.classes.some((name) => classes.has(name));
  const kept = new Set<Extract<Statement, { kind: "classes" }>>();
  const choose = (statement: Statement) => {
    if (statement.kind === "classes" && keep(statement)) kept.add(statement);
    if (statement.kind === "block") statement.children.forEach(choose);
  };
  index.statements.forEach(choose);

  // What the kept rules, the document's own inline styles and every page's statements read; a
  // theme variable may read another (`--default-font-family: var(--font-sans)`).
  const read = new Set([...index.alwaysReads, ...variablesRead(html), ...[...kept].flatMap((statement) => statement.reads)]);
  const themeVariables = index.statements.flatMap((statement) => (statement.kind === "theme" ? statement.variables : []));
  for (let grew = true; grew;) {
    grew = false;
    for (const variable of themeVariables) {
      if (!read.has(variable.name)) continue;
      for (const name of variable.reads) {
        if (read.has(name)) continue;
        read.add(name);
        grew = true;
      }
    }
  }
  const animated = (name: string) => html.includes(name) || [...kept].some((statement) => statement.text.includes(name));

  const render = (statement: Statement): string => {
    switch (statement.kind) {
      case "always":
        return statement.text;
      case "classes":
        return kept.has(statement) ? statement.text : "";
      case "keyframes":
        return animated(statement.name) ? statement.text : "";
      case "property":
        return read.has(statement.name) ? statement.text : "";
      case "theme": {
        const variables = statement.variables.filter((variable) => read.has(variable.name));
        return variables.length ? `${statement.open}${variables.map((variable) => variable.text).join(";")}${statement.close}` : "";
      }
      case "block": {
        const inner = statement.children.map(render).join("");
        return inner ? `${statement.open}${inner}${statement.close}` : "";
      }
    }
  };
  return index.statements.map(render).join("");
}
