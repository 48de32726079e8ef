-- wrk script: POST cash-game buy-ins, each with its own idempotency key, round-robin over the
-- desks (token, shift) that bench/cashier_buyins.py writes to the DESKS environment variable.
-- A buy-in seats the player (CSH-1), so every request takes its own slot: slot i is player
-- PLAYERS[i] at table TABLES[i mod #TABLES], seat 1 + (i div #TABLES) mod 10. Consecutive slots
-- are at different tables, so the desks do not queue on one table's lock. SLOT_START skips the
-- slots an earlier run (the warm-up) used; done() prints the next free one.
local desks, players, tables = {}, {}, {}
local threads = {}

function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end

function init(args)
  for token, shift in string.gmatch(os.getenv("DESKS"), "([%w]+):(%d+)") do
    table.insert(desks, {token, shift})
  end
  for player in string.gmatch(os.getenv("PLAYERS"), "(%d+)") do
    table.insert(players, player)
  end
  for table_id in string.gmatch(os.getenv("TABLES"), "(%d+)") do
    table.insert(tables, table_id)
  end
  path, tag = os.getenv("BENCH_PATH"), os.getenv("BENCH_TAG")
  start, nthreads = tonumber(os.getenv("SLOT_START")), tonumber(os.getenv("WRK_THREADS"))
  amount = os.getenv("AMOUNT_CENTS")
  n, created, other, last_error = 0, 0, 0, ""
end

function request()
  n = n + 1
  local slot = start + (n - 1) * nthreads + tid
  local desk = desks[(n % #desks) + 1]
  local body = string.format(
    '{"kind":"cash_buy_in","shift":%s,"player":%s,"table":%s,"seat":%d,"amount_cents":%s}',
    desk[2], players[(slot % #players) + 1], tables[(slot % #tables) + 1],
    1 + math.floor(slot / #tables) % 10, amount)
  return wrk.format("POST", path, {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Token " .. desk[1],
    ["Idempotency-Key"] = string.format("bench-%s-%d-%d", tag, tid, n),
  }, body)
end

function response(status, headers, body)
  if status == 201 then
    created = created + 1
  else
    other, last_error = other + 1, status .. " " .. string.sub(body, 1, 200)
  end
end

function done(summary, latency, requests)
  local c, o, top, e = 0, 0, 0, ""
  for _, thread in ipairs(threads) do
    c = c + thread:get("created")
    o = o + thread:get("other")
    top = math.max(top, thread:get("n"))
    if thread:get("other") > 0 then e = thread:get("last_error") end
  end
  io.write(string.format(
    "WRK created=%d other=%d seconds=%.3f p50_ms=%.1f p99_ms=%.1f next_slot=%d socket_errors=%d\n",
    c, o, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    tonumber(os.getenv("SLOT_START")) + top * #threads,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
  if o > 0 then io.write("WRK last_error " .. e .. "\n") end
end
