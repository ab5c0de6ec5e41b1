import { Form, Link } from "react-router";
import { useResetAfterSave } from "~/lib/use-reset-after-save";
import type { Route } from "./+types/organizations";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { OrganizationFields } from "~/components/admin/content-entry-forms";
import { SavedNotice, contentCardClass } from "~/components/admin/content-form";
import { StaffFormError, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { answerContentSave, readContentForm, refuseContent } from "~/routes/admin/catalog/content-admin.server";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffActor } from "~/server/staff.server";
import { createOrganization, listAllOrganizations } from "@server/content/index.server";

/** Issue 11: the admin manages the organisations customers vote for and support. */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("contenido.gestionar")];

const ORGANIZATION_FIELDS = ["title", "description", "image", "active"] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  return { organizations: await listAllOrganizations(context.get(dbContext)), saved: new URL(request.url).searchParams.get("guardado") === "1" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { intent, values } = await readContentForm(request, ORGANIZATION_FIELDS);
  if (intent !== "create") return refuseContent(intent, values, "Acción no válida. Recarga la página e inténtalo de nuevo.");
  const result = await createOrganization(context.get(dbContext), staffActor(context, request), { ...values, active: values.active === "si" });
  return answerContentSave(result, intent, values, "/admin/contenido/organizaciones?guardado=1", "Organización no encontrada");
}

export const meta: Route.MetaFunction = () => [{ title: "Organizaciones · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export default function Organizations({ loaderData, actionData }: Route.ComponentProps) {
  const { formRef: createFormRef, onSubmit: onCreateFormSubmit } = useResetAfterSave(actionData !== undefined);
  return (
    <div className="max-w-3xl">
      <AdminPageHeader title="Organizaciones" />
      <SavedNotice show={loaderData.saved && !actionData}>Organización guardada.</SavedNotice>
      <ul className="mb-8 space-y-2">
        {loaderData.organizations.map((organization) => (
          <li key={organization.id} className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-100">
            <span className="min-w-0 break-words">
              <span className="font-semibold text-slate-900">{organization.title}</span>{" "}
              <span className={organization.active ? "text-sm text-emerald-800" : "text-sm text-slate-600"}>{organization.active ? "activa" : "inactiva"}</span>
            </span>
            <Link to={`/admin/contenido/organizaciones/${organization.id}`} className="font-semibold text-brand-700 underline">
              Editar<span className="sr-only"> {organization.title}</span>
            </Link>
          </li>
        ))}
      </ul>
      {/* Keyed by the list, so the create form empties once its organisation is created. */}
      <Form ref={createFormRef} onSubmit={onCreateFormSubmit} method="post" className={contentCardClass} aria-labelledby="nueva-organizacion">
        <h2 id="nueva-organizacion" className="text-lg font-bold text-slate-900">
          Nueva organización
        </h2>
        <StaffFormError message={actionData?.error} />
        <OrganizationFields idPrefix="nueva-" values={actionData?.values ?? { active: "si" }} errors={actionData?.fieldErrors} />
        <button type="submit" name="intent" value="create" className={staffPrimaryButtonClass}>
          Crear organización
        </button>
      </Form>
    </div>
  );
}
