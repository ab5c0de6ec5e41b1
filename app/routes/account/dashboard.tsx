import { Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { getDashboard } from "@server/accounts/index.server";
import { AccountPageError } from "~/components/account/account-page";
import { OrderStatusBadge } from "~/components/orders/receipt-view";
import { dbContext } from "~/server/db-context.server";
import { deliveryWindowLabels } from "@core/delivery-schedule";
import { formatLimaDate, limaToday } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { userContext } from "~/server/session.server";
import { withRetries } from "~/server/retry.server";

export async function loader({ context, request }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const user = context.get(userContext);
  // Spec §4: the dashboard's profile load is retried 3 times (1 s, 2 s, 3 s) before the error.
  const dashboard = await withRetries(() => getDashboard(db, user.id, new Date()), [1000, 2000, 3000]);
  if (!dashboard) throw new Error("profile missing for a signed-in user");
  const { profile, summary } = dashboard;
  return { profile, summary, welcome: new URL(request.url).searchParams.has("bienvenida") };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Mi cuenta",
    description: "Tus pedidos, envíos, facturas y suscripción.",
    path: "/dashboard",
    robots: "noindex,nofollow",
  });

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountPageError
      error={error}
      title="Mi cuenta"
      notFound="Página no encontrada"
      failure="No se pudieron cargar los datos del dashboard. Por favor, inténtalo de nuevo."
      back={{ to: "/tienda", label: "Volver a la tienda" }}
    />
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { profile, summary, welcome } = loaderData;
  const stats = [
    { label: "Pedidos", value: summary.orderCount, to: "/dashboard/pedidos" },
    { label: "Próximos envíos", value: summary.upcomingDeliveryCount, to: "/dashboard/envios?filter=upcoming" },
    { label: "Envíos", value: summary.deliveryCount, to: "/dashboard/envios?filter=all" },
    {
      label: "Suscripción",
      value: summary.subscription ? (summary.subscription.frequency === "anual" ? "Anual" : "Mensual") : "Sin suscripción",
      to: "/dashboard/suscripcion",
    },
  ];
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">¡Hola, {profile.firstName}!</h1>
        <p className="mt-1 text-slate-600">{welcome ? "Tu cuenta está lista. Bienvenido a Vida Alcalina." : "Este es el resumen de tu cuenta."}</p>
      </header>

      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Resumen">
        {stats.map((stat) => (
          <li key={stat.label}>
            <Link to={stat.to} className="block h-full rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100 hover:ring-brand-300">
              <span className="block text-sm text-slate-600">{stat.label}</span>
              <span className="mt-1 block text-2xl font-bold text-brand-900">{stat.value}</span>
            </Link>
          </li>
        ))}
      </ul>

      {summary.pendingInvoiceCount > 0 && (
        <Link
          to="/dashboard/facturas?status=pending"
          className="block rounded-2xl border border-amber-200 bg-amber-50 px-4 py-3 font-semibold text-amber-900 hover:bg-amber-100"
        >
          Tienes {summary.pendingInvoiceCount} {summary.pendingInvoiceCount === 1 ? "factura pendiente" : "facturas pendientes"} de pago →
        </Link>
      )}

      <div className="grid gap-6 xl:grid-cols-3">
        <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100 xl:col-span-2" aria-labelledby="recent-orders">
          <div className="flex items-center justify-between">
            <h2 id="recent-orders" className="text-lg font-bold">
              Pedidos recientes
            </h2>
            <Link to="/dashboard/pedidos" className="text-sm font-semibold text-brand-800 underline">
              Ver todos
            </Link>
          </div>
          {summary.recentOrders.length === 0 ? (
            <p className="mt-4 text-slate-600">No hay pedidos recientes</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-100">
              {summary.recentOrders.map((order) => (
                <li key={order.id}>
                  <Link to={`/dashboard/pedidos/${order.id}`} className="flex flex-wrap items-center justify-between gap-2 py-3 hover:bg-slate-50">
                    <span>
                      <span className="block font-semibold">{order.orderNumber}</span>
                      <span className="text-sm text-slate-500">
                        {formatLimaDate(limaToday(new Date(order.createdAt)), { day: "numeric", month: "short", year: "numeric" })} ·{" "}
                        {order.orderType === "subscription" ? "Suscripción" : "Única"}
                      </span>
                    </span>
                    <span className="flex items-center gap-3">
                      <OrderStatusBadge status={order.status} />
                      <span className="font-semibold">{formatSoles(order.totalCents)}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>

        <div className="space-y-6">
          <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100" aria-labelledby="profile-summary">
            <div className="flex items-center justify-between">
              <h2 id="profile-summary" className="text-lg font-bold">
                Mi perfil
              </h2>
              <Link to="/dashboard/perfil" className="text-sm font-semibold text-brand-800 underline">
                Editar
              </Link>
            </div>
            <dl className="mt-3 space-y-2 text-sm">
              <ProfileRow label="Nombre" value={profile.fullName} />
              <ProfileRow label="Correo" value={profile.email} />
              <ProfileRow label="Celular" value={profile.phone} />
              <ProfileRow label="Dirección" value={[profile.address, profile.districtName].filter(Boolean).join(", ") || null} />
            </dl>
          </section>

          <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100" aria-labelledby="next-deliveries">
            <div className="flex items-center justify-between">
              <h2 id="next-deliveries" className="text-lg font-bold">
                Próximos envíos
              </h2>
              <Link to="/dashboard/envios?filter=upcoming" className="text-sm font-semibold text-brand-800 underline">
                Ver envíos
              </Link>
            </div>
            {summary.upcomingDeliveries.length === 0 ? (
              <p className="mt-3 text-sm text-slate-600">No tienes envíos programados</p>
            ) : (
              <ul className="mt-3 space-y-2 text-sm">
                {summary.upcomingDeliveries.map((delivery) => (
                  <li key={delivery.id}>
                    <Link to={`/dashboard/envios/${delivery.id}`} className="block rounded-xl px-2 py-1.5 hover:bg-slate-50">
                      <span className="font-semibold">{formatLimaDate(delivery.deliveryDate)}</span>
                      <span className="block text-slate-500">
                        {delivery.deliveryNumber} · {deliveryWindowLabels[delivery.deliveryWindow] ?? delivery.deliveryWindow}
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}

function ProfileRow({ label, value }: { label: string; value: string | null }) {
  return (
    <div className="flex gap-2">
      <dt className="w-20 shrink-0 text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words">{value || "—"}</dd>
    </div>
  );
}
