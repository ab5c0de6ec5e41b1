/**
 * Culqi3DS in the browser (payments.md A.15, "3DS helper"): Culqi's script from 3ds.culqi.com
 * gives a device id for every charge, and when a charge comes back 200 + REVIEW it runs the
 * bank's 3-D Secure check and posts the result to this window as a `message` event. Browser only:
 * call these from effects or event handlers, never while rendering.
 */
import { parameters3DSSchema, type Parameters3DS } from "./culqi-charge-form";

export const CULQI_3DS_SCRIPT = "https://3ds.culqi.com";
/** A device id is nice to have; a charge never waits longer than this for it. */
export const DEVICE_ID_WAIT_MS = 5000;

interface Culqi3DSOptions {
  showModal: boolean;
  showLoading: boolean;
  showIcon: boolean;
  closeModalAction: () => void;
}

interface Culqi3DSGlobal {
  publicKey: string;
  options: Culqi3DSOptions;
  settings: { charge: { totalAmount: number; returnUrl: string; currency: string }; card: { email: string } };
  generateDevice(): Promise<string | null | undefined>;
  initAuthentication(tokenId: string): void;
  reset(): void;
}

declare global {
  interface Window {
    Culqi3DS?: Culqi3DSGlobal;
  }
}

export type ThreeDSOutcome = { ok: true; parameters: Parameters3DS } | { ok: false; reason: "failed" | "closed" | "unavailable" };

/** What a window message means for a running 3DS check; null for messages that are not Culqi3DS's. */
export function read3DSMessage(data: unknown): { parameters: Parameters3DS } | { failed: true } | null {
  if (typeof data !== "object" || data === null) return null;
  const { parameters3DS, error } = data as { parameters3DS?: unknown; error?: unknown };
  if (parameters3DS !== undefined && parameters3DS !== null) {
    const parsed = parameters3DSSchema.safeParse(parameters3DS);
    return parsed.success ? { parameters: parsed.data } : { failed: true };
  }
  return error ? { failed: true } : null;
}

let loading: Promise<Culqi3DSGlobal | null> | null = null;

/** Loads Culqi's script once per page; a failed load is forgotten so the next attempt tries again. */
function loadCulqi3DS(): Promise<Culqi3DSGlobal | null> {
  loading ??= new Promise((resolve) => {
    if (window.Culqi3DS) return resolve(window.Culqi3DS);
    const script = document.createElement("script");
    script.src = CULQI_3DS_SCRIPT;
    script.async = true;
    script.onload = () => resolve(window.Culqi3DS ?? null);
    script.onerror = () => {
      script.remove();
      loading = null;
      resolve(null);
    };
    document.body.appendChild(script);
  });
  return loading;
}

function configure(culqi3DS: Culqi3DSGlobal, publicKey: string, closeModalAction: () => void) {
  culqi3DS.publicKey = publicKey;
  culqi3DS.options = { showModal: true, showLoading: true, showIcon: true, closeModalAction };
}

let deviceId: Promise<string | null> | null = null;

/**
 * Culqi3DS.generateDevice()'s id, sent with the charge as antifraud_details.device_finger_print_id.
 * Null when the script is unavailable or slow: the charge goes ahead without it.
 */
export function culqiDeviceFingerprint(publicKey: string, waitMs = DEVICE_ID_WAIT_MS): Promise<string | null> {
  if (!deviceId) {
    const generating = loadCulqi3DS()
      .then(async (culqi3DS) => {
        if (!culqi3DS) return null;
        configure(culqi3DS, publicKey, () => {});
        const id = await culqi3DS.generateDevice();
        return typeof id === "string" && id ? id : null;
      })
      .catch(() => null);
    deviceId = generating;
    void generating.then((id) => {
      if (!id && deviceId === generating) deviceId = null;
    });
  }
  const pending = deviceId;
  return new Promise((resolve) => {
    const timer = window.setTimeout(() => resolve(null), waitMs);
    void pending.then((id) => {
      window.clearTimeout(timer);
      resolve(id);
    });
  });
}

/**
 * Runs the bank's check for a token Culqi answered with REVIEW. Resolves with the values to send
 * back as authentication3DS, or why there are none: the bank refused (`data.error`), the customer
 * closed Culqi's window, or the script could not load. Aborting stops listening.
 */
export async function authenticateWithCulqi3DS(input: {
  publicKey: string;
  tokenId: string;
  amountCents: number;
  email: string;
  signal: AbortSignal;
}): Promise<ThreeDSOutcome> {
  const culqi3DS = await loadCulqi3DS();
  if (!culqi3DS) return { ok: false, reason: "unavailable" };
  if (input.signal.aborted) return { ok: false, reason: "closed" };
  return new Promise((resolve) => {
    let done = false;
    const finish = (outcome: ThreeDSOutcome) => {
      if (done) return;
      done = true;
      window.removeEventListener("message", onMessage);
      input.signal.removeEventListener("abort", onAbort);
      culqi3DS.reset();
      resolve(outcome);
    };
    const onMessage = (event: MessageEvent) => {
      // Culqi3DS reports from this page's own origin; anything else is not its answer.
      if (event.origin !== window.location.origin) return;
      const message = read3DSMessage(event.data);
      if (message) finish("parameters" in message ? { ok: true, parameters: message.parameters } : { ok: false, reason: "failed" });
    };
    const onAbort = () => finish({ ok: false, reason: "closed" });
    window.addEventListener("message", onMessage);
    input.signal.addEventListener("abort", onAbort);
    configure(culqi3DS, input.publicKey, () => finish({ ok: false, reason: "closed" }));
    culqi3DS.settings = {
      charge: { totalAmount: input.amountCents, returnUrl: window.location.href, currency: "PEN" },
      card: { email: input.email },
    };
    try {
      culqi3DS.initAuthentication(input.tokenId);
    } catch {
      finish({ ok: false, reason: "unavailable" });
    }
  });
}

/** What the customer reads when the bank's check gives nothing to charge with; paying again is always possible. */
export const THREE_DS_PROBLEMS: Record<Exclude<ThreeDSOutcome, { ok: true }>["reason"], string> = {
  failed: "Tu banco no pudo verificar tu tarjeta (3D Secure). Intenta nuevamente o usa otra tarjeta.",
  closed: "La verificación de tu banco se cerró antes de terminar. Intenta nuevamente para completar el pago.",
  unavailable: "No se pudo abrir la verificación de tu banco (3D Secure). Revisa tu conexión e intenta nuevamente.",
};
