import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Route } from "./+types/carrito";
import { MinimumOrderModal } from "~/components/shop/minimum-order-modal";
import { OrderSummaryBox } from "~/components/shop/order-summary";
import { DEFAULT_PRODUCT_IMAGE } from "~/components/shop/product-card";
import { PurchaseOptionsPicker } from "~/components/shop/purchase-options-picker";
import { QuantityStepper } from "~/components/shop/quantity-stepper";
import { CART_STORAGE_KEY, cartSubtotalCents } from "~/lib/cart";
import { correctCartNow, type CurrentLine } from "~/lib/cart-corrections";
import { formatSoles } from "@core/money";
import { minimumOrderShortfall } from "@core/pricing";
import { usePurchaseOptions } from "~/lib/purchase-options";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { useNonce } from "~/lib/nonce";
import { SPLASH_SEEN_ATTRIBUTE, SPLASH_SEEN_KEY } from "~/lib/splash";
import { useCart } from "~/lib/use-cart";
import { useHydrated } from "~/lib/use-hydrated";
import { useGarantiaLines } from "~/components/checkout/use-garantia-lines";
import { garantiaCharge } from "@core/garantia";
import type { CartItem } from "~/lib/cart";

/**
 * The cart lives in the visitor's browser (localStorage): the server renders the same frame for
 * everyone, so the page cache may keep it like /tienda's (a signed-in visitor still gets
 * `private, no-store`: app/server/cache-control.server.ts).
 */
export function headers() {
  return { "Cache-Control": "public, max-age=60, stale-while-revalidate=300" };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Carrito de compras",
    description: "Revisa los productos de tu carrito, elige compra única o suscripción y realiza tu pedido.",
    robots: "noindex,follow",
    path: "/carrito",
  });

/**
 * Spec §2: an empty cart sends the visitor to /tienda. Decided by the document itself before it
 * paints, rather than after the page's JavaScript has loaded and hydrated (issue 13: a visitor with
 * an empty cart used to wait for both, then for /tienda's code and data, and Lighthouse scored that
 * wait). A stored value the cart cannot read counts as empty, as in `parseStoredCart`; lines it
 * cannot use are still caught after hydration by the effect below. A session's first page that leaves
 * this way never painted its splash, so it hands the greeting on to /tienda (decision 0054).
 */
const emptyCartRedirect =
  `function l(){try{if(!document.documentElement.hasAttribute("${SPLASH_SEEN_ATTRIBUTE}"))sessionStorage.removeItem("${SPLASH_SEEN_KEY}")}catch(e){}` +
  `location.replace("/tienda")}` +
  `try{var c=JSON.parse(localStorage.getItem(${JSON.stringify(CART_STORAGE_KEY)})||"[]");if(!Array.isArray(c)||c.length===0)l()}catch(e){l()}`;

