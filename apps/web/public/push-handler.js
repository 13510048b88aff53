// Loaded by the generated service worker (vite.config.ts, Workbox importScripts): shows a parking
// reminder pushed by the server while the app is closed, and opens the app's screen on a tap.
// The message is JSON { title, body, url, tag } (docs/architecture.md#offline).
self.addEventListener('push', (event) => {
  let message;
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof message.title === 'string' && message.title ? message.title : 'ParkIt';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === 'string' ? message.body : '',
      tag: typeof message.tag === 'string' ? message.tag : undefined,
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      data: { url: typeof message.url === 'string' && message.url.startsWith('/') ? message.url : '/homepage' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || '/homepage';
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const w of windows) if ('focus' in w) return w.navigate(url).then((c) => (c || w).focus());
      return self.clients.openWindow(url);
    }),
  );
});
