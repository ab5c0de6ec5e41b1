/**
 * A local HTTP server that speaks Culqi's API v2 as payments.md documents it (A.3–A.12, A.16):
 * Bearer keys (pk_ for tokens and order confirmation, sk_ for the rest), test cards that succeed,
 * decline or ask for 3DS (3DS cards, or the email review@culqi.com, until the same token is charged
 * again with authentication_3DS), Yape tokens, orders with payment codes, and webhook events whose `data`
 * is a JSON string, refunds (A.5: reason enum, partial refunds adding up to the charge, `amount_refunded`,
 * an `Idempotency-Key` header answered with the refund it already made). Test hooks: pay an order,
 * delay the next charge (to time the client out), fail reads of charges, fail the next refund
 * before or after Culqi applied it (an answer lost on the way back, or one that comes too late),
 * decline it; fail the next charges with a server error (nothing charged),
 * or take the next charge and drop the connection before answering (charged, answer lost); saved
 * cards and customers deleted (A.7), and the next deletions failed with a server error.
 */
import { randomBytes, randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const id = (prefix: string) => `${prefix}_test_${randomBytes(8).toString("hex").slice(0, 16)}`;

const declines: Record<string, [string, string]> = {
  "4000020000000000": ["stolen_card", "Tu tarjeta fue reportada como robada. Comunícate con tu banco."],
  "4000030000000009": ["lost_card", "Tu tarjeta fue reportada como perdida. Comunícate con tu banco."],
  "4000040000000008": [
    "insufficient_funds",
    "Su tarjeta no tiene fondos suficientes. Para realizar la compra, verifica tus fondos disponibles con el banco emisor o inténta nuevamente con otra tarjeta.",
  ],
  "5400000000000005": ["contact_issuer", "Tu banco rechazó la operación. Comunícate con tu banco."],
};
/** payments.md A.13: the 3DS test cards, and the test email that asks for 3DS on any card. */
const threeDsCards = new Set(["4456530000001096", "4456530000001005", "4456530000001070", "4456530000001013"]);
export const REVIEW_EMAIL = "review@culqi.com";

/** What Culqi3DS hands back after the bank's check must at least carry these (payments.md A.4). */
function isAuthentication3DS(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { eci, cavv } = value as Record<string, unknown>;
  return typeof eci === "string" && eci !== "" && typeof cavv === "string" && cavv !== "";
}

export interface ChargeRequest {
  body: Record<string, unknown>;
  status: number;
  actionCode: string | null;
}

export interface CulqiEvent {
  object: "event";
  id: string;
  type: string;
  creation_date: number;
  data: string;
}

export interface CulqiMock {
  apiBase: string;
  secretKey: string;
  publicKey: string;
  /** Tokenizes a test card as Culqi's browser checkout would. */
  tokenize(cardNumber: string, email?: string): Promise<string>;
  yapeToken(phone?: string): Promise<string>;
  /** The next charge is processed but answered only after this delay. */
  delayNextCharge(ms: number): void;
  /** The next `count` charge requests are answered 500 without charging anything (Culqi failing). */
  failNextCharges(count: number): void;
  /** The next order request is refused with Culqi's 400 error object (a request Culqi will not take). */
  refuseNextOrder(): void;
  /** The next card charge is made, then the connection is cut before any answer (the answer is lost). */
  dropNextChargeAnswer(): void;
  confirmOrder(orderId: string): Promise<void>;
  payOrder(orderId: string): CulqiEvent;
  expireOrder(orderId: string): CulqiEvent;
  events: CulqiEvent[];
  charges: Map<string, Record<string, unknown>>;
  /** Culqi orders (cash codes) by id, with the metadata the shop sent. */
  orders: Map<string, Record<string, unknown>>;
  /** Every POST /v2/charges as received, with the status it was answered with. */
  chargeRequests: ChargeRequest[];
  /** From now on every charge of this saved card is declined (a card that ran out of funds). */
  declineSavedCard(cardId: string): void;
  /** Every request as "METHOD /path", in order. */
  requestLog: string[];
  /** Every POST /v2/refunds as received. */
  refundRequests: { body: Record<string, unknown>; idempotencyKey: string | null }[];
  /** Refunds Culqi actually made. */
  refunds: Record<string, unknown>[];
  /** The next `count` GET /v2/charges/{id} or /v2/orders/{id} answer 503 (Culqi having a bad minute). */
  failReads(count: number): void;
  /**
   * The next refund fails: "before" answers 503 without refunding; "lost-answer" refunds, then
   * drops the connection, as when the answer is lost on the way back; "decline" answers 400 with
   * Culqi's error object and refunds nothing; "timeout" refunds, then answers only after
   * `delayMs` (longer than the shop waits).
   */
  failNextRefund(mode: "before" | "lost-answer" | "decline" | "timeout", delayMs?: number): void;
  /**
   * Culqi documents no idempotency key (payments.md A.10): with this on, the mock forgets keys too,
   * so a test proves the shop itself never refunds twice.
   */
  ignoreIdempotencyKeys(ignore: boolean): void;
  /** The next `count` DELETE requests of a card or customer answer 503 and delete nothing. */
  failNextDeletes(count: number): void;
  /** Saved cards and customers Culqi still holds (payments.md A.7; a DELETE removes them). */
  cardIds(): string[];
  customerIds(): string[];
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let body = "";
  for await (const chunk of request) body += chunk;
  return body ? (JSON.parse(body) as Record<string, unknown>) : {};
}

export async function startCulqiMock(): Promise<CulqiMock> {
  const secretKey = "sk_test_mockmockmockmock";
  const publicKey = "pk_test_mockmockmockmock";
  const tokens = new Map<string, { card: string; used: boolean; email: string }>();
  const charges = new Map<string, Record<string, unknown>>();
  const orders = new Map<string, Record<string, unknown>>();
  const events: CulqiEvent[] = [];
  const chargeRequests: ChargeRequest[] = [];
  const customers = new Map<string, { email: string }>();
  const cards = new Map<string, { card: string; email: string; customerId: string; declineAll: boolean }>();
  let failingDeletes = 0;
  let nextChargeDelay = 0;
  const requestLog: string[] = [];
  const refundRequests: { body: Record<string, unknown>; idempotencyKey: string | null }[] = [];
  const refunds: Record<string, unknown>[] = [];
  const refundsByKey = new Map<string, Record<string, unknown>>();
  let failingReads = 0;
  let nextRefundFailure: "before" | "lost-answer" | "decline" | "timeout" | null = null;
  let refundTimeoutMs = 0;
  let ignoreKeys = false;
  let failingCharges = 0;
  let refuseOrder = false;
  let dropNextAnswer = false;

  const emit = (type: string, data: Record<string, unknown>) => {
    const event: CulqiEvent = { object: "event", id: id("evt"), type, creation_date: Date.now(), data: JSON.stringify(data) };
    events.push(event);
    return event;
  };

  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "Content-Type": "application/json" });
      response.end(JSON.stringify(body));
    };
    const url = new URL(request.url ?? "/", "http://mock");
    requestLog.push(`${request.method} ${url.pathname}`);
    const key = (request.headers.authorization ?? "").replace(/^Bearer /, "");
    const publicRoute = url.pathname.startsWith("/v2/tokens") || url.pathname.endsWith("/confirm");
    if (!url.pathname.startsWith("/__mock") && key !== (publicRoute ? publicKey : secretKey)) {
      return send(401, { object: "error", type: "authentication_error", merchant_message: "Llave inválida", user_message: "No autorizado" });
    }
    const body = request.method === "POST" ? await readJson(request) : {};

    if (request.method === "POST" && url.pathname === "/v2/tokens") {
      const token = id("tkn");
      tokens.set(token, { card: String(body.card_number), used: false, email: String(body.email ?? "") });
      return send(201, {
        object: "token",
        id: token,
        type: "card",
        email: body.email,
        card_number: `${String(body.card_number).slice(0, 6)}******${String(body.card_number).slice(-4)}`,
        active: true,
      });
    }
    if (request.method === "POST" && url.pathname === "/v2/tokens/yape") {
      if (body.number_phone !== "900000001") return send(400, { object: "error", type: "invalid_request_error", user_message: "Número Yape inválido" });
      const token = id("ype");
      tokens.set(token, { card: "yape", used: false, email: "" });
      return send(201, { object: "token", id: token, type: "yape" });
    }
    if (request.method === "POST" && url.pathname === "/v2/customers") {
      // payments.md A.7: every field but metadata is required; an email registers one customer.
      const required = ["first_name", "last_name", "email", "address", "address_city", "country_code", "phone_number"];
      const missing = required.find((field) => typeof body[field] !== "string" || body[field] === "");
      if (missing) return send(400, { object: "error", type: "invalid_request_error", param: missing, merchant_message: `El campo ${missing} es inválido` });
      if ([...customers.values()].some((customer) => customer.email === body.email))
        return send(400, { object: "error", type: "invalid_request_error", merchant_message: "Cliente ya registrado" });
      const customer = { object: "customer", id: id("cus"), email: String(body.email), creation_date: Date.now(), metadata: {} };
      customers.set(customer.id, customer);
      return send(201, customer);
    }
    if (request.method === "POST" && url.pathname === "/v2/cards") {
      const source = tokens.get(String(body.token_id));
      if (!customers.has(String(body.customer_id)))
        return send(400, { object: "error", type: "invalid_request_error", param: "customer_id", merchant_message: "Cliente inexistente" });
      if (!source || source.used) return send(400, { object: "error", type: "invalid_request_error", user_message: "Token inválido o ya usado" });
      if (threeDsCards.has(source.card)) return send(200, { action_code: "REVIEW", user_message: "Se requiere autenticación 3DS" });
      source.used = true;
      const decline = declines[source.card];
      if (decline) return send(402, { object: "error", type: "card_error", code: "card_declined", decline_code: decline[0], user_message: decline[1] });
      const card = {
        object: "card",
        id: id("crd"),
        customer_id: body.customer_id,
        source: {
          card_number: `${source.card.slice(0, 6)}******${source.card.slice(-4)}`,
          last_four: source.card.slice(-4),
          iin: { card_brand: source.card.startsWith("5") ? "MasterCard" : "Visa" },
        },
      };
      cards.set(card.id, { card: source.card, email: customers.get(String(body.customer_id))!.email, customerId: String(body.customer_id), declineAll: false });
      return send(201, card);
    }
    const deleteMatch = /^\/v2\/(cards|customers)\/([\w]+)$/.exec(url.pathname);
    if (request.method === "DELETE" && deleteMatch) {
      if (failingDeletes > 0) {
        failingDeletes -= 1;
        return send(503, { object: "error", type: "api_error", merchant_message: "Servicio no disponible" });
      }
      const [, kind, objectId] = deleteMatch as unknown as [string, "cards" | "customers", string];
      const existed = kind === "cards" ? cards.delete(objectId) : customers.delete(objectId);
      if (!existed) return send(404, { object: "error", type: "resource_error", user_message: "No encontrado" });
      // A customer goes with its cards.
      if (kind === "customers") for (const [cardId, card] of cards) if (card.customerId === objectId) cards.delete(cardId);
      return send(200, { id: objectId, deleted: true, merchant_message: "Se eliminó el registro" });
    }
    if (request.method === "GET" && url.pathname === "/v2/charges") {
      const email = url.searchParams.get("email");
      const from = Number(url.searchParams.get("creation_date_from") ?? 0) * 1000;
      const data = [...charges.values()].filter((charge) => (!email || charge.email === email) && Number(charge.creation_date ?? 0) >= from);
      return send(200, { data, paging: { cursors: {} } });
    }
    if (request.method === "POST" && url.pathname === "/v2/charges") {
      const answer = (status: number, reply: Record<string, unknown>) => {
        chargeRequests.push({ body, status, actionCode: typeof reply.action_code === "string" ? reply.action_code : null });
        if (status === 201 && dropNextAnswer) {
          dropNextAnswer = false;
          return void request.socket.destroy();
        }
        return send(status, reply);
      };
      if (failingCharges > 0) {
        failingCharges -= 1;
        return answer(500, { object: "error", type: "api_error", merchant_message: "Error interno", user_message: "Ocurrió un error, intenta nuevamente" });
      }
      // A saved card (crd_) is charged again and again; a token only once.
      const saved = cards.get(String(body.source_id));
      if (saved) {
        const chargeId = id("chr");
        const declined = saved.declineAll || Boolean(declines[saved.card]);
        const charge = {
          object: "charge",
          id: chargeId,
          amount: body.amount,
          currency_code: body.currency_code,
          email: body.email,
          source: { object: "card", id: body.source_id, type: "card" },
          outcome: declined ? { type: "venta_denegada", code: "insufficient_funds" } : { type: "venta_exitosa", code: "AUT0000" },
          amount_refunded: 0,
          metadata: body.metadata,
          creation_date: Date.now(),
        };
        charges.set(chargeId, charge);
        const delay = nextChargeDelay;
        nextChargeDelay = 0;
        if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
        return declined
          ? answer(402, {
              object: "error",
              type: "card_error",
              charge_id: chargeId,
              code: "card_declined",
              decline_code: "insufficient_funds",
              user_message: "Su tarjeta no tiene fondos suficientes.",
            })
          : answer(201, charge);
      }
      const source = tokens.get(String(body.source_id));
      if (!source || source.used) return answer(400, { object: "error", type: "invalid_request_error", user_message: "Token inválido o ya usado" });
      if (body.authentication_3DS !== undefined && !isAuthentication3DS(body.authentication_3DS)) {
        return answer(400, {
          object: "error",
          type: "invalid_request_error",
          merchant_message: "authentication_3DS inválido",
          user_message: "Hubo un problema con la verificación de tu tarjeta",
        });
      }
      const asks3ds = threeDsCards.has(source.card) || source.email === REVIEW_EMAIL || body.email === REVIEW_EMAIL;
      // The same token is charged again with the bank's 3DS values (payments.md A.4): it stays unused until then.
      if (asks3ds && !body.authentication_3DS) return answer(200, { action_code: "REVIEW", user_message: "Se requiere autenticación 3DS" });
      source.used = true;
      const chargeId = id("chr");
      const decline = declines[source.card];
      if (decline) {
        const error = {
          object: "error",
          type: "card_error",
          charge_id: chargeId,
          code: "card_declined",
          decline_code: decline[0],
          merchant_message: decline[1],
          user_message: decline[1],
        };
        charges.set(chargeId, { id: chargeId, outcome: { type: "venta_denegada", code: decline[0] }, metadata: body.metadata });
        emit("charge.failed", { id: chargeId, outcome: { type: "venta_denegada" } });
        return answer(402, error);
      }
      const charge = {
        object: "charge",
        id: chargeId,
        amount: body.amount,
        currency_code: body.currency_code,
        email: body.email,
        source: { object: "token", id: body.source_id, type: source.card === "yape" ? "yape" : "card" },
        outcome: {
          type: "venta_exitosa",
          code: "AUT0000",
          merchant_message: "La operación de venta ha sido autorizada exitosamente",
          user_message: "Su compra ha sido exitosa.",
        },
        metadata: body.metadata,
        amount_refunded: 0,
        capture: body.capture,
        paid: false,
        creation_date: Date.now(),
      };
      charges.set(chargeId, charge);
      emit("charge.creation.succeeded", charge);
      const delay = nextChargeDelay;
      nextChargeDelay = 0;
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      return answer(201, charge);
    }
    const chargeMatch = /^\/v2\/charges\/([\w]+)$/.exec(url.pathname);
    if (request.method === "GET" && failingReads > 0 && /^\/v2\/(charges|orders)\/\w+$/.test(url.pathname)) {
      failingReads -= 1;
      return send(503, { object: "error", type: "api_error", merchant_message: "Servicio no disponible" });
    }
    if (request.method === "GET" && chargeMatch) {
      const charge = charges.get(chargeMatch[1]!);
      return charge ? send(200, charge) : send(404, { object: "error", type: "resource_error", user_message: "No encontrado" });
    }
    if (request.method === "POST" && url.pathname === "/v2/refunds") {
      const idempotencyKey = typeof request.headers["idempotency-key"] === "string" ? request.headers["idempotency-key"] : null;
      refundRequests.push({ body, idempotencyKey });
      const failure = nextRefundFailure;
      nextRefundFailure = null;
      if (failure === "before") return send(503, { object: "error", type: "api_error", merchant_message: "Servicio no disponible" });
      if (failure === "decline")
        return send(400, {
          object: "error",
          type: "card_error",
          code: "refund_rejected",
          merchant_message: "La devolución fue rechazada por el emisor",
          user_message: "No se pudo procesar la devolución",
        });
      const earlier = idempotencyKey && !ignoreKeys ? refundsByKey.get(idempotencyKey) : undefined;
      if (earlier) return send(201, earlier);
      const charge = charges.get(String(body.charge_id));
      if (!charge || (charge.outcome as { type?: string } | undefined)?.type !== "venta_exitosa")
        return send(400, { object: "error", type: "invalid_request_error", param: "charge_id", merchant_message: "Cargo inexistente" });
      if (!["duplicado", "fraudulento", "solicitud_comprador"].includes(String(body.reason)))
        return send(400, { object: "error", type: "invalid_request_error", param: "reason", merchant_message: "Motivo inválido" });
      const amount = Number(body.amount);
      const refunded = Number(charge.amount_refunded ?? 0);
      if (!Number.isInteger(amount) || amount <= 0 || refunded + amount > Number(charge.amount))
        return send(400, { object: "error", type: "invalid_request_error", param: "amount", merchant_message: "Monto a devolver inválido" });
      charge.amount_refunded = refunded + amount;
      const refund = { object: "refund", id: id("ref"), charge_id: charge.id, creation_date: Date.now(), amount, reason: body.reason, metadata: {} };
      refunds.push(refund);
      if (idempotencyKey) refundsByKey.set(idempotencyKey, refund);
      emit("refund.creation.succeeded", { id: refund.id, chargeId: charge.id, amount });
      if (failure === "lost-answer") return void request.socket.destroy();
      if (failure === "timeout") await new Promise((resolve) => setTimeout(resolve, refundTimeoutMs));
      return send(201, refund);
    }
    if (request.method === "POST" && url.pathname === "/v2/orders") {
      if (refuseOrder) {
        refuseOrder = false;
        return send(400, { object: "error", type: "invalid_request_error", merchant_message: "El campo order_number ya existe" });
      }
      const order = {
        object: "order",
        id: id("ord"),
        amount: body.amount,
        currency_code: "PEN",
        order_number: body.order_number,
        state: "created",
        payment_code: null,
        expiration_date: body.expiration_date,
        metadata: body.metadata,
      };
      orders.set(order.id, order);
      return send(201, order);
    }
    const confirmMatch = /^\/v2\/orders\/([\w]+)\/confirm$/.exec(url.pathname);
    if (request.method === "POST" && confirmMatch) {
      const order = orders.get(confirmMatch[1]!);
      if (!order || order.state !== "created") return send(400, { object: "error", type: "invalid_request_error", user_message: "Orden no confirmable" });
      Object.assign(order, { state: "pending", payment_code: String(randomInt(10_000_000, 100_000_000)) });
      return send(200, order);
    }
    const orderMatch = /^\/v2\/orders\/([\w]+)$/.exec(url.pathname);
    if (request.method === "GET" && orderMatch) {
      const order = orders.get(orderMatch[1]!);
      return order ? send(200, order) : send(404, { object: "error", type: "resource_error", user_message: "No encontrado" });
    }
    send(404, { object: "error", type: "resource_error", user_message: "Ruta inválida" });
  };
  // Node does not wait for an async handler: one that throws answers 500, so the test fails on
  // the shop's reaction to it instead of an unhandled rejection.
  const server: Server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "Content-Type": "text/plain" });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;

  const post = async (path: string, key: string, body: unknown) => {
    const response = await fetch(`${apiBase}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { id: string };
  };

  return {
    apiBase,
    secretKey,
    publicKey,
    events,
    charges,
    orders,
    chargeRequests,
    requestLog,
    refundRequests,
    refunds,
    failReads: (count) => void (failingReads = count),
    failNextRefund: (mode, delayMs = 5_000) => {
      nextRefundFailure = mode;
      refundTimeoutMs = delayMs;
    },
    ignoreIdempotencyKeys: (ignore) => void (ignoreKeys = ignore),
    failNextDeletes: (count) => void (failingDeletes = count),
    cardIds: () => [...cards.keys()],
    customerIds: () => [...customers.keys()],
    tokenize: async (card, email = "cliente@example.pe") =>
      (await post("/tokens", publicKey, { card_number: card, cvv: "123", expiration_month: 12, expiration_year: 2030, email })).id,
    yapeToken: async (phone = "900000001") => (await post("/tokens/yape", publicKey, { amount: 5990, number_phone: phone, otp: "425251" })).id,
    delayNextCharge: (ms) => void (nextChargeDelay = ms),
    failNextCharges: (count) => void (failingCharges = count),
    refuseNextOrder: () => void (refuseOrder = true),
    dropNextChargeAnswer: () => void (dropNextAnswer = true),
    declineSavedCard(cardId) {
      const card = cards.get(cardId);
      if (!card) throw new Error(`Unknown card ${cardId}`);
      card.declineAll = true;
    },
    confirmOrder: async (orderId) => void (await post(`/orders/${orderId}/confirm`, publicKey, {})),
    payOrder(orderId) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`Unknown order ${orderId}`);
      order.state = "paid";
      return emit("order.status.changed", order);
    },
    expireOrder(orderId) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`Unknown order ${orderId}`);
      order.state = "expired";
      return emit("order.status.changed", order);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The charges the local Culqi took successfully, with the payment each names: the provider's books. */
export function successfulCulqiCharges(culqi: CulqiMock): { id: string; paymentId: string }[] {
  return [...culqi.charges.values()]
    .filter((charge) => (charge.outcome as { type?: string } | undefined)?.type === "venta_exitosa")
    .map((charge) => ({ id: String(charge.id), paymentId: String((charge.metadata as Record<string, string>).payment_id) }));
}
