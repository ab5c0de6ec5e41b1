/**
 * One guard for the characters no form needs (issue 24, defect 6; decisions 0027 and 0071), run by
 * `readFormData` on every posted form before any action sees it: a NUL byte anywhere (PostgreSQL
 * cannot store it, so it would end as a 500 wherever a field reaches a query), and in the staff
 * area any control character but tab and line breaks, so a staff form whose own checks forgot a
 * field (a hidden request key, say) still never writes one. Customer forms keep their own, finer
 * checks for the other control characters (field by field, with what was typed kept).
 */
import { isPlainText } from "@core/input-schemas";

export const FORBIDDEN_CHARACTERS = "El formulario contiene caracteres no permitidos. Revisa lo que escribiste e intenta nuevamente.";

const isStaffArea = (request: Request) => {
  const path = new URL(request.url).pathname;
  return path === "/admin" || path.startsWith("/admin/");
};

/** The name of the first field holding a character this request's forms never take, or null. */
export function forbiddenFormCharacter(request: Request, form: FormData): string | null {
  const staff = isStaffArea(request);
  for (const [name, value] of form.entries()) {
    const text = typeof value === "string" ? value : value.name;
    if (name.includes("\u0000") || text.includes("\u0000") || (staff && (!isPlainText(text) || !isPlainText(name)))) return name;
  }
  return null;
}
