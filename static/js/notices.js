/* "Tell me on this phone" (NOT-1): registers the notices' service worker, subscribes this
   browser to Web Push with the room's VAPID public key, and posts the subscription to the room.
   A browser without push, or a phone that blocks notices, is told so and offered SMS instead.
   window.noticesState records what happened, for the browser tests. */
(function () {
  "use strict";
  window.noticesState = "idle";

  function keyBytes(base64url) {
    var text = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(text);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }

  function say(button, text, state) {
    var line = document.querySelector("[data-notices-state]");
    if (line) { line.textContent = text; }
    window.noticesState = state;
  }

  function post(button, subscription) {
    return fetch(button.dataset.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": button.dataset.csrf },
      body: JSON.stringify(subscription.toJSON())
    }).then(function (response) {
      if (!response.ok) { throw new Error("refused " + response.status); }
    });
  }

  function subscribe(button) {
    button.disabled = true;
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { throw new Error("denied"); }
      return navigator.serviceWorker.register(button.dataset.worker, { scope: "/" });
    }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      return registration.pushManager.getSubscription().then(function (existing) {
        return existing || registration.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: keyBytes(button.dataset.key)
        });
      });
    }).then(function (subscription) {
      return post(button, subscription);
    }).then(function () {
      say(button, button.dataset.on, "subscribed");
    }).catch(function (error) {
      button.disabled = false;
      say(button, error.message === "denied" ? button.dataset.denied : button.dataset.failed, "failed");
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.querySelector("[data-notices-subscribe]");
    if (!button) { return; }
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      button.disabled = true;
      say(button, button.dataset.unsupported, "unsupported");
      return;
    }
    if (Notification.permission === "denied") {
      button.disabled = true;
      say(button, button.dataset.denied, "denied");
      return;
    }
    button.addEventListener("click", function () { subscribe(button); });
  });
})();
