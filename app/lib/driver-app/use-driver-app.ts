import { useCallback, useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { addPhoto as keepPhoto, addTap, dismissTap, forgetDriverApp, forgetRouteCopy, forgetStaleCopy, listTaps, saveRoute, type QueuedTap } from "./store";
import { sendQueue, type SendOutcome } from "./sync";

/** The service worker built by scripts/build-driver-app.mjs, and the part of the site it serves. */
export const SERVICE_WORKER_URL = "/reparto-sw.js";
export const DRIVER_APP_SCOPE = "/admin/reparto";

/** What the route says once a tap is recorded: after a form post (`?aviso=`) or a send from the phone. */
export const DRIVER_STOP_NOTICES = {
  en_camino: "Parada marcada en camino. Avisamos al cliente.",
  entregado: "Entrega registrada. Avisamos al cliente.",
  no_entregado: "Registramos que no se pudo entregar. El cliente puede elegir una nueva fecha, u operaciones la coordinará.",
} as const;
const SAVED_OFFLINE = "Guardado en el teléfono. Se enviará cuando vuelva la señal.";

/**
 * Waits between sends while taps wait and nothing else (the signal, the foreground) says to try.
 * A phone whose signal comes back without the browser noticing (no `online` event: it never
 * thought it was offline) still sends within 5 s of it (issue 26's target).
 */
const RETRY_MS = [2_000, 4_000];

export type Connection = "online" | "offline" | "signed_out";

export interface DriverApp {
  /** The driver's taps on this phone: pending (not yet applied) and refused (with the server's reason). */
  taps: QueuedTap[];
  connection: Connection;
  notice: string | null;
  /** Records a tap on the phone, shows it at once and sends the queue. */
  record(tap: Omit<QueuedTap, "key" | "driverId" | "occurredAt" | "state" | "seq">): Promise<void>;
  dismiss(key: string): Promise<void>;
  /** Keeps a compressed photo of a stop's bidones on the phone (issue 40); answers its key, for the tap naming it. */
  addPhoto(deliveryId: string, photo: Blob): Promise<string>;
}

function sameTaps(a: QueuedTap[], b: QueuedTap[]): boolean {
  return a.length === b.length && a.every((tap, index) => tap.key === b[index]!.key && tap.state === b[index]!.state && tap.message === b[index]!.message);
}

/** A v4 UUID: `crypto.randomUUID` needs a secure context, `getRandomValues` does not. */
function newKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The driver app on /admin/reparto (issue 26, decision 0079): the queue of taps kept on the phone,
 * sent from the page on opening, on returning to the foreground, when the signal returns and after
 * every tap (iPhone has no Background Sync); the day's route saved for a reload without signal; the
 * service worker for repartidores only, and nothing of it left for anyone else or after signing out.
 */
export function useDriverApp({
  driverId,
  installable,
  route,
}: {
  driverId: string;
  installable: boolean;
  route: { today: string; loadedAt: string; savedOnPhone: boolean };
}): DriverApp {
  const [taps, setTapsState] = useState<QueuedTap[]>([]);
  // The whole route re-renders with the taps: only when they changed (a slow phone feels each render).
  const setTaps = useCallback((next: QueuedTap[]) => setTapsState((current) => (sameTaps(current, next) ? current : next)), []);
  const [connection, setConnection] = useState<Connection>("online");
  const [notice, setNotice] = useState<string | null>(null);
  const { revalidate } = useRevalidator();
  const retry = useRef<{ timer?: ReturnType<typeof setTimeout>; attempt: number; send?: () => Promise<unknown> }>({ attempt: 0 });

  const refresh = useCallback(async () => setTaps(await listTaps(driverId)), [driverId, setTaps]);

  const send = useCallback(async (): Promise<SendOutcome> => {
    clearTimeout(retry.current.timer);
    for (;;) {
      const outcome = await sendQueue(driverId).catch((): SendOutcome => ({ kind: "offline", left: 1 }));
      // The server says the session is gone, or the driver is no longer a repartidor: the copy of
      // the route leaves the phone (decision 0089); unsent taps stay only for a session that ended.
      if (outcome.kind === "signed_out") await forgetRouteCopy().catch(() => undefined);
      if (outcome.kind === "not_allowed") await forgetDriverApp().catch(() => undefined);
      if (outcome.kind !== "sent") {
        setConnection(outcome.kind === "not_allowed" ? "signed_out" : outcome.kind);
        setTaps(outcome.kind === "not_allowed" ? [] : await listTaps(driverId));
        if (outcome.kind === "offline" && outcome.left > 0) {
          const wait = RETRY_MS[Math.min(retry.current.attempt, RETRY_MS.length - 1)]!;
          retry.current.attempt += 1;
          retry.current.timer = setTimeout(() => void retry.current.send?.(), wait);
        }
        return outcome;
      }
      retry.current.attempt = 0;
      // Nothing to send proves nothing about the signal: the browser's word stands then (issue 40's
      // "Ruta guardada en el teléfono" line shows on a phone opened without signal).
      setConnection(outcome.applied.length + outcome.refused.length > 0 || navigator.onLine ? "online" : "offline");
      // The stops show the server's word before the taps leave the screen, so nothing flickers back.
      if (outcome.applied.length > 0 || outcome.refused.length > 0) await revalidate().catch(() => undefined);
      const left = await listTaps(driverId);
      setTaps(left);
      // A tap made while this send was under way goes in the next one.
      if (!left.some((tap) => tap.state === "pending")) return outcome;
    }
  }, [driverId, revalidate, setTaps]);

  /** A send nobody tapped for (opening, the signal's return): says what it delivered. */
  const sendLeftovers = useCallback(async () => {
    const outcome = await send();
    if (outcome.kind === "sent" && outcome.applied.length > 0)
      setNotice(
        outcome.applied.length === 1
          ? "Enviamos 1 confirmación guardada en el teléfono."
          : `Enviamos ${outcome.applied.length} confirmaciones guardadas en el teléfono.`,
      );
  }, [send]);

  // A retry is a send nobody tapped for: when it delivers what the signal's return (or a tap without
  // signal) could not, the driver is told, as if the first attempt had gone through.
  useEffect(() => {
    retry.current.send = sendLeftovers;
  }, [sendLeftovers]);

  // Opening the app sends what an earlier visit left; so do the foreground and the signal's return.
  useEffect(() => {
    if (!installable) return;
    // A copy more than a day old goes first (decision 0089), then what is left is sent.
    void forgetStaleCopy(Date.now())
      .catch(() => undefined)
      .then(() => listTaps(driverId))
      .then(setTaps)
      .then(sendLeftovers);
    const onVisible = () => document.visibilityState === "visible" && void sendLeftovers();
    const onOnline = () => void sendLeftovers();
    // A page brought back from the back-forward cache (not its first showing, which the line above covers).
    const onPageShow = (event: PageTransitionEvent) => event.persisted && void sendLeftovers();
    const onOffline = () => setConnection("offline");
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("online", onOnline);
    window.addEventListener("offline", onOffline);
    window.addEventListener("pageshow", onPageShow);
    const timers = retry.current;
    return () => {
      clearTimeout(timers.timer);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", onOffline);
      window.removeEventListener("pageshow", onPageShow);
    };
  }, [installable, driverId, sendLeftovers, setTaps]);

  // The day's route, saved for a reload without signal (repartidores only: decision 0079).
  useEffect(() => {
    if (installable && !route.savedOnPhone) void saveRoute({ driverId, today: route.today, loadedAt: route.loadedAt, data: route }).catch(() => undefined);
  }, [installable, driverId, route]);

  // The service worker: registered for a repartidor; anyone else leaves nothing of the app behind.
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    if (!installable) {
      void forgetDriverApp().catch(() => undefined);
      return;
    }
    if (!import.meta.env.PROD) return;
    // After the page is up and the main thread idle: the install downloads the app's files and the page once more.
    const register = () => void navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: DRIVER_APP_SCOPE }).catch(() => undefined);
    const whenIdle = () => ("requestIdleCallback" in window ? window.requestIdleCallback(register, { timeout: 3_000 }) : setTimeout(register, 1_000));
    if (document.readyState === "complete") whenIdle();
    else window.addEventListener("load", whenIdle, { once: true });
    return () => window.removeEventListener("load", whenIdle);
  }, [installable]);

  // Signing out forgets the phone's copy of the route, after a warning if taps were never sent.
  useEffect(() => {
    if (!installable) return;
    let leaving = false;
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target;
      if (leaving || !(form instanceof HTMLFormElement) || new URL(form.action, location.href).pathname !== "/logout") return;
      event.preventDefault();
      event.stopPropagation();
      void listTaps(driverId)
        .catch(() => [])
        .then(async (left) => {
          const pending = left.filter((tap) => tap.state === "pending").length;
          const question = `Tienes ${pending === 1 ? "1 confirmación" : `${pending} confirmaciones`} sin enviar. Si cierras sesión se perderán. ¿Cerrar sesión igual?`;
          if (pending > 0 && !window.confirm(question)) return;
          await forgetDriverApp().catch(() => undefined);
          leaving = true;
          form.requestSubmit();
        });
    };
    document.addEventListener("submit", onSubmit, true);
    return () => document.removeEventListener("submit", onSubmit, true);
  }, [installable, driverId]);

  const record = useCallback<DriverApp["record"]>(
    async (tap) => {
      const key = newKey();
      await addTap({ ...tap, key, driverId, occurredAt: Date.now(), state: "pending" });
      setNotice(null);
      await refresh();
      let outcome = await send();
      // A send already under way when the driver tapped did not carry this tap: the next one does.
      if (outcome.kind === "sent" && !outcome.applied.includes(key) && !outcome.refused.includes(key)) outcome = await send();
      if (outcome.kind === "sent" && outcome.applied.includes(key)) setNotice(DRIVER_STOP_NOTICES[tap.intent]);
      else if (outcome.kind !== "sent" || !outcome.refused.includes(key)) setNotice(SAVED_OFFLINE);
    },
    [driverId, refresh, send],
  );

  const dismiss = useCallback(
    async (key: string) => {
      await dismissTap(key);
      await refresh();
    },
    [refresh],
  );

  const addPhoto = useCallback<DriverApp["addPhoto"]>(
    async (deliveryId, photo) => {
      const key = newKey();
      await keepPhoto({ key, driverId, deliveryId, photo, takenAt: Date.now() });
      return key;
    },
    [driverId],
  );

  return { taps, connection, notice, record, dismiss, addPhoto };
}
