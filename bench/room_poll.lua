-- wrk script for bench/room_load.py: each thread is one screen on its own connection (-tN -cN)
-- that GETs POLL_PATH every POLL_MS after the previous answer, as static/js/clock.js (TV clock,
-- floor dashboard) and the waiting-list board's htmx trigger do. The first poll comes after a
-- random part of the period, so the screens do not poll in step.
dofile(os.getenv("ROOM_LUA_DIR") .. "/room_log.lua")
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("index", #threads)
end

function init(args)
  kind, path, period = os.getenv("POLL_KIND"), os.getenv("POLL_PATH"), tonumber(os.getenv("POLL_MS"))
  first = true
  open_log(kind, index)
end

function delay()
  if first then
    first = false
    return math.random(0, period)
  end
  return period
end

function request()
  mark_sent()
  return wrk.format("GET", path, {["Accept"] = "application/json"})
end

function response(status, response_headers, body)
  log_answer(kind, status == 200, status, body)
end

function done(summary, latency, requests)
  report(threads, summary)
end
