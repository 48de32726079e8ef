/* The tournament clock on the TV screens and the floor dashboard (TRN-8).
   Polls the public state every second and counts down locally in between, so it keeps counting
   (and rolls into the next level) when the network drops, and shows a change within 2 seconds.
   Time is the server's: server_now and the request's round trip give the offset, and the
   monotonic performance.now() carries it forward, so a wrong clock on the screen does not matter. */
(function () {
  "use strict";
  var root = document.querySelector("[data-clock-url]");
  if (!root) { return; }
  var url = root.getAttribute("data-clock-url");
  var labelsNode = document.getElementById("clock-labels");
  var labels = labelsNode ? JSON.parse(labelsNode.textContent) : {};
  var lang = document.documentElement.lang || undefined;
  var POLL_MS = 1000;
  var OFFLINE_AFTER_MS = 5000;
  var state = null;
  var serverAtReceipt = 0; // server time (ms since epoch) when the answer was made
  var perfAtReceipt = 0;   // performance.now() at that same moment
  var lastSuccess = 0;

  function serverNow() { return serverAtReceipt + (performance.now() - perfAtReceipt); }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function duration(ms) {
    if (ms === null || ms === undefined) { return "—"; }
    var total = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    return h > 0 ? h + ":" + pad(m) + ":" + pad(s) : pad(m) + ":" + pad(s);
  }

  function chips(n) { return Number(n).toLocaleString(lang); }

  function blinds(level) {
    if (!level) { return "—"; }
    if (level.kind === "break") { return labels["break"] || "Break"; }
    return chips(level.small_blind_chips) + " / " + chips(level.big_blind_chips);
  }

  function ante(level) {
    if (!level || level.kind === "break" || !level.ante_chips) { return ""; }
    return (level.big_blind_ante ? labels.bbAnte : labels.ante) + " " + chips(level.ante_chips);
  }

  function title(level) {
    if (!level) { return ""; }
    return level.kind === "break" ? (labels["break"] || "Break") : (labels.level || "Level") + " " + level.number;
  }

  function describeNext(level) {
    if (!level) { return "—"; }
    if (level.kind === "break") {
      return (labels["break"] || "Break") + " · " + Math.round(level.duration_ms / 60000) + " " + (labels.minutes || "min");
    }
    var text = blinds(level);
    var a = ante(level);
    return a ? text + " · " + a : text;
  }

  /* Where the schedule stands now: the server's answer rolled forward by the time since. */
  function project() {
    var index = state.level ? state.level.index : null;
    var remaining = state.remaining_ms;
    var counting = state.counting;
    if (counting && state.level_ends_at) {
      var endsAt = Date.parse(state.level_ends_at);
      var now = serverNow();
      while (endsAt <= now) {
        if (index + 1 >= state.levels.length) { endsAt = null; break; }
        index += 1;
        endsAt += state.levels[index].duration_ms;
      }
      remaining = endsAt === null ? null : endsAt - now;
      counting = endsAt !== null;
    }
    return { index: index, remaining: remaining, counting: counting };
  }

  function setField(name, text) {
    var nodes = document.querySelectorAll('[data-field="' + name + '"]');
    for (var i = 0; i < nodes.length; i++) {
      if (nodes[i].textContent !== text) { nodes[i].textContent = text; }
    }
  }

  function render() {
    if (!state) { return; }
    var now = project();
    var level = now.index === null ? null : state.levels[now.index];
    var next = now.index === null ? null : state.levels[now.index + 1] || null;
    var nextBreak = null;
    if (now.remaining !== null && now.index !== null) {
      var ahead = now.remaining;
      for (var i = now.index + 1; i < state.levels.length; i++) {
        if (state.levels[i].kind === "break") { nextBreak = ahead; break; }
        ahead += state.levels[i].duration_ms;
      }
    }
    var onBreak = level && level.kind === "break";
    var status = state.status;
    if (status === "running" || status === "on_break") { status = onBreak ? "on_break" : "running"; }
    document.body.setAttribute("data-status", status);
    setField("status_label", status === state.status ? state.status_label : labels[status] || "");
    setField("level_title", title(level));
    setField("blinds", blinds(level));
    setField("ante", ante(level));
    setField("note", level && level.note ? level.note : "");
    setField("time", now.remaining === null ? (labels.noEnd || "—") : duration(now.remaining));
    setField("next", describeNext(next));
    setField("next_break", duration(nextBreak));
    var offline = lastSuccess && performance.now() - lastSuccess > OFFLINE_AFTER_MS;
    setField("offline", offline ? labels.offline || "offline" : "");
    var rows = document.querySelectorAll("[data-level-index]");
    for (var r = 0; r < rows.length; r++) {
      rows[r].classList.toggle("current", Number(rows[r].getAttribute("data-level-index")) === now.index);
    }
  }

  function money(cents) {
    return (cents / 100).toLocaleString(lang, { style: "currency", currency: "EUR" });
  }

  /* The field and the money (TRN-3, TRN-5, TRN-10), when the state carries them (the TV's). */
  function renderField(field) {
    if (!field) { return; }
    setField("entries", chips(field.entries));
    setField("players_left", chips(field.players_left));
    setField("average_stack", field.average_stack_chips === null ? "—" : chips(field.average_stack_chips));
    setField("prize_pool", money(field.prize_pool_cents));
    if (field.guarantee) {
      var g = field.guarantee;
      setField("guarantee", money(g.amount_cents) + " · " + g.outcome_label +
        (g.present_players === null ? "" : " (" + g.present_players + ")"));
    }
    var list = document.querySelector("[data-payouts]");
    if (list) {
      var text = field.payouts.slice(0, 12).map(function (row) { return row.place + ". " + money(row.amount_cents); });
      var joined = text.join("   ");
      if (list.textContent !== joined) { list.textContent = joined; }
    }
  }

  function poll() {
    var sent = performance.now();
    fetch(url, { cache: "no-store", credentials: "omit", headers: { Accept: "application/json" } })
      .then(function (response) { if (!response.ok) { throw new Error(response.status); } return response.json(); })
      .then(function (data) {
        var received = performance.now();
        // The server answered about half-way through the round trip.
        perfAtReceipt = sent + (received - sent) / 2;
        serverAtReceipt = Date.parse(data.server_now);
        state = data;
        lastSuccess = received;
        render();
        renderField(data.field);
      })
      .catch(function () { /* keep counting locally; the next poll retries */ })
      .then(function () { window.setTimeout(poll, POLL_MS); });
  }

  window.setInterval(render, 200);
  poll();
})();
