/**
 * A local HTTP server that speaks Flow's API v3 as payments.md B and flow-openapi.yaml document it
 * (B.5 checklist): parameters in the query (GET) or as a form (POST), every request signed with
 * `s` (401 `{code, message}` otherwise), customers, card registration with a hosted page that
 * POSTs `token` back to `url_return` from the browser, the registration status, direct charges
 * to the registered card, payments looked up by the shop's commerce order, and customer deletion
 * (kept with status "0", refused while amounts are due, as the spec says). Flow's plans and
 * subscriptions are not here: the shop keeps its own schedule and only charges saved cards.
 * Test hooks: decide a registration without the browser, decline the charges of an email, owe an
 * amount (so a deletion is refused), delay the next answer (to time the client out).
 */
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Flow's sandbox test card (flow-openapi.yaml, "Realizar pruebas en nuestro ambiente Sandbox"). */
export const FLOW_TEST_CARD = { number: "4051885600446623", brand: "Visa", last4: "6623" };

export interface FlowMockCustomer {
  customerId: string;
  created: string;
  email: string;
  name: string;
  externalId: string;
  pay_mode: "auto" | "manual";
  creditCardType: string | null;
  last4CardDigits: string | null;
  status: "0" | "1";
  registerDate: string | null;
}

export interface FlowMockPayment {
  flowOrder: number;
  commerceOrder: string;
  requestDate: string;
  status: 1 | 2 | 3 | 4;
  subject: string;
  currency: string;
  amount: number;
  payer: string;
  customerId: string;
}

export interface FlowMockRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  /** The status the mock answered with. */
  status: number;
}

export interface FlowMock {
  /** What FLOW_API_BASE points at. */
  apiBase: string;
  /** The mock's API origin (127.0.0.1). */
  origin: string;
  /** Where its hosted card page lives: localhost, another site than the shop's 127.0.0.1, like Flow's. */
  hostedOrigin: string;
  apiKey: string;
  secretKey: string;
  customers: Map<string, FlowMockCustomer>;
  payments: Map<string, FlowMockPayment>;
  /** Every API request as received, with the parameters (including `s`) and the answer's status. */
  requests: FlowMockRequest[];
  /** What the hosted page's buttons do, without a browser. */
  decide(token: string, decision: "approve" | "reject"): void;
  /** Every later charge to the Flow customer with this email is rejected (PaymentStatus 3). */
  declineChargesFor(email: string): void;
  /** While set, the customer has an amount due and Flow refuses to delete it (customer/delete). */
  setAmountDue(customerId: string, due: boolean): void;
  /** The next API answer is sent only after this delay. */
  delayNextResponse(ms: number): void;
  close(): Promise<void>;
}

interface Registration {
  customerId: string;
  urlReturn: string;
  result: "pending" | "approved" | "rejected";
}

const flowDate = () => new Date().toISOString().slice(0, 19).replace("T", " ");

function sign(params: Record<string, string>, secretKey: string): string {
  const toSign = Object.keys(params)
    .filter((name) => name !== "s")
    .sort()
    .map((name) => name + params[name])
    .join("");
  return createHmac("sha256", secretKey).update(toSign).digest("hex");
}

