import { data, Link } from "react-router";
import type { Route } from "./+types/libro-de-reclamaciones-hoja";
import { findComplaintByToken } from "@server/complaints/index.server";
import { ComplaintSheet } from "~/components/complaints/complaint-sheet";
import { dbContext } from "~/server/db-context.server";
import { privatePageHeaders } from "~/server/order-receipt.server";

/**
 * The consumer's copy of their sheet, on screen and downloadable (D.S. 011-2011-PCM: a full copy at
 * once). The URL holds a random token only the consumer got; the sheet's number would let anyone
 * read everyone's, so it opens nothing.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const sheet = await findComplaintByToken(context.get(dbContext), params.token);
  if (!sheet) throw data("Hoja de reclamación no encontrada", { status: 404 });
  return { sheet };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `Hoja de reclamación N° ${loaderData.sheet.sheetNumber}` : "Hoja de reclamación" },
  { name: "robots", content: "noindex,nofollow" },
];

export default function ComplaintSheetPage({ loaderData, params }: Route.ComponentProps) {
  const { sheet } = loaderData;
  return (
    <main id="contenido" className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900 sm:text-4xl">Hoja de reclamación registrada</h1>
      <p role="status" className="mt-4 rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900">
        Registramos tu hoja N° <strong>{sheet.sheetNumber}</strong>. Te enviamos una copia a <strong className="break-all">{sheet.consumerEmail}</strong>.{" "}
        {sheet.answer ? "Ya respondimos: la respuesta está en la sección 4." : "Te responderemos a ese correo en un plazo máximo de 15 días hábiles."}
      </p>
      <p className="mt-4 flex flex-wrap gap-3">
        <a
          href={`/libro-de-reclamaciones/hoja/${params.token}/pdf`}
          download
          className="inline-flex items-center justify-center rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
        >
          Descargar PDF
        </a>
        <Link to="/" className="inline-flex items-center px-2 py-3 font-semibold text-brand-800 underline">
          Volver al inicio
        </Link>
      </p>
      <p className="mt-2 text-sm text-slate-600">Guarda este enlace o el PDF: es tu constancia.</p>
      <div className="mt-6">
        <ComplaintSheet sheet={sheet} />
      </div>
    </main>
  );
}
