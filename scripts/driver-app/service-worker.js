// The driver app's service worker (issue 26, decision 0079). scripts/build-driver-app.mjs writes it
// to build/client/reparto-sw.js after `react-router build`, with the files of /admin/reparto's
// first load injected by workbox-build (its default injection point, below). It is registered by the route's
// page for a repartidor only, with the scope /admin/reparto: no storefront page ever goes through it.
//
// - The page (/admin/reparto): network first, the last copy when there is no answer within a few
//   seconds. A copy is kept only when the server marks the answer as a repartidor's route
//   (X-Driver-App); a sign-in page, a 404 or anyone else's page makes it forget what it kept.
// - The parents' data of a client-side load and React Router's route manifest patches: network
//   first, the last copy otherwise. The route's own data is never kept here: the page keeps the
//   day's route in IndexedDB and its clientLoader falls back to it.
// - The page's scripts, styles, font, icons and manifest: kept when the worker installs.
// - Everything else, and every POST (the queue is sent by the page), goes to the network as is.

const PRECACHE_ENTRIES = self.__WB_MANIFEST;
const SCOPE_PATH = "/admin/reparto";
const ROUTE_ID = "routes/admin/reparto/reparto";
const NETWORK_TIMEOUT_MS = 4000;

const version = (() => {
  let hash = 5381;
  for (const char of JSON.stringify(PRECACHE_ENTRIES)) hash = ((hash * 33) ^ char.charCodeAt(0)) >>> 0;
  return hash.toString(36);
})();
const PRECACHE = `reparto-files-${version}`;
const PAGES = "reparto-pages";
const precached = new Set(PRECACHE_ENTRIES.map((entry) => new URL(entry.url, self.location.origin).pathname));

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(PRECACHE)
      .then((cache) => cache.addAll([...precached]))
      // The page that registered the worker loaded before it: keep a copy now, so the very next
      // opening without signal already has it.
      .then(() => keepRoutePage(fetch(SCOPE_PATH, { redirect: "manual", credentials: "same-origin" })).catch(() => undefined))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("reparto-files-") && name !== PRECACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && url.pathname === SCOPE_PATH) return event.respondWith(routePage(request));
  if (url.pathname === `${SCOPE_PATH}.data`) {
    const routes = url.searchParams.get("_routes");
    if (routes && routes.split(",").includes(ROUTE_ID)) return;
    return event.respondWith(networkFirst(request, request.url));
  }
  if (url.pathname === "/__manifest") return event.respondWith(networkFirst(request, request.url, () => Response.json({})));
  if (precached.has(url.pathname)) return event.respondWith(caches.match(url.pathname, { cacheName: PRECACHE }).then((hit) => hit ?? fetch(request)));
});

/** The network's answer, or a timeout: the network keeps going and still updates the copy. */
function fromNetwork(request, keep) {
  const network = fetch(request).then(async (response) => {
    await keep(response.clone());
    return response;
  });
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), NETWORK_TIMEOUT_MS));
  return { network, answer: Promise.race([network, timeout]) };
}

/** Keeps a repartidor's route page; any other answer but a server error makes the worker forget it. */
async function keepRoutePage(pending) {
  const response = await pending;
  if (response.status === 200 && response.headers.get("x-driver-app") === "repartidor") await (await caches.open(PAGES)).put(SCOPE_PATH, response);
  // Signed out (sent to /login), not a repartidor (404, or an admin's page): nothing of the route
  // stays, neither this copy of the page nor the page's copy in IndexedDB (decision 0089).
  else if (response.type === "opaqueredirect" || response.status < 500) await Promise.all([caches.delete(PAGES), forgetSavedRoute()]);
}

/**
 * Deletes the route the page kept in IndexedDB (app/lib/driver-app/store.ts: database va-reparto,
 * store "route"), never creating the database; the page's unsent taps are the page's to handle.
 */
function forgetSavedRoute() {
  return new Promise((resolve) => {
    const opening = indexedDB.open("va-reparto");
    // No database yet: abort rather than create an empty one.
    opening.onupgradeneeded = () => opening.transaction.abort();
    opening.onerror = () => resolve();
    opening.onblocked = () => resolve();
    opening.onsuccess = () => {
      const db = opening.result;
      if (!db.objectStoreNames.contains("route")) {
        db.close();
        return resolve();
      }
      const tx = db.transaction("route", "readwrite");
      tx.objectStore("route").clear();
      tx.oncomplete =
        tx.onerror =
        tx.onabort =
          () => {
            db.close();
            resolve();
          };
    };
  });
}

async function routePage(request) {
  const { network, answer } = fromNetwork(request, (response) => keepRoutePage(Promise.resolve(response)));
  network.catch(() => undefined);
  try {
    return await answer;
  } catch {
    const kept = await caches.match(SCOPE_PATH, { cacheName: PAGES });
    return kept ?? network;
  }
}

async function networkFirst(request, key, fallback) {
  const { network, answer } = fromNetwork(request, async (response) => {
    if (response.status === 200) await (await caches.open(PAGES)).put(key, response);
  });
  network.catch(() => undefined);
  try {
    return await answer;
  } catch {
    const kept = await caches.match(key, { cacheName: PAGES });
    return kept ?? (fallback ? fallback() : network);
  }
}
