/**
 * A local HTTP server that speaks Nubefact's JSON API as shared/reference/nubefact.md documents it:
 * one route per account (`POST /api/v1/<uuid>`), the token as `Token token="…"` or bare, JSON only
 * (code 12 otherwise), `generar_comprobante` (checks that lines add up to the header totals: code 20
 * otherwise; a series-number it already has: code 23) and `consultar_comprobante` (code 24 for an
 * unknown one). Modes: accept; pending-then-accept (SUNAT answers only when consulted); reject
 * (SUNAT code 2xxx); observe (code 4xxx); down (every request's connection is cut); slow (answers
 * after `slowMs`, longer than the shop waits). `dropNextAnswer` keeps a document and cuts the
 * connection before answering (an answer lost on the way back).
 */
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type NubefactMode = "accept" | "pending-then-accept" | "reject" | "observe" | "down" | "slow";

export interface StoredComprobante {
  body: Record<string, unknown>;
  accepted: boolean;
  responseCode: string;
  description: string;
  hash: string;
}

export interface NubefactMock {
  url: string;
  token: string;
  mode: NubefactMode;
  setMode(mode: NubefactMode): void;
  slowMs: number;
  /** Stored documents by `tipo-serie-numero`. */
  documents: Map<string, StoredComprobante>;
  /** Every `generar_comprobante` received (including refused ones), in order. */
  generateRequests: Record<string, unknown>[];
  /** Every request's `operacion`, in order (including those the mode cut off). */
  log: string[];
  dropNextAnswer(): void;
  close(): Promise<void>;
}

const RUC = "20601234567";

function key(body: Record<string, unknown>): string {
  return `${String(body.tipo_de_comprobante)}-${String(body.serie)}-${String(body.numero)}`;
}

const cents = (value: unknown) => Math.round(Number(value) * 100);

/** The format checks Nubefact makes that matter here: the lines add up to the header (nubefact.md). */
function formatError(body: Record<string, unknown>): string | null {
  const items = Array.isArray(body.items) ? (body.items as Record<string, unknown>[]) : [];
  if (items.length === 0) return "El comprobante no tiene items";
  const sum = (field: string, of = items) => of.reduce((total, item) => total + cents(item[field]), 0);
  // tipo_de_igv 1 is gravado, 9 inafecto (the bidón garantía, decision 0075): each adds to its own header total.
  const gravadas = items.filter((item) => item.tipo_de_igv === 1);
  const inafectas = items.filter((item) => item.tipo_de_igv === 9);
  if (gravadas.length + inafectas.length !== items.length) return "tipo_de_igv no soportado";
  if (inafectas.some((item) => cents(item.igv) !== 0 || cents(item.subtotal) !== cents(item.total))) return "Un item inafecto no lleva IGV";
  if (sum("total") !== cents(body.total)) return "La suma de los totales de los items no coincide con el total";
  if (sum("subtotal", gravadas) !== cents(body.total_gravada)) return "La suma de los subtotales no coincide con total_gravada";
  if (sum("subtotal", inafectas) !== cents(body.total_inafecta ?? 0)) return "La suma de los items inafectos no coincide con total_inafecta";
  if (sum("igv") !== cents(body.total_igv)) return "La suma del IGV de los items no coincide con total_igv";
  if (!/^[BF][A-Z0-9]{3}$/.test(String(body.serie))) return "Serie inválida";
  if (body.tipo_de_comprobante === 3 && !body.documento_que_se_modifica_serie) return "Falta el documento que se modifica";
  return null;
}

