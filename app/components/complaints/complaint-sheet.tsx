import type { ComplaintSheetView } from "@server/complaints/index.server";

/**
 * A sheet of the Libro de Reclamaciones as the consumer and staff read it: the same sections as the
 * PDF and the e-mail (the complaints domain lays them out), wrapping at 360 px.
 */
export function ComplaintSheet({ sheet }: { sheet: Pick<ComplaintSheetView, "heading" | "filedAtLabel" | "sections" | "legends"> }) {
  return (
    <article className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6" aria-labelledby="hoja-titulo">
      <h2 id="hoja-titulo" className="text-lg font-bold break-words text-brand-900 sm:text-xl">
        {sheet.heading}
      </h2>
      <p className="mt-1 text-sm text-slate-600">Fecha y hora: {sheet.filedAtLabel}</p>
      {sheet.sections.map((section) => (
        <section key={section.title} className="mt-6">
          <h3 className="rounded-lg bg-brand-50 px-3 py-2 font-semibold text-brand-900">{section.title}</h3>
          <dl className="mt-2 divide-y divide-slate-100">
            {section.rows.map(([label, value]) => (
              <div key={label} className="grid gap-1 py-2 sm:grid-cols-3 sm:gap-4">
                <dt className="text-sm font-semibold text-slate-700">{label}</dt>
                <dd className="break-words whitespace-pre-wrap text-slate-900 sm:col-span-2">{value}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <div className="mt-6 space-y-2 border-t border-slate-200 pt-4 text-sm text-slate-600">
        {sheet.legends.map((legend) => (
          <p key={legend}>* {legend}</p>
        ))}
      </div>
    </article>
  );
}
