import { useEffect } from "react";
import { Link, useNavigate } from "react-router";
import type { Route } from "./+types/resume-cart";
import { findCartByRecoveryToken } from "@server/cart/index.server";
import { priceCartLines } from "@server/catalog/index.server";
import { dbContext } from "~/server/db-context.server";
import { cartItemFromPricedLine, type CartItem } from "~/lib/cart";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { useCart } from "~/lib/use-cart";
import { privatePageHeaders } from "~/server/order-receipt.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  try {
    const found = await findCartByRecoveryToken(db, new URL(request.url).searchParams.get("token"), new Date());
    if (!found.ok) return { error: found.reason === "invalid_token" ? "Token inválido" : "No se encontró el carrito", items: [] as CartItem[] };
    const priced = await priceCartLines(db, found.items);
    if (priced.lines.length === 0) return { error: "No se encontró el carrito", items: [] as CartItem[] };
    const items: CartItem[] = priced.lines.map(cartItemFromPricedLine);
    return { error: null, items };
  } catch (error) {
    console.error("Could not resume cart", error);
    return { error: "No se pudo cargar el carrito", items: [] as CartItem[] };
  }
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), { title: "Recupera tu carrito", description: "Retoma tu pedido.", robots: "noindex,nofollow", path: "/resume-cart" });

/** Spec §2 /resume-cart: restores the saved cart (at today's prices) and continues to /checkout. */
export default function ResumeCart({ loaderData }: Route.ComponentProps) {
  const { replace } = useCart();
  const navigate = useNavigate();
  useEffect(() => {
    if (loaderData.error || loaderData.items.length === 0) return;
    replace(loaderData.items);
    void navigate("/checkout", { replace: true }); // failures reach the error boundary, not this promise
  }, [loaderData, replace, navigate]);

  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-16 text-center sm:px-6">
      {loaderData.error ? (
        <>
          <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
            {loaderData.error}
          </p>
          <Link to="/tienda" className="mt-6 inline-block rounded-full bg-brand-700 px-6 py-3 font-semibold text-white">
            Ir a la tienda
          </Link>
        </>
      ) : (
        <p className="text-slate-700">Recuperando tu carrito…</p>
      )}
    </main>
  );
}
