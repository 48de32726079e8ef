/* The player's status page (WTL-2): when a call to a seat appears in the rows (polled every
   second by htmx), the phone beeps and vibrates where the browser allows it, once per call.
   Browsers allow sound only after a tap on the page: the "Turn on the sound" button is that tap.
   Every alert given is logged in window.waitAlerts, for the browser tests. */
(function () {
  "use strict";
  var Context = window.AudioContext || window.webkitAudioContext;
  var context = null;
  var seen = {};
  window.waitAlerts = [];

  function beep() {
    if (!context || context.state !== "running") { return false; }
    [0, 0.35, 0.7].forEach(function (start) {
      var oscillator = context.createOscillator();
      var gain = context.createGain();
      var at = context.currentTime + start;
      oscillator.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.7, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.3);
    });
    return true;
  }

  function check() {
    document.querySelectorAll("[data-called]").forEach(function (element) {
      var call = element.getAttribute("data-called");
      if (seen[call]) { return; }
      seen[call] = true;
      var sound = beep();
      var vibrated = !!(navigator.vibrate && navigator.vibrate([400, 200, 400, 200, 400]));
      window.waitAlerts.push({ call: call, sound: sound, vibrated: vibrated, at: Date.now() });
    });
  }

  var button = document.querySelector("[data-sound-on]");
  if (button) {
    if (!Context) { button.hidden = true; }
    button.addEventListener("click", function () {
      if (!context) { context = new Context(); }
      context.resume().then(function () { button.hidden = true; });
    });
  }
  document.addEventListener("htmx:afterSwap", check);
  check();
})();
