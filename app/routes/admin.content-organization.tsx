import { Form, Link } from "react-router";
import type { Route } from "./+types/admin.content-organization";
import { AdminPageHeader } from "~/components/admin/admin-shell";
import { OrganizationFields } from "~/components/admin/content-entry-forms";
import { contentCardClass } from "~/components/admin/content-form";
import { StaffFormError, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { answerContentSave, contentIdParam, contentNotFound, readContentForm, refuseContent } from "~/content-admin.server";
import { dbContext } from "~/db-context.server";
import { allowRoles, staffActor } from "~/staff.server";
import { findOrganizationForEditing, updateOrganization } from "@server/content/index.server";

/** Issue 11: edit an organisation's text, logo and active flag (never delete: votes and subscriptions name it). */
export const middleware: Route.MiddlewareFunction[] = [allowRoles()];

const NOT_FOUND = "Organización no encontrada";
const FIELDS = ["title", "description", "image", "active"] as const;

export async function loader({ context, params }: Route.LoaderArgs) {
  const organization = await findOrganizationForEditing(context.get(dbContext), contentIdParam(params.organizationId, NOT_FOUND));
  if (!organization) contentNotFound(NOT_FOUND);
  return { organization };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const id = contentIdParam(params.organizationId, NOT_FOUND);
  const { intent, values } = await readContentForm(request, FIELDS);
  if (intent !== "update") return refuseContent(intent, values, "Acción no válida. Recarga la página e inténtalo de nuevo.");
  const result = await updateOrganization(context.get(dbContext), staffActor(context, request), id, { ...values, active: values.active === "si" });
  return answerContentSave(result, intent, values, "/admin/contenido/organizaciones?guardado=1", NOT_FOUND);
}

export const meta: Route.MetaFunction = () => [{ title: "Editar organización · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export default function OrganizationEditor({ loaderData, actionData }: Route.ComponentProps) {
  const { organization } = loaderData;
  const stored = { title: organization.title, description: organization.description, image: organization.image, active: organization.active ? "si" : "" };
  return (
    <div className="max-w-2xl">
      <AdminPageHeader title="Editar organización">
        <Link to="/admin/contenido/organizaciones" className="font-semibold text-brand-700 underline">
          Volver a organizaciones
        </Link>
      </AdminPageHeader>
      <Form method="post" className={contentCardClass}>
        <StaffFormError message={actionData?.error} />
        <OrganizationFields idPrefix="" values={actionData?.values ?? stored} errors={actionData?.fieldErrors} />
        <button type="submit" name="intent" value="update" className={staffPrimaryButtonClass}>
          Guardar cambios
        </button>
      </Form>
    </div>
  );
}
