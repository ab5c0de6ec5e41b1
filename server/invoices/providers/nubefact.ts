/**
 * Nubefact's JSON API (shared reference nubefact.md): one route per account, every operation a
 * POST selected by `operacion`. Answers become ProviderAnswer; a network failure or a timeout is
 * `unavailable` (retried with the same number: a repeat is answered code 23, "already exists").
 */
import type { ComprobanteDocument, ComprobanteKind } from "../comprobante-document";
import type { ComprobanteProvider, DocumentReference, ProviderAnswer } from "./comprobante-provider";

const KIND_CODES: Record<ComprobanteKind, number> = { factura: 1, boleta: 2, nota_credito: 3 };
export const REQUEST_TIMEOUT_MS = 20_000;

const soles = (cents: number) => Math.round(cents) / 100;
const decimal10 = (value: number) => Number(value.toFixed(10));

/** '2026-11-24' → '24-11-2026'. */
const nubefactDate = (isoDate: string) => isoDate.split("-").reverse().join("-");

/** The body of `generar_comprobante` for one document. */
export function nubefactPayload(document: ComprobanteDocument): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    operacion: "generar_comprobante",
    tipo_de_comprobante: KIND_CODES[document.kind],
    serie: document.series,
    numero: document.number,
    sunat_transaction: 1,
    cliente_tipo_de_documento: document.customer.documentType,
    cliente_numero_de_documento: document.customer.documentNumber,
    cliente_denominacion: document.customer.name,
    cliente_direccion: document.customer.address,
    cliente_email: document.customer.email,
    fecha_de_emision: nubefactDate(document.issueDate),
    moneda: 1,
    porcentaje_de_igv: 18.0,
    total_gravada: soles(document.taxableCents),
    ...(document.untaxedCents > 0 ? { total_inafecta: soles(document.untaxedCents) } : {}),
    total_igv: soles(document.igvCents),
    total: soles(document.totalCents),
    enviar_automaticamente_a_la_sunat: true,
    enviar_automaticamente_al_cliente: false,
    codigo_unico: document.uniqueCode,
    formato_de_pdf: "A4",
    items: document.lines.map((line) => ({
      unidad_de_medida: line.unit,
      codigo: line.code,
      descripcion: line.description,
      cantidad: line.quantity,
      valor_unitario: decimal10(line.taxableCents / 100 / line.quantity),
      precio_unitario: decimal10(line.totalCents / 100 / line.quantity),
      subtotal: soles(line.taxableCents),
      // SUNAT catalogue 07: 1 gravado, 9 inafecto (the bidón garantía, decision 0075).
      tipo_de_igv: line.igvType === "inafecto" ? 9 : 1,
      igv: soles(line.igvCents),
      total: soles(line.totalCents),
      anticipo_regularizacion: false,
    })),
  };
  if (document.paymentMethod) payload.medio_de_pago = document.paymentMethod;
  if (document.modifies) {
    payload.documento_que_se_modifica_tipo = KIND_CODES[document.modifies.kind];
    payload.documento_que_se_modifica_serie = document.modifies.series;
    payload.documento_que_se_modifica_numero = document.modifies.number;
    payload.tipo_de_nota_de_credito = document.creditNoteType;
    payload.observaciones = document.creditNoteReason;
  }
  return payload;
}

/** An HTTP 200 answer of generar/consultar: accepted, observed, rejected or still on its way. */
export function readNubefactAnswer(body: Record<string, unknown>): ProviderAnswer {
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
  const links = { pdf: text(body.enlace_del_pdf), xml: text(body.enlace_del_xml), cdr: text(body.enlace_del_cdr) };
  const qrText = text(body.cadena_para_codigo_qr);
  const hash = text(body.codigo_hash);
  const code = body.sunat_responsecode === undefined || body.sunat_responsecode === null ? null : String(body.sunat_responsecode);
  const numeric = code === null ? null : Number(code);
  const description = text(body.sunat_description) ?? "";
  if (numeric !== null && numeric >= 2000 && numeric <= 3999) return { kind: "rejected", code: code!, description };
  if (body.aceptada_por_sunat === true) {
    const observed = (numeric !== null && numeric >= 4000) || Boolean(text(body.sunat_note));
    return { kind: observed ? "observed" : "accepted", code: code ?? "0", description, links, qrText, hash };
  }
  return { kind: "sent", links, qrText, hash };
}

/** An error answer `{ errors, codigo }` (nubefact.md, Errors). */
export function readNubefactError(status: number, body: Record<string, unknown> | null): ProviderAnswer {
  const code = Number(body?.codigo);
  const message = `Nubefact ${status}${Number.isFinite(code) ? ` código ${code}` : ""}: ${typeof body?.errors === "string" ? body.errors : "sin detalle"}`;
  if (code === 20) return { kind: "format_error", message };
  if (code === 23) return { kind: "already_exists" };
  if (code === 24) return { kind: "missing" };
  if ([10, 11, 12, 22, 50, 51].includes(code)) return { kind: "needs_staff", message };
  return { kind: "unavailable", message };
}

export function nubefactProvider(config: { url: string; token: string; timeoutMs?: number }): ComprobanteProvider {
  const post = async (body: Record<string, unknown>): Promise<ProviderAnswer> => {
    let response: Response;
    try {
      response = await fetch(config.url, {
        method: "POST",
        headers: { Authorization: `Token token="${config.token}"`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(config.timeoutMs ?? REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      return { kind: "unavailable", message: `Nubefact no respondió: ${error instanceof Error ? error.message : String(error)}` };
    }
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = (await response.json()) as Record<string, unknown>;
    } catch {
      parsed = null;
    }
    if (response.status !== 200 || !parsed || parsed.errors !== undefined) return readNubefactError(response.status, parsed);
    return readNubefactAnswer(parsed);
  };
  return {
    name: "nubefact",
    send: (document) => post(nubefactPayload(document)),
    consult: (reference: DocumentReference) =>
      post({ operacion: "consultar_comprobante", tipo_de_comprobante: KIND_CODES[reference.kind], serie: reference.series, numero: reference.number }),
  };
}
