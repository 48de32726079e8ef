/* The notices' service worker (NOT-1): shows a notice the room pushed while the page is closed,
   and opens the player's page when he taps it. Served by notices.views.service_worker. */
"use strict";

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = { body: event.data.text() }; }
  event.waitUntil(self.registration.showNotification(data.title || "", {
    body: data.body || "",
    tag: data.tag || undefined,
    renotify: Boolean(data.tag),
    requireInteraction: true,
    data: { url: data.url || "/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (open) {
    for (var i = 0; i < open.length; i++) {
      if (open[i].url.split("#")[0].split("?")[0] === url.split("?")[0] && "focus" in open[i]) { return open[i].focus(); }
    }
    return self.clients.openWindow(url);
  }));
});
