/** The invoice list's load failure (spec §8), which a working database never shows in a browser. */
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import Invoices from "~/routes/dashboard.invoices";

describe("invoice list", () => {
  it("shows the spec's message in a red alert when the invoices cannot be loaded", () => {
    const html = renderToString(
      <MemoryRouter>
        <Invoices loaderData={{ ok: false, status: "all", query: "" }} />
      </MemoryRouter>,
    );
    expect(html).toMatch(/<p role="alert" class="[^"]*bg-red-50[^"]*">No se pudieron cargar las facturas. Por favor, inténtalo de nuevo.<\/p>/);
    expect(html).not.toContain("Descargar todas");
  });
});
