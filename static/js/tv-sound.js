/* The TV clock's sounds (TRN-8): beeps made with Web Audio (no sound files) when a level
   changes, and a longer chime when a break starts. Browsers allow sound only after a first tap
   on the page, so a small "Tap for sound" button shows until then (once per page load: a
   kiosk that allows sound without a tap never shows it). Every sound played is logged in
   window.tvSounds, for the browser tests and for a person checking a screen. */
(function () {
  "use strict";
  var hint = document.querySelector("[data-sound-hint]");
  var Context = window.AudioContext || window.webkitAudioContext;
  var context = null;
  window.tvSounds = [];
  if (!Context) { return; }

  function ready() { return context && context.state === "running"; }

  function tone(frequency, start, seconds) {
    var oscillator = context.createOscillator();
    var gain = context.createGain();
    oscillator.type = "sine";
    oscillator.frequency.value = frequency;
    var at = context.currentTime + start;
    // A short attack and release, so the beep does not click.
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.6, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + seconds + 0.05);
  }

  var SOUNDS = {
    // Three short high beeps: the blinds go up.
    level: function () { tone(880, 0, 0.25); tone(880, 0.4, 0.25); tone(1320, 0.8, 0.5); },
    // A slow falling chime, twice: the break starts.
    "break": function () { tone(988, 0, 0.6); tone(740, 0.6, 0.9); tone(988, 1.8, 0.6); tone(740, 2.4, 0.9); },
    // One soft beep when sound is switched on, so the room hears that it works.
    test: function () { tone(660, 0, 0.15); }
  };

  function play(kind) {
    if (!ready()) { return; }
    SOUNDS[kind]();
    window.tvSounds.push({ kind: kind, at: Date.now() });
  }

  function unlock() {
    if (!context) { context = new Context(); }
    var resumed = context.state === "running" ? Promise.resolve() : context.resume();
    return resumed.then(function () {
      if (ready()) {
        if (hint) { hint.hidden = true; }
        document.removeEventListener("pointerdown", unlock);
        document.removeEventListener("keydown", unlock);
      }
    });
  }

  document.addEventListener("clock:level", function (event) {
    play(event.detail.kind === "break" ? "break" : "level");
  });
  document.addEventListener("pointerdown", unlock);
  document.addEventListener("keydown", unlock);
  if (hint) {
    hint.addEventListener("click", function () {
      unlock().then(function () {
        if (ready()) { play("test"); return; }
        // On a busy machine the audio may start running only after resume() has resolved.
        context.addEventListener("statechange", function started() {
          if (!ready()) { return; }
          context.removeEventListener("statechange", started);
          play("test");
        });
      });
    });
  }
  // Allowed without a tap (a kiosk's autoplay policy)? Then no hint at all.
  try {
    context = new Context();
  } catch (error) {
    context = null;
  }
  if (context) {
    context.addEventListener("statechange", function () { if (ready() && hint) { hint.hidden = true; } });
  }
  if (!ready() && hint) { hint.hidden = false; }
})();
