import { listPhotos, listTaps, removePhoto, settleTaps } from "./store";

/** Where the phone sends its queue (app/routes/admin/reparto/confirmaciones.ts). */
export const QUEUE_ENDPOINT = "/admin/reparto/confirmaciones";
/** Where it sends the photos of the bidones (app/routes/admin/reparto/fotos.ts), before the taps. */
export const PHOTO_ENDPOINT = "/admin/reparto/fotos";
const PHOTO_TIMEOUT_MS = 30_000;
/** The server takes at most this many per request; a longer queue goes in several, in order. */
const BATCH_SIZE = 50;
const SEND_TIMEOUT_MS = 10_000;

export type SendOutcome =
  /** Everything the server looked at is settled: the keys it applied and refused in this run. */
  | { kind: "sent"; applied: string[]; refused: string[]; left: number }
  /** No answer (no signal, a dropped connection): the queue is as it was. */
  | { kind: "offline"; left: number }
  /** The session ended: the queue waits on the phone for the driver to sign in again. */
  | { kind: "signed_out"; left: number }
  /** Signed in, but no longer as a repartidor: nothing of the app may stay (decision 0089). */
  | { kind: "not_allowed"; left: number };

type Answer = { key: string; status: "applied" } | { key: string; status: "refused"; message: string } | { key: string; status: "not_processed" };

let running: Promise<SendOutcome> | null = null;

/**
 * Sends the driver's pending taps, oldest first, and settles the answers (decision 0079). One send
 * at a time per page: a tap made while a send is under way waits for the next one, which the caller
 * starts after every tap, on opening, on returning to the foreground and when the signal returns.
 */
export function sendQueue(driverId: string): Promise<SendOutcome> {
  running ??= send(driverId).finally(() => {
    running = null;
  });
  return running;
}

/**
 * Uploads the photos waiting on the phone, oldest first (issue 40): a photo the server has, or
 * refused for good (not this driver's stop, not a photo), leaves the phone; the «Entregado» tap
 * naming it follows and gets its own answer. Null when all went; otherwise why the send stops.
 */
async function sendPhotos(driverId: string, left: () => Promise<number>): Promise<SendOutcome | null> {
  for (const photo of await listPhotos(driverId)) {
    let response: Response;
    try {
      const query = new URLSearchParams({ envio: photo.deliveryId, clave: photo.key });
      response = await fetch(`${PHOTO_ENDPOINT}?${query}`, {
        method: "POST",
        signal: AbortSignal.timeout(PHOTO_TIMEOUT_MS),
        redirect: "manual",
        headers: { "content-type": photo.photo.type || "image/jpeg" },
        body: photo.photo,
      });
    } catch {
      return { kind: "offline", left: await left() };
    }
    if (response.type === "opaqueredirect" || response.status === 401) return { kind: "signed_out", left: await left() };
    const answer = (await response.json().catch(() => null)) as { status?: string } | null;
    if (response.ok || answer?.status === "refused" || response.status === 413) await removePhoto(photo.key);
    else if (response.status === 403 || response.status === 404) return { kind: "not_allowed", left: await left() };
    else return { kind: "offline", left: await left() };
  }
  return null;
}

async function send(driverId: string): Promise<SendOutcome> {
  const applied: string[] = [];
  const refused: string[] = [];
  const stopped = await sendPhotos(driverId, async () => (await listTaps(driverId)).filter((tap) => tap.state === "pending").length);
  if (stopped) return stopped;
  for (;;) {
    const pending = (await listTaps(driverId)).filter((tap) => tap.state === "pending");
    if (pending.length === 0) return { kind: "sent", applied, refused, left: 0 };
    const batch = pending.slice(0, BATCH_SIZE);
    let response: Response;
    try {
      response = await fetch(QUEUE_ENDPOINT, {
        method: "POST",
        // A weak signal can leave a request hanging for minutes; the next attempt is better than waiting.
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        // A signed-out driver's post is sent to /login: seen here as a redirect, never followed.
        redirect: "manual",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          sentAt: Date.now(),
          items: batch.map((tap) => ({ key: tap.key, occurredAt: tap.occurredAt, fields: tap.fields })),
        }),
      });
    } catch {
      return { kind: "offline", left: pending.length };
    }
    // Sent to /login (or told so): the session is gone. Refused as not found: the role changed.
    if (response.type === "opaqueredirect" || response.status === 401) return { kind: "signed_out", left: pending.length };
    if (response.status === 403 || response.status === 404) return { kind: "not_allowed", left: pending.length };
    if (!response.ok) return { kind: "offline", left: pending.length };
    const { answers } = (await response.json()) as { answers: Answer[] };
    const done = answers.filter((answer) => answer.status === "applied").map((answer) => answer.key);
    const refusals = answers.flatMap((answer) => (answer.status === "refused" ? [{ key: answer.key, message: answer.message }] : []));
    await settleTaps(done, refusals);
    applied.push(...done);
    refused.push(...refusals.map((refusal) => refusal.key));
    // Something the server could not look at now: try again later rather than loop.
    if (answers.some((answer) => answer.status === "not_processed")) return { kind: "offline", left: pending.length - done.length - refusals.length };
  }
}
