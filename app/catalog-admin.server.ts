/**
 * Form handling of /admin/productos (issue 11): reads what staff typed and the chosen picture,
 * stores the picture (checked and resized by the media domain) before the catalogue save, and
 * answers like the content pages: a redirect, or a 400 with Spanish messages and the values kept.
 */
import { data } from "react-router";
import { chosenFile, MAX_IMAGE_BYTES, storeUploadedImage } from "@server/media/index.server";
import { refuseContent } from "./content-admin.server";
import { readFormData } from "./request-body.server";

/** A body far past the image limit is refused before it is read into memory. */
const MAX_FORM_BYTES = MAX_IMAGE_BYTES + 1024 * 1024;

export const PRODUCT_FIELDS = ["title", "slug", "description", "sku", "weightLabel", "dimensionsLabel", "priceCents", "sortOrder", "active"] as const;
export const VARIANT_FIELDS = ["title", "sku", "priceCents", "packSize", "sortOrder", "active"] as const;

export interface CatalogForm {
  intent: string;
  form: FormData;
  values: Record<string, string>;
}

/** The posted form with the named fields as trimmed strings (a checkbox is "si" or ""). */
export async function readCatalogForm(request: Request, fields: readonly string[]): Promise<CatalogForm> {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_FORM_BYTES * 2) throw data("La imagen pesa más de 5 MB. Sube una más liviana.", { status: 413 });
  const form = await readFormData(request);
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  return { intent: text("intent"), form, values: Object.fromEntries(fields.map((name) => [name, text(name)])) };
}

/** What the domain parses: the checkbox as a boolean, everything else as typed. */
export function withActiveFlag(values: Record<string, string>): Record<string, unknown> {
  return { ...values, active: values.active === "si" };
}

/**
 * The picture of the form: undefined when none was chosen (keep the current one), null when staff
 * asked to remove it, the stored path otherwise; or the 400 that refuses the upload.
 */
export async function imageOfForm(catalogForm: CatalogForm): Promise<{ image: string | null | undefined } | { refusal: ReturnType<typeof refuseContent> }> {
  if (catalogForm.form.get("removeImage") === "si") return { image: null };
  const file = chosenFile(catalogForm.form.get("imageFile"));
  if (!file) return { image: undefined };
  const stored = await storeUploadedImage(file);
  if (!stored.ok) return { refusal: refuseContent(catalogForm.intent, catalogForm.values, "Revisa los campos marcados.", { image: stored.message }) };
  return { image: stored.path };
}
