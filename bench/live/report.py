"""The printed figures of a phase: percentiles of the timings, moves per second, CPU and memory."""

from __future__ import annotations

import statistics

from bench.live.clients import Stats


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def report(name: str, stats: Stats, elapsed: float, moves: int, usage: dict) -> dict:
    row = {
        "phase": name, "moves": moves, "moves_per_s": moves / elapsed if elapsed else 0.0,
        "ack_p50": pct(stats.ack_ms, 50), "ack_p95": pct(stats.ack_ms, 95), "ack_p99": pct(stats.ack_ms, 99),
        "all_p50": pct(stats.everyone_ms, 50), "all_p95": pct(stats.everyone_ms, 95),
        "all_p99": pct(stats.everyone_ms, 99), "errors": dict(stats.errors), "gaps": stats.gaps,
        "duplicates": stats.duplicates, "unanswered": getattr(stats, "unanswered", 0), "closed": stats.closed,
        "pong_p99": pct(stats.pong_ms, 99), "pings": len(stats.pong_ms),
        "frames": stats.frames, "bytes_per_frame": stats.frame_bytes / stats.frames if stats.frames else 0,
        "updates": stats.updates, "bytes_per_update": stats.update_bytes / stats.updates if stats.updates else 0,
        **usage,
    }
    print(f"{name:6} {row['moves_per_s']:9.1f} moves/s ({moves} moves in {elapsed:.1f} s)  "
          f"ack p50/p95/p99 {row['ack_p50']:.1f}/{row['ack_p95']:.1f}/{row['ack_p99']:.1f} ms  "
          f"everyone p50/p95/p99 {row['all_p50']:.1f}/{row['all_p95']:.1f}/{row['all_p99']:.1f} ms")
    if usage.get("offered"):
        row["stored_share"] = moves / usage["offered"]
        print(f"       offered {usage['offered']:.0f} moves (a move per think period at every table): "
              f"{row['stored_share']:.1%} stored")
    print(f"       errors {row['errors'] or 0}, gaps {row['gaps']}, duplicates {row['duplicates']}, "
          f"unanswered {row['unanswered']}, closed by the server {row['closed']}, {row['frames']} frames of {row['bytes_per_frame']:.0f} B on average "
          f"(its {row['updates']} updates: {row['bytes_per_update']:.0f} B)"
          + (f"; {row['pings']} pings answered, p99 {row['pong_p99']:.0f} ms" if row["pings"] else ""))
    print("       CPU (share of one core) / RSS: " + ", ".join(
        f"{k} {v['cpu']:.0%} / {v['rss_before']:.0f}->{v['rss']:.0f} MiB" for k, v in usage["usage"].items()))
    if moves:
        row["cpu_ms_per_move"] = {k: v["cpu"] * elapsed / moves * 1000 for k, v in usage["usage"].items()}
        line = ", ".join(f"{k} {ms:.2f} ms" for k, ms in row["cpu_ms_per_move"].items())
        if "wal_bytes" in usage:
            row["wal_bytes_per_move"] = usage["wal_bytes"] / moves
            line += f"; the database wrote {row['wal_bytes_per_move']:,.0f} B per move (write-ahead log)"
        print(f"       CPU per move: {line}")
    if moves and "round_trips" in usage:
        trips = usage["round_trips"]
        row["round_trips_per_move"] = trips["all"] / moves
        row["round_trips_in_move"] = trips["in_moves"] / trips["moves"] if trips["moves"] else 0.0
        taken = trips["move_sql"]
        print(f"       database round trips: {row['round_trips_per_move']:.2f} per stored move in all (every server "
              f"process: moves, deals, presence, checks), {row['round_trips_in_move']:.2f} inside a player's move "
              f"({trips['moves']} moves: {taken.get('stored', 0)} stored in one statement, "
              + ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in sorted(taken.items()) if k != "stored" and n)
              + (", " if any(n for k, n in taken.items() if k != "stored") else "")
              + "the rest through the ORM path)")
    if moves and "gc" in usage:
        g = usage["gc"]
        row["gc_ms_per_move"] = g["seconds"] * 1000 / moves
        row["gc_longest_ms"] = g["longest"] * 1000
        row["gc_longest_in_workers_ms"] = g["longest_in_workers"] * 1000
        print(f"       garbage collection (server processes, their CPU): {row['gc_ms_per_move']:.2f} ms per move in "
              f"{g['collections']} collections, the longest {row['gc_longest_ms']:.0f} ms (in a worker "
              f"{row['gc_longest_in_workers_ms']:.0f} ms), {g['over_100ms']} of 100 ms or more")
    print(f"       machine: CPUs busy {usage['machine_busy']:.0%} of one core's worth (all programs, /proc/stat), "
          f"load average {usage['load_average'][0]:.1f} -> {usage['load_average'][1]:.1f}; "
          f"the workers' threads were runnable but waiting for a CPU {usage['workers_waiting_for_cpu']:.0%} "
          f"of the phase (summed over threads; the CPUs were taken by other threads, ours included)")
    c = usage["connect"]
    print(f"       sockets: all open with their first message {c['open_s']:.1f} s after the first connect; the workers' "
          f"connect work (presence) went on {c['settle_s']:.1f} s more, before the timed phase")
    if "socket_memory" in usage:
        m = usage["socket_memory"]
        before = m["rss_before_mib"]
        print(f"       workers RSS {before:.0f} MiB before the sockets, {m['rss_open_mib']:.0f} MiB with "
              f"{m['sockets']} open (first message received, no move yet): {m['kib_per_socket']:.0f} KiB per socket")
    return row
