import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/history-entry";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { HistoryFields } from "~/components/admin/content-entry-forms";
import { contentCardClass } from "~/components/admin/content-form";
import { StaffFormError, staffDangerButtonClass, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { answerContentSave, contentIdParam, contentNotFound, readContentForm, refuseContent } from "~/routes/admin/catalog/content-admin.server";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffActor } from "~/server/staff.server";
import { deleteHistoryEntry, findHistoryEntryForEditing, updateHistoryEntry } from "@server/content/index.server";

/** Issue 11: edit or remove one history slide. */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("contenido.gestionar")];

const NOT_FOUND = "Diapositiva no encontrada";
const FIELDS = ["title", "description", "image", "sortOrder"] as const;

export async function loader({ context, params }: Route.LoaderArgs) {
  const entry = await findHistoryEntryForEditing(context.get(dbContext), contentIdParam(params.entryId, NOT_FOUND));
  if (!entry) contentNotFound(NOT_FOUND);
  return { entry };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const id = contentIdParam(params.entryId, NOT_FOUND);
  const db = context.get(dbContext);
  const actor = staffActor(context, request);
  const { intent, values } = await readContentForm(request, FIELDS);
  if (intent === "delete") {
    const result = await deleteHistoryEntry(db, actor, id);
    if (!result.ok) contentNotFound(NOT_FOUND);
    throw redirect("/admin/contenido/historia?aviso=eliminada");
  }
  if (intent !== "update") return refuseContent(intent, values, "Acción no válida. Recarga la página e inténtalo de nuevo.");
  const result = await updateHistoryEntry(db, actor, id, values);
  return answerContentSave(result, intent, values, "/admin/contenido/historia?aviso=guardada", NOT_FOUND);
}

export const meta: Route.MetaFunction = () => [{ title: "Editar diapositiva · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export default function HistoryEntryEditor({ loaderData, actionData }: Route.ComponentProps) {
  const { entry } = loaderData;
  const stored = { title: entry.title, description: entry.description, image: entry.image, sortOrder: entry.sortOrder === null ? "" : String(entry.sortOrder) };
  return (
    <div className="max-w-2xl">
      <AdminPageHeader title="Editar diapositiva">
        <Link to="/admin/contenido/historia" className="font-semibold text-brand-700 underline">
          Volver a historia
        </Link>
      </AdminPageHeader>
      <Form method="post" className={contentCardClass}>
        <StaffFormError message={actionData?.error} />
        <HistoryFields idPrefix="" values={actionData?.values ?? stored} errors={actionData?.fieldErrors} />
        <button type="submit" name="intent" value="update" className={staffPrimaryButtonClass}>
          Guardar cambios
        </button>
      </Form>
      <Form method="post" className="mt-6">
        <button type="submit" name="intent" value="delete" className={staffDangerButtonClass}>
          Eliminar diapositiva
        </button>
      </Form>
    </div>
  );
}
