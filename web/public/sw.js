/* Tickerbell service worker: offline app shell, web push notifications, notification clicks.
   Plain script (no build step): it must live at the site root to control every page. */
const CACHE = 'tickerbell-shell-v1';
const SHELL = ['/', '/index.html', '/theme-init.js', '/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/icon-512.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  // Only our own origin; never the api, the live stream or the admin pages (always live).
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/admin')) return;

  if (request.mode === 'navigate') {
    // Pages: the network first so deploys show up, the cached shell when offline.
    event.respondWith(fetch(request).catch(() => caches.match('/index.html').then((cached) => cached || Response.error())));
    return;
  }
  // Hashed build assets, icons and sounds: cache first, filled on first use.
  event.respondWith(
    caches.match(request).then(
      (cached) =>
        cached ||
        fetch(request).then((response) => {
          if (response.ok && response.type === 'basic') {
            const copy = response.clone();
            void caches.open(CACHE).then((cache) => cache.put(request, copy));
          }
          return response;
        }),
    ),
  );
});

function pushPayload(event) {
  if (!event.data) return {};
  try {
    return event.data.json();
  } catch {
    return { body: event.data.text() };
  }
}

self.addEventListener('push', (event) => {
  const payload = pushPayload(event);
  const title = typeof payload.title === 'string' ? payload.title : 'Tickerbell';
  const options = {
    body: typeof payload.body === 'string' ? payload.body : typeof payload.message === 'string' ? payload.message : '',
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    tag: typeof payload.tag === 'string' ? payload.tag : undefined,
    data: { url: typeof payload.url === 'string' ? payload.url : '/dashboard/activity' },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/dashboard', self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      // Focus a tab already on that page; else reuse any Tickerbell tab; else open a new one.
      const exact = windows.find((client) => client.url === target.href);
      if (exact) return exact.focus();
      const any = windows.find((client) => new URL(client.url).origin === target.origin);
      if (any && 'navigate' in any) return any.navigate(target.href).then((client) => (client ? client.focus() : undefined));
      return self.clients.openWindow(target.href);
    }),
  );
});
