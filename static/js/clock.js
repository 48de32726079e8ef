/* The tournament clock on the TV screens and the floor dashboard (TRN-8).
   Polls the public state every second and counts down locally in between, so it keeps counting
   (and rolls into the next level) when the network drops, and shows a change within 2 seconds.
   Time is the server's: server_now and the request's round trip give the offset, and the
   monotonic performance.now() carries it forward, so a wrong clock on the screen does not matter.
   Each poll asks for the page's own language (?lang=), so the words the server sends (the
   status, the amounts) stay in it: a poll without the page's cookies would get the browser's. */
(function () {
  "use strict";
  var root = document.querySelector("[data-clock-url]");
  if (!root) { return; }
  var lang = document.documentElement.lang || "";
  var url = root.getAttribute("data-clock-url");
  if (lang) { url += (url.indexOf("?") < 0 ? "?" : "&") + "lang=" + encodeURIComponent(lang); }
  var labelsNode = document.getElementById("clock-labels");
  var labels = labelsNode ? JSON.parse(labelsNode.textContent) : {};
  var POLL_MS = 1000;
  var OFFLINE_AFTER_MS = 4000;
  var state = null;
  var serverAtReceipt = 0; // server time (ms since epoch) when the answer was made
  var perfAtReceipt = 0;   // performance.now() at that same moment
  var lastSuccess = 0;
  var shownIndex = null;   // the level index last drawn, to tell a level change
  var changedAt = -Infinity;

  function serverNow() { return serverAtReceipt + (performance.now() - perfAtReceipt); }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function duration(ms) {
    if (ms === null || ms === undefined) { return "—"; }
    var total = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    return h > 0 ? h + ":" + pad(m) + ":" + pad(s) : pad(m) + ":" + pad(s);
  }

  function chips(n) { return Number(n).toLocaleString(lang || undefined); }

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

  /* Late registration (TRN-6): counted from its exact end while the clock runs. */
  function lateRegistration() {
    var late = state.late_registration;
    if (!late) { return ""; }
    if (!late.open) { return labels.closed || "—"; }
    var left = late.remaining_ms;
    if (late.ends_at && state.counting) { left = Date.parse(late.ends_at) - serverNow(); }
    if (left === null || left === undefined) { return labels.open || "—"; }
    return left <= 0 ? (labels.closed || "—") : duration(left);
  }

  function announce(level, index) {
    // A level change (by the clock or the floor); a poll correcting the projection by a moment
    // at a boundary is not a second one.
    if (shownIndex !== null && index !== shownIndex && performance.now() - changedAt > 2000 && level) {
      changedAt = performance.now();
      document.dispatchEvent(new CustomEvent("clock:level", { detail: { kind: level.kind, index: index } }));
    }
    shownIndex = index;
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
    var closed = status === "finished" || status === "cancelled";
    if (status === "running" || status === "on_break") { status = onBreak ? "on_break" : "running"; }
    document.body.setAttribute("data-status", status);
    setField("status_label", status === state.status ? state.status_label : labels[status] || "");
    setField("level_title", closed ? "" : title(level));
    setField("blinds", closed ? "" : blinds(level));
    setField("ante", closed ? "" : ante(level));
    setField("note", !closed && level && level.note ? level.note : "");
    setField("colour_up", !closed && state.colour_up ? state.colour_up.text : "");
    // Hand for hand (SER-3): shown big while the tables play one hand at a time.
    var h4h = !closed && state.hand_for_hand ? state.hand_for_hand : null;
    setField("hand_for_hand", h4h ? h4h.text : "");
    setField("hand_for_hand_detail", h4h ? h4h.detail : "");
    document.body.classList.toggle("hand-for-hand", !!h4h);
    // A finished clock shows its status, never "Last level".
    var time = closed ? state.status_label : now.remaining === null ? (labels.noEnd || "—") : duration(now.remaining);
    setField("time", time);
    var timeNodes = document.querySelectorAll('[data-field="time"]');
    for (var t = 0; t < timeNodes.length; t++) { timeNodes[t].classList.toggle("long", time.length > 5); }
    setField("next", closed ? "—" : describeNext(next));
    setField("next_break", closed ? "—" : duration(nextBreak));
    setField("late_reg", lateRegistration());
    var offline = lastSuccess && performance.now() - lastSuccess > OFFLINE_AFTER_MS;
    document.body.classList.toggle("offline", !!offline);
    setField("offline", offline ? labels.offline || "offline" : "");
    // A floor button that takes time off the level ("−1 min", data-needs-ms) greys out, its
    // reason shown, once no more than that is left: the server would refuse it (TRN-8).
    var needy = document.querySelectorAll("[data-needs-ms]");
    for (var n = 0; n < needy.length; n++) {
      var short = now.remaining !== null && now.remaining <= Number(needy[n].getAttribute("data-needs-ms"));
      needy[n].disabled = short;
      var why = needy[n].parentNode.querySelector("[data-short-reason]");
      if (why) { why.hidden = !short; }
    }
    var rows = document.querySelectorAll("[data-level-index]");
    for (var r = 0; r < rows.length; r++) {
      rows[r].classList.toggle("current", Number(rows[r].getAttribute("data-level-index")) === now.index);
    }
    if (!closed && now.counting) { announce(level, now.index); } else { shownIndex = now.index; }
  }

  function listInto(node, rows) {
    if (!node) { return; }
    var key = JSON.stringify(rows);
    if (node.getAttribute("data-key") === key) { return; }
    node.setAttribute("data-key", key);
    node.textContent = "";
    rows.forEach(function (row) {
      var item = document.createElement("li");
      var place = row.place ? String(row.place) : "";
      var cells = [place && place.indexOf("–") < 0 ? place + "." : place, row.name, row.amount];
      ["tv-place", "tv-name", "tv-amount"].forEach(function (cls, i) {
        var span = document.createElement("span");
        span.className = cls;
        span.textContent = cells[i] || "";
        item.appendChild(span);
      });
      node.appendChild(item);
    });
  }

  /* The field and the money (TRN-3, TRN-5, TRN-10), the deal and the results, when the state
     carries them (the TV's); the server formats the amounts in the page's language. */
  function renderField(data) {
    var field = data.field;
    if (!field) { return; }
    setField("entries", chips(field.entries));
    setField("players_left", chips(field.players_left));
    setField("starting_stack", chips(data.starting_stack_chips));
    if (field.average_stack_text !== undefined) { setField("average_stack", field.average_stack_text); }
    // The chip leaders and the average from the floor's counts (SER-2), with the latest count's time.
    var counts = data.chip_counts;
    setField("average_note", counts ? counts.average_note : "");
    var leadersBox = document.querySelector("[data-leaders-box]");
    if (leadersBox) {
      leadersBox.hidden = !counts;
      setField("leaders_time", counts ? (labels.countedAt || "%(time)s").replace("%(time)s", counts.counted_at_text) : "");
      listInto(document.querySelector("[data-leaders]"), counts ? counts.leaders.map(function (row, i) {
        return { place: i + 1, name: row.name, amount: row.chips_text };
      }) : []);
    }
    if (field.prize_pool_text !== undefined) { setField("prize_pool", field.prize_pool_text); }
    if (field.guarantee && field.guarantee.amount_text) {
      setField("guarantee", field.guarantee.amount_text);
      setField("guarantee_outcome", field.guarantee.outcome_label);
    }
    var deal = data.deal;
    var label = document.querySelector("[data-payouts-label]");
    if (label) {
      label.textContent = label.getAttribute(deal ? "data-deal" : "data-payouts");
    }
    var strip = deal
      ? deal.shares.map(function (row) { return row.name + " " + row.amount_text; })
      : (field.payouts || []).slice(0, 12).map(function (row) { return row.place + ". " + row.amount_text; });
    setField("payouts", strip.join("  ·  "));
    listInto(document.querySelector("[data-results]"), (data.results || []).map(function (row) {
      return { place: row.place_text, name: row.name, amount: row.prize_text };
    }));
    var box = document.querySelector("[data-deal-box]");
    if (box) {
      box.hidden = !deal;
      if (deal) {
        setField("deal_total", (labels.dealTotal || "%(players)s · %(amount)s")
          .replace("%(players)s", deal.players).replace("%(amount)s", deal.total_text));
        listInto(document.querySelector("[data-deal-shares]"), deal.shares.map(function (row) {
          return { place: row.place, name: row.name, amount: row.amount_text };
        }));
      }
    }
  }

  function keepTime(serverNowText, sent, received) {
    // The server answered about half-way through the round trip.
    perfAtReceipt = sent + (received - sent) / 2;
    serverAtReceipt = Date.parse(serverNowText);
  }

  function accept(data, sent, received) {
    keepTime(data.server_now, sent, received);
    state = data;
    render();
    renderField(data);
  }

  /* Each poll sends back the state's tag (If-None-Match): while nothing but the time moved, the
     server answers 304 with its time alone (the Server-Now header), and the state kept here
     goes on. The browser keeps no answer (no-store), so the 304 comes to this script. */
  var tag = null;

  function poll() {
    var sent = performance.now();
    var headers = { Accept: "application/json" };
    if (tag && state) { headers["If-None-Match"] = tag; }
    fetch(url, { cache: "no-store", credentials: "omit", headers: headers })
      .then(function (response) {
        if (response.status === 304 && state) {
          var at = performance.now();
          lastSuccess = at;
          keepTime(response.headers.get("Server-Now"), sent, at);
          render();
          return null;
        }
        if (!response.ok) { throw new Error(response.status); }
        tag = response.headers.get("ETag");
        return response.json().then(function (data) {
          var received = performance.now();
          lastSuccess = received;
          accept(data, sent, received);
        });
      })
      .catch(function () { /* keep counting locally; the next poll retries */ })
      .then(function () { window.setTimeout(poll, POLL_MS); });
  }

  // The state the page was rendered with, if it carries one: drawn at once, before the first poll.
  var initial = document.getElementById("clock-state");
  if (initial) {
    var loaded = performance.now();
    lastSuccess = loaded;
    accept(JSON.parse(initial.textContent), loaded, loaded);
  }
  window.setInterval(render, 200);
  poll();
})();
