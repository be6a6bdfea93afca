-- wrk script: logged-in readers, each request with the next line of cookies.txt (from
-- `bench/leaderboard_load.py --event SLUG --sessions N > cookies.txt`), and wrk's own p50/p95/p99.
--   wrk -t2 -c50 -d20s --latency -s bench/readers.lua http://127.0.0.1:8080/events/<slug>/leaderboard/
local cookies = {}
for line in io.lines(os.getenv("COOKIES") or "cookies.txt") do
  if line ~= "" then cookies[#cookies + 1] = line end
end
local next_one = 0

request = function()
  next_one = next_one % #cookies + 1
  return wrk.format(nil, nil, {["Cookie"] = cookies[next_one]})
end

done = function(summary, latency, requests)
  io.write(string.format("p50 %.1f ms  p95 %.1f ms  p99 %.1f ms  max %.1f ms\n", latency:percentile(50)/1000,
    latency:percentile(95)/1000, latency:percentile(99)/1000, latency.max/1000))
end
