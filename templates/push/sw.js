{% load static %}// Dizzysite's service worker: it shows pushes and opens the match when one is tapped. It caches
// nothing: every page is private to its player and always comes from the network.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { title: event.data.text() };
  }
  const shown = self.registration.showNotification(data.title || "Dizzysite", {
    body: data.body || "",
    tag: data.tag,
    renotify: Boolean(data.tag),
    icon: "{% static 'icons/icon-192.png' %}",
    data: { url: data.url || "/", read: data.read || "" },
  });
  // Open pages update their inbox bell at once.
  const told = self.clients
    .matchAll({ type: "window", includeUncontrolled: true })
    .then((pages) => pages.forEach((page) => page.postMessage({ type: "push" })));
  event.waitUntil(Promise.all([shown, told]));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  // Only a page of this site: the path of the address the push carried, on our own origin.
  const given = new URL(event.notification.data.url, self.location.origin);
  const target = new URL(given.pathname + given.search, self.location.origin).href;
  // The tap marks its inbox entry read: a POST to the path it carried, on our own origin; the
  // signed token in that path is the proof (no cookie needed).
  const read = event.notification.data.read;
  const marked = read
    ? fetch(new URL(read, self.location.origin).pathname, { method: "POST", credentials: "omit" }).catch(() => {})
    : Promise.resolve();
  event.waitUntil(
    Promise.all([
      marked,
      self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((pages) => {
        const open = pages.find((page) => page.url === target && "focus" in page);
        return open ? open.focus() : self.clients.openWindow(target);
      }),
    ])
  );
});
