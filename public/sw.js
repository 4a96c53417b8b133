// Trip pages kept for reading offline (docs/offline.md). A trip page asks this worker, once it has
// loaded, to keep it and the styles, scripts and pictures it used (/offline.js); the worker answers
// from what it kept only when the network does not: no connection, no answer within
// `networkWaitMs`, or an error of the server. It keeps nothing else: not the API, the live
// functions, the board or an enquiry, and never the live departures, which say offline that they
// need a connection. What it keeps stays within the budget below, the least recently opened trip
// going first.
const storage = 'trip-pages-v1';
const budget = { pages: 12, bytes: 5 * 1024 * 1024 };
// How long a page or file kept here waits for the network before the kept copy is shown. A
// stalled connection (common in the hills) never answers and never fails.
const networkWaitMs = 4000;

const tripPage = /^\/(treks|expeditions)\/[a-z0-9-]+$/;
// What a trip page loads from its own site: built styles and pictures, the site's scripts and icon.
const asset = /^\/(_astro\/[^/]+|styles\/[a-z0-9-]+\.css|images\/[a-z0-9/._-]+|[a-z0-9-]+\.js|favicon\.svg)$/;
// Answered live, or for other clients than a reader: never kept, never answered from the cache.
const never = /^\/(v1|api|mcp|oauth|agent|\.well-known|departures|enquiry-sent|sw\.js)(\/|\.|$)/;
const liveBlock = '/departures/block';

self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // A new storage name (what is kept changed shape) leaves the old caches behind: remove them.
      for (const name of await caches.keys())
        if (name.startsWith('trip-pages-') && name !== storage) await caches.delete(name);
      // No navigation preload (a worker of an earlier deploy turned it on): it sends every
      // navigation to the server before the worker decides, so a page the worker leaves to the
      // browser (an enquiry's thank-you page, the claim page) or asks for itself (the departures
      // block) would be asked for twice, and rendered and counted twice. The worker asks once.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.disable();
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  if (url.pathname === liveBlock) {
    // Asked of the server each time: offline or stalled, not even a copy the browser still holds is shown.
    event.respondWith(
      networkOrKept(request, Promise.resolve(departuresNeedAConnection()), { cache: 'no-cache' }).then(
        ({ answer, kept }) => kept || answer,
        () => departuresNeedAConnection(),
      ),
    );
    return;
  }
  if (never.test(url.pathname)) return;
  if (request.mode === 'navigate') event.respondWith(page(request, url));
  else if (asset.test(url.pathname)) event.respondWith(file(request, url));
});

// The media type a navigation asked with: a page is kept as the browser read it, and its own
// cache holds it under that Accept (pages vary on it), so keeping it then asks nothing of the server.
let pageAccept = null;

// Until when the network counts as stalled (a page was just shown from its copy): its kept files
// are then answered at once, so the saved page does not wait for each style and script in turn.
let stalledUntil = 0;

/**
 * `{ answer }`, the network's, or `{ kept }` when the network has not answered within
 * `networkWaitMs` and `kept` resolves to a copy (without one, the network is waited for, as the
 * browser would). A request given up is aborted, so it does not hold one of the browser's few
 * connections to the site. A failure of the network rejects, as fetch does.
 */
async function networkOrKept(request, kept, init = {}) {
  const controller = new AbortController();
  const network = fetch(request, { ...init, signal: controller.signal });
  let timer;
  const slow = new Promise((resolve) => (timer = setTimeout(() => resolve(null), networkWaitMs)));
  try {
    const answer = await Promise.race([network, slow]);
    if (answer) {
      stalledUntil = 0;
      return { answer };
    }
    const copy = await kept;
    if (!copy) return { answer: await network };
    stalledUntil = Date.now() + 30_000;
    controller.abort();
    return { kept: copy };
  } finally {
    clearTimeout(timer);
  }
}

// One change to the cache at a time, in the order asked.
let queue = Promise.resolve();
self.addEventListener('message', (event) => {
  const { type, page: path, assets } = event.data || {};
  if (type !== 'keep' || typeof path !== 'string' || !Array.isArray(assets)) return;
  const done = (queue = queue.then(() => keep(path, assets)).catch(() => undefined));
  event.waitUntil(
    done.then((kept) => event.source && event.source.postMessage({ type: 'kept', page: path, kept: Boolean(kept) })),
  );
});

function keptCopy(url) {
  return caches.open(storage).then((cache) => cache.match(url.pathname));
}

/** A page: the network's answer; the saved copy when the network fails, stalls or answers with a server error. */
async function page(request, url) {
  pageAccept = request.headers.get('Accept');
  const saved = keptCopy(url);
  try {
    const { answer, kept } = await networkOrKept(request, saved);
    if (kept) return savedCopy(kept, 'stalled');
    if (answer.status >= 500 && (await saved)) return savedCopy(await saved, 'error');
    return answer;
  } catch {
    return (await saved) ? savedCopy(await saved, 'offline') : notSaved();
  }
}

/** A style, script or picture: the network's answer, or the kept copy when the network fails or stalls. */
async function file(request, url) {
  if (Date.now() < stalledUntil) {
    const copy = await keptCopy(url);
    if (copy) return copy;
  }
  try {
    const { answer, kept } = await networkOrKept(request, keptCopy(url));
    return kept || answer;
  } catch {
    return (await keptCopy(url)) || Response.error();
  }
}

