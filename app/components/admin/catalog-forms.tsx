import { ContentField } from "./content-form";
import { staffInputClass } from "./staff-form";
import { FieldError } from "~/components/ui/form-field";

type Values = Record<string, string | null | undefined>;
type Errors = Record<string, string> | undefined;

function ActiveBox({ idPrefix, checked, label }: { idPrefix: string; checked: boolean; label: string }) {
  return (
    <div className="flex items-center gap-2">
      <input id={`${idPrefix}active`} type="checkbox" name="active" value="si" defaultChecked={checked} className="h-5 w-5 shrink-0" />
      <label htmlFor={`${idPrefix}active`} className="font-semibold text-slate-800">
        {label}
      </label>
    </div>
  );
}

/** The picture field: PNG, JPEG or WebP up to 5 MB, checked and resized on the server (products, organisation logos). */
export function ImageUploadField({
  idPrefix,
  current,
  error,
  label = "Imagen",
  removable = true,
}: {
  idPrefix: string;
  current: string | null | undefined;
  error?: string;
  label?: string;
  removable?: boolean;
}) {
  const id = `${idPrefix}imageFile`;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-semibold text-slate-800">
        {label}
      </label>
      {current && <img src={current} alt="Imagen actual" width={96} height={96} className="mb-2 h-24 w-24 rounded-xl bg-sky-50 object-contain" />}
      <input
        id={id}
        name="imageFile"
        type="file"
        accept="image/png,image/jpeg,image/webp"
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-help${error ? ` ${id}-error` : ""}`}
        className={`${staffInputClass} max-w-full`}
      />
      <p id={`${id}-help`} className="mt-1 text-sm text-slate-600">
        PNG, JPEG o WebP de hasta 5 MB. La ajustamos a los tamaños de la tienda.
      </p>
      <FieldError id={`${id}-error`} message={error} />
      {current && removable && (
        <div className="mt-2 flex items-center gap-2">
          <input id={`${idPrefix}removeImage`} type="checkbox" name="removeImage" value="si" className="h-5 w-5 shrink-0" />
          <label htmlFor={`${idPrefix}removeImage`} className="text-slate-800">
            Quitar la imagen (se muestra la botella genérica)
          </label>
        </div>
      )}
    </div>
  );
}

/**
 * The fields of a product, for the create form and the edit page. The create form takes the first
 * picture here (`withImage`); the edit page manages pictures in its gallery (decision 0057).
 */
export function ProductFields({ values, errors, idPrefix, withImage = false }: { values: Values; errors: Errors; idPrefix: string; withImage?: boolean }) {
  return (
    <>
      <ContentField idPrefix={idPrefix} name="title" label="Nombre" required defaultValue={values.title} error={errors?.title} />
      <ContentField
        idPrefix={idPrefix}
        name="slug"
        label="Dirección (slug)"
        defaultValue={values.slug}
        error={errors?.slug}
        help="Minúsculas, números y guiones. Si la cambias, la dirección anterior redirige a la nueva."
      />
      <ContentField idPrefix={idPrefix} name="description" label="Descripción" rows={4} defaultValue={values.description} error={errors?.description} />
      <div className="grid gap-4 sm:grid-cols-2">
        <ContentField idPrefix={idPrefix} name="sku" label="SKU" defaultValue={values.sku} error={errors?.sku} />
        <ContentField
          idPrefix={idPrefix}
          name="priceCents"
          label="Precio (S/)"
          inputMode="decimal"
          defaultValue={values.priceCents}
          error={errors?.priceCents}
          help="Solo si no tiene presentaciones, por ejemplo 12.50"
        />
        <ContentField
          idPrefix={idPrefix}
          name="garantiaCents"
          label="Garantía por bidón retornable (S/)"
          inputMode="decimal"
          defaultValue={values.garantiaCents}
          error={errors?.garantiaCents}
          help="Solo bidones retornables (recargas). Se cobra por cada bidón que el cliente aún no tiene y se devuelve al devolverlo. Vacío o 0: sin garantía."
        />
        <ContentField
          idPrefix={idPrefix}
          name="weightLabel"
          label="Peso"
          defaultValue={values.weightLabel}
          error={errors?.weightLabel}
          help="Por ejemplo 0.65kg por botella"
        />
        <ContentField
          idPrefix={idPrefix}
          name="dimensionsLabel"
          label="Dimensiones"
          defaultValue={values.dimensionsLabel}
          error={errors?.dimensionsLabel}
          help="Por ejemplo 6.5 x 22 x 6.5cm"
        />
        <ContentField
          idPrefix={idPrefix}
          name="sortOrder"
          label="Orden en la tienda"
          inputMode="numeric"
          defaultValue={values.sortOrder}
          error={errors?.sortOrder}
          help="Menor primero; vacío va al final"
        />
      </div>
      {withImage && <ImageUploadField idPrefix={idPrefix} current={null} error={errors?.imageFile} />}
      <ActiveBox idPrefix={idPrefix} checked={values.active === "si"} label="Activo (se vende en la tienda)" />
    </>
  );
}

/** The fields of a variant (a pack size of the product). */
export function VariantFields({ values, errors, idPrefix }: { values: Values; errors: Errors; idPrefix: string }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <ContentField
        idPrefix={idPrefix}
        name="title"
        label="Presentación"
        required
        defaultValue={values.title}
        error={errors?.title}
        help="Por ejemplo Pack x 12"
      />
      <ContentField
        idPrefix={idPrefix}
        name="priceCents"
        label="Precio (S/)"
        required
        inputMode="decimal"
        defaultValue={values.priceCents}
        error={errors?.priceCents}
      />
      <ContentField idPrefix={idPrefix} name="sku" label="SKU" defaultValue={values.sku} error={errors?.sku} />
      <ContentField idPrefix={idPrefix} name="packSize" label="Unidades por pack" inputMode="numeric" defaultValue={values.packSize} error={errors?.packSize} />
      <ContentField idPrefix={idPrefix} name="sortOrder" label="Orden" inputMode="numeric" defaultValue={values.sortOrder} error={errors?.sortOrder} />
      <div className="self-end pb-2">
        <ActiveBox idPrefix={idPrefix} checked={values.active === "si"} label="Activa" />
      </div>
    </div>
  );
}
