import { Form, Link } from "react-router";
import { useResetAfterSave } from "~/lib/use-reset-after-save";
import type { Route } from "./+types/legal";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ContentField, SavedNotice, contentCardClass } from "~/components/admin/content-form";
import { StaffFormError, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { formatLegalDate } from "~/components/layout/legal-page";
import { answerContentSave, contentNotFound, readContentForm, refuseContent } from "~/routes/admin/catalog/content-admin.server";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffActor } from "~/server/staff.server";
import { isLegalTextSlug, listLegalTextVersions, readLegalTextForEditing, saveLegalText } from "@server/content/index.server";

/** Issue 11: the admin edits the terms and the privacy policy; every saved version is kept. */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("contenido.gestionar")];

const NOT_FOUND = "Texto no encontrado";
const PUBLIC_PATH = { "terminos-condiciones": "/terminos", "politica-privacidad": "/privacidad" } as const;

function slugParam(value: string | undefined) {
  if (!isLegalTextSlug(value)) contentNotFound(NOT_FOUND);
  return value;
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const slug = slugParam(params.slug);
  const db = context.get(dbContext);
  const text = await readLegalTextForEditing(db, slug);
  if (!text) contentNotFound(NOT_FOUND);
  const versions = await listLegalTextVersions(db, slug);
  return { slug, text, versions, publicPath: PUBLIC_PATH[slug], saved: new URL(request.url).searchParams.get("guardado") === "1" };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const slug = slugParam(params.slug);
  const { intent, values } = await readContentForm(request, ["title", "html"], "longText");
  if (intent !== "save") return refuseContent(intent, values, "Acción no válida. Recarga la página e inténtalo de nuevo.");
  const result = await saveLegalText(context.get(dbContext), staffActor(context, request), slug, values, new Date());
  return answerContentSave(result, intent, values, `/admin/contenido/textos/${slug}?guardado=1`, NOT_FOUND);
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.text.title ?? "Texto legal"} · Back office` },
  { name: "robots", content: "noindex,nofollow" },
];

const dateTime = new Intl.DateTimeFormat("es-PE", { dateStyle: "medium", timeStyle: "short", timeZone: "America/Lima" });

export default function LegalTextEditor({ loaderData, actionData }: Route.ComponentProps) {
  const { formRef: editorRef, onSubmit: onEditorSubmit } = useResetAfterSave(actionData !== undefined);
  const { text, versions, publicPath, saved } = loaderData;
  return (
    <div className="max-w-3xl">
      <AdminPageHeader title={text.title}>
        <Link to={publicPath} className="font-semibold text-brand-700 underline">
          Ver la página pública
        </Link>
      </AdminPageHeader>
      <SavedNotice show={saved && !actionData}>Nueva versión guardada. La página pública ya muestra su fecha.</SavedNotice>
      <p className="mb-4 text-slate-700">Última actualización publicada: {formatLegalDate(text.updatedOn)}.</p>
      {/* Keyed by the newest version, so after a save the fields show what was stored (sanitized). */}
      <Form ref={editorRef} onSubmit={onEditorSubmit} method="post" className={contentCardClass}>
        <StaffFormError message={actionData?.error} />
        <ContentField name="title" label="Título" required defaultValue={actionData?.values.title ?? text.title} error={actionData?.fieldErrors.title} />
        <ContentField
          name="html"
          label="Texto"
          required
          rows={18}
          defaultValue={actionData?.values.html ?? text.contentHtml}
          error={actionData?.fieldErrors.html}
          help='Formato permitido: <h2>, <h3>, <p>, <ul>/<ol> con <li>, <strong>, <em>, <a href="https://…"> y <br>; lo demás se quita al guardar. Datos de la empresa: {{razon_social}}, {{ruc}}, {{domicilio_fiscal}}, {{correo}}, {{telefono}}, {{marca}}.'
        />
        <button type="submit" name="intent" value="save" className={staffPrimaryButtonClass}>
          Guardar nueva versión
        </button>
      </Form>
      <section aria-labelledby="versiones" className="mt-8">
        <h2 id="versiones" className="mb-3 text-lg font-bold text-slate-900">
          Versiones guardadas ({versions.length})
        </h2>
        <ol className="space-y-2">
          {versions.map((version, index) => (
            <li key={version.id} className="rounded-xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-100">
              <span className="font-semibold text-slate-900">Vigente desde el {formatLegalDate(version.effectiveOn)}</span>
              {index === 0 && <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-sm text-emerald-900">actual</span>}
              <span className="block text-sm break-words text-slate-600">
                {version.title} · guardada por {version.savedBy} el {dateTime.format(new Date(version.savedAt))}
              </span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
