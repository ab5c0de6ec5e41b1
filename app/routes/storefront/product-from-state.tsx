import { Navigate, redirect, useLocation } from "react-router";

/**
 * Spec §2: /tienda/producto shows the product held in navigation state, otherwise sends the
 * visitor to /tienda. A document request never carries navigation state, so the server redirects;
 * in the browser the product moves on to its shareable URL with the same state.
 */
export function loader() {
  return redirect("/tienda");
}

export function clientLoader() {
  return null;
}

export default function ProductFromState() {
  const location = useLocation();
  const slug = (location.state as { product?: { slug?: unknown } } | null)?.product?.slug;
  if (typeof slug !== "string" || slug === "") return <Navigate to="/tienda" replace />;
  return <Navigate to={`/tienda/producto/${encodeURIComponent(slug)}`} replace state={location.state} />;
}
