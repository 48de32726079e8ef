-- wrk script for bench/room_load.py: each thread is one cage window on its own connection
-- (-tN -cN), posting through the cage's door (POST /api/cashier/transactions/) a cash-game
-- buy-in that seats a player at the window's table, then that player's cash-out, and so on
-- round its players and seats, after a pause of DESK_PAUSE_MS ("low,high") before each request.
-- CAGE_API=legacy sends what the cashier API of commit cff579a and earlier took (an amount in
-- euros as a string and the table as a reference, no seat): a money-only buy-in, for the
-- figures "before" (bench/README.md).
dofile(os.getenv("ROOM_LUA_DIR") .. "/room_log.lua")
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("index", #threads)
end

function init(args)
  local windows = {}
  for token, shift, table_id, players in string.gmatch(os.getenv("WINDOWS"), "([%w]+):(%d+):(%d+):([%d,]+)") do
    table.insert(windows, {token, shift, table_id, players})
  end
  local mine = windows[index]
  token, shift, table_id = mine[1], mine[2], mine[3]
  players = {}
  for player in string.gmatch(mine[4], "(%d+)") do
    table.insert(players, player)
  end
  amount, tag = tonumber(os.getenv("BUY_IN_CENTS")), os.getenv("ROOM_TAG")
  legacy = os.getenv("CAGE_API") == "legacy"
  low, high = pause_range("DESK_PAUSE_MS")
  step, k, n = "buy_in", 0, 0
  open_log("cage", index)
end

function delay()
  return math.random(low, high)
end

function request()
  mark_sent()
  n = n + 1
  local player = players[(k % #players) + 1]
  local body
  if legacy then
    body = string.format('{"kind":"%s","shift":%s,"player":%s,"amount":"%d.%02d","reference":"table:%s"}',
      step == "buy_in" and "cash_buy_in" or "cash_out", shift, player, math.floor(amount / 100), amount % 100,
      table_id)
  elseif step == "buy_in" then
    body = string.format(
      '{"kind":"cash_buy_in","shift":%s,"player":%s,"table":%s,"seat":%d,"amount_cents":%s}',
      shift, player, table_id, 1 + k % 10, amount)
  else
    body = string.format('{"kind":"cash_out","shift":%s,"player":%s,"table":%s,"amount_cents":%s}',
      shift, player, table_id, amount)
  end
  return wrk.format("POST", "/api/cashier/transactions/", {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Token " .. token,
    ["Idempotency-Key"] = string.format("room-%s-%d-%d", tag, index, n),
  }, body)
end

function response(status, response_headers, body)
  local ok = status == 201
  log_answer(step, ok, status, body)
  if step == "buy_in" and ok then
    step = "cash_out"
  else
    -- After a cash-out, or a refused buy-in: the next player, at the next seat.
    step, k = "buy_in", k + 1
  end
end

function done(summary, latency, requests)
  report(threads, summary)
end
