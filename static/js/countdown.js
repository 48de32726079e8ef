/* Hold countdowns (CSH-7) on the staff waiting list and the room's board: an element
   <time data-countdown="179">2:59</time> counts down live from the seconds the server gave when
   it drew the page (the browser's clock may differ from the server's, so it never reads the
   hold's end time). At zero it shows data-countdown-done if given. Elements htmx swaps in later
   (the board's rows every few seconds) start from their own, fresher, seconds. */
(function () {
  "use strict";
  function two(n) { return (n < 10 ? "0" : "") + n; }
  // 2:59 for a hold; 2:10:04 for a high-hand period of hours, not 130:04.
  function format(seconds) {
    var hours = Math.floor(seconds / 3600), minutes = Math.floor(seconds / 60) % 60, rest = seconds % 60;
    return hours ? hours + ":" + two(minutes) + ":" + two(rest) : minutes + ":" + two(rest);
  }
  function tick() {
    var now = performance.now();
    document.querySelectorAll("[data-countdown]").forEach(function (element) {
      if (element.countdownEnd === undefined) {
        element.countdownEnd = now + 1000 * (parseInt(element.getAttribute("data-countdown"), 10) || 0);
      }
      var left = Math.max(0, Math.ceil((element.countdownEnd - now) / 1000));
      var done = element.getAttribute("data-countdown-done");
      var text = left === 0 && done ? done : format(left);
      if (element.textContent !== text) { element.textContent = text; }
      element.classList.toggle("countdown-over", left === 0);
    });
  }
  tick();
  setInterval(tick, 250);
})();
