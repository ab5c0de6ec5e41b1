/**
 * A local HTTP server that speaks WhatsApp's Cloud API as ../shared/reference/whatsapp-cloud-api.md
 * documents it, strict where Meta is: the version and phone number id in the path, `Authorization:
 * Bearer` with the System User token, the JSON body's shape, templates approved by name and
 * language with their exact count of body parameters and their URL button, parameter text without
 * new lines, tabs or runs of spaces (132018), free text only inside the customer's 24-hour window
 * (131047), interactive reply-buttons messages (issue 38) only inside that window too, with one to
 * three buttons of unique ids (256) and titles (20) and a body of at most 1 024 characters
 * (131009 otherwise), numbers that are not on WhatsApp (131026), and failures on demand
 * (429/130429, 5xx, 132xxx, a dropped connection). It also plays Meta's side of the webhook:
 * status reports and customers' messages — typed, a template's quick reply, a tap on a reply
 * button — signed with the App Secret over the exact bytes sent (non-ASCII escaped as \uXXXX, as
 * Meta writes them), or forged.
 */
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WHATSAPP_TEMPLATES } from "@server/whatsapp/index.server";

export interface ApprovedTemplate {
  name: string;
  language: string;
  bodyParameters: number;
  urlButton: boolean;
}

/** What the shop submitted for approval (server/whatsapp/templates.ts, docs/whatsapp.md). */
export function submittedTemplates(): ApprovedTemplate[] {
  return Object.values(WHATSAPP_TEMPLATES).map((template) => ({
    name: template.name,
    language: template.language,
    bodyParameters: template.parameters.length,
    urlButton: template.button !== null,
  }));
}

/** A message the stand-in accepted, as WhatsApp would deliver it. */
export interface AcceptedMessage {
  wamid: string;
  to: string;
  type: "template" | "text" | "interactive";
  templateName: string | null;
  language: string | null;
  bodyParameters: string[];
  buttonSuffix: string | null;
  text: string | null;
  /** An interactive reply-buttons message: its body, footer and buttons. */
  interactive: { body: string; footer: string | null; buttons: { id: string; title: string }[] } | null;
  body: Record<string, unknown>;
  at: Date;
}

/** How a customer's message reaches the webhook: its sender, id, time, and signature. */
export interface InboundOptions {
  name?: string;
  id?: string;
  at?: Date;
  signature?: SignatureMode;
  /** The same bytes posted to these URLs too, at the same moment (a redelivery racing the first). */
  alsoTo?: string[];
}

export interface CloudApiRequest {
  method: string;
  path: string;
  status: number;
  errorCode: number | null;
}

export type Fault = { http: number; code: number; message?: string } | { drop: true };

export type SignatureMode = "valid" | "none" | "wrong-secret" | "reserialised" | "malformed";

export interface WhatsappCloudMock {
  apiUrl: string;
  token: string;
  phoneNumberId: string;
  appSecret: string;
  verifyToken: string;
  /** The five WHATSAPP_* variables pointing the shop at this stand-in. */
  env: Record<string, string>;
  accepted: AcceptedMessage[];
  requests: CloudApiRequest[];
  /** Templates WhatsApp Manager has approved: remove one to see 132001. */
  approved: Map<string, ApprovedTemplate>;
  /** Numbers that are not on WhatsApp (131026). */
  unreachable: Set<string>;
  /** The next requests fail this way, in order (one fault per request). */
  failNext(...faults: Fault[]): void;
  /** Where Meta posts notifications (the shop's /webhooks/whatsapp). */
  webhookUrl: string | null;
  /**
   * A customer writes to the business: posted signed to the webhook (or, with `alsoTo`, the same
   * bytes to those URLs too, at the same moment, as a retried delivery would); opens their
   * 24-hour window.
   */
  customerWrites(from: string, text: string, options?: InboundOptions): Promise<Response>;
  /**
   * The customer taps a template's quick-reply button (issue 38: «Pedir lo de siempre»): a
   * `button` message with its text and payload. Opens the 24-hour window like any message.
   */
  customerTapsQuickReply(from: string, text: string, options?: InboundOptions): Promise<Response>;
  /**
   * The customer taps a reply button of an interactive message the stand-in accepted for them: an
   * `interactive` message with `button_reply: { id, title }` in reply to it (`context`).
   */
  customerTapsButton(message: AcceptedMessage, title: string, options?: InboundOptions): Promise<Response>;
  /** A status report for a message (sent, delivered, read, failed with an error code). */
  reportStatus(
    wamid: string,
    status: "sent" | "delivered" | "read" | "failed",
    options?: { at?: Date; errorCode?: number; errorTitle?: string; signature?: SignatureMode },
  ): Promise<Response>;
  /** Posts any body to the webhook (and `alsoTo`, at once), signed as asked; answers the webhook's response. */
  postWebhook(body: string | object, signature?: SignatureMode, alsoTo?: string[]): Promise<Response>;
  close(): Promise<void>;
}

