import { ContentField } from "./content-form";

type Values = Record<string, string | null | undefined>;
type Errors = Record<string, string> | undefined;

const IMAGE_HELP = "Opcional. Ruta de una imagen publicada con el sitio, por ejemplo /images/organizaciones/logo.png.";

/** The fields of an organisation, for the create form and the edit page. */
export function OrganizationFields({ values, errors, idPrefix }: { values: Values; errors: Errors; idPrefix: string }) {
  return (
    <>
      <ContentField idPrefix={idPrefix} name="title" label="Nombre" required defaultValue={values.title} error={errors?.title} />
      <ContentField
        idPrefix={idPrefix}
        name="description"
        label="Descripción"
        required
        rows={4}
        defaultValue={values.description}
        error={errors?.description}
      />
      <ContentField idPrefix={idPrefix} name="image" label="Logo" defaultValue={values.image} error={errors?.image} help={IMAGE_HELP} />
      <div className="flex items-center gap-2">
        <input id={`${idPrefix}active`} type="checkbox" name="active" value="si" defaultChecked={values.active === "si"} className="h-5 w-5" />
        <label htmlFor={`${idPrefix}active`} className="font-semibold text-slate-800">
          Activa (se muestra en /nosotros y en el checkout, y recibe votos)
        </label>
      </div>
    </>
  );
}

/** The fields of a history slide. */
export function HistoryFields({ values, errors, idPrefix }: { values: Values; errors: Errors; idPrefix: string }) {
  return (
    <>
      <ContentField idPrefix={idPrefix} name="title" label="Título" required defaultValue={values.title} error={errors?.title} />
      <ContentField
        idPrefix={idPrefix}
        name="description"
        label="Descripción"
        required
        rows={3}
        defaultValue={values.description}
        error={errors?.description}
      />
      <ContentField
        idPrefix={idPrefix}
        name="image"
        label="Imagen"
        defaultValue={values.image}
        error={errors?.image}
        help="Opcional. Ruta de una imagen publicada con el sitio, por ejemplo /images/history/botella-sport.svg."
      />
      <ContentField
        idPrefix={idPrefix}
        name="sortOrder"
        label="Orden"
        inputMode="numeric"
        defaultValue={values.sortOrder}
        error={errors?.sortOrder}
        help="Número: las diapositivas van de menor a mayor; las que no tienen número van al final."
      />
    </>
  );
}
