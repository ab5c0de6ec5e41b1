import { createHmac } from "node:crypto";

/**
 * A small client for Flow's API v3 (shared/reference/payments.md B, flow-openapi.yaml): every
 * request carries `apiKey` and the signature `s`; GET sends them in the query string, POST as a
 * form. Answers are classified here (200, or 400/401 with `{code, message}`, or no usable
 * answer), so the rest of the shop never reads raw HTTP codes.
 */
export interface FlowConfig {
  apiKey: string;
  secretKey: string;
  apiBase: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export type FlowParams = Record<string, string | number | undefined>;

/** Flow's Customer (spec components.schemas.Customer). */
export interface FlowCustomer {
  customerId: string;
  email: string;
  name: string;
  externalId: string;
  status: string;
  creditCardType?: string | null;
  last4CardDigits?: string | null;
  registerDate?: string | null;
}

/** customer/getRegisterStatus: status "1" registered, "0" not (RegisterResult; the npm client has it backwards). */
export interface FlowRegisterResult {
  status: string;
  customerId: string;
  creditCardType?: string | null;
  last4CardDigits?: string | null;
}

/** PaymentStatus.status: 1 pending, 2 paid, 3 rejected, 4 cancelled. */
export interface FlowPaymentStatus {
  flowOrder: number;
  commerceOrder: string;
  status: number;
  amount: number;
  currency?: string;
  payer?: string;
  subject?: string;
}

export type FlowAnswer<T> =
  | { kind: "ok"; body: T }
  /** 400 ("error del Api") or 401 ("error de negocio"), with Flow's code and message. */
  | { kind: "refused"; status: 400 | 401; code: number | null; message: string }
  /** Timeout, network failure, or an answer Flow does not document: what happened is unknown. */
  | { kind: "unavailable"; reason: string };

/** The string Flow signs: parameters other than `s`, sorted by name, as name + value concatenated. */
export function flowStringToSign(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((name) => name !== "s")
    .sort()
    .map((name) => name + params[name])
    .join("");
}

/** `s` = hex HMAC-SHA256 of the string to sign, keyed with the secret key (payments.md B.1). */
export function flowSignature(params: Record<string, string>, secretKey: string): string {
  return createHmac("sha256", secretKey).update(flowStringToSign(params)).digest("hex");
}

/** The parameters as sent: apiKey added, unset values dropped, numbers as text, then signed. */
export function signFlowParams(params: FlowParams, config: Pick<FlowConfig, "apiKey" | "secretKey">): Record<string, string> {
  const values: Record<string, string> = { apiKey: config.apiKey };
  for (const [name, value] of Object.entries(params)) if (value !== undefined) values[name] = String(value);
  return { ...values, s: flowSignature(values, config.secretKey) };
}

/** Flow takes amounts in the currency's unit; the shop keeps céntimos (decisions.md, Money). */
export function flowAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}

export function createFlowClient(config: FlowConfig) {
  const doFetch = config.fetch ?? fetch;

  async function call<T>(method: "GET" | "POST", path: string, params: FlowParams): Promise<FlowAnswer<T>> {
    const signed = new URLSearchParams(signFlowParams(params, config));
    let response: Response;
    let text: string;
    try {
      response = await doFetch(method === "GET" ? `${config.apiBase}${path}?${signed}` : `${config.apiBase}${path}`, {
        method,
        headers: method === "POST" ? { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" } : { Accept: "application/json" },
        body: method === "POST" ? signed.toString() : undefined,
        signal: AbortSignal.timeout(config.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      // No answer is an answer the callers act on ("unavailable": try again, or reconcile by key).
      return { kind: "unavailable", reason: error instanceof Error ? error.name : "error" };
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // A proxy's error page, not Flow: nothing can be concluded from it.
      return { kind: "unavailable", reason: `HTTP ${response.status} without JSON` };
    }
    if (response.status === 200) return { kind: "ok", body: body as T };
    if (response.status === 400 || response.status === 401) {
      const error = body as { code?: unknown; message?: unknown } | null;
      return {
        kind: "refused",
        status: response.status,
        code: typeof error?.code === "number" ? error.code : null,
        message: typeof error?.message === "string" ? error.message : "",
      };
    }
    return { kind: "unavailable", reason: `HTTP ${response.status}` };
  }

  return {
    /** customer/create: the Flow customer a card is registered on; `externalId` is the shop's user id. */
    createCustomer: (input: { name: string; email: string; externalId: string }) => call<FlowCustomer>("POST", "/customer/create", input),
    getCustomer: (customerId: string) => call<FlowCustomer>("GET", "/customer/get", { customerId }),
    /**
     * customer/delete: the customer and the card registered on it go (Flow refuses while it has
     * active Flow subscriptions or amounts due; the shop uses neither). Answers the Customer, whose
     * `status` "0" means deleted.
     */
    deleteCustomer: (customerId: string) => call<FlowCustomer>("POST", "/customer/delete", { customerId }),
    /** customer/register: the browser goes to `url + "?token=" + token`; Flow POSTs `token` to `url_return` afterwards. */
    registerCard: (input: { customerId: string; urlReturn: string }) =>
      call<{ url: string; token: string }>("POST", "/customer/register", { customerId: input.customerId, url_return: input.urlReturn }),
    getRegisterStatus: (token: string) => call<FlowRegisterResult>("GET", "/customer/getRegisterStatus", { token }),
    /** customer/charge: a direct charge to the registered card; `commerceOrder` is the shop's attempt key. */
    chargeCustomer: (input: { customerId: string; amountCents: number; subject: string; commerceOrder: string }) =>
      call<FlowPaymentStatus>("POST", "/customer/charge", {
        customerId: input.customerId,
        amount: flowAmount(input.amountCents),
        currency: "PEN",
        subject: input.subject.slice(0, 255),
        commerceOrder: input.commerceOrder,
      }),
    /** payment/getStatusByCommerceId: the payment Flow holds under the shop's own order key. */
    paymentByCommerceOrder: (commerceOrder: string) => call<FlowPaymentStatus>("GET", "/payment/getStatusByCommerceId", { commerceId: commerceOrder }),
  };
}

export type FlowClient = ReturnType<typeof createFlowClient>;
