import { data } from "react-router";
import { isPlainText, isUuid } from "@core/input-schemas";
import type { StaffActor } from "@server/audit/index.server";
import { parsePersonReference } from "@server/customers/index.server";
import { recordStaffBidonReturn, type BidonCustomer } from "@server/deliveries/index.server";
import type { Database } from "@server/db/index.server";
import { SETTLE_NOTE_MAX, settleGarantiaByHand, type GarantiaCustomer } from "@server/garantias/index.server";
import { ANONYMISE_CONFIRMATION } from "~/lib/customer-links";
import { readFormData } from "~/server/request-body.server";

export const CUSTOMER_NOT_FOUND = "Cliente no encontrado";

/** Account ids are better-auth's (letters, digits, `-`, `_`): anything else is an unknown customer, a 404. */
export function customerIdFrom(params: { customerId?: string }): string {
  const id = params.customerId ?? "";
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw data(CUSTOMER_NOT_FOUND, { status: 404 });
  return id;
}

export const GUEST_NOT_FOUND = "Comprador no encontrado";

/** A guest is named by one of their orders' ids (decision 0061): anything but a uuid is an unknown guest, a 404. */
export function guestOrderIdFrom(params: { orderId?: string }): string {
  const id = params.orderId ?? "";
  if (!isUuid(id)) throw data(GUEST_NOT_FOUND, { status: 404 });
  return id.toLowerCase();
}

export const PERSON_NOT_FOUND = "Persona no encontrada";

/**
 * A person who never bought is named by one of their rows (decision 0064: `reclamo-<uuid>`,
 * `mensaje-<uuid>`, `consentimiento-<number>`, `carrito-<uuid>`): anything else is a 404.
 */
export function personReferenceFrom(params: { reference?: string }): string {
  const parsed = parsePersonReference(params.reference ?? "");
  if (!parsed) throw data(PERSON_NOT_FOUND, { status: 404 });
  return `${parsed.source}-${parsed.id}`;
}

/** A Ley 29733 export as a JSON download (decisions 0051, 0061): never cached, named for the file system. */
export function jsonDownload(document: unknown, filename: string): Response {
  return new Response(JSON.stringify(document, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}

/**
 * The anonymisation's confirmation form (decisions 0051, 0061): the word typed, or a Spanish 400
 * that keeps what was typed. Answers null when confirmed.
 */
export async function refusedAnonymiseConfirmation(request: Request) {
  const form = await readFormData(request);
  const typed = String(form.get("confirmacion") ?? "");
  if (form.get("intent") === "anonymise" && typed.trim().toUpperCase() === ANONYMISE_CONFIRMATION) return null;
  return data({ message: `Escribe ${ANONYMISE_CONFIRMATION} para confirmar.`, typed: typed.slice(0, 40) }, { status: 400 });
}

/**
 * Decision 0075: "Registrar devolución" of a customer's page, read and handed to the deliveries
 * domain (bidones back, their garantía released). A malformed form is a Spanish 400 that records
 * nothing; the answer carries `intent` so the page shows it beside the form.
 */
export async function recordBidonReturnFromForm(
  db: Database,
  actor: StaffActor,
  customer: BidonCustomer,
  form: FormData,
): Promise<ReturnType<typeof data<{ intent: "bidon_return"; ok: boolean; message: string }>>> {
  const answer = (ok: boolean, message: string, status = ok ? 200 : 400) => data({ intent: "bidon_return" as const, ok, message }, { status });
  const quantity = Number(form.get("quantity"));
  const requestKey = String(form.get("requestKey") ?? "");
  const note = String(form.get("note") ?? "").trim();
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > 999) return answer(false, "Escribe cuántos bidones devolvió (un número entero desde 1).");
  if (!isUuid(requestKey)) return answer(false, "Recarga la página e inténtalo de nuevo.");
  if (note.length > 200 || !isPlainText(note)) return answer(false, "Escribe una nota de hasta 200 caracteres, sin caracteres de control.");
  const result = await recordStaffBidonReturn(db, actor, {
    customer,
    quantity,
    goodCondition: form.get("goodCondition") === "si",
    note: note || null,
    requestKey,
    now: new Date(),
  });
  return answer(result.ok, result.message);
}

/**
 * Decision 0075: "Marcar como devuelta a mano" of a garantía return that requires attention, read
 * and handed to the garantías domain. A malformed form is a Spanish 400 that records nothing; an
 * unknown release a 404; the answer carries `intent` and the release so the page shows it beside
 * that row.
 */
export async function settleGarantiaFromForm(
  db: Database,
  actor: StaffActor,
  customer: GarantiaCustomer,
  form: FormData,
): Promise<ReturnType<typeof data<{ intent: "garantia_settle"; releaseId: string; ok: boolean; message: string; note: string }>>> {
  const releaseId = String(form.get("releaseId") ?? "");
  const note = String(form.get("note") ?? "").trim();
  const answer = (ok: boolean, message: string, status = ok ? 200 : 400) =>
    data({ intent: "garantia_settle" as const, releaseId, ok, message, note: ok ? "" : note.slice(0, SETTLE_NOTE_MAX) }, { status });
  if (!isUuid(releaseId)) return answer(false, "Esa devolución de garantía no existe.", 404);
  if (note.length === 0 || note.length > SETTLE_NOTE_MAX || !isPlainText(note))
    return answer(false, `Escribe cómo se devolvió (transferencia, efectivo en oficina…), hasta ${SETTLE_NOTE_MAX} caracteres.`);
  const result = await settleGarantiaByHand(db, actor, { customer, releaseId: releaseId.toLowerCase(), note, now: new Date() });
  if (result.ok) return answer(true, result.message);
  return answer(false, result.message, result.reason === "not_found" ? 404 : result.reason === "forbidden" ? 403 : 400);
}
