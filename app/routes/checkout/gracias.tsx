import { Link } from "react-router";
import type { Route } from "./+types/gracias";
import { dbContext } from "~/server/db-context.server";
import { ReceiptView } from "~/components/orders/receipt-view";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { loadReceipt, privatePageHeaders } from "~/server/order-receipt.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const orderId = new URL(request.url).searchParams.get("orderId");
  return { receipt: orderId ? await loadReceipt(context.get(dbContext), request, orderId).catch(() => null) : null };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), { title: "¡Gracias por tu compra!", description: "Gracias por elegirnos.", robots: "noindex,nofollow", path: "/gracias" });

/** decisions.md: thank-you page for an order whose next step is `success`, with its summary. */
export default function Gracias({ loaderData }: Route.ComponentProps) {
  return (
    <main id="contenido" className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">¡Gracias por tu compra!</h1>
      <p className="mt-3 text-slate-700">Te enviamos la confirmación a tu correo. Coordinaremos la entrega en la fecha que elegiste.</p>
      {loaderData.receipt && (
        <div className="mt-6">
          <ReceiptView receipt={loaderData.receipt} />
        </div>
      )}
      <Link to="/tienda" className="mt-6 inline-block rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800">
        Seguir comprando
      </Link>
    </main>
  );
}
