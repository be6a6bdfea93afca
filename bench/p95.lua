-- wrk prints 50/75/90/99 with --latency; this adds p95 and the maximum, one line per run.
-- Use: wrk -t2 -c50 -d20s --latency -s bench/p95.lua <URL>
done = function(summary, latency, requests)
  io.write(string.format("p50 %.1f ms  p95 %.1f ms  p99 %.1f ms  max %.1f ms\n", latency:percentile(50)/1000,
    latency:percentile(95)/1000, latency:percentile(99)/1000, latency.max/1000))
end
