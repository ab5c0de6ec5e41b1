import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from "idb";

/**
 * The driver app's storage on the phone (issue 26, decision 0079): IndexedDB through `idb`, one
 * database with the queue of taps not yet applied by the server (or refused by it, until the driver
 * has read why) and the last route the server sent, so a reload without signal keeps both.
 */
export const DRIVER_DB_NAME = "va-reparto";

/** One tap recorded on the phone: the stop form's fields, when it happened and its own key. */
export interface QueuedTap {
  /** Auto-increment: the order the driver tapped in, which is the order they are sent in. */
  seq?: number;
  key: string;
  driverId: string;
  deliveryId: string;
  intent: "en_camino" | "entregado" | "no_entregado";
  fields: Record<string, string>;
  /** Milliseconds since the epoch, by the phone's clock. */
  occurredAt: number;
  /** How the stop reads on the route, for a refusal shown after the stop left the route. */
  stopLabel: string;
  state: "pending" | "refused";
  message?: string;
}

/** The route as the server last sent it, for one driver and one Lima day. */
export interface SavedRoute<T> {
  driverId: string;
  today: string;
  loadedAt: string;
  data: T;
}

/**
 * A photo of the bidones at the door (issue 40), compressed on the phone and kept until the
 * server has it; sent before the taps, so the «Entregado» naming it finds it there.
 */
export interface QueuedPhoto {
  key: string;
  driverId: string;
  deliveryId: string;
  photo: Blob;
  /** Milliseconds since the epoch, by the phone's clock. */
  takenAt: number;
}

interface DriverAppSchema extends DBSchema {
  queue: { key: number; value: QueuedTap; indexes: { key: string } };
  route: { key: string; value: SavedRoute<unknown> };
  photos: { key: string; value: QueuedPhoto };
}

let connection: Promise<IDBPDatabase<DriverAppSchema>> | null = null;

function open(): Promise<IDBPDatabase<DriverAppSchema>> {
  connection ??= openDB<DriverAppSchema>(DRIVER_DB_NAME, 2, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        const queue = db.createObjectStore("queue", { keyPath: "seq", autoIncrement: true });
        queue.createIndex("key", "key", { unique: true });
        db.createObjectStore("route");
      }
      // Version 2 (issue 40): the photos of the bidones waiting to be sent.
      if (oldVersion < 2) db.createObjectStore("photos", { keyPath: "key" });
    },
    // iPhone drops connections of a backgrounded app: the next use opens a new one.
    terminated() {
      connection = null;
    },
    // A sign-out elsewhere deletes the database: let it.
    blocking() {
      void connection?.then((db) => db.close());
      connection = null;
    },
  }).catch((error: unknown) => {
    connection = null;
    throw error;
  });
  return connection;
}

/** Runs `work` on the database, opening it again once if the connection was lost meanwhile. */
async function withDb<T>(work: (db: IDBPDatabase<DriverAppSchema>) => Promise<T>): Promise<T> {
  try {
    return await work(await open());
  } catch (error) {
    if (!(error instanceof DOMException) || !["InvalidStateError", "TransactionInactiveError", "UnknownError", "AbortError"].includes(error.name)) throw error;
    connection = null;
    return work(await open());
  }
}

export function listTaps(driverId: string): Promise<QueuedTap[]> {
  return withDb(async (db) => (await db.getAll("queue")).filter((tap) => tap.driverId === driverId));
}

export function addTap(tap: Omit<QueuedTap, "seq">): Promise<void> {
  return withDb(async (db) => void (await db.add("queue", tap)));
}

export function addPhoto(photo: QueuedPhoto): Promise<void> {
  return withDb(async (db) => void (await db.put("photos", photo)));
}

export function listPhotos(driverId: string): Promise<QueuedPhoto[]> {
  return withDb(async (db) => (await db.getAll("photos")).filter((photo) => photo.driverId === driverId).sort((a, b) => a.takenAt - b.takenAt));
}

/** The server has the photo (or refused it for good): it leaves the phone. */
export function removePhoto(key: string): Promise<void> {
  return withDb((db) => db.delete("photos", key));
}

