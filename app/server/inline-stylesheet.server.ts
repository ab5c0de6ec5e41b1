/**
 * Decision 0086: a page whose route says `handle = { inlineStylesheet: true }` (the driver app,
 * `/admin/reparto`) gets the part of the shop's stylesheet its markup uses inside its document
 * (stylesheet-subset.server.ts), so its first paint waits for the document alone — not for an
 * 11 KB stylesheet sharing a phone's connection with the modules (Lighthouse mobile, issue 26:
 * bench/RESULTS.md).
 *
 * The part covers the classes of the markup and every class the route's own modules name
 * (`routeClassCandidates`), so what the page draws later on its route (a banner without signal, a
 * refused tap) is styled too. The document has no link to the whole file (root.tsx leaves it out
 * on such a route): nothing else is fetched for its looks while the driver stays on the route, so
 * the phone's first seconds go to the document and the modules. The first page of the visit that
 * needs the whole file renders its link; React fetches it then and shows that page once it has
 * loaded, placing it after this part (same `data-precedence`), so the whole file's order decides
 * the cascade from then on.
 * The <style> carries the document's nonce, which the page's Content-Security-Policy then names
 * in `style-src`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { EntryContext } from "react-router";
import { indexStylesheet, subsetFor, type StylesheetIndex } from "./stylesheet-subset.server";

/** Whether the page's matched routes ask for it (`handle.inlineStylesheet`). */
export function inlinesStylesheet(context: EntryContext): boolean {
  return context.staticHandlerContext.matches.some((match) => {
    const handle = context.routeModules[match.route.id]?.handle as { inlineStylesheet?: unknown } | undefined;
    return handle?.inlineStylesheet === true;
  });
}

/** build/client, beside the build/server folder this module is bundled into (at any depth below it). */
function builtClientDir(): string {
  let dir = import.meta.dirname;
  while (path.basename(dir) !== "server" && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(path.dirname(dir), "client");
}

const stylesheets = new Map<string, StylesheetIndex | null>();

/** The stylesheet, read and indexed once; null (logged) when it cannot be read, and the page links it instead. */
function stylesheetIndex(href: string): StylesheetIndex | null {
  if (!stylesheets.has(href)) {
    try {
      // A closing tag inside the CSS would end the element early; CSS has no use for "</".
      stylesheets.set(href, indexStylesheet(readFileSync(path.join(builtClientDir(), href), "utf8").replace(/<\//g, "<\\/")));
    } catch (error) {
      console.error(`The stylesheet ${href} could not be read to inline it; pages link it instead:`, error);
      stylesheets.set(href, null);
    }
  }
  return stylesheets.get(href)!;
}

/**
 * Every word of a built module, cut at spaces and quotes: each class name of its string literals
 * comes out whole however the minifier wrote the code around it (as Tailwind's own scan reads
 * sources). Pieces of code come out too; they name no class, so they keep no rule.
 */
function wordsOf(source: string): string[] {
  return source.split(/[\s"'`]+/).filter(Boolean);
}

const candidatesByModules = new Map<string, string[]>();

/**
 * The class names the page's own route modules (and what they import, past the entry's shared
 * modules) can draw once the page runs: a banner without signal, a refused tap, a dialog. With
 * these in its part, the page never needs the whole file while it stays on its route (decision
 * 0086). Read from the built files once per set of modules; an unreadable one is logged and
 * skipped (its classes then arrive with the whole file when the driver leaves the route).
 */
export function routeClassCandidates(context: EntryContext): string[] {
  const { entry, routes } = context.manifest;
  const shared = new Set([entry.module, ...entry.imports]);
  const modules = [
    ...new Set(
      context.staticHandlerContext.matches.flatMap((match) => {
        const route = routes[match.route.id];
        return route ? [route.module, ...(route.imports ?? [])] : [];
      }),
    ),
  ].filter((module) => !shared.has(module));
  const key = modules.join(" ");
  if (!candidatesByModules.has(key)) {
    const words = new Set<string>();
    for (const module of modules) {
      try {
        for (const word of wordsOf(readFileSync(path.join(builtClientDir(), module), "utf8"))) words.add(word);
      } catch (error) {
        console.error(`The module ${module} could not be read for its class names:`, error);
      }
    }
    candidatesByModules.set(key, [...words]);
  }
  return candidatesByModules.get(key)!;
}

/**
 * The document with its part of the stylesheet `href` at the end of its <head>, for the classes of
 * its markup and `alsoClasses`. When the file cannot be read, the document links it instead.
 */
export function withInlineStylesheet(html: string, href: string, nonce: string, alsoClasses: Iterable<string> = []): string {
  const index = stylesheetIndex(href);
  // `data-precedence` is what React orders its stylesheets by: the whole file, added later, goes after this part.
  const styles =
    index === null
      ? `<link rel="stylesheet" href="${href}" data-precedence="high"/>`
      : `<style nonce="${nonce}" data-precedence="high">${subsetFor(index, html, alsoClasses)}</style>`;
  return html.replace("</head>", () => `${styles}</head>`);
}
