-- Shared by the room_*.lua scripts of bench/room_load.py (loaded with dofile): each wrk thread
-- is one device on one connection, waits a pause before each request, and writes one line per
-- answer to its own log file: "kind sent_ms answered_ms ok status [detail]". The times are
-- CLOCK_MONOTONIC in ms, the clock of Python's time.monotonic(), so room_load.py keeps only the
-- requests sent inside the measured window. wrk's own latency histogram cannot tell the kinds
-- of request of one script apart, hence the log.
local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } room_timespec;
int clock_gettime(int clock_id, room_timespec *tp);
]]
local timespec = ffi.new("room_timespec")

function now_ms()
  ffi.C.clock_gettime(1, timespec) -- CLOCK_MONOTONIC
  return tonumber(timespec.tv_sec) * 1000 + tonumber(timespec.tv_nsec) / 1e6
end

-- "1000,3000" -> 1000, 3000
function pause_range(name)
  local low, high = string.match(os.getenv(name), "(%d+),(%d+)")
  return tonumber(low), tonumber(high)
end

function open_log(prefix, index)
  math.randomseed(index * 7919 + 17)
  log_file = io.open(string.format("%s/%s-%03d.log", os.getenv("ROOM_LOG_DIR"), prefix, index), "w")
  log_file:setvbuf("line")
  sent_at, sent, answered = 0, 0, 0
end

function mark_sent()
  sent_at, sent = now_ms(), sent + 1
end

function log_answer(kind, ok, status, body)
  answered = answered + 1
  local detail = ""
  if not ok then
    detail = " " .. string.gsub(string.sub(body or "", 1, 160), "%s+", " ")
  end
  log_file:write(string.format("%s %.3f %.3f %d %d%s\n", kind, sent_at, now_ms(), ok and 1 or 0, status,
    detail))
end

-- done(): requests still unanswered when wrk stopped, and wrk's socket errors.
function report(threads, summary)
  local s, a = 0, 0
  for _, thread in ipairs(threads) do
    s = s + thread:get("sent")
    a = a + thread:get("answered")
  end
  local e = summary.errors
  io.write(string.format("WRK sent=%d answered=%d socket_errors=%d timeouts=%d\n", s, a,
    e.connect + e.read + e.write, e.timeout))
end
