-- wrk script for bench/room_load.py: each thread is one table's dealer tablet on its own
-- connection (-tN -cN), tapping deal / flop / end as bench/hands.lua does, but after a pause of
-- TAP_PAUSE_MS ("low,high", uniform) before each tap instead of flat out.
dofile(os.getenv("ROOM_LUA_DIR") .. "/room_log.lua")
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("index", #threads)
end

function init(args)
  local dealers = {}
  for token, table_id in string.gmatch(os.getenv("DEALERS"), "([%w]+):(%d+)") do
    table.insert(dealers, {token, table_id})
  end
  token, table_id = dealers[index][1], dealers[index][2]
  pot = os.getenv("POT_CENTS")
  low, high = pause_range("TAP_PAUSE_MS")
  step, hand = "deal", nil
  headers = {["Content-Type"] = "application/json", ["Authorization"] = "Token " .. token}
  open_log("dealer", index)
end

function delay()
  return math.random(low, high)
end

function request()
  mark_sent()
  if step == "deal" then
    return wrk.format("POST", "/api/cashgame/tables/" .. table_id .. "/hands/", headers,
      '{"seats":[1,2,3,4],"button_seat":1}')
  elseif step == "flop" then
    return wrk.format("POST", "/api/cashgame/hands/" .. hand .. "/flop/", headers, "{}")
  elseif step == "recover" then
    return wrk.format("GET", "/api/cashgame/tables/" .. table_id .. "/", headers)
  elseif step == "void" then
    return wrk.format("POST", "/api/cashgame/hands/" .. hand .. "/void/", headers, '{"reason":"misdeal"}')
  end
  return wrk.format("POST", "/api/cashgame/hands/" .. hand .. "/end/", headers, '{"pot_cents":' .. pot .. '}')
end

function response(status, response_headers, body)
  local tapped = step
  if step == "deal" and status == 201 then
    hand, step = string.match(body, '"id":(%d+)'), "flop"
  elseif step == "flop" and status == 200 then
    step = "end"
  elseif step == "end" and status == 200 and string.find(body, '"status":"ended"', 1, true) then
    step = "deal"
  elseif step == "recover" and status == 200 then
    -- The table's hand in progress (one this tablet lost track of) is voided.
    hand = string.match(body, '"current_hand":{"id":(%d+)')
    step = hand and "void" or "deal"
  elseif step == "void" and status == 200 then
    step = "deal"
  else
    -- Any other answer is an error: the tablet reads its table and voids the hand left open.
    log_answer(tapped, false, status, body)
    step = "recover"
    return
  end
  log_answer(tapped, true, status, body)
end

function done(summary, latency, requests)
  report(threads, summary)
end
