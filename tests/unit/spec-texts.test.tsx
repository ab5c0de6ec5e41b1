/**
 * Spec §8 texts in the situations that a working server rarely shows in a browser: a profile that
 * fails to load, an invoice search that finds nothing, an invoice PDF download that fails, and the
 * order-created line of the payment page.
 */
import { renderToString } from "react-dom/server";
import { createRoutesStub, MemoryRouter, UNSAFE_ErrorResponseImpl } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DOWNLOAD_ERROR, DOWNLOAD_REFUSED, downloadInvoicePdf } from "~/components/invoices/download-pdf-button";
import { ErrorBoundary as ProfileBoundary } from "~/routes/account/profile";
import Invoices from "~/routes/account/invoices";
import SandboxPayment from "~/routes/checkout/sandbox-payment";
import { expectConsoleError } from "../support/fail-on-console-error";

const ProfileError = ProfileBoundary as unknown as React.ComponentType<{ error: unknown }>;
const render = (element: React.ReactElement) => renderToString(<MemoryRouter initialEntries={["/dashboard/perfil"]}>{element}</MemoryRouter>);

/** A route component rendered on the server inside a data router, with its loader's data already there. */
function renderRoute(path: string, Component: unknown, loaderData: unknown) {
  const Stub = createRoutesStub([{ id: "page", path, Component: Component as React.ComponentType, HydrateFallback: () => null }]);
  return renderToString(<Stub initialEntries={[path]} hydrationData={{ loaderData: { page: loaderData } }} />);
}

describe("spec §8 texts where the spec puts them", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("the profile says 'Error al cargar los datos del usuario' for a failure, and its other two messages for a refusal and a missing profile", () => {
    expectConsoleError(/connection terminated/);
    expect(render(<ProfileError error={new Error("connection terminated")} />)).toContain("Error al cargar los datos del usuario");
    expect(render(<ProfileError error={new UNSAFE_ErrorResponseImpl(503, "Service Unavailable", "")} />)).toContain("No se pudo cargar el perfil del usuario");
    expect(render(<ProfileError error={new UNSAFE_ErrorResponseImpl(404, "Not Found", "")} />)).toContain("No se pudo obtener la información del usuario");
  });

  it("an invoice search that finds nothing says 'Sin resultados'; a customer without invoices is told so instead", () => {
    const empty = {
      ok: true as const,
      rows: [],
      counts: { all: 0, paid: 0, pending: 0, overdue: 0 },
      summary: { billedCents: 0, pendingPaymentCents: 0, count: 0 },
    };
    const searched = renderRoute("/dashboard/facturas", Invoices, { ...empty, status: "all", query: "F001-999" });
    expect(searched).toContain("Sin resultados");
    const none = renderRoute("/dashboard/facturas", Invoices, { ...empty, status: "all", query: "" });
    expect(none).toContain("Aún no tienes facturas");
    expect(none).not.toContain("Sin resultados");
  });

  it("a failed invoice download says 'Error al descargar la factura', a refused one the server's message, a good one saves the file by its name", async () => {
    const save = vi.fn();
    vi.stubGlobal("fetch", () => Promise.reject(new TypeError("Failed to fetch")));
    expect(await downloadInvoicePdf("inv-1", save)).toBe(DOWNLOAD_ERROR);
    expect(DOWNLOAD_ERROR).toBe("Error al descargar la factura");

    vi.stubGlobal("fetch", () => Promise.resolve(new Response("No se pudo descargar la factura", { status: 500, headers: { "Content-Type": "text/plain" } })));
    expect(await downloadInvoicePdf("inv-1", save)).toBe("No se pudo descargar la factura");
    vi.stubGlobal("fetch", () => Promise.resolve(new Response("<html>Bad gateway</html>", { status: 502, headers: { "Content-Type": "text/html" } })));
    expect(await downloadInvoicePdf("inv-1", save)).toBe(DOWNLOAD_REFUSED);
    expect(save).not.toHaveBeenCalled();

    vi.stubGlobal("fetch", () =>
      Promise.resolve(
        new Response("%PDF-1.7", { headers: { "Content-Type": "application/pdf", "Content-Disposition": 'attachment; filename="B001-00000007.pdf"' } }),
      ),
    );
    expect(await downloadInvoicePdf("inv-1", save)).toBeNull();
    expect(save).toHaveBeenCalledWith(expect.any(Blob), "B001-00000007.pdf");
  });

  it("the payment page of a new order says 'Orden generada. Sigue las instrucciones para completar el pago.'", () => {
    const html = renderRoute("/pago/sandbox/p-1", SandboxPayment, {
      orderNumber: "VA-000123",
      amountCents: 5000,
      status: "created",
      paymentCode: null,
      expired: false,
    });
    expect(html).toContain("Orden generada. Sigue las instrucciones para completar el pago.");
  });
});