/** JSON as Meta writes it: every non-ASCII character escaped (`ñ` → `\u00f1`). */
export function metaJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function signBody(raw: string | Buffer, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;
}

const WINDOW_MS = 24 * 3_600_000;
const VERSION = "v24.0";

export async function startWhatsappCloudMock(options: { now?: () => Date } = {}): Promise<WhatsappCloudMock> {
  const now = options.now ?? (() => new Date());
  const token = `EAAG${randomBytes(24).toString("hex")}`;
  const phoneNumberId = String(100_000_000_000_000 + Math.floor(Math.random() * 1e12));
  const appSecret = randomBytes(16).toString("hex");
  const verifyToken = `verifica-${randomBytes(6).toString("hex")}`;
  const wabaId = "102290129340398";
  const accepted: AcceptedMessage[] = [];
  const requests: CloudApiRequest[] = [];
  const approved = new Map(submittedTemplates().map((template) => [template.name, template]));
  const unreachable = new Set<string>();
  const faults: Fault[] = [];
  /** When each number last wrote to the business (its customer service window). */
  const lastInbound = new Map<string, Date>();

  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { "Content-Type": "application/json" });
      response.end(JSON.stringify({ error: { message: String(error), code: 1 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const apiUrl = `http://127.0.0.1:${port}/${VERSION}`;

  function fail(response: ServerResponse, request: IncomingMessage, http: number, code: number, message: string) {
    requests.push({ method: request.method ?? "", path: request.url ?? "", status: http, errorCode: code });
    response.writeHead(http, { "Content-Type": "application/json" });
    response.end(
      JSON.stringify({ error: { message, type: "OAuthException", code, error_data: { details: message }, fbtrace_id: randomBytes(8).toString("hex") } }),
    );
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const path = request.url ?? "";
    const match = /^\/(v\d+\.\d+)\/([^/]+)\/messages$/.exec(path);
    if (request.method !== "POST" || !match) return fail(response, request, 400, 100, `Unsupported ${request.method} request to ${path}`);
    if (match[1] !== VERSION) return fail(response, request, 400, 2635, `Unknown API version ${match[1]}`);
    if (match[2] !== phoneNumberId)
      return fail(
        response,
        request,
        400,
        100,
        `Unsupported post request. Object with ID '${match[2]}' does not exist, cannot be loaded due to missing permissions`,
      );
    if (request.headers.authorization !== `Bearer ${token}`) return fail(response, request, 401, 190, "Invalid OAuth access token - Cannot parse access token");
    if (!request.headers["content-type"]?.startsWith("application/json")) return fail(response, request, 400, 100, "Content-Type must be application/json");
    const fault = faults.shift();
    if (fault && "drop" in fault) {
      requests.push({ method: "POST", path, status: 0, errorCode: null });
      request.socket.destroy();
      return;
    }
    if (fault) return fail(response, request, fault.http, fault.code, fault.message ?? `Fault ${fault.code}`);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return fail(response, request, 400, 100, "The request body is not valid JSON");
    }
    if (body.messaging_product !== "whatsapp") return fail(response, request, 400, 100, "The parameter messaging_product is required");
    const to = body.to;
    if (typeof to !== "string" || !/^\d{8,15}$/.test(to)) return fail(response, request, 400, 100, "Invalid parameter: to");
    if (body.recipient_type !== undefined && body.recipient_type !== "individual")
      return fail(response, request, 400, 100, "Invalid parameter: recipient_type");
    let message: Omit<AcceptedMessage, "wamid" | "at">;
    if (body.type === "template") {
      const checked = checkTemplate(body.template);
      if ("code" in checked) return fail(response, request, 400, checked.code, checked.message);
      message = { to, type: "template", text: null, interactive: null, body, ...checked };
    } else if (body.type === "text") {
      const text = (body.text as { body?: unknown } | undefined)?.body;
      if (typeof text !== "string" || text.trim() === "" || text.length > 4096) return fail(response, request, 400, 100, "Invalid parameter: text.body");
      const opened = lastInbound.get(to);
      if (!opened || now().getTime() - opened.getTime() >= WINDOW_MS)
        return fail(response, request, 400, 131047, "Re-engagement message: more than 24 hours have passed since the recipient last replied");
      message = { to, type: "text", templateName: null, language: null, bodyParameters: [], buttonSuffix: null, text, interactive: null, body };
    } else if (body.type === "interactive") {
      const checked = checkInteractive(body.interactive);
      if ("code" in checked) return fail(response, request, 400, checked.code, checked.message);
      const opened = lastInbound.get(to);
      if (!opened || now().getTime() - opened.getTime() >= WINDOW_MS)
        return fail(response, request, 400, 131047, "Re-engagement message: more than 24 hours have passed since the recipient last replied");
      message = { to, type: "interactive", templateName: null, language: null, bodyParameters: [], buttonSuffix: null, text: null, interactive: checked, body };
    } else {
      return fail(response, request, 400, 131051, "Unsupported message type");
    }
    if (unreachable.has(to)) return fail(response, request, 400, 131026, "Message undeliverable");
    const wamid = `wamid.HBgL${randomBytes(18).toString("base64url")}`;
    accepted.push({ ...message, wamid, at: now() });
    requests.push({ method: "POST", path, status: 200, errorCode: null });
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(
      JSON.stringify({ messaging_product: "whatsapp", contacts: [{ input: to, wa_id: to }], messages: [{ id: wamid, message_status: "accepted" }] }),
    );
  }

  /**
   * An interactive reply-buttons message as Meta documents it: `type: "button"`, a text body of
   * 1–1 024 characters, an optional footer of at most 60, and 1–3 buttons `{ type: "reply", reply:
   * { id, title } }` with unique ids (1–256) and unique titles (1–20). Anything else: 131009.
   */
  function checkInteractive(value: unknown): NonNullable<AcceptedMessage["interactive"]> | { code: number; message: string } {
    const invalid = (details: string) => ({ code: 131009, message: `Parameter value is not valid: ${details}` });
    const interactive = value as
      { type?: unknown; body?: { text?: unknown }; footer?: { text?: unknown }; action?: { buttons?: unknown }; header?: unknown } | undefined;
    if (interactive?.type !== "button") return { code: 131051, message: "Unsupported interactive message type" };
    const text = interactive.body?.text;
    if (typeof text !== "string" || text.trim() === "" || text.length > 1024) return invalid("body.text must be 1-1024 characters");
    const footer = interactive.footer === undefined ? null : interactive.footer.text;
    if (footer !== null && (typeof footer !== "string" || footer.length === 0 || footer.length > 60)) return invalid("footer.text must be 1-60 characters");
    const buttons = interactive.action?.buttons;
    if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3) return invalid("action.buttons must hold 1 to 3 buttons");
    const read: { id: string; title: string }[] = [];
    for (const button of buttons as { type?: unknown; reply?: { id?: unknown; title?: unknown } }[]) {
      const id = button.reply?.id;
      const title = button.reply?.title;
      if (button.type !== "reply") return invalid("button type must be reply");
      if (typeof id !== "string" || id.length < 1 || id.length > 256 || id.trim() !== id)
        return invalid("Button id length invalid. Min length: 1, Max length: 256");
      if (typeof title !== "string" || title.trim() === "" || title.length > 20) return invalid("Button title length invalid. Min length: 1, Max length: 20");
      if (read.some((other) => other.id === id || other.title === title)) return invalid("Button ids and titles must be unique");
      read.push({ id, title });
    }
    return { body: text, footer: footer as string | null, buttons: read };
  }

  /** The template object, checked against what was approved. */
  function checkTemplate(
    value: unknown,
  ): Pick<AcceptedMessage, "templateName" | "language" | "bodyParameters" | "buttonSuffix"> | { code: number; message: string } {
    const template = value as { name?: unknown; language?: { code?: unknown }; components?: unknown } | undefined;
    const known = typeof template?.name === "string" ? approved.get(template.name) : undefined;
    if (!known || template?.language?.code !== known.language)
      return { code: 132001, message: `Template name does not exist in the translation (${String(template?.name)}, ${String(template?.language?.code)})` };
    const components = Array.isArray(template.components) ? (template.components as Record<string, unknown>[]) : [];
    const body = components.filter((component) => component.type === "body");
    const buttons = components.filter((component) => component.type === "button");
    if (components.length !== body.length + buttons.length || body.length > 1 || buttons.length > 1)
      return { code: 132000, message: "Unexpected template components" };
    const bodyParameters = (body[0]?.parameters as { type?: unknown; text?: unknown }[] | undefined) ?? [];
    if (bodyParameters.length !== known.bodyParameters)
      return {
        code: 132000,
        message: `Number of parameters does not match the expected number of params (${bodyParameters.length} vs ${known.bodyParameters})`,
      };
    for (const parameter of bodyParameters) {
      if (parameter.type !== "text" || typeof parameter.text !== "string" || parameter.text === "")
        return { code: 132012, message: "Parameter format does not match" };
      if (/[\n\t]| {5,}/.test(parameter.text))
        return { code: 132018, message: "Param text cannot have new-line/tab characters or more than 4 consecutive spaces" };
    }
    let buttonSuffix: string | null = null;
    if (known.urlButton) {
      const button = buttons[0] as { sub_type?: unknown; index?: unknown; parameters?: { type?: unknown; text?: unknown }[] } | undefined;
      const parameter = button?.parameters?.[0];
      if (
        button?.sub_type !== "url" ||
        button.index !== "0" ||
        button.parameters?.length !== 1 ||
        parameter?.type !== "text" ||
        typeof parameter.text !== "string"
      )
        return { code: 132000, message: "The template's URL button needs its one text parameter" };
      buttonSuffix = parameter.text;
    } else if (buttons.length > 0) return { code: 132000, message: "This template has no dynamic button" };
    return { templateName: known.name, language: known.language, bodyParameters: bodyParameters.map((parameter) => parameter.text as string), buttonSuffix };
  }

  const mock: WhatsappCloudMock = {
    apiUrl,
    token,
    phoneNumberId,
    appSecret,
    verifyToken,
    env: {
      WHATSAPP_API_URL: apiUrl,
      WHATSAPP_TOKEN: token,
      WHATSAPP_PHONE_NUMBER_ID: phoneNumberId,
      WHATSAPP_APP_SECRET: appSecret,
      WHATSAPP_VERIFY_TOKEN: verifyToken,
    },
    accepted,
    requests,
    approved,
    unreachable,
    webhookUrl: null,
    failNext(...more) {
      faults.push(...more);
    },
    async postWebhook(body, signature = "valid", alsoTo: string[] = []) {
      if (!mock.webhookUrl) throw new Error("Set webhookUrl first");
      const raw = typeof body === "string" ? body : metaJson(body);
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (signature === "valid") headers["X-Hub-Signature-256"] = signBody(raw, appSecret);
      if (signature === "wrong-secret") headers["X-Hub-Signature-256"] = signBody(raw, randomBytes(16).toString("hex"));
      // What a server that parsed the JSON and wrote it again would check: different bytes.
      if (signature === "reserialised") headers["X-Hub-Signature-256"] = signBody(JSON.stringify(JSON.parse(raw)), appSecret);
      if (signature === "malformed") headers["X-Hub-Signature-256"] = "sha1=0123";
      const [first] = await Promise.all([mock.webhookUrl, ...alsoTo].map((url) => fetch(url, { method: "POST", headers, body: raw })));
      return first!;
    },
    async customerWrites(from, text, options = {}) {
      return inbound(from, { type: "text", text: { body: text } }, options);
    },
    async customerTapsQuickReply(from, text, options = {}) {
      return inbound(from, { type: "button", button: { text, payload: text } }, options);
    },
    async customerTapsButton(message, title, options = {}) {
      const button = message.interactive?.buttons.find((candidate) => candidate.title === title);
      if (!button) throw new Error(`The message to ${message.to} has no button titled ${title}`);
      return inbound(
        message.to,
        {
          type: "interactive",
          context: { from: "51987654321", id: message.wamid },
          interactive: { type: "button_reply", button_reply: { id: button.id, title: button.title } },
        },
        options,
      );
    },
    async reportStatus(wamid, status, { at = now(), errorCode, errorTitle, signature = "valid" } = {}) {
      const message = accepted.find((candidate) => candidate.wamid === wamid);
      const report: Record<string, unknown> = {
        id: wamid,
        status,
        timestamp: String(Math.floor(at.getTime() / 1000)),
        recipient_id: message?.to ?? "51900000000",
      };
      if (errorCode !== undefined) report.errors = [{ code: errorCode, title: errorTitle ?? "Message undeliverable" }];
      return mock.postWebhook(change({ statuses: [report] }), signature);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  /** One customer message (the rest of its fields given), posted signed as Meta would. */
  async function inbound(from: string, fields: Record<string, unknown>, options: InboundOptions): Promise<Response> {
    const { name = "Cliente", id = `wamid.IN${randomBytes(12).toString("hex")}`, at = now(), signature = "valid", alsoTo = [] } = options;
    // Meta opens the window when the customer writes, before it delivers the webhook: a reply
    // the shop sends while the webhook's other delivery is still under way is inside it.
    if (signature === "valid") lastInbound.set(from, at);
    return mock.postWebhook(
      change({
        contacts: [{ profile: { name }, wa_id: from }],
        messages: [{ from, id, timestamp: String(Math.floor(at.getTime() / 1000)), ...fields }],
      }),
      signature,
      alsoTo,
    );
  }

  function change(value: Record<string, unknown>) {
    return {
      object: "whatsapp_business_account",
      entry: [
        {
          id: wabaId,
          changes: [
            {
              field: "messages",
              value: { messaging_product: "whatsapp", metadata: { display_phone_number: "51987654321", phone_number_id: phoneNumberId }, ...value },
            },
          ],
        },
      ],
    };
  }

  return mock;
}
