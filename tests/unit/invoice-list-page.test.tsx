/** The invoice list's load failure (spec §8), which a working database never shows in a browser. */
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { invoiceBadge } from "@core/invoice-list";
import Invoices from "~/routes/account/invoices";

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

describe("invoice badge", () => {
  it("names a nota de crédito instead of calling it paid, and keeps the spec's labels for sales", () => {
    expect(invoiceBadge("paid", "nota_credito").label).toBe("Nota de crédito");
    expect(invoiceBadge("paid", "boleta")).toEqual({ label: "Pagada", tone: "bg-green-100 text-green-900" });
    expect(invoiceBadge("overdue", "factura").label).toBe("Vencida");
  });
});
