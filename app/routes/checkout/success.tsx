import { useEffect, useState } from "react";
import { isRouteErrorResponse, Link, useRevalidator } from "react-router";
import type { Route } from "./+types/success";
import { dbContext } from "~/server/db-context.server";
import { ReceiptView, ShopLinks } from "~/components/orders/receipt-view";
import { orderStatusLabel, paymentStage } from "@core/order-labels";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { useCart } from "~/lib/use-cart";
import { loadReceipt, privatePageHeaders } from "~/server/order-receipt.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const orderId = new URL(request.url).searchParams.get("orderId");
  if (!orderId) return { missing: true as const, receipt: null };
  return { missing: false as const, receipt: await loadReceipt(context.get(dbContext), request, orderId) };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), { title: "Estado de tu pago", description: "Comprobante de tu pedido.", robots: "noindex,nofollow", path: "/success" });

/**
 * Spec §4 receipt polling: every 5 s, for at most 10 minutes, until the order is paid. An order
 * already past payment (processing, shipped, delivered) counts as paid, and one that ended
 * (failed, cancelled, refunded) has nothing left to wait for: neither is polled.
 */
export const POLL_INTERVAL_MS = 5000;
export const POLL_LIMIT_MS = 10 * 60 * 1000;

export default function Success({ loaderData }: Route.ComponentProps) {
  const { receipt } = loaderData;
  const revalidator = useRevalidator();
  const { clear } = useCart();
  const [startedAt] = useState(() => Date.now());
  const stage = receipt ? paymentStage(receipt.status) : null;
  // Issue 38: an order paid at the door is confirmed now; nothing to wait for online.
  const confirmedAtDoor = Boolean(receipt?.payAtDoor);
  const paid = stage === "paid" || confirmedAtDoor;

  useEffect(() => {
    if (!receipt || stage !== "awaiting" || confirmedAtDoor) return;
    const timer = window.setInterval(() => {
      if (Date.now() - startedAt > POLL_LIMIT_MS) return window.clearInterval(timer);
      // A failed poll reaches the error boundary; the next tick polls again either way.
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, POLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [receipt, stage, revalidator, startedAt, confirmedAtDoor]);

  // Spec §2: the cart is cleared once, the first time this order is seen paid in this browser.
  useEffect(() => {
    if (!paid || !receipt) return;
    const key = `va-cart-cleared:${receipt.id}`;
    if (window.sessionStorage.getItem(key)) return;
    window.sessionStorage.setItem(key, "1");
    clear();
  }, [paid, receipt, clear]);

  if (loaderData.missing) {
    return (
      <main id="contenido" className="mx-auto max-w-2xl px-4 py-12">
        <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
          Falta orderId.
        </p>
      </main>
    );
  }
  return (
    <main id="contenido" className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <div role="status" aria-live="polite">
        {confirmedAtDoor ? (
          <h1 className="text-3xl font-bold text-green-800">Pedido confirmado</h1>
        ) : paid ? (
          <h1 className="text-3xl font-bold text-green-800">Pago confirmado</h1>
        ) : stage === "ended" ? (
          <h1 className="text-2xl font-bold text-brand-900">
            {receipt!.status === "failed" ? "No se pudo completar el pago" : `Pedido ${orderStatusLabel(receipt!.status).toLowerCase()}`}
          </h1>
        ) : (
          <h1 className="text-2xl font-bold text-brand-900">Estamos procesando tu pago, espera un momento…</h1>
        )}
      </div>
      <div className="mt-6">{receipt && <ReceiptView receipt={receipt} />}</div>
      <div className="no-print mt-6 flex flex-wrap gap-3">
        <button type="button" onClick={() => window.print()} className="rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800">
          Imprimir comprobante
        </button>
        <ShopLinks />
      </div>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <main id="contenido" className="mx-auto max-w-2xl px-4 py-12">
      <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
        No se pudo cargar la orden
      </p>
      <Link to="/tienda" className="mt-4 inline-block font-semibold text-brand-700 underline">
        Volver a la tienda
      </Link>
    </main>
  );
}
