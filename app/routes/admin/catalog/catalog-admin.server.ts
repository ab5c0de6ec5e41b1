/** Form fields of /admin/productos (issue 11); the picture is read by `image-upload.server.ts`. */
export const PRODUCT_FIELDS = [
  "title",
  "slug",
  "description",
  "sku",
  "weightLabel",
  "dimensionsLabel",
  "priceCents",
  "garantiaCents",
  "sortOrder",
  "active",
] as const;
export const VARIANT_FIELDS = ["title", "sku", "priceCents", "packSize", "sortOrder", "active"] as const;

/** What the domain parses: the checkbox as a boolean, everything else as typed. */
export function withActiveFlag(values: Record<string, string>): Record<string, unknown> {
  return { ...values, active: values.active === "si" };
}
