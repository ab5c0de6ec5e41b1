/**
 * A small client for Culqi's API v2 (shared/reference/payments.md, section A): Bearer keys,
 * amounts in céntimos, charges, orders. Every call has a timeout; answers are classified here so
 * the rest of the shop never reads raw HTTP codes.
 */
export interface CulqiConfig {
  secretKey: string;
  apiBase: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export interface CulqiCharge {
  id: string;
  amount: number;
  currency_code: string;
  email: string;
  outcome?: { type?: string; code?: string; user_message?: string };
  metadata?: Record<string, string>;
  source?: { id?: string; type?: string };
  /** What has been given back so far (payments.md A.4/A.5: partial refunds add up). */
  amount_refunded?: number;
}

/** payments.md A.5: the reasons Culqi accepts. */
export type CulqiRefundReason = "duplicado" | "fraudulento" | "solicitud_comprador";

/**
 * payments.md A.7: DELETE of a saved card or customer. `gone` is Culqi's 404: it no longer has it
 * (an earlier attempt whose answer was lost, or a customer deleted with its cards).
 */
export type DeleteAnswer = { kind: "deleted" } | { kind: "gone" } | { kind: "refused"; message: string } | { kind: "unavailable"; reason: string };

export type RefundAnswer = { kind: "refunded"; refundId: string } | { kind: "refused"; message: string } | { kind: "unavailable"; reason: string };

/**
 * Culqi could not be asked (network, timeout, 5xx, an answer we cannot read): nothing can be
 * concluded, so callers let the error travel and whoever drives them (webhook, job) tries again.
 */
export class CulqiUnavailableError extends Error {
  override name = "CulqiUnavailableError";
}

/** Culqi answered and refused to create an order (a 4xx): our request is wrong, so staff must hear of it. */
export class CulqiOrderRefusedError extends Error {
  override name = "CulqiOrderRefusedError";
}

export interface CulqiOrder {
  id: string;
  amount: number;
  state: "created" | "pending" | "paid" | "expired" | "deleted" | string;
  payment_code?: string | null;
  order_number?: string;
  expiration_date?: number;
  metadata?: Record<string, string> | null;
}

export interface CulqiCard {
  id: string;
  customer_id: string;
  source?: { card_number?: string; last_four?: string; iin?: { card_brand?: string } };
}

/**
 * What Culqi3DS posts back after the bank's check (`parameters3DS`: eci, xid, cavv,
 * protocolVersion, directoryServerTransactionId), sent unchanged as `authentication_3DS`.
 */
export type Authentication3DS = Record<string, string | number | boolean | null>;

export type ChargeAnswer =
  | { kind: "paid"; charge: CulqiCharge }
  | { kind: "review"; body: unknown }
  | { kind: "declined"; userMessage: string; code: string | null; chargeId: string | null }
  | { kind: "unavailable"; reason: string };

/** payments.md A.4: paid means HTTP 201 and outcome venta_exitosa; nothing else counts. */
export function isSuccessfulCharge(status: number, body: unknown): body is CulqiCharge {
  const outcome = (body as CulqiCharge | null)?.outcome;
  return status === 201 && outcome?.type === "venta_exitosa";
}

const GENERIC_DECLINE = "Hubo un problema procesando tu pago. Intenta nuevamente.";

export function createCulqiClient(config: CulqiConfig) {
  const doFetch = config.fetch ?? fetch;

  async function call(
    method: "GET" | "POST" | "DELETE",
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<{ status: number; body: unknown }> {
    const response = await doFetch(`${config.apiBase}${path}`, {
      method,
      headers: { Authorization: `Bearer ${config.secretKey}`, "Content-Type": "application/json", Accept: "application/json", ...extraHeaders },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a proxy's error page): kept as text; the status code still decides what it means.
      parsed = text;
    }
    return { status: response.status, body: parsed };
  }

  async function callOrThrow(
    method: "GET" | "POST",
    path: string,
    body?: unknown,
    extraHeaders?: Record<string, string>,
  ): Promise<{ status: number; body: unknown }> {
    try {
      return await call(method, path, body, extraHeaders);
    } catch (error) {
      throw new CulqiUnavailableError(`${method} ${path.split("/")[1]}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    }
  }

  return {
    /**
     * payments.md A.4. `deviceFingerprint` is Culqi3DS.generateDevice()'s id, for Culqi's fraud
     * check; `authentication3DS` is only sent on the second charge of a token after a REVIEW.
     */
    async createCharge(input: {
      amount: number;
      email: string;
      sourceId: string;
      description: string;
      metadata: Record<string, string>;
      deviceFingerprint?: string;
      authentication3DS?: Authentication3DS;
    }): Promise<ChargeAnswer> {
      let answer;
      try {
        answer = await call("POST", "/charges", {
          amount: input.amount,
          currency_code: "PEN",
          email: input.email,
          source_id: input.sourceId,
          capture: true,
          description: input.description.slice(0, 80),
          installments: 0,
          metadata: input.metadata,
          ...(input.deviceFingerprint ? { antifraud_details: { device_finger_print_id: input.deviceFingerprint } } : {}),
          ...(input.authentication3DS ? { authentication_3DS: input.authentication3DS } : {}),
        });
      } catch (error) {
        // No answer: the charge may or may not exist. The caller leaves the attempt open and the
        // webhook (which re-reads the charge) settles it if it happened.
        return { kind: "unavailable", reason: error instanceof Error ? error.name : "error" };
      }
      if (isSuccessfulCharge(answer.status, answer.body)) return { kind: "paid", charge: answer.body };
      const body = answer.body as { action_code?: string; user_message?: string; code?: string; charge_id?: string } | null;
      if (answer.status === 200 && body?.action_code === "REVIEW") return { kind: "review", body };
      if (answer.status === 402 || answer.status === 400 || answer.status === 422) {
        return { kind: "declined", userMessage: body?.user_message || GENERIC_DECLINE, code: body?.code ?? null, chargeId: body?.charge_id ?? null };
      }
      return { kind: "unavailable", reason: `HTTP ${answer.status}` };
    },

    /** null only when Culqi says the charge does not exist; any other failure throws CulqiUnavailableError. */
    async getCharge(id: string): Promise<CulqiCharge | null> {
      const answer = await callOrThrow("GET", `/charges/${encodeURIComponent(id)}`);
      if (answer.status === 404) return null;
      if (answer.status !== 200) throw new CulqiUnavailableError(`GET /charges answered HTTP ${answer.status}`);
      return answer.body as CulqiCharge;
    },

    /**
     * payments.md A.5. Culqi documents no idempotency header; the key is sent anyway (harmless if
     * ignored) and the caller also reads the charge's `amount_refunded` before every attempt, so a
     * lost answer never leads to a second refund.
     */
    async createRefund(input: { chargeId: string; amount: number; reason: CulqiRefundReason; idempotencyKey: string }): Promise<RefundAnswer> {
      let answer;
      try {
        answer = await call(
          "POST",
          "/refunds",
          { amount: input.amount, charge_id: input.chargeId, reason: input.reason },
          { "Idempotency-Key": input.idempotencyKey },
        );
      } catch (error) {
        return { kind: "unavailable", reason: error instanceof Error ? `${error.name}: ${error.message}` : "error" };
      }
      const body = answer.body as { id?: string; merchant_message?: string; user_message?: string } | null;
      if ((answer.status === 201 || answer.status === 200) && body?.id) return { kind: "refunded", refundId: body.id };
      if (answer.status >= 400 && answer.status < 500)
        return { kind: "refused", message: `HTTP ${answer.status}: ${body?.merchant_message ?? body?.user_message ?? "sin detalle"}` };
      return { kind: "unavailable", reason: `HTTP ${answer.status}` };
    },

    async createOrder(input: {
      amount: number;
      description: string;
      orderNumber: string;
      client: { first_name: string; last_name: string; email: string; phone_number: string };
      expiresAt: Date;
      metadata: Record<string, string>;
    }): Promise<CulqiOrder> {
      // No answer (network, timeout) throws CulqiUnavailableError like the reads: the caller decides
      // whether the payment page can open without an order, and nothing else is mistaken for that.
      const answer = await callOrThrow("POST", "/orders", {
        amount: input.amount,
        currency_code: "PEN",
        description: input.description.slice(0, 80),
        order_number: input.orderNumber,
        client_details: input.client,
        expiration_date: Math.floor(input.expiresAt.getTime() / 1000),
        confirm: false,
        metadata: input.metadata,
      });
      if (answer.status === 201 || answer.status === 200) return answer.body as CulqiOrder;
      if (answer.status >= 500) throw new CulqiUnavailableError(`POST /orders answered HTTP ${answer.status}`);
      const refusal = answer.body as { merchant_message?: string; user_message?: string } | null;
      throw new CulqiOrderRefusedError(`POST /orders answered HTTP ${answer.status}: ${refusal?.merchant_message ?? refusal?.user_message ?? "sin detalle"}`);
    },

    /**
     * payments.md A.6: turns a `created` order into a payment code (CIP) without Culqi's checkout.
     * Culqi takes the public key here, as its own checkout does. A refusal (the order is no longer
     * `created`, e.g. the customer confirmed it already) is null: the caller reads the order.
     */
    async confirmOrder(id: string, publicKey: string): Promise<CulqiOrder | null> {
      const answer = await callOrThrow("POST", `/orders/${encodeURIComponent(id)}/confirm`, {}, { Authorization: `Bearer ${publicKey}` });
      if (answer.status === 200 || answer.status === 201) return answer.body as CulqiOrder;
      if (answer.status >= 500) throw new CulqiUnavailableError(`POST /orders/confirm answered HTTP ${answer.status}`);
      return null;
    },

    /** null only when Culqi says the order does not exist; any other failure throws CulqiUnavailableError. */
    async getOrder(id: string): Promise<CulqiOrder | null> {
      const answer = await callOrThrow("GET", `/orders/${encodeURIComponent(id)}`);
      if (answer.status === 404) return null;
      if (answer.status !== 200) throw new CulqiUnavailableError(`GET /orders answered HTTP ${answer.status}`);
      return answer.body as CulqiOrder;
    },

    /** payments.md A.7: a customer to hang saved cards on; every field but metadata is required. */
    async createCustomer(input: {
      first_name: string;
      last_name: string;
      email: string;
      address: string;
      address_city: string;
      phone_number: string;
    }): Promise<{ id: string } | null> {
      const answer = await call("POST", "/customers", { ...input, country_code: "PE" });
      return answer.status === 201 || answer.status === 200 ? (answer.body as { id: string }) : null;
    },

    /** A reusable card from a token; 200 + REVIEW means the bank wants 3DS for it. */
    async createCard(input: {
      customerId: string;
      tokenId: string;
    }): Promise<{ kind: "saved"; card: CulqiCard } | { kind: "review" } | { kind: "declined"; userMessage: string } | { kind: "unavailable" }> {
      let answer;
      try {
        answer = await call("POST", "/cards", { customer_id: input.customerId, token_id: input.tokenId });
      } catch {
        // Saving a card moves no money; the customer is told to try again.
        return { kind: "unavailable" };
      }
      const body = answer.body as (CulqiCard & { action_code?: string; user_message?: string }) | null;
      if (answer.status === 201 && body?.id) return { kind: "saved", card: body };
      if (answer.status === 200 && body?.action_code === "REVIEW") return { kind: "review" };
      if (answer.status >= 400 && answer.status < 500) return { kind: "declined", userMessage: body?.user_message || GENERIC_DECLINE };
      return { kind: "unavailable" };
    },

    /** payments.md A.7: deletes a saved card (`cards`) or a customer (`customers`) at Culqi. */
    async deleteObject(kind: "cards" | "customers", id: string): Promise<DeleteAnswer> {
      let answer;
      try {
        answer = await call("DELETE", `/${kind}/${encodeURIComponent(id)}`);
      } catch (error) {
        return { kind: "unavailable", reason: error instanceof Error ? `${error.name}: ${error.message}` : "error" };
      }
      if (answer.status === 200 || answer.status === 204) return { kind: "deleted" };
      if (answer.status === 404) return { kind: "gone" };
      const body = answer.body as { merchant_message?: string; user_message?: string } | null;
      if (answer.status >= 400 && answer.status < 500)
        return { kind: "refused", message: `HTTP ${answer.status}: ${body?.merchant_message ?? body?.user_message ?? "sin detalle"}` };
      return { kind: "unavailable", reason: `HTTP ${answer.status}` };
    },

    /** Charges by email since a date (A.4 list filters): how a renewal finds the charge its crash lost. */
    async listCharges(filters: { email: string; creationDateFrom: Date }): Promise<CulqiCharge[] | null> {
      const query = new URLSearchParams({
        email: filters.email,
        creation_date_from: String(Math.floor(filters.creationDateFrom.getTime() / 1000)),
        limit: "100",
      });
      try {
        const answer = await call("GET", `/charges?${query}`);
        if (answer.status !== 200) return null;
        const body = answer.body as { data?: CulqiCharge[] } | null;
        return body?.data ?? [];
      } catch {
        // null is "unknown", not "none": the renewal reconciler keeps the period open and asks again.
        return null;
      }
    },
  };
}

export type CulqiClient = ReturnType<typeof createCulqiClient>;
