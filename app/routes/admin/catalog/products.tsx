import { Form, Link } from "react-router";
import { useResetAfterSave } from "~/lib/use-reset-after-save";
import type { Route } from "./+types/products";
import { formatPriceRange, formatSoles } from "@core/money";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ProductFields } from "~/components/admin/catalog-forms";
import { SavedNotice, contentCardClass } from "~/components/admin/content-form";
import { StaffFormError, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { PRODUCT_FIELDS, withActiveFlag } from "~/routes/admin/catalog/catalog-admin.server";
import { imageOfForm, readUploadForm } from "~/routes/admin/catalog/image-upload.server";
import { answerContentSave, refuseContent } from "~/routes/admin/catalog/content-admin.server";
import { dbContext } from "~/server/db-context.server";
import { allowStaffPage, staffActor } from "~/server/staff.server";
import { createProduct, listCatalogForEditing } from "@server/catalog/index.server";

/** Issue 11: the admin keeps the catalogue (products, variants, prices, pictures) without a developer. */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/productos")];

export async function loader({ context, request }: Route.LoaderArgs) {
  return { products: await listCatalogForEditing(context.get(dbContext)), saved: new URL(request.url).searchParams.get("guardado") === "1" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const catalogForm = await readUploadForm(request, PRODUCT_FIELDS);
  const { intent, values } = catalogForm;
  if (intent !== "create") return refuseContent(intent, values, "Acción no válida. Recarga la página e inténtalo de nuevo.");
  const picture = await imageOfForm(catalogForm);
  if ("refusal" in picture) return picture.refusal;
  const result = await createProduct(context.get(dbContext), staffActor(context, request), { raw: withActiveFlag(values), image: picture.image });
  return answerContentSave(result, intent, values, result.ok ? `/admin/productos/${result.id}?guardado=1` : "/admin/productos", "Producto no encontrado");
}

export const meta: Route.MetaFunction = () => [{ title: "Productos · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export default function Products({ loaderData, actionData }: Route.ComponentProps) {
  const { formRef: createFormRef, onSubmit: onCreateFormSubmit } = useResetAfterSave(actionData !== undefined);
  return (
    <div className="max-w-3xl">
      <AdminPageHeader title="Productos" />
      <SavedNotice show={loaderData.saved && !actionData}>Producto guardado.</SavedNotice>
      <ul className="mb-8 space-y-2">
        {loaderData.products.map((product) => {
          const prices = product.variants.filter((variant) => variant.active).map((variant) => variant.priceCents);
          const price =
            prices.length > 0
              ? formatPriceRange(Math.min(...prices), Math.max(...prices))
              : product.priceCents === null
                ? "Sin precio"
                : formatSoles(product.priceCents);
          return (
            <li key={product.id} className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-100">
              <span className="min-w-0 break-words">
                <span className="font-semibold text-slate-900">{product.title}</span>{" "}
                <span className={product.active ? "text-sm text-emerald-800" : "text-sm text-slate-600"}>{product.active ? "activo" : "inactivo"}</span>
                <span className="block text-sm text-slate-600">
                  {price} · {product.variants.length} {product.variants.length === 1 ? "presentación" : "presentaciones"} · orden {product.sortOrder ?? "—"}
                </span>
              </span>
              <Link to={`/admin/productos/${product.id}`} className="font-semibold text-brand-700 underline">
                Editar<span className="sr-only"> {product.title}</span>
              </Link>
            </li>
          );
        })}
      </ul>
      <Form
        ref={createFormRef}
        onSubmit={onCreateFormSubmit}
        method="post"
        encType="multipart/form-data"
        className={contentCardClass}
        aria-labelledby="nuevo-producto"
      >
        <h2 id="nuevo-producto" className="text-lg font-bold text-slate-900">
          Nuevo producto
        </h2>
        <StaffFormError message={actionData?.error} />
        <ProductFields idPrefix="nuevo-" values={actionData?.values ?? { active: "si" }} errors={actionData?.fieldErrors} withImage />
        <button type="submit" name="intent" value="create" className={staffPrimaryButtonClass}>
          Crear producto
        </button>
      </Form>
    </div>
  );
}
