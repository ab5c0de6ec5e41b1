import { describe, expect, it } from "vitest";
import { withSplash } from "~/server/splash-html.server";

// The shape React Router 7's <Scripts> has once React has written it (module preloads hoisted into <head>).
const page =
  `<!DOCTYPE html><html lang="es-PE"><head><meta charSet="utf-8"/><link nonce="n1" rel="stylesheet" href="/assets/app.css" data-precedence="high"/>` +
  `<link rel="modulepreload" href="/assets/entry.client.js" nonce="n1"/><link rel="modulepreload" href="/assets/root.js" nonce="n1"/></head>` +
  `<body class="min-h-screen"><main>Hola</main><script nonce="n1">window.__reactRouterContext = {};</script>` +
  `<script nonce="n1" type="module" async="">import * as route0 from "/assets/root.js";\nimport("/assets/entry.client.js");</script></body></html>`;

describe("withSplash", () => {
  it("puts the splash first in <body> and moves the module preloads into scripts that can wait for its first paint", () => {
    const html = withSplash(page, "Vida Alcalina", "n1");
    expect(html).not.toContain('<link rel="modulepreload"');
    // The decision runs in <head> before the stylesheet, so it never waits for it, and knows every module.
    expect(html.indexOf('<script nonce="n1">(function(){')).toBeLessThan(html.indexOf('rel="stylesheet"'));
    expect(html).toContain('m=["/assets/entry.client.js","/assets/root.js"]');
    expect(html).toMatch(/<body class="min-h-screen"><div aria-hidden="true" data-testid="splash"/);
    // React Router's module script stays in place for hydration, inert, followed by the script that starts it.
    expect(html).toContain(
      `<script type="text/plain" data-hydration="" nonce="n1">import * as route0 from "/assets/root.js";\nimport("/assets/entry.client.js");</script><script nonce="n1">(function(c){`,
    );
  });

  it("leaves the modules as React Router wrote them when its markup is not the expected one", () => {
    const other = page.replace('type="module" async=""', 'type="module"');
    const html = withSplash(other, "Vida Alcalina", "n1");
    expect(html.match(/<link rel="modulepreload"/g)).toHaveLength(2);
    expect(html).toContain("m=[]");
    expect(html).toContain('data-testid="splash"');
  });
});
