-- wrk script: each thread is one table's dealer tablet on its own connection (-t40 -c40), and
-- logs hands one tap per request: deal (POST .../tables/<id>/hands/), flop, end with the pot.
-- bench/cashgame_hands.py passes the tables as DEALERS="token:table,..." in the environment.
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
  local mine = dealers[index]
  token, table_id = mine[1], mine[2]
  pot = os.getenv("POT_CENTS")
  step, hand, hands, other, last_error = "deal", nil, 0, 0, ""
  headers = {["Content-Type"] = "application/json", ["Authorization"] = "Token " .. token}
end

function request()
  if step == "deal" then
    return wrk.format("POST", "/api/cashgame/tables/" .. table_id .. "/hands/", headers,
      '{"seats":[1,2,3,4],"button_seat":1}')
  elseif step == "flop" then
    return wrk.format("POST", "/api/cashgame/hands/" .. hand .. "/flop/", headers, "{}")
  elseif step == "recover" then
    return wrk.format("GET", "/api/cashgame/tables/" .. table_id .. "/", headers)
  elseif step == "void" then
    return wrk.format("POST", "/api/cashgame/hands/" .. hand .. "/void/", headers,
      '{"reason":"misdeal"}')
  end
  return wrk.format("POST", "/api/cashgame/hands/" .. hand .. "/end/", headers,
    '{"pot_cents":' .. pot .. '}')
end

function response(status, response_headers, body)
  if step == "deal" and status == 201 then
    hand, step = string.match(body, '"id":(%d+)'), "flop"
  elseif step == "flop" and status == 200 then
    step = "end"
  elseif step == "end" and status == 200 and string.find(body, '"rake_cents":200,', 1, true) then
    hands, step = hands + 1, "deal"
  elseif step == "recover" then
    -- The table's hand in progress (one this tablet lost track of) is voided.
    hand = string.match(body, '"current_hand":{"id":(%d+)')
    step = hand and "void" or "deal"
  elseif step == "void" then
    step = "deal"
  else
    -- Any other answer is an error: the tablet voids the hand (if one was dealt) and deals again.
    other, last_error = other + 1, step .. " " .. status .. " " .. string.sub(body, 1, 200)
    step = (step == "deal") and "recover" or "void"
  end
end

function done(summary, latency, requests)
  local h, o, e = 0, 0, ""
  for _, thread in ipairs(threads) do
    h = h + thread:get("hands")
    o = o + thread:get("other")
    if thread:get("other") > 0 then e = thread:get("last_error") end
  end
  io.write(string.format("WRK hands=%d other=%d seconds=%.3f p50_ms=%.1f p99_ms=%.1f\n",
    h, o, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
  if o > 0 then io.write("WRK last_error " .. e .. "\n") end
end
