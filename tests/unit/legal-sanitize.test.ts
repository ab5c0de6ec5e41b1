import { describe, expect, it } from "vitest";
import { sanitizeLegalHtml } from "@server/content/legal-texts";

describe("legal text sanitizing", () => {
  it("keeps document structure and safe links", () => {
    const html = '<h2>Datos</h2><p>Escríbenos a <a href="mailto:hola@x.pe">hola@x.pe</a> o lee <a href="/privacidad">la política</a>.</p><ul><li>Uno</li></ul>';
    expect(sanitizeLegalHtml(html)).toBe(html);
  });

  it("strips scripts, event handlers, styles and dangerous links", () => {
    const dirty =
      '<p onclick="steal()" style="color:red">Hola</p><script>alert(1)</script><a href="javascript:alert(1)">x</a><img src=x onerror=alert(1)><iframe src="https://evil"></iframe>';
    const clean = sanitizeLegalHtml(dirty);
    expect(clean).toBe("<p>Hola</p><a>x</a>");
  });
});
