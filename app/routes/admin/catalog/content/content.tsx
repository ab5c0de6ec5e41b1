import { Link } from "react-router";
import type { Route } from "./+types/content";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { dbContext } from "~/server/db-context.server";
import { allowStaffPage } from "~/server/staff.server";
import { readSettingsForEditing } from "@server/content/index.server";

/** Issue 11: content and settings are the admin's. */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/contenido")];

export async function loader({ context }: Route.LoaderArgs) {
  const settings = await readSettingsForEditing(context.get(dbContext));
  return { issuerIsDemo: settings?.issuerIsDemo ?? true };
}

export const meta: Route.MetaFunction = () => [{ title: "Contenido · Back office" }, { name: "robots", content: "noindex,nofollow" }];

const SECTIONS = [
  {
    to: "/admin/contenido/ajustes",
    title: "Ajustes del sitio y datos del emisor",
    text: "Marca, WhatsApp, correo, redes sociales, razón social, RUC y domicilio fiscal.",
  },
  { to: "/admin/contenido/textos/terminos-condiciones", title: "Términos y condiciones", text: "Texto de /terminos, con todas sus versiones." },
  { to: "/admin/contenido/textos/politica-privacidad", title: "Política de privacidad", text: "Texto de /privacidad, con todas sus versiones." },
  { to: "/admin/contenido/organizaciones", title: "Organizaciones", text: "Causas sociales que los clientes votan y apoyan." },
  { to: "/admin/contenido/historia", title: "Historia", text: "Diapositivas de la historia en /nosotros." },
];

export default function ContentHome({ loaderData }: Route.ComponentProps) {
  return (
    <div className="max-w-3xl">
      <AdminPageHeader title="Contenido" />
      {loaderData.issuerIsDemo && (
        <p role="status" className="mb-4 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-amber-900">
          Los datos del emisor son los de la tienda de demostración. Ingresa la razón social y el RUC de la empresa en{" "}
          <Link to="/admin/contenido/ajustes#emisor" className="font-semibold underline">
            Ajustes
          </Link>
          .
        </p>
      )}
      <ul className="grid gap-3 sm:grid-cols-2">
        {SECTIONS.map((section) => (
          <li key={section.to}>
            <Link to={section.to} className="block h-full rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100 hover:ring-brand-300">
              <span className="block font-semibold text-brand-800 underline">{section.title}</span>
              <span className="mt-1 block text-sm text-slate-600">{section.text}</span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-6 text-sm text-slate-600">Cada cambio queda en la auditoría y se ve en la tienda en unos segundos.</p>
    </div>
  );
}
