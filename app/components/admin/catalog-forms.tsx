import { ActiveBox, ContentFields, type EntryErrors, type EntryValues, type FieldSpec } from "./content-form";
import { staffInputClass } from "./staff-form";
import { FieldError } from "~/components/ui/form-field";

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

const PRODUCT_NAME_FIELDS: readonly FieldSpec[] = [
  { name: "title", label: "Nombre", required: true },
  {
    name: "slug",
    label: "Dirección (slug)",
    help: "Minúsculas, números y guiones. Si la cambias, la dirección anterior redirige a la nueva.",
  },
  { name: "description", label: "Descripción", rows: 4 },
];

const PRODUCT_DETAIL_FIELDS: readonly FieldSpec[] = [
  { name: "sku", label: "SKU" },
  { name: "priceCents", label: "Precio (S/)", inputMode: "decimal", help: "Solo si no tiene presentaciones, por ejemplo 12.50" },
  {
    name: "garantiaCents",
    label: "Garantía por bidón retornable (S/)",
    inputMode: "decimal",
    help: "Solo bidones retornables (recargas). Se cobra por cada bidón que el cliente aún no tiene y se devuelve al devolverlo. Vacío o 0: sin garantía.",
  },
  { name: "weightLabel", label: "Peso", help: "Por ejemplo 0.65kg por botella" },
  { name: "dimensionsLabel", label: "Dimensiones", help: "Por ejemplo 6.5 x 22 x 6.5cm" },
  { name: "sortOrder", label: "Orden en la tienda", inputMode: "numeric", help: "Menor primero; vacío va al final" },
];

const VARIANT_FIELDS: readonly FieldSpec[] = [
  { name: "title", label: "Presentación", required: true, help: "Por ejemplo Pack x 12" },
  { name: "priceCents", label: "Precio (S/)", required: true, inputMode: "decimal" },
  { name: "sku", label: "SKU" },
  { name: "packSize", label: "Unidades por pack", inputMode: "numeric" },
  { name: "sortOrder", label: "Orden", inputMode: "numeric" },
];

interface EntryFormProps {
  values: EntryValues;
  errors: EntryErrors;
  idPrefix: string;
}

/**
 * The fields of a product, for the create form and the edit page. The create form takes the first
 * picture here (`withImage`); the edit page manages pictures in its gallery (decision 0057).
 */
export function ProductFields({ values, errors, idPrefix, withImage = false }: EntryFormProps & { withImage?: boolean }) {
  return (
    <>
      <ContentFields fields={PRODUCT_NAME_FIELDS} values={values} errors={errors} idPrefix={idPrefix} />
      <div className="grid gap-4 sm:grid-cols-2">
        <ContentFields fields={PRODUCT_DETAIL_FIELDS} values={values} errors={errors} idPrefix={idPrefix} />
      </div>
      {withImage && <ImageUploadField idPrefix={idPrefix} current={null} error={errors?.imageFile} />}
      <ActiveBox idPrefix={idPrefix} checked={values.active === "si"} label="Activo (se vende en la tienda)" />
    </>
  );
}

/** The fields of a variant (a pack size of the product). */
export function VariantFields({ values, errors, idPrefix }: EntryFormProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <ContentFields fields={VARIANT_FIELDS} values={values} errors={errors} idPrefix={idPrefix} />
      <div className="self-end pb-2">
        <ActiveBox idPrefix={idPrefix} checked={values.active === "si"} label="Activa" />
      </div>
    </div>
  );
}
