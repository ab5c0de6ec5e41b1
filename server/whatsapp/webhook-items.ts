import { z } from "zod";
import { INT32_MAX, withoutControlCharacters } from "@core/input-schemas";
import type { ReportedStatus, StatusReport } from "./statuses";

/*
 * One status or one inbound message of a webhook delivery, read on its own (issue 39): a signed
 * body can still carry an item no Meta would send (a NUL in a text, a timestamp of 1e16, an error
 * code of 2^40). Such an item is unreadable, alone: the items around it in the same delivery are
 * still recorded. Text is stored without the control characters PostgreSQL's `text` refuses (NUL)
 * or nobody wants on a screen; what must be a number or an id is refused, never repaired.
 */

/** Meta's timestamps are epoch seconds of now: outside the years 2000–2100 it is not one. */
const EARLIEST_SECONDS = Date.UTC(2000, 0, 1) / 1000;
const LATEST_SECONDS = Date.UTC(2100, 0, 1) / 1000;

const epochSeconds = z
  .union([z.string().max(32), z.number()])
  .transform((value) => Number(value))
  .refine((seconds) => Number.isFinite(seconds) && seconds >= EARLIEST_SECONDS && seconds < LATEST_SECONDS, "timestamp outside the years 2000–2100")
  .transform((seconds) => new Date(seconds * 1000));

/** Meta's ids (`wamid.HBgL…`): printable ASCII, no spaces; never cleaned into another id. */
const metaId = z.string().regex(/^[\x21-\x7e]{1,200}$/, "not a Meta id");

const WA_ID = /^\d{6,20}$/;
/** A business-scoped user id (BSUID, docs/whatsapp.md): `PE.1502576394655843`, `US.ENT.1181…`. */
const BSUID = /^[A-Z]{2}(\.ENT)?\.[A-Za-z0-9]{1,128}$/;

/** Who wrote: a wa_id (digits) or a BSUID, once its control characters are gone. */
const sender = z
  .string()
  .max(1000)
  .transform((value) => withoutControlCharacters(value, "line"))
  .refine((value) => WA_ID.test(value) || BSUID.test(value), "not a wa_id or business-scoped user id");

/** A line stored as text: cleaned, cut to `max`. */
const storedLine = (max: number) => z.string().transform((value) => withoutControlCharacters(value, "line").slice(0, max));

const statusSchema = z.object({
  id: metaId,
  status: z.string().max(40),
  timestamp: epochSeconds,
  errors: z
    .array(
      z.object({
        // whatsapp_status_events.error_code and whatsapp_messages.error_code are `integer`.
        code: z
          .number()
          .int()
          .min(-INT32_MAX - 1)
          .max(INT32_MAX)
          .optional(),
        title: storedLine(500).optional(),
        message: storedLine(500).optional(),
      }),
    )
    .max(50)
    .optional(),
});

const inboundSchema = z
  .object({
    id: metaId,
    from: sender,
    timestamp: epochSeconds,
    type: z.string().regex(/^[a-z_]{1,40}$/, "not a message type"),
  })
  .passthrough();

const contactSchema = z.object({
  wa_id: z.string().max(1000),
  profile: z.object({ name: z.string().optional() }).optional(),
});

/** A status, read: one to record, one the shop does not track (`deleted`, …), or unreadable. */
export type StatusItem = { kind: "report"; report: StatusReport } | { kind: "untracked" } | { kind: "unreadable"; wamid: string | null; problems: string };

export function readStatus(raw: unknown): StatusItem {
  const parsed = statusSchema.safeParse(raw);
  if (!parsed.success) return { kind: "unreadable", wamid: usableId(raw), problems: problemsOf(parsed.error) };
  const { id, status, timestamp, errors } = parsed.data;
  if (!isReportedStatus(status)) return { kind: "untracked" };
  const error = errors?.[0];
  return {
    kind: "report",
    report: {
      wamid: id,
      status,
      occurredAt: timestamp,
      errorCode: error?.code ?? null,
      errorTitle: error ? [error.title, error.message].filter(Boolean).join(": ") || null : null,
    },
  };
}

function isReportedStatus(value: string): value is ReportedStatus {
  return value === "sent" || value === "delivered" || value === "read" || value === "failed";
}

export interface InboundMessage {
  wamid: string;
  from: string;
  profileName: string | null;
  type: string;
  /** What staff read: the text, or what kind of thing it was. */
  body: string;
  /** A tapped reply button's id (`interactive`), or a template quick reply's payload (`button`). */
  replyId: string | null;
  sentAt: Date;
}

/** What Mensajes shows of a message the shop could not read (with its text, when it had one). */
export const UNREADABLE_BODY = "[Mensaje ilegible]";

