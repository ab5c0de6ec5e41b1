/**
 * Decision 0086: a page whose route says `handle = { inlineStylesheet: true }` (the driver app,
 * `/admin/reparto`) gets the part of the shop's stylesheet its markup uses inside its document
 * (stylesheet-subset.server.ts), so its first paint waits for the document alone — not for an
 * 11 KB stylesheet sharing a phone's connection with the modules (Lighthouse mobile, issue 26:
 * bench/RESULTS.md).
 *
 * The stylesheet's own <link> stays, held back (`media="not all"`: fetched at the lowest
 * priority, never render-blocking) and marked `data-deferred-stylesheet`: React finds it when it
 * hydrates and does not add it again. A route that sets the handle must apply it once idle
 * (`useEffect(applyDeferredStylesheets, [])`, app/lib/deferred-stylesheet.ts, as admin.reparto
 * does), so what it draws later and the next pages of the visit have the whole file; it is not in
 * root.tsx because every other page would carry it in its first load. The <style> carries the
 * document's nonce, which the page's Content-Security-Policy then names in `style-src`.
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

/** The stylesheet, read and indexed once; null (logged) when it cannot be read, and the page keeps its link. */
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

/** The document with its part of the stylesheet `href` inlined before the (held back) link; unchanged when the link is absent. */
export function withInlineStylesheet(html: string, href: string, nonce: string): string {
  const quoted = href.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // React writes the nonce first: the attributes are matched in any order.
  const link = new RegExp(`<link\\b(?=[^>]*\\brel="stylesheet")(?=[^>]*\\bhref="${quoted}")[^>]*>`).exec(html);
  const index = link ? stylesheetIndex(href) : null;
  if (!link || index === null) return html;
  const css = subsetFor(index, html);
  const inert = link[0].replace(/\s*\/?>$/, ' media="not all" data-deferred-stylesheet=""/>');
  return html.replace(link[0], () => `<style nonce="${nonce}">${css}</style>${inert}`);
}
