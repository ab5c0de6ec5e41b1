import { describe, expect, it } from "vitest";
import { withSplash } from "~/server/splash-html.server";

// The shape React Router 7's <Scripts> has once React has written it (module preloads hoisted into <head>).
const page =
  `<!DOCTYPE html><html lang="es-PE"><head><meta charSet="utf-8"/><link nonce="n1" rel="stylesheet" href="/assets/app.css" data-precedence="high"/>` +
  `<link rel="modulepreload" href="/assets/entry.client.js" nonce="n1"/><link rel="modulepreload" href="/assets/root.js" nonce="n1"/></head>` +
  `<body class="min-h-screen"><main>Hola</main><script nonce="n1">window.__reactRouterContext = {};</script>` +
  `<script nonce="n1" type="module" async="">import * as route0 from "/assets/root.js";\nimport("/assets/entry.client.js");</script></body></html>`;

describe("withSplash", () => {
  it("puts the splash first in <body>, its once-per-tab decision before the stylesheet, and leaves hydration as React Router wrote it", () => {
    const html = withSplash(page, "Vida Alcalina", "n1");
    expect(html).toMatch(/<body class="min-h-screen"><div aria-hidden="true" data-testid="splash"/);
    expect(html.indexOf('<script nonce="n1">(function(){')).toBeLessThan(html.indexOf('rel="stylesheet"'));
    expect(html).toContain("sessionStorage");
    // Nothing held back: the preloads and the module script that hydrates are untouched.
    expect(html.match(/<link rel="modulepreload"/g)).toHaveLength(2);
    expect(html).toContain(`<script nonce="n1" type="module" async="">import * as route0 from "/assets/root.js";`);
    expect(html).not.toContain("text/plain");
    expect(
      html
        .replace(/<script nonce="n1">\(function\(\)\{[^<]*<\/script>/, "")
        .replace(/<div aria-hidden="true" data-testid="splash"[\s\S]*?Cargando experiencia...<\/p><\/div>/, ""),
    ).toBe(page);
  });
});