export type InboundItem =
  | { kind: "message"; message: InboundMessage }
  | { kind: "unreadable"; wamid: string | null; from: string | null; profileName: string | null; body: string; sentAt: Date | null; problems: string };

/** One inbound message, with its sender's profile name from the change's contacts. */
export function readInbound(raw: unknown, names: ReadonlyMap<string, string | null>): InboundItem {
  const parsed = inboundSchema.safeParse(raw);
  if (parsed.success) {
    const { id, from, timestamp, type } = parsed.data;
    return {
      kind: "message",
      message: {
        wamid: id,
        from,
        profileName: names.get(from) ?? null,
        type,
        body: inboundText(parsed.data),
        replyId: replyIdOf(parsed.data),
        sentAt: timestamp,
      },
    };
  }
  const fields = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const from = sender.safeParse(fields.from);
  const sentAt = epochSeconds.safeParse(fields.timestamp);
  // A text that came with a broken field is still shown: staff may have to act on a BAJA by hand.
  const text = fields.type === "text" ? (fields.text as Record<string, unknown> | undefined)?.body : undefined;
  const readable = typeof text === "string" ? withoutControlCharacters(text, "text").slice(0, 4000).trim() : "";
  return {
    kind: "unreadable",
    wamid: usableId(raw),
    from: from.success ? from.data : null,
    profileName: from.success ? (names.get(from.data) ?? null) : null,
    body: readable ? `${UNREADABLE_BODY} ${readable}` : UNREADABLE_BODY,
    sentAt: sentAt.success ? sentAt.data : null,
    problems: problemsOf(parsed.error),
  };
}

/** The change's `contacts`: each sender's profile name, a contact that cannot be read left out. */
export function profileNames(contacts: unknown[]): Map<string, string | null> {
  const names = new Map<string, string | null>();
  for (const raw of contacts) {
    const contact = contactSchema.safeParse(raw);
    if (!contact.success) continue;
    const name = withoutControlCharacters(contact.data.profile?.name ?? "", "line")
      .slice(0, 200)
      .trim();
    names.set(withoutControlCharacters(contact.data.wa_id, "line"), name || null);
  }
  return names;
}

/** The item's own id, when it is one: what an unreadable item can be recorded (once) under. */
function usableId(raw: unknown): string | null {
  const id = metaId.safeParse(typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>).id : undefined);
  return id.success ? id.data : null;
}

/** For the log: which fields failed and why, never their values (a customer's text or number). */
function problemsOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "(item)"}: ${issue.message}`).join("; ");
}

/**
 * The id a button reply carries (issue 38): Meta sends a tapped reply button as `interactive`
 * with `button_reply: { id, title }` (the id the shop gave it), a template's quick reply as
 * `button` with `payload` (its text unless the template set another). Printable ASCII, 256 at most.
 */
function replyIdOf(message: Record<string, unknown> & { type: string }): string | null {
  const part = (message[message.type] ?? {}) as Record<string, unknown>;
  const value =
    message.type === "interactive"
      ? ((part.button_reply ?? part.list_reply ?? {}) as Record<string, unknown>).id
      : message.type === "button"
        ? part.payload
        : undefined;
  return typeof value === "string" && /^[\x20-\x7e]{1,256}$/.test(value) ? value : null;
}

/** What staff read of an inbound message: its text, or what kind of thing it was. */
function inboundText(message: Record<string, unknown> & { type: string }): string {
  const part = (message[message.type] ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" ? value.slice(0, 4000) : "");
  return withoutControlCharacters(describedText(message.type, part, text), "text");
}

function describedText(type: string, part: Record<string, unknown>, text: (value: unknown) => string): string {
  switch (type) {
    case "text":
      return text(part.body);
    case "button":
      return text(part.text);
    case "interactive": {
      const reply = (part.button_reply ?? part.list_reply ?? {}) as Record<string, unknown>;
      return text(reply.title);
    }
    case "location":
      return `[Ubicación] ${[text(part.name), text(part.address), part.latitude !== undefined ? `${String(part.latitude)}, ${String(part.longitude)}` : ""].filter(Boolean).join(" · ")}`;
    case "image":
    case "video":
    case "document":
    case "audio":
    case "sticker":
      return `[${MEDIA_LABELS[type]}]${part.caption ? ` ${text(part.caption)}` : ""}`;
    case "reaction":
      return `[Reacción] ${text(part.emoji)}`;
    default:
      return "[Mensaje de un tipo que la tienda no muestra]";
  }
}

const MEDIA_LABELS: Record<string, string> = { image: "Imagen", video: "Video", document: "Documento", audio: "Audio", sticker: "Sticker" };
