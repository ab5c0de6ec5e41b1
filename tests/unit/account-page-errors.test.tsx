/**
 * A database that fails mid-request is hard to provoke in a browser against the real server, so the
 * error boundaries of the orders and deliveries pages are rendered here with the errors they get.
 */
import { renderToString } from "react-dom/server";
import { MemoryRouter, UNSAFE_ErrorResponseImpl } from "react-router";
import { describe, expect, it } from "vitest";
import { ErrorBoundary as DeliveriesBoundary } from "~/routes/account/deliveries";
import { ErrorBoundary as DeliveryDetailBoundary } from "~/routes/account/delivery-detail";
import { ErrorBoundary as OrderDetailBoundary } from "~/routes/account/order-detail";
import { ErrorBoundary as OrdersBoundary } from "~/routes/account/orders";
import { expectConsoleError } from "../support/fail-on-console-error";

// Boundaries also receive params and loaderData, which these do not read.
type Boundary = React.ComponentType<{ error: unknown }>;
const DeliveriesError = DeliveriesBoundary as unknown as Boundary;
const DeliveryDetailError = DeliveryDetailBoundary as unknown as Boundary;
const OrderDetailError = OrderDetailBoundary as unknown as Boundary;
const OrdersError = OrdersBoundary as unknown as Boundary;

function render(element: React.ReactElement) {
  return renderToString(<MemoryRouter initialEntries={["/dashboard/envios?filter=delivered"]}>{element}</MemoryRouter>);
}

const notFound = new UNSAFE_ErrorResponseImpl(404, "Not Found", "Envío no encontrado");

describe("the orders and deliveries pages when loading fails", () => {
  it("shows the spec's message for the deliveries list, with a way to try again, and logs the cause", () => {
    expectConsoleError(/connection terminated/);
    const html = render(<DeliveriesError error={new Error("connection terminated")} />);
    expect(html).toContain("No se pudieron cargar los envíos. Por favor, inténtalo de nuevo.");
    expect(html).toContain('href="/dashboard/envios?filter=delivered"');
    expect(html).not.toContain("connection terminated");
  });

  it("shows each detail page's load-failure message, and its 'no encontrado' for a 404", () => {
    const failed = new UNSAFE_ErrorResponseImpl(500, "Internal Server Error", "");
    expect(render(<DeliveryDetailError error={failed} />)).toContain("No se pudo cargar la información del envío. Por favor, inténtalo de nuevo.");
    expect(render(<OrderDetailError error={failed} />)).toContain("No se pudo cargar los detalles del pedido");
    expect(render(<OrdersError error={failed} />)).toContain("No se pudieron cargar los pedidos. Por favor, inténtalo de nuevo.");
    const missingDelivery = render(<DeliveryDetailError error={notFound} />);
    expect(missingDelivery).toContain("Envío no encontrado");
    expect(missingDelivery).not.toContain("Reintentar");
    expect(render(<OrderDetailError error={notFound} />)).toContain("Pedido no encontrado");
  });
});
