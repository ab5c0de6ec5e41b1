import { Form, Link } from "react-router";
import { useResetAfterSave } from "~/lib/use-reset-after-save";
import type { Route } from "./+types/product";
import { centsToSolesText } from "@core/catalog-schemas";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ProductFields, VariantFields } from "~/components/admin/catalog-forms";
import { ProductGalleryEditor } from "~/components/admin/product-gallery-editor";
import { SavedNotice, contentCardClass } from "~/components/admin/content-form";
import { StaffFormError, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { PRODUCT_FIELDS, VARIANT_FIELDS, withActiveFlag } from "~/routes/admin/catalog/catalog-admin.server";
import { imageOfForm, readUploadForm } from "~/routes/admin/catalog/image-upload.server";
import { answerContentSave, contentIdParam, contentNotFound, refuseContent } from "~/routes/admin/catalog/content-admin.server";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffActor } from "~/server/staff.server";
import {
  addProductImage,
  createVariant,
  findProductForEditing,
  moveProductImage,
  removeProductImage,
  updateProduct,
  updateProductImageAlt,
  updateVariant,
  type OnPriceChange,
} from "@server/catalog/index.server";
import { repriceSubscriptionsForCatalogChange } from "@server/subscriptions/index.server";

/** Issue 11: one product, its variants and its pictures. Nothing is deleted: what orders name is deactivated. */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("productos.gestionar")];

const NOT_FOUND = "Producto no encontrado";
const INVALID_INTENT = "Acción no válida. Recarga la página e inténtalo de nuevo.";
const IMAGE_NOT_FOUND = "Imagen no encontrada";
const NO_FILE = "Elige una imagen PNG, JPEG o WebP para agregar.";
/** A move button names the position the picture goes to (decision 0057), so a repeated click moves nothing twice. */
const MOVE_INTENT = /^image-move:(\d{1,3})$/;

/** New prices reach subscriptions from their next period, with an e-mail, in the save's transaction (decision 0055). */
const onPriceChange: OnPriceChange = (tx, change) => repriceSubscriptionsForCatalogChange(tx, change);

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const product = await findProductForEditing(context.get(dbContext), contentIdParam(params.productId, NOT_FOUND));
  if (!product) contentNotFound(NOT_FOUND);
  return { product, saved: new URL(request.url).searchParams.get("guardado") === "1" };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const productId = contentIdParam(params.productId, NOT_FOUND);
  const catalogForm = await readUploadForm(request, [...new Set([...PRODUCT_FIELDS, ...VARIANT_FIELDS, "variantId", "imageId", "alt"])]);
  const { intent, values } = catalogForm;
  const db = context.get(dbContext);
  const actor = staffActor(context, request);
  const back = `/admin/productos/${productId}?guardado=1`;
  const only = (fields: readonly string[]) => Object.fromEntries(fields.map((name) => [name, values[name] ?? ""]));

  if (intent === "update") {
    const result = await updateProduct(db, actor, productId, { raw: withActiveFlag(only(PRODUCT_FIELDS)) }, onPriceChange);
    return answerContentSave(result, intent, values, back, NOT_FOUND);
  }
  if (intent === "image-add") {
    const picture = await imageOfForm(catalogForm);
    if ("refusal" in picture) return picture.refusal;
    if (!picture.image) return refuseContent(intent, values, "Revisa los campos marcados.", { imageFile: NO_FILE });
    return answerContentSave(await addProductImage(db, actor, productId, { image: picture.image, alt: values.alt }), intent, values, back, NOT_FOUND);
  }
  const move = MOVE_INTENT.exec(intent);
  if (intent === "image-alt" || intent === "image-remove" || move) {
    const imageId = contentIdParam(values.imageId, IMAGE_NOT_FOUND);
    const result =
      intent === "image-alt"
        ? await updateProductImageAlt(db, actor, productId, imageId, values.alt)
        : intent === "image-remove"
          ? await removeProductImage(db, actor, productId, imageId)
          : await moveProductImage(db, actor, productId, imageId, Number(move![1]));
    return answerContentSave(result, `image-alt:${imageId}`, values, back, IMAGE_NOT_FOUND);
  }
  if (intent === "variant-create") {
    return answerContentSave(await createVariant(db, actor, productId, withActiveFlag(only(VARIANT_FIELDS))), intent, values, back, NOT_FOUND);
  }
  if (intent === "variant-update") {
    const variantId = contentIdParam(values.variantId, "Presentación no encontrada");
    const result = await updateVariant(db, actor, productId, variantId, withActiveFlag(only(VARIANT_FIELDS)), onPriceChange);
    return answerContentSave(result, `${intent}:${variantId}`, values, back, "Presentación no encontrada");
  }
  return refuseContent(intent, values, INVALID_INTENT);
}

