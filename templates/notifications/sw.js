// The site's service worker (served at /sw.js by notifications/app_shell.py, so its scope is the whole site).
// - push: show the notification the site sent (JSON: title, body, url, tag; notifications/kinds.py).
// - notificationclick: open the notification's page (the student's table) in a window of the site.
// - offline: pages that cannot load show the offline page kept at install (with its style sheet).
const OFFLINE_URL = "{% url 'offline' %}";
const OFFLINE_FILES = [OFFLINE_URL, "{{ offline_css }}"];
const CACHE = "ocho-offline-2";
const ICON = "{{ icon }}";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(OFFLINE_FILES.map((url) => new Request(url, { cache: "reload" }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  if (event.request.mode === "navigate") {
    event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE_URL)));
  } else if (OFFLINE_FILES.includes(new URL(event.request.url).pathname)) {
    event.respondWith(fetch(event.request).catch(() => caches.match(event.request)));
  }
});

function sameSite(url) {
  const target = new URL(url || "/", self.location.origin);
  return target.origin === self.location.origin ? target.href : new URL("/", self.location.origin).href;
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data.text() };
  }
  const title = typeof data.title === "string" && data.title ? data.title : "Ocho & UNO";
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof data.body === "string" ? data.body : "",
    tag: typeof data.tag === "string" ? data.tag : undefined,
    icon: ICON,
    badge: ICON,
    data: { url: sameSite(data.url) },
  }));
});

async function openPage(url) {
  const windows = await self.clients.matchAll({ type: "window" });
  const open = windows.find((client) => client.url === url);
  if (open) return open.focus();
  if (windows.length) {
    // A window of the site is open: take it to the page (focusing may be refused; it is shown anyway).
    const moved = await windows[0].navigate(url);
    try { await (moved || windows[0]).focus(); } catch { /* no user gesture to focus with */ }
    return moved;
  }
  return self.clients.openWindow(url);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openPage(sameSite(event.notification.data && event.notification.data.url)));
});
