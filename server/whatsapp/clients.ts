import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { WhatsappInteractive, WhatsappTemplateParameters } from "../db/schema";
import { eraseOutboxFiles, outboxFileBase } from "../notifications/index.server";
import { whatsappChannel } from "./channel";

/** One message as the sender hands it to a client. */
export interface OutgoingWhatsapp {
  id: string;
  to: string;
  kind: "template" | "text" | "interactive";
  templateName: string | null;
  /** The body and reply buttons of an `interactive` message. */
  interactive?: WhatsappInteractive | null;
  languageCode: string | null;
  parameters: WhatsappTemplateParameters | null;
  /** The filled template (for the local outbox) or the free text to send. */
  renderedText: string;
  createdAt: Date;
}

export type SendOutcome =
  | { ok: true; wamid: string }
  /** `retry`: worth trying again later (429, 5xx, network); otherwise final for this payload. */
  | { ok: false; retry: boolean; code: number | null; httpStatus: number | null; message: string };

export interface WhatsappClient {
  send(message: OutgoingWhatsapp): Promise<SendOutcome>;
}

/** How long one call to Meta may take before it counts as a network failure (retried). */
export const CLOUD_API_TIMEOUT_MS = 15_000;

/**
 * Error codes worth retrying with back-off (../shared/reference/whatsapp-cloud-api.md): rate and
 * throughput limits (4, 80007, 130429, 131056, 131048) and Meta's own temporary failures (1, 2,
 * 131000, 133004). HTTP 429 and 5xx are retried whatever their code.
 */
const RETRYABLE_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131048, 131056, 133004]);

export function isRetryableCloudError(httpStatus: number | null, code: number | null): boolean {
  if (httpStatus === null || httpStatus === 429 || httpStatus >= 500) return true;
  return code !== null && RETRYABLE_CODES.has(code);
}

/** The Cloud API's request body for a message (template, or free text inside the 24-hour window). */
export function cloudApiPayload(message: OutgoingWhatsapp): Record<string, unknown> {
  const base = { messaging_product: "whatsapp", recipient_type: "individual", to: message.to };
  if (message.kind === "text") return { ...base, type: "text", text: { preview_url: false, body: message.renderedText } };
  if (message.kind === "interactive") {
    // Reply buttons (../shared/reference/whatsapp-cloud-api.md; Meta's "Interactive reply buttons messages").
    const { body, footer, buttons } = message.interactive ?? { body: message.renderedText, footer: null, buttons: [] };
    return {
      ...base,
      type: "interactive",
      interactive: {
        type: "button",
        body: { text: body },
        ...(footer ? { footer: { text: footer } } : {}),
        action: { buttons: buttons.map((button) => ({ type: "reply", reply: { id: button.id, title: button.title } })) },
      },
    };
  }
  const parameters = message.parameters ?? { body: [], buttonUrlSuffix: null };
  const components: Record<string, unknown>[] = [];
  if (parameters.body.length > 0) components.push({ type: "body", parameters: parameters.body.map((text) => ({ type: "text", text })) });
  if (parameters.buttonUrlSuffix)
    components.push({ type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: parameters.buttonUrlSuffix }] });
  return { ...base, type: "template", template: { name: message.templateName, language: { code: message.languageCode }, components } };
}

/** Meta's Cloud API: `POST {API_URL}/{PHONE_NUMBER_ID}/messages` with the System User token. */
export function cloudApiClient(config: { apiUrl: string; token: string; phoneNumberId: string; timeoutMs?: number }): WhatsappClient {
  const url = `${config.apiUrl.replace(/\/+$/, "")}/${encodeURIComponent(config.phoneNumberId)}/messages`;
  return {
    async send(message) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: { Authorization: `Bearer ${config.token}`, "Content-Type": "application/json" },
          body: JSON.stringify(cloudApiPayload(message)),
          signal: AbortSignal.timeout(config.timeoutMs ?? CLOUD_API_TIMEOUT_MS),
        });
      } catch (error) {
        return { ok: false, retry: true, code: null, httpStatus: null, message: `Network: ${error instanceof Error ? error.message : String(error)}` };
      }
      const body = (await response.json().catch(() => null)) as CloudApiAnswer | null;
      const wamid = body?.messages?.[0]?.id;
      if (response.ok && typeof wamid === "string") return { ok: true, wamid };
      const code = typeof body?.error?.code === "number" ? body.error.code : null;
      const details = body?.error?.error_data?.details;
      const text = [body?.error?.message ?? `HTTP ${response.status}`, details].filter(Boolean).join(": ");
      return { ok: false, retry: isRetryableCloudError(response.status, code), code, httpStatus: response.status, message: text };
    },
  };
}

interface CloudApiAnswer {
  messages?: { id?: unknown }[];
  error?: { message?: string; code?: unknown; error_data?: { details?: string } };
}

/**
 * The local demo's stand-in (`WHATSAPP_LOCAL_OUTBOX`): each message is written where the e-mail
 * outbox is, as the request the Cloud API would get (`.json`) and the text the customer would
 * read (`.txt`), so a newcomer sees what WhatsApp would carry.
 */
export function localOutboxClient(dir: string): WhatsappClient {
  return {
    async send(message) {
      await mkdir(dir, { recursive: true });
      const base = path.join(dir, outboxFileBase({ id: message.id, createdAt: message.createdAt, label: localOutboxLabel(message.templateName) }));
      await writeFile(`${base}.txt`, `Para: +${message.to}\n\n${message.renderedText}\n`);
      await writeFile(`${base}.json`, JSON.stringify(cloudApiPayload(message), null, 2));
      return { ok: true, wamid: `wamid.local.${message.id}` };
    },
  };
}

/** What names a message's files in the local outbox, after its time and before its id. */
const localOutboxLabel = (templateName: string | null) => `whatsapp-${templateName ?? "texto"}`;

/**
 * The local stand-in's copies of these messages (`.txt`, `.json`), removed when their rows are
 * anonymised (issue 39, finding 8). Looked for whatever the channel is now: the files stay from
 * whenever the stand-in wrote them. A missing file is fine; a failure is logged and thrown.
 */
export async function eraseLocalOutboxFiles(messages: { id: string; templateName: string | null; createdAt: Date }[]): Promise<number> {
  return eraseOutboxFiles(messages.map((message) => ({ id: message.id, createdAt: message.createdAt, label: localOutboxLabel(message.templateName) })));
}

/** The client of the configured channel, or null when WhatsApp is off. */
export function configuredWhatsappClient(): WhatsappClient | null {
  const channel = whatsappChannel();
  if (!channel) return null;
  return channel.kind === "cloud" ? cloudApiClient(channel) : localOutboxClient(channel.dir);
}