export const meta: Route.MetaFunction = () => [{ title: "Editar producto · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export default function ProductEditor({ loaderData, actionData }: Route.ComponentProps) {
  const { product } = loaderData;
  const refused = (intent: string) => (actionData?.intent === intent ? actionData : undefined);
  const { formRef: newVariantFormRef, onSubmit: onNewVariantFormSubmit } = useResetAfterSave(refused("variant-create") !== undefined);
  const stored = {
    title: product.title,
    slug: product.slug,
    description: product.description,
    sku: product.sku,
    weightLabel: product.weightLabel,
    dimensionsLabel: product.dimensionsLabel,
    priceCents: centsToSolesText(product.priceCents),
    garantiaCents: product.garantiaCents > 0 ? centsToSolesText(product.garantiaCents) : "",
    sortOrder: product.sortOrder === null ? "" : String(product.sortOrder),
    active: product.active ? "si" : "",
  };
  return (
    <div className="max-w-3xl space-y-8">
      <AdminPageHeader title={`Editar ${product.title}`}>
        <Link to="/admin/productos" className="font-semibold text-brand-700 underline">
          Volver a productos
        </Link>
      </AdminPageHeader>
      <SavedNotice show={loaderData.saved && !actionData}>Cambios guardados.</SavedNotice>
      <p className="break-words text-slate-700">
        En la tienda:{" "}
        <a href={`/tienda/producto/${product.slug}`} className="font-semibold text-brand-700 underline">
          /tienda/producto/{product.slug}
        </a>
      </p>

      <Form method="post" encType="multipart/form-data" className={contentCardClass} aria-labelledby="datos-producto">
        <h2 id="datos-producto" className="text-lg font-bold text-slate-900">
          Datos del producto
        </h2>
        <StaffFormError message={refused("update")?.error} />
        <ProductFields idPrefix="" values={refused("update")?.values ?? stored} errors={refused("update")?.fieldErrors} />
        <button type="submit" name="intent" value="update" className={staffPrimaryButtonClass}>
          Guardar producto
        </button>
      </Form>

      <ProductGalleryEditor images={product.images} refused={refused} />

      <section aria-labelledby="presentaciones" className="space-y-4">
        <h2 id="presentaciones" className="text-lg font-bold text-slate-900">
          Presentaciones
        </h2>
        <p className="text-slate-700">
          Un cambio de precio vale desde ya para carritos nuevos; en las suscripciones, desde su próximo periodo, y cada suscriptor recibe un correo antes de
          ese cobro. Las presentaciones no se borran: desactívalas.
        </p>
        {product.variants.map((variant) => {
          const intent = `variant-update:${variant.id}`;
          const values = refused(intent)?.values ?? {
            title: variant.title,
            sku: variant.sku,
            priceCents: centsToSolesText(variant.priceCents),
            packSize: variant.packSize === null ? "" : String(variant.packSize),
            sortOrder: variant.sortOrder === null ? "" : String(variant.sortOrder),
            active: variant.active ? "si" : "",
          };
          return (
            <Form key={variant.id} method="post" className={contentCardClass} aria-label={`Presentación ${variant.title}`}>
              <StaffFormError message={refused(intent)?.error} />
              <input type="hidden" name="variantId" value={variant.id} />
              <VariantFields idPrefix={`v${variant.id}-`} values={values} errors={refused(intent)?.fieldErrors} />
              <button type="submit" name="intent" value="variant-update" className={staffPrimaryButtonClass}>
                Guardar {variant.title}
              </button>
            </Form>
          );
        })}
        <Form ref={newVariantFormRef} onSubmit={onNewVariantFormSubmit} method="post" className={contentCardClass} aria-labelledby="nueva-presentacion">
          <h3 id="nueva-presentacion" className="font-bold text-slate-900">
            Nueva presentación
          </h3>
          <StaffFormError message={refused("variant-create")?.error} />
          <VariantFields idPrefix="nueva-" values={refused("variant-create")?.values ?? { active: "si" }} errors={refused("variant-create")?.fieldErrors} />
          <button type="submit" name="intent" value="variant-create" className={staffPrimaryButtonClass}>
            Agregar presentación
          </button>
        </Form>
      </section>
    </div>
  );
}