async function readParams(request: IncomingMessage, url: URL): Promise<Record<string, string>> {
  if (request.method !== "POST") return Object.fromEntries(url.searchParams);
  let body = "";
  for await (const chunk of request) body += chunk;
  return Object.fromEntries(new URLSearchParams(body));
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

export async function startFlowMock(): Promise<FlowMock> {
  const apiKey = "1F90971E-8276-4715-97FF-2BLG5030EE3B";
  const secretKey = "mocksecretkey0123456789abcdef0123456789";
  const customers = new Map<string, FlowMockCustomer>();
  const payments = new Map<string, FlowMockPayment>();
  const registrations = new Map<string, Registration>();
  const declinedEmails = new Set<string>();
  const amountsDue = new Set<string>();
  const requests: FlowMockRequest[] = [];
  let nextFlowOrder = 3_567_899;
  let nextDelay = 0;

  function decide(token: string, decision: "approve" | "reject") {
    const registration = registrations.get(token);
    if (!registration) throw new Error(`Unknown Flow registration token ${token}`);
    registration.result = decision === "approve" ? "approved" : "rejected";
    if (decision === "approve") {
      // Flow keeps one card per customer: a new registration replaces the card.
      Object.assign(customers.get(registration.customerId)!, {
        creditCardType: FLOW_TEST_CARD.brand,
        last4CardDigits: FLOW_TEST_CARD.last4,
        pay_mode: "auto",
        registerDate: flowDate(),
      });
    }
  }

  /** The API: signed parameters in, JSON out; 200, or 400/401 with `{code, message}`. */
  function api(method: string, path: string, params: Record<string, string>): [number, unknown] {
    const missing = (...names: string[]) => names.find((name) => !params[name]);
    const error = (status: 400 | 401, code: number, message: string): [number, unknown] => [status, { code, message }];

    if (params.apiKey !== apiKey) return error(401, 108, "apiKey inválido");
    if (!params.s || params.s !== sign(params, secretKey)) return error(401, 109, "Firma inválida");

    if (method === "POST" && path === "/customer/create") {
      const absent = missing("name", "email", "externalId");
      if (absent) return error(400, 400, `Falta el parámetro ${absent}`);
      const customer: FlowMockCustomer = {
        customerId: `cus_${randomBytes(5).toString("hex")}`,
        created: flowDate(),
        email: params.email!,
        name: params.name!,
        externalId: params.externalId!,
        pay_mode: "manual",
        creditCardType: null,
        last4CardDigits: null,
        status: "1",
        registerDate: null,
      };
      customers.set(customer.customerId, customer);
      return [200, customer];
    }
    if (method === "GET" && path === "/customer/get") {
      const customer = customers.get(params.customerId ?? "");
      return customer ? [200, customer] : error(401, 1000, "Cliente no existe");
    }
    if (method === "POST" && path === "/customer/delete") {
      const absent = missing("customerId");
      if (absent) return error(400, 400, `Falta el parámetro ${absent}`);
      const customer = customers.get(params.customerId!);
      if (!customer || customer.status === "0") return error(401, 1000, "Cliente no existe");
      if (amountsDue.has(customer.customerId)) return error(401, 1004, "El cliente tiene suscripciones activas o importes pendientes de pago");
      // Flow keeps the customer, deleted (status "0"), without its card.
      Object.assign(customer, { status: "0", creditCardType: null, last4CardDigits: null, pay_mode: "manual" });
      return [200, customer];
    }
    if (method === "POST" && path === "/customer/register") {
      const absent = missing("customerId", "url_return");
      if (absent) return error(400, 400, `Falta el parámetro ${absent}`);
      if (!customers.has(params.customerId!)) return error(401, 1000, "Cliente no existe");
      const token = randomBytes(20).toString("hex").toUpperCase();
      registrations.set(token, { customerId: params.customerId!, urlReturn: params.url_return!, result: "pending" });
      return [200, { url: `${hostedOrigin}/app/webpay/disclaimer.php`, token }];
    }
    if (method === "GET" && path === "/customer/getRegisterStatus") {
      const registration = registrations.get(params.token ?? "");
      if (!registration) return error(401, 1001, "Token no existe");
      const customer = customers.get(registration.customerId)!;
      const registered = registration.result === "approved";
      return [
        200,
        {
          status: registered ? "1" : "0",
          customerId: customer.customerId,
          creditCardType: registered ? customer.creditCardType : null,
          last4CardDigits: registered ? customer.last4CardDigits : null,
        },
      ];
    }
    if (method === "POST" && path === "/customer/charge") {
      const absent = missing("customerId", "amount", "subject", "commerceOrder");
      if (absent) return error(400, 400, `Falta el parámetro ${absent}`);
      const customer = customers.get(params.customerId!);
      if (!customer) return error(401, 1000, "Cliente no existe");
      if (!customer.last4CardDigits) return error(401, 1002, "El cliente no tiene tarjeta registrada");
      if (payments.has(params.commerceOrder!)) return error(401, 1003, "commerceOrder ya fue utilizado");
      const amount = Number(params.amount);
      if (!Number.isFinite(amount) || amount <= 0) return error(400, 400, "Monto inválido");
      const payment: FlowMockPayment = {
        flowOrder: nextFlowOrder++,
        commerceOrder: params.commerceOrder!,
        requestDate: flowDate(),
        status: declinedEmails.has(customer.email) ? 3 : 2,
        subject: params.subject!,
        currency: params.currency ?? "CLP",
        amount,
        payer: customer.email,
        customerId: customer.customerId,
      };
      payments.set(payment.commerceOrder, payment);
      return [200, payment];
    }
    if (method === "GET" && path === "/payment/getStatusByCommerceId") {
      const payment = payments.get(params.commerceId ?? "");
      return payment ? [200, payment] : error(401, 105, "Orden de comercio no existe");
    }
    return error(400, 404, "Servicio no existe");
  }

  /** Flow's hosted card page, and what it does when the customer decides: POST `token` to url_return. */
  function hostedPage(request: IncomingMessage, url: URL, params: Record<string, string>, response: ServerResponse) {
    const html = (status: number, body: string) => {
      response.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
      response.end(body);
    };
    const token = params.token ?? "";
    const registration = registrations.get(token);
    if (!registration) return html(404, page("Flow", "<p>Token inválido</p>"));
    if (request.method === "GET" && url.pathname === "/app/webpay/disclaimer.php") {
      const button = (decision: string, label: string) =>
        `<form method="post" action="/app/webpay/decide"><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="decision" value="${decision}"><button type="submit">${label}</button></form>`;
      return html(
        200,
        page(
          "Flow · Registro de tarjeta",
          `<h1>Registra tu tarjeta en Flow (prueba)</h1><p>Tarjeta ${FLOW_TEST_CARD.number}</p>${button("approve", "Aprobar")}${button("reject", "Rechazar")}`,
        ),
      );
    }
    if (request.method === "POST" && url.pathname === "/app/webpay/decide") {
      decide(token, params.decision === "approve" ? "approve" : "reject");
      return html(
        200,
        page(
          "Flow · Volviendo al comercio",
          `<p>Volviendo al comercio…</p><form id="return" method="post" action="${escapeHtml(registration.urlReturn)}"><input type="hidden" name="token" value="${escapeHtml(token)}"><noscript><button type="submit">Continuar</button></noscript></form><script>document.getElementById("return").submit();</script>`,
        ),
      );
    }
    return html(404, page("Flow", "<p>No encontrado</p>"));
  }

  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://mock");
    const params = await readParams(request, url);
    if (url.pathname.startsWith("/app/")) return hostedPage(request, url, params, response);
    const method = request.method ?? "GET";
    const path = url.pathname.replace(/^\/api/, "");
    const [status, body] = api(method, path, params);
    requests.push({ method, path, params, status });
    const delay = nextDelay;
    nextDelay = 0;
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    response.writeHead(status, { "Content-Type": "application/json" });
    response.end(JSON.stringify(body));
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
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  // Flow's page is on another site than the shop (127.0.0.1), as in production: its POST back is cross-site.
  const hostedOrigin = `http://localhost:${port}`;

  return {
    apiBase: `${origin}/api`,
    origin,
    hostedOrigin,
    apiKey,
    secretKey,
    customers,
    payments,
    requests,
    decide,
    declineChargesFor: (email) => void declinedEmails.add(email),
    setAmountDue: (customerId, due) => void (due ? amountsDue.add(customerId) : amountsDue.delete(customerId)),
    delayNextResponse: (ms) => void (nextDelay = ms),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