/** The cart lives in the browser (spec §3), so this page is drawn there and checked against the server's prices. */
export default function Carrito() {
  const hydrated = useHydrated();
  const nonce = useNonce();
  const { items, setQuantity, remove, update } = useCart();
  const options = usePurchaseOptions();
  const navigate = useNavigate();
  const [notes, setNotes] = useState<string[]>([]);
  const [showMinimum, setShowMinimum] = useState(false);
  const subtotal = cartSubtotalCents(items);

  // Spec §2: an empty cart sends the visitor to /tienda (unless we just emptied it with a note to read).
  useEffect(() => {
    // React Router reports a failed navigation through its error boundary; the promise only says when it settled.
    if (hydrated && items.length === 0 && notes.length === 0) void navigate("/tienda", { replace: true });
  }, [hydrated, items.length, notes.length, navigate]);

  // Ask the server for today's prices when lines are added or removed; corrections come with a note.
  const lineSignature = items.map((item) => item.key).join(",");
  useEffect(() => {
    if (!hydrated || items.length === 0) return;
    let cancelled = false;
    const lines = items.map(({ productId, variantId, quantity }) => ({ productId, variantId, quantity }));
    const asked = new Set(items.map((item) => item.key));
    fetch("/api/carrito/precios", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ items: lines }) })
      .then((response) => (response.ok ? (response.json() as Promise<{ lines: CurrentLine[] }>) : null))
      .then((current) => {
        if (cancelled || !current) return;
        // Applied to the cart as stored now: a quantity changed while the answer was on its way
        // (a click on "Aumentar cantidad") must not be undone by it.
        let notesFound: string[] = [];
        update((latest) => {
          const correction = correctCartNow(latest, asked, current.lines);
          if (!correction) return latest;
          notesFound = correction.notes;
          return correction.items;
        });
        if (notesFound.length > 0) setNotes((previous) => [...previous, ...notesFound]);
      })
      // Without an answer the cart stays as it is; the checkout prices everything again anyway.
      .catch(() => {});
    return () => {
      cancelled = true;
    };
    // Quantity changes do not need a new check, only added or removed lines.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated, lineSignature]);

  function placeOrder() {
    if (minimumOrderShortfall(subtotal) > 0) {
      setShowMinimum(true);
      return;
    }
    // Failures reach the error boundary, not this promise.
    void navigate("/checkout", { state: { purchaseType: options.purchaseType, subscriptionFrequency: options.subscriptionFrequency } });
  }

  // Both drawings are `cart-page` (app.css): with JavaScript on, the page is at least a screen tall,
  // so the footer starts below the first screen while the stored cart is still being read and the
  // lines that appear after hydration push nothing the visitor sees (it used to jump: CLS 0.58).
  if (!hydrated) {
    return (
      <main id="contenido" className="cart-page mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: emptyCartRedirect }} />
        <h1 className="text-3xl font-bold text-brand-900">Tu carrito</h1>
        <p className="mt-6 text-slate-600">Cargando tu carrito…</p>
        <noscript>
          <p className="mt-4">Activa JavaScript para ver tu carrito.</p>
        </noscript>
      </main>
    );
  }

  return (
    <main id="contenido" className="cart-page mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Tu carrito</h1>
      <div role="status" aria-live="polite">
        {notes.length > 0 && (
          <ul className="mt-6 space-y-1 rounded-2xl border border-amber-200 bg-amber-50 p-4 text-amber-900" data-testid="cart-notes">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        )}
      </div>
      {items.length === 0 ? (
        <p className="mt-8">
          Tu carrito quedó vacío.{" "}
          <Link to="/tienda" className="font-semibold text-brand-700 underline">
            Ver productos
          </Link>
        </p>
      ) : (
        <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_22rem]">
          {/* A table from sm up; on a phone each line is a small card (product, then quantity and
              total, then unit price and Quitar), so nothing needs a sideways scroll. `relative`
              keeps the visually hidden header inside the scroller, not widening the page. */}
          <div className="relative min-w-0 sm:overflow-x-auto">
            <table className="w-full text-left max-sm:block">
              <thead className="border-b border-slate-200 text-sm text-slate-600 max-sm:sr-only">
                <tr>
                  <th scope="col" className="py-3">
                    Producto
                  </th>
                  <th scope="col" className="py-3">
                    Precio
                  </th>
                  <th scope="col" className="py-3">
                    Cantidad
                  </th>
                  <th scope="col" className="py-3">
                    Total
                  </th>
                  <th scope="col" className="py-3">
                    <span className="sr-only">Acciones</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 max-sm:block">
                {items.map((item) => (
                  <tr
                    key={item.key}
                    data-testid="cart-line"
                    className="max-sm:grid max-sm:grid-cols-[1fr_auto] max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-3 max-sm:py-4"
                  >
                    <td className="py-4 pr-3 max-sm:col-span-2 max-sm:p-0">
                      <div className="flex items-center gap-3">
                        <img src={item.image ?? DEFAULT_PRODUCT_IMAGE} alt="" width={64} height={64} className="h-16 w-16 rounded-xl bg-sky-50" />
                        <div>
                          {item.slug ? (
                            <Link to={`/tienda/producto/${item.slug}`} className="font-semibold hover:underline">
                              {item.title}
                            </Link>
                          ) : (
                            <span className="font-semibold">{item.title}</span>
                          )}
                          {item.variantTitle && <p className="text-sm text-slate-600">{item.variantTitle}</p>}
                        </div>
                      </div>
                    </td>
                    <td
                      className="py-4 pr-3 whitespace-nowrap max-sm:order-4 max-sm:p-0 max-sm:text-sm max-sm:text-slate-600 max-sm:after:content-['_c/u']"
                      data-testid="cart-line-price"
                    >
                      {formatSoles(item.price)}
                    </td>
                    <td className="py-4 pr-3 max-sm:order-2 max-sm:p-0">
                      <QuantityStepper value={item.quantity} onChange={(next) => setQuantity(item.key, next)} label={`Cantidad de ${item.title}`} />
                    </td>
                    <td className="py-4 pr-3 font-semibold whitespace-nowrap max-sm:order-3 max-sm:p-0 max-sm:text-right" data-testid="cart-line-total">
                      {formatSoles(item.price * item.quantity)}
                    </td>
                    <td className="py-4 max-sm:order-5 max-sm:p-0 max-sm:text-right">
                      <button type="button" onClick={() => remove(item.key)} className="text-sm font-medium text-red-700 hover:underline">
                        Quitar
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="space-y-6">
            <PurchaseOptionsPicker value={options} onChange={options.update} />
            <OrderSummaryBox cartSubtotalCents={subtotal} purchaseType={options.purchaseType} frequency={options.subscriptionFrequency}>
              <button
                type="button"
                onClick={placeOrder}
                className="mt-6 w-full rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
              >
                Realizar pedido
              </button>
              <GarantiaEstimate items={items} />
            </OrderSummaryBox>
          </div>
        </div>
      )}
      <MinimumOrderModal open={showMinimum} onClose={() => setShowMinimum(false)} subtotalCents={subtotal} />
    </main>
  );
}

/**
 * Issue 41: the garantía is said in the cart, before the checkout adds it (the total used to jump
 * there): what the cart's bidones would carry for a customer with none of ours yet, which the
 * checkout then lowers by the bidones the customer already holds.
 */
function GarantiaEstimate({ items }: { items: CartItem[] }) {
  const lines = useGarantiaLines(items);
  const charge = lines ? garantiaCharge(lines, 0) : null;
  if (!charge || charge.cents === 0) return null;
  return (
    <p className="mt-4 rounded-xl bg-brand-50 p-3 text-sm text-slate-800" data-testid="cart-garantia-estimate">
      Garantía de bidón: hasta <strong>{formatSoles(charge.cents)}</strong> ({charge.units} {charge.units === 1 ? "bidón" : "bidones"}), devolvible, si aún no
      tienes bidones nuestros para cambiar. Si ya los tienes, no se cobra; lo verás en el pago.
    </p>
  );
}