export async function startNubefactMock(initialMode: NubefactMode = "accept"): Promise<NubefactMock> {
  const account = randomUUID();
  const token = `tok_${randomUUID().replace(/-/g, "")}`;
  const documents = new Map<string, StoredComprobante>();
  const generateRequests: Record<string, unknown>[] = [];
  const log: string[] = [];
  let dropNext = false;
  const sockets = new Set<Socket>();

  const answerOf = (stored: StoredComprobante, base: string) => {
    const body = stored.body;
    const tipo = String(body.tipo_de_comprobante).padStart(2, "0");
    const fecha = String(body.fecha_de_emision).split("-").reverse().join("-");
    return {
      tipo_de_comprobante: body.tipo_de_comprobante,
      serie: body.serie,
      numero: body.numero,
      enlace: `${base}/cpe/${stored.hash}`,
      enlace_del_pdf: `${base}/cpe/${stored.hash}.pdf`,
      enlace_del_xml: `${base}/cpe/${stored.hash}.xml`,
      enlace_del_cdr: stored.accepted ? `${base}/cpe/${stored.hash}.cdr` : "",
      aceptada_por_sunat: stored.accepted,
      sunat_description: stored.description,
      sunat_note: stored.responseCode.startsWith("4") ? "Observado" : null,
      sunat_responsecode: stored.responseCode,
      sunat_soap_error: "",
      cadena_para_codigo_qr: `${RUC}|${tipo}|${String(body.serie)}|${String(body.numero)}|${String(body.total_igv)}|${String(body.total)}|${fecha}|${String(body.cliente_tipo_de_documento)}|${String(body.cliente_numero_de_documento)}|${stored.hash}|`,
      codigo_hash: stored.hash,
    };
  };

  const mock: NubefactMock = {
    url: "",
    token,
    mode: initialMode,
    setMode(mode) {
      mock.mode = mode;
    },
    slowMs: 3_000,
    documents,
    generateRequests,
    log,
    dropNextAnswer() {
      dropNext = true;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "Content-Type": "application/json" });
    response.end(JSON.stringify(body));
  };
  const error = (response: ServerResponse, status: number, codigo: number, errors: string) => send(response, status, { errors, codigo });

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    let raw = "";
    for await (const chunk of request) raw += chunk;
    const base = `http://${request.headers.host ?? "127.0.0.1"}`;
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      body = {};
    }
    log.push(String(body.operacion ?? "?"));
    if (mock.mode === "down") {
      request.socket.destroy();
      return;
    }
    if (mock.mode === "slow") await new Promise((resolve) => setTimeout(resolve, mock.slowMs));
    if (request.method !== "POST" || request.url !== `/api/v1/${account}`) return error(response, 404, 11, "La ruta no existe");
    const auth = request.headers.authorization ?? "";
    if (auth !== `Token token="${token}"` && auth !== token) return error(response, 401, 10, "Token inválido");
    if (!String(request.headers["content-type"] ?? "").startsWith("application/json"))
      return error(response, 400, 12, "Content-Type debe ser application/json");

    if (body.operacion === "generar_comprobante") {
      generateRequests.push(body);
      if (documents.has(key(body))) return error(response, 400, 23, "Este documento ya existe en NubeFacT");
      const problem = formatError(body);
      if (problem) return error(response, 400, 20, problem);
      const hash = createHash("sha1").update(key(body)).digest("base64").slice(0, 28);
      const stored: StoredComprobante =
        mock.mode === "reject"
          ? {
              body,
              accepted: false,
              responseCode: "2800",
              description: "El dato ingresado en el tipo de documento de identidad del receptor no esta permitido.",
              hash,
            }
          : mock.mode === "observe"
            ? { body, accepted: true, responseCode: "4287", description: "La boleta ha sido aceptada con observaciones", hash }
            : mock.mode === "pending-then-accept"
              ? { body, accepted: false, responseCode: "", description: "", hash }
              : {
                  body,
                  accepted: true,
                  responseCode: "0",
                  description: `La ${body.tipo_de_comprobante === 1 ? "Factura" : "Boleta"} numero ${String(body.serie)}-${String(body.numero)}, ha sido aceptada`,
                  hash,
                };
      documents.set(key(body), stored);
      if (dropNext) {
        dropNext = false;
        request.socket.destroy();
        return;
      }
      const answer = answerOf(stored, base);
      return send(response, 200, stored.responseCode === "" ? { ...answer, sunat_responsecode: null } : answer);
    }
    if (body.operacion === "consultar_comprobante") {
      const stored = documents.get(key(body));
      if (!stored) return error(response, 400, 24, "El documento no existe");
      if (!stored.accepted && stored.responseCode === "") {
        // SUNAT answered meanwhile.
        stored.accepted = true;
        stored.responseCode = "0";
        stored.description = `El comprobante ${String(body.serie)}-${String(body.numero)} ha sido aceptado`;
      }
      return send(response, 200, { ...answerOf(stored, base), anulado: false });
    }
    return error(response, 400, 20, "operacion desconocida");
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((failure: unknown) => error(response, 500, 40, String(failure)));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/${account}`;
  return mock;
}
