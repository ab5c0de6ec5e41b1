import { Form, Link } from "react-router";
import type { Route } from "./+types/organization";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ImageUploadField } from "~/components/admin/catalog-forms";
import { OrganizationFields } from "~/components/admin/content-entry-forms";
import { contentCardClass } from "~/components/admin/content-form";
import { StaffFormError, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { answerContentSave, contentIdParam, contentNotFound, refuseContent } from "~/routes/admin/catalog/content-admin.server";
import { imageOfForm, readUploadForm } from "~/routes/admin/catalog/image-upload.server";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffActor } from "~/server/staff.server";
import { findOrganizationForEditing, updateOrganization } from "@server/content/index.server";

/** Issue 11: edit an organisation's text, logo and active flag (never delete: votes and subscriptions name it). */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("contenido.gestionar")];

const NOT_FOUND = "Organización no encontrada";
const FIELDS = ["title", "description", "image", "active"] as const;

export async function loader({ context, params }: Route.LoaderArgs) {
  const organization = await findOrganizationForEditing(context.get(dbContext), contentIdParam(params.organizationId, NOT_FOUND));
  if (!organization) contentNotFound(NOT_FOUND);
  return { organization };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const id = contentIdParam(params.organizationId, NOT_FOUND);
  const upload = await readUploadForm(request, FIELDS);
  const { intent, values } = upload;
  if (intent !== "update") return refuseContent(intent, values, "Acción no válida. Recarga la página e inténtalo de nuevo.");
  // An uploaded logo (issue 11) replaces the typed path; the save writes its files.
  const logo = await imageOfForm(upload);
  if ("refusal" in logo) return logo.refusal;
  const image = logo.image === null ? "" : values.image;
  const result = await updateOrganization(
    context.get(dbContext),
    staffActor(context, request),
    id,
    { ...values, image, active: values.active === "si" },
    logo.image ?? undefined,
  );
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
      <Form method="post" encType="multipart/form-data" className={contentCardClass}>
        <StaffFormError message={actionData?.error} />
        <OrganizationFields idPrefix="" values={actionData?.values ?? stored} errors={actionData?.fieldErrors} />
        <ImageUploadField idPrefix="" label="Subir logo" current={organization.image} error={actionData?.fieldErrors?.imageFile} removable={false} />
        <button type="submit" name="intent" value="update" className={staffPrimaryButtonClass}>
          Guardar cambios
        </button>
      </Form>
    </div>
  );
}
