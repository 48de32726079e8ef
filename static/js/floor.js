/* The floor view's clocks (TRN-8): each counting clock and "break in" carries the instant it
   ends at (data-ends-at), and this counts down to it every quarter second. The drawn card stays
   the same from one second to the next, so the room's polls send nothing while only the clocks
   move. Time is the server's: the room gives its time when drawn whole (data-server-now) and the
   monotonic performance.now() carries it forward, so a wrong clock on the screen does not matter. */
(function () {
  "use strict";
  var serverAt = Date.now();
  var perfAt = performance.now();

  function learnServerTime() {
    var room = document.querySelector("[data-server-now]");
    if (!room) { return; }
    var at = Date.parse(room.getAttribute("data-server-now"));
    room.removeAttribute("data-server-now");  // learnt once per whole drawing
    if (!isNaN(at)) { serverAt = at; perfAt = performance.now(); }
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  // As the server writes it (cashgame/templatetags/tables.py clock_time): 12:05, or 1:02:05.
  function clockTime(ms) {
    var total = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    return h > 0 ? h + ":" + pad(m) + ":" + pad(s) : pad(m) + ":" + pad(s);
  }

  function tick() {
    learnServerTime();
    var now = serverAt + (performance.now() - perfAt);
    document.querySelectorAll("[data-ends-at]").forEach(function (element) {
      var text = clockTime(Date.parse(element.getAttribute("data-ends-at")) - now);
      if (element.textContent !== text) { element.textContent = text; }
    });
  }

  document.addEventListener("htmx:afterSettle", tick);
  tick();
  setInterval(tick, 250);
})();