/** Why the saved copy is shown, in the line at its top. */
const reasons = {
  offline: 'You are offline',
  stalled: `The connection has not answered for ${networkWaitMs / 1000} seconds`,
  error: 'The site could not answer just now',
};

/** A kept page with a line at its top saying it is the copy saved then, why, and what needs a connection. */
async function savedCopy(saved, why) {
  const when = new Date(saved.headers.get('X-Offline-Saved') || Date.now());
  const note = `<p class="offline-note" role="status">${reasons[why]}: this is the copy of this page saved on ${escapeHtml(when.toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' }))}. Dates, seats and enquiries need a connection.</p>`;
  const html = (await saved.text()).replace(/<main\b[^>]*>/, (main) => `${main}${note}`);
  return new Response(html, { headers: pageHeaders(saved) });
}

/** Offline, on a page that was not kept: which trip pages are. */
async function notSaved() {
  const cache = await caches.open(storage);
  const pages = [];
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (!tripPage.test(path)) continue;
    const saved = await cache.match(request);
    pages.push({
      path,
      saved,
      title: ((await saved.clone().text()).match(/<title>([^<]*)<\/title>/) || [])[1] || path,
    });
  }
  const last = pages.at(-1);
  const styles = last ? ((await last.saved.clone().text()).match(/<link rel="stylesheet"[^>]*>/g) || []).join('') : '';
  const list = pages.length
    ? `<p>These trip pages were saved on this device when you opened them:</p><ul>${pages.map((p) => `<li><a href="${escapeHtml(p.path)}">${p.title}</a></li>`).join('')}</ul>`
    : '<p>No trip page has been saved on this device yet: a trip page opened once with a connection stays readable offline.</p>';
  const html = `<!doctype html><html lang="en-IN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>You are offline</title><meta name="color-scheme" content="light dark">${styles}</head><body><main id="main" class="wrap"><h1>You are offline</h1><p>This page was not saved on this device, and it needs a connection.</p>${list}</main></body></html>`;
  return new Response(html, {
    status: 503,
    headers: last
      ? pageHeaders(last.saved)
      : { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

function departuresNeedAConnection() {
  const html =
    '<div class="notice departures-live" role="status" data-live-departures="offline"><p><strong>Dates, seats and prices are read live from our bookings, so they need a connection.</strong></p><p>The connection is not answering: reload this page when you are connected to see them.</p></div>';
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
}

/** The headers a kept page is answered with: its own policy, never stored again by anything. */
function pageHeaders(saved) {
  const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' };
  const policy = saved.headers.get('Content-Security-Policy');
  if (policy) headers['Content-Security-Policy'] = policy;
  return headers;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A copy of a response that the cache keeps, with its size and, for a page, when and with what. */
async function keepable(response, extra) {
  const body = await response.arrayBuffer();
  const headers = new Headers(response.headers);
  headers.set('X-Offline-Bytes', String(body.byteLength));
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return new Response(body, { status: response.status, headers });
}

/** Keeps a trip page and the files it used, then holds the cache to its budget. True when the page is kept. */
async function keep(path, used) {
  if (!tripPage.test(path)) return false;
  const assets = [
    ...new Set(
      used
        .map((u) => new URL(u, location.origin))
        .filter((u) => u.origin === location.origin && asset.test(u.pathname) && !never.test(u.pathname))
        .map((u) => u.pathname),
    ),
  ];
  // From the browser's cache, where the page just read is (with the Accept it was read with).
  const response = await fetch(path, { credentials: 'same-origin', headers: pageAccept ? { Accept: pageAccept } : {} });
  if (!response.ok || !(response.headers.get('Content-Type') || '').startsWith('text/html')) return false;
  const cache = await caches.open(storage);
  for (const a of assets) {
    const file = await fetch(a, { credentials: 'same-origin' }).catch(() => null);
    if (file && file.ok) await cache.put(a, await keepable(file, {}));
  }
  // Delete first, so the page moves to the end of the cache's order: the most recently opened.
  await cache.delete(path);
  await cache.put(
    path,
    await keepable(response, { 'X-Offline-Saved': new Date().toISOString(), 'X-Offline-Assets': assets.join(' ') }),
  );
  await holdToBudget(cache);
  return Boolean(await cache.match(path));
}

/** Drops the least recently opened pages until the pages and their files fit the budget, then every file no kept page uses. */
async function holdToBudget(cache) {
  const pages = [];
  const sizes = new Map();
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    const response = await cache.match(request);
    const bytes = Number(response.headers.get('X-Offline-Bytes')) || 0;
    if (tripPage.test(path))
      pages.push({ path, bytes, assets: (response.headers.get('X-Offline-Assets') || '').split(' ').filter(Boolean) });
    else sizes.set(path, bytes);
  }
  const total = (kept) =>
    kept.reduce((sum, p) => sum + p.bytes, 0) +
    [...new Set(kept.flatMap((p) => p.assets))].reduce((sum, a) => sum + (sizes.get(a) || 0), 0);
  while (pages.length > 0 && (pages.length > budget.pages || total(pages) > budget.bytes))
    await cache.delete(pages.shift().path);
  const used = new Set(pages.flatMap((p) => p.assets));
  for (const path of sizes.keys()) if (!used.has(path)) await cache.delete(path);
}
