import { Form, Link } from "react-router";
import { useResetAfterSave } from "~/lib/use-reset-after-save";
import type { Route } from "./+types/history";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { HistoryFields } from "~/components/admin/content-entry-forms";
import { SavedNotice, contentCardClass } from "~/components/admin/content-form";
import { StaffFormError, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { answerContentSave, readContentForm, refuseContent } from "~/routes/admin/catalog/content-admin.server";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffActor } from "~/server/staff.server";
import { createHistoryEntry, listAllHistoryEntries } from "@server/content/index.server";

/** Issue 11: the admin manages the history slides of /nosotros. */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("contenido.gestionar")];

const FIELDS = ["title", "description", "image", "sortOrder"] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  return { entries: await listAllHistoryEntries(context.get(dbContext)), notice: new URL(request.url).searchParams.get("aviso") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { intent, values } = await readContentForm(request, FIELDS);
  if (intent !== "create") return refuseContent(intent, values, "Acción no válida. Recarga la página e inténtalo de nuevo.");
  const result = await createHistoryEntry(context.get(dbContext), staffActor(context, request), values);
  return answerContentSave(result, intent, values, "/admin/contenido/historia?aviso=guardada", "Entrada no encontrada");
}

export const meta: Route.MetaFunction = () => [{ title: "Historia · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export default function History({ loaderData, actionData }: Route.ComponentProps) {
  const { formRef: createFormRef, onSubmit: onCreateFormSubmit } = useResetAfterSave(actionData !== undefined);
  return (
    <div className="max-w-3xl">
      <AdminPageHeader title="Historia" />
      <SavedNotice show={loaderData.notice === "guardada" && !actionData}>Diapositiva guardada.</SavedNotice>
      <SavedNotice show={loaderData.notice === "eliminada" && !actionData}>Diapositiva eliminada.</SavedNotice>
      <p className="mb-3 text-slate-700">En el orden en que se muestran en /nosotros.</p>
      <ol className="mb-8 space-y-2">
        {loaderData.entries.map((entry) => (
          <li key={entry.id} className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-100">
            <span className="min-w-0 break-words">
              <span className="font-semibold text-slate-900">{entry.title}</span>{" "}
              <span className="text-sm text-slate-600">{entry.sortOrder === null ? "sin orden" : `orden ${entry.sortOrder}`}</span>
            </span>
            <Link to={`/admin/contenido/historia/${entry.id}`} className="font-semibold text-brand-700 underline">
              Editar<span className="sr-only"> {entry.title}</span>
            </Link>
          </li>
        ))}
      </ol>
      {/* Keyed by the list, so the create form empties once its slide is created. */}
      <Form ref={createFormRef} onSubmit={onCreateFormSubmit} method="post" className={contentCardClass} aria-labelledby="nueva-diapositiva">
        <h2 id="nueva-diapositiva" className="text-lg font-bold text-slate-900">
          Nueva diapositiva
        </h2>
        <StaffFormError message={actionData?.error} />
        <HistoryFields idPrefix="nueva-" values={actionData?.values ?? {}} errors={actionData?.fieldErrors} />
        <button type="submit" name="intent" value="create" className={staffPrimaryButtonClass}>
          Crear diapositiva
        </button>
      </Form>
    </div>
  );
}
