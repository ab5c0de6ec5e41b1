import { ActiveBox, ContentFields, type EntryErrors, type EntryValues, type FieldSpec } from "./content-form";

const ORGANIZATION_FIELDS: readonly FieldSpec[] = [
  { name: "title", label: "Nombre", required: true },
  { name: "description", label: "Descripción", required: true, rows: 4 },
  { name: "image", label: "Logo", help: "Opcional. Ruta de una imagen publicada con el sitio, por ejemplo /images/organizaciones/logo.png." },
];

const HISTORY_FIELDS: readonly FieldSpec[] = [
  { name: "title", label: "Título", required: true },
  { name: "description", label: "Descripción", required: true, rows: 3 },
  { name: "image", label: "Imagen", help: "Opcional. Ruta de una imagen publicada con el sitio, por ejemplo /images/history/botella-sport.svg." },
  {
    name: "sortOrder",
    label: "Orden",
    inputMode: "numeric",
    help: "Número: las diapositivas van de menor a mayor; las que no tienen número van al final.",
  },
];

interface EntryFormProps {
  values: EntryValues;
  errors: EntryErrors;
  idPrefix: string;
}

/** The fields of an organisation, for the create form and the edit page. */
export function OrganizationFields({ values, errors, idPrefix }: EntryFormProps) {
  return (
    <>
      <ContentFields fields={ORGANIZATION_FIELDS} values={values} errors={errors} idPrefix={idPrefix} />
      <ActiveBox idPrefix={idPrefix} checked={values.active === "si"} label="Activa (se muestra en /nosotros y en el checkout, y recibe votos)" />
    </>
  );
}

/** The fields of a history slide. */
export function HistoryFields({ values, errors, idPrefix }: EntryFormProps) {
  return <ContentFields fields={HISTORY_FIELDS} values={values} errors={errors} idPrefix={idPrefix} />;
}