/** Applies the server's answers: applied taps leave the queue, refused ones stay with the reason. */
export function settleTaps(applied: string[], refused: { key: string; message: string }[]): Promise<void> {
  return withDb(async (db) => {
    const tx = db.transaction("queue", "readwrite");
    const byKey = tx.store.index("key");
    for (const key of applied) {
      const seq = await byKey.getKey(key);
      if (seq !== undefined) await tx.store.delete(seq);
    }
    for (const { key, message } of refused) {
      const seq = await byKey.getKey(key);
      const tap = seq === undefined ? undefined : await tx.store.get(seq);
      if (tap) await tx.store.put({ ...tap, state: "refused", message });
    }
    await tx.done;
  });
}

/** The driver read a refusal: it leaves the phone. */
export function dismissTap(key: string): Promise<void> {
  return settleTaps([key], []);
}

/** Keeps the route unless the phone already has a newer one (a page served from the worker's older copy). */
export function saveRoute<T>(route: SavedRoute<T>): Promise<void> {
  return withDb(async (db) => {
    const tx = db.transaction("route", "readwrite");
    const kept = await tx.store.get("today");
    if (!kept || kept.driverId !== route.driverId || kept.today !== route.today || kept.loadedAt < route.loadedAt) await tx.store.put(route, "today");
    await tx.done;
  });
}

export async function savedRoute<T>(driverId: string, today: string): Promise<SavedRoute<T> | null> {
  const route = await withDb((db) => db.get("route", "today"));
  return route && route.driverId === driverId && route.today === today ? (route as SavedRoute<T>) : null;
}

/** A copy of the route older than this is not kept on the phone (issue 39, decision 0089). */
export const ROUTE_COPY_MAX_AGE_MS = 24 * 3_600_000;
/** The service worker's copy of the route's page (scripts/driver-app/service-worker.js): it carries the route too. */
const PAGES_CACHE = "reparto-pages";

/** What a tap's label says once the route is gone: the stop's number, not its address. */
function withoutAddress(tap: QueuedTap): QueuedTap {
  return { ...tap, stopLabel: `Parada ${tap.stopLabel.split(".")[0]}` };
}

/**
 * The session ended (decision 0089): the copy of the route (customers' names, addresses and
 * phones) leaves the phone, with the service worker's copy of the page and the refusals already
 * read out; the taps never sent stay, as the driver's own work, labelled by the stop's number
 * only, for the next sign-in to send.
 */
export async function forgetRouteCopy(): Promise<void> {
  await withDb(async (db) => {
    const tx = db.transaction(["route", "queue"], "readwrite");
    await tx.objectStore("route").clear();
    const queue = tx.objectStore("queue");
    for (const tap of await queue.getAll()) {
      if (tap.state !== "pending") await queue.delete(tap.seq!);
      else if (!tap.stopLabel.startsWith("Parada ")) await queue.put(withoutAddress(tap));
    }
    await tx.done;
  });
  if ("caches" in window) await caches.delete(PAGES_CACHE);
}

/**
 * The app starts (decision 0089): a route kept for more than a day, and taps and photos older
 * than a day (sent or not), leave the phone. By the phone's clock: no day-old copy outlives a day of disuse.
 */
export async function forgetStaleCopy(now: number): Promise<void> {
  const oldest = now - ROUTE_COPY_MAX_AGE_MS;
  let routeGone = false;
  await withDb(async (db) => {
    const tx = db.transaction(["route", "queue", "photos"], "readwrite");
    const route = await tx.objectStore("route").get("today");
    if (route && !(Date.parse(route.loadedAt) >= oldest)) {
      await tx.objectStore("route").delete("today");
      routeGone = true;
    }
    const queue = tx.objectStore("queue");
    for (const tap of await queue.getAll()) if (!(tap.occurredAt >= oldest)) await queue.delete(tap.seq!);
    const photos = tx.objectStore("photos");
    for (const photo of await photos.getAll()) if (!(photo.takenAt >= oldest)) await photos.delete(photo.key);
    await tx.done;
  });
  if (routeGone && "caches" in window) await caches.delete(PAGES_CACHE);
}

/** Everything of the driver app on this phone: the database, the cached route and the service worker. */
export async function forgetDriverApp(): Promise<void> {
  const db = await connection?.catch(() => null);
  db?.close();
  connection = null;
  await deleteDB(DRIVER_DB_NAME).catch(() => undefined);
  if ("caches" in window) {
    for (const name of await caches.keys()) if (name.startsWith("reparto-")) await caches.delete(name);
  }
  const registration = await navigator.serviceWorker?.getRegistration("/admin/reparto");
  await registration?.unregister();
}
