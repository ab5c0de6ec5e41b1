import type { LegalText } from "@server/content/index.server";

/** Spec §2 Legal pages: both show 'Última actualización: 15 de agosto de 2025' from the stored date. */
export function formatLegalDate(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  return new Intl.DateTimeFormat("es-PE", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(date);
}

export function LegalPage({ heading, text }: { heading: string; text: LegalText | null }) {
  return (
    <main id="contenido" className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900 sm:text-4xl">{text?.title ?? heading}</h1>
      {text ? (
        <>
          <p className="mt-2 text-sm text-slate-600">Última actualización: {formatLegalDate(text.updatedOn)}</p>
          <div
            className="mt-8 space-y-4 leading-relaxed text-slate-700 [&_a]:text-brand-700 [&_a]:underline [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-bold [&_h2]:text-brand-900 [&_h3]:mt-6 [&_h3]:font-semibold [&_li]:ml-6 [&_ol]:list-decimal [&_ul]:list-disc"
            // Sanitized on the server by the content domain (sanitizeLegalHtml).
            dangerouslySetInnerHTML={{ __html: text.html }}
          />
        </>
      ) : (
        <p className="mt-8 rounded-2xl bg-red-50 p-6 text-red-800" role="alert">
          No se pudo cargar el contenido
        </p>
      )}
    </main>
  );
}
