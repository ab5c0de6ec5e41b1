/**
 * What staff type on /admin/productos (issue 11): products and their variants. Prices are typed in
 * soles ("12.50" or "12,50") and kept as integer céntimos; the catalogue domain parses with these
 * before any write, so a bad value never reaches the database.
 */
import { CONTROL_CHARACTERS, freeText, isPlainLine, lineText } from "./input-schemas";
import { z } from "./zod";

/** The most a single product may cost: a typo of a few zeros is refused, not published. */
export const MAX_PRICE_CENTS = 10_000_000;

const PRICE_MESSAGE = "Escribe el precio en soles, por ejemplo 12.50";

/** "12.50", "12,5" or "12" soles → 1250 céntimos, without floating-point rounding. */
export function solesToCents(value: string): number | null {
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(value.replace(/^S\/\s*/i, "").trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

/** The form's text for a stored price: 1250 → "12.50". */
export function centsToSolesText(cents: number | null): string {
  return cents === null ? "" : `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** The refusal of a typed price, or null when it is a price the shop can sell at. */
function priceProblem(cents: number | null): string | null {
  if (cents === null || cents <= 0) return PRICE_MESSAGE;
  return cents > MAX_PRICE_CENTS ? "El precio es demasiado alto" : null;
}

const price = lineText(20).transform((value, context) => {
  const cents = solesToCents(value);
  const problem = priceProblem(cents);
  if (problem) {
    context.addIssue({ code: "custom", message: problem });
    return z.NEVER;
  }
  return cents!;
});

/** Empty is "no price of its own" (a product sold only through its variants). */
const optionalPrice = lineText(20).transform((value, context) => {
  if (value.trim() === "") return null;
  const cents = solesToCents(value);
  const problem = priceProblem(cents);
  if (problem) {
    context.addIssue({ code: "custom", message: problem });
    return z.NEVER;
  }
  return cents;
});

/** An optional whole number in a range: empty is null. */
const optionalWhole = (max: number, message: string) =>
  lineText(10).transform((value, context) => {
    if (value.trim() === "") return null;
    if (!/^\d+$/.test(value.trim()) || Number(value) > max) {
      context.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return Number(value);
  });

/** The most a bidón's garantía may be (S/ 500): a typo of a few zeros is refused. */
export const MAX_GARANTIA_CENTS = 50_000;

/** A garantía per returnable bidón (decision 0075): empty or 0 is none. */
const garantia = lineText(20).transform((value, context) => {
  if (value.trim() === "") return 0;
  const cents = solesToCents(value);
  if (cents === null || cents > MAX_GARANTIA_CENTS) {
    context.addIssue({ code: "custom", message: cents === null ? "Escribe la garantía en soles, por ejemplo 20.00" : "La garantía es demasiado alta" });
    return z.NEVER;
  }
  return cents;
});

const optionalLine = (max: number) => lineText(max).transform((value) => (value.trim() === "" ? null : value.trim()));

/** Lowercase letters, digits and single hyphens: what a shareable product address is made of. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** "Agua Alcalina 1 L" → "agua-alcalina-1-l": the slug a new product gets when none is typed. */
export function slugify(title: string): string {
  return title
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}

const slug = lineText(80).refine((value) => value === "" || SLUG_PATTERN.test(value), "Usa solo minúsculas, números y guiones, por ejemplo agua-alcalina-1l");

export const productSchema = z.object({
  title: lineText(120).pipe(z.string().trim().min(3, "Escribe el nombre del producto (3 caracteres o más)")),
  slug,
  description: freeText(2000),
  sku: optionalLine(40),
  weightLabel: optionalLine(60),
  dimensionsLabel: optionalLine(60),
  priceCents: optionalPrice,
  garantiaCents: garantia.optional().transform((value) => value ?? 0),
  sortOrder: optionalWhole(9999, "Escribe un número entero de 0 a 9999"),
  active: z.boolean(),
});

export const variantSchema = z.object({
  title: lineText(80).pipe(z.string().trim().min(2, "Escribe el nombre de la presentación, por ejemplo Pack x 12")),
  sku: optionalLine(40),
  priceCents: price,
  packSize: optionalWhole(1000, "Escribe cuántas unidades trae, de 1 a 1000").refine((value) => value !== 0, "Escribe cuántas unidades trae, de 1 a 1000"),
  sortOrder: optionalWhole(9999, "Escribe un número entero de 0 a 9999"),
  active: z.boolean(),
});

/** The most pictures a product's gallery holds (decision 0057): enough for front, back, label and pack shots. */
export const MAX_PRODUCT_IMAGES = 8;

/** A product picture's description for screen readers and search engines; empty falls back to the product's name. */
export const productImageAltSchema = z.object({
  alt: z
    .string()
    .max(200, "Escribe un texto alternativo de hasta 200 caracteres")
    .refine(isPlainLine, CONTROL_CHARACTERS)
    .transform((value) => value.trim()),
});
