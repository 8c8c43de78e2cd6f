// Tarot Desk: keeps the table pages and their assets for a reload without Wi-Fi.
// Pages and static files: network first, the stored copy when the network fails.
// Deals are never cached here: the page keeps them in its own storage until the server has them.
const CACHE = "tarot-table-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  const page = request.mode === "navigate" && url.pathname.startsWith("/table/");
  const asset = url.pathname.startsWith("/static/") || url.pathname.startsWith("/jsi18n/");
  if (!page && !asset) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() =>
        caches.match(request, { ignoreVary: true }).then((stored) => stored || Response.error())
      )
  );
});
