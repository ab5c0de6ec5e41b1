/**
 * Forms that carry a picture (issue 11: product images, organisation logos). The picture is checked
 * and resized by the media domain before the save it belongs to, and written to disk by that save's
 * transaction once nothing refuses it (decision 0065); a refused picture answers a 400 with the
 * Spanish message under the field and the typed values kept.
 */
import { data } from "react-router";
import { chosenFile, IMAGE_TOO_LARGE, prepareUploadedImage, type PreparedImage } from "@server/media/index.server";
import { refuseContent } from "~/routes/admin/catalog/content-admin.server";
import { BODY_LIMITS, readFormData } from "~/server/request-body.server";

export interface UploadForm {
  intent: string;
  form: FormData;
  values: Record<string, string>;
}

/** The posted form with the named fields as trimmed strings (a checkbox is "si" or ""). */
export async function readUploadForm(request: Request, fields: readonly string[]): Promise<UploadForm> {
  // A declared body past the upload limit is refused before it is read, naming the picture's limit.
  if (Number(request.headers.get("content-length") ?? "0") > BODY_LIMITS.upload) throw data(IMAGE_TOO_LARGE, { status: 413 });
  const form = await readFormData(request, "upload");
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  return { intent: text("intent"), form, values: Object.fromEntries(fields.map((name) => [name, text(name)])) };
}

/**
 * The picture of the form: undefined when none was chosen (keep the current one), null when staff
 * asked to remove it, the checked upload otherwise (not on disk yet: the save writes it); or the
 * 400 that refuses the upload.
 */
export async function imageOfForm(upload: UploadForm): Promise<{ image: PreparedImage | null | undefined } | { refusal: ReturnType<typeof refuseContent> }> {
  if (upload.form.get("removeImage") === "si") return { image: null };
  const file = chosenFile(upload.form.get("imageFile"));
  if (!file) return { image: undefined };
  const prepared = await prepareUploadedImage(file);
  if (!prepared.ok) return { refusal: refuseContent(upload.intent, upload.values, "Revisa los campos marcados.", { imageFile: prepared.message }) };
  return { image: prepared.image };
}
