-- wrk script: POST cash-game buy-ins, each with its own idempotency key, round-robin over the
-- desks (token, shift) that bench/cashier_buyins.py writes to the DESKS environment variable.
local desks, players = {}, {}
local threads = {}

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  for token, shift in string.gmatch(os.getenv("DESKS"), "([%w]+):(%d+)") do
    table.insert(desks, {token, shift})
  end
  for player in string.gmatch(os.getenv("PLAYERS"), "(%d+)") do
    table.insert(players, player)
  end
  path, tag, n, created, other = os.getenv("BENCH_PATH"), os.getenv("BENCH_TAG"), 0, 0, 0
end

function request()
  n = n + 1
  local desk = desks[(n % #desks) + 1]
  local body = string.format(
    '{"kind":"cash_buy_in","shift":%s,"player":%s,"amount":"50.00","reference":"table:1"}',
    desk[2], players[(n % #players) + 1])
  return wrk.format("POST", path, {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Token " .. desk[1],
    ["Idempotency-Key"] = string.format("bench-%s-%d-%d", tag, tid, n),
  }, body)
end

function response(status, headers, body)
  if status == 201 then created = created + 1 else other = other + 1 end
end

function done(summary, latency, requests)
  local c, o = 0, 0
  for _, thread in ipairs(threads) do
    c = c + thread:get("created")
    o = o + thread:get("other")
  end
  io.write(string.format("WRK created=%d other=%d seconds=%.3f p50_ms=%.1f p99_ms=%.1f\n",
    c, o, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
