"""The processes measured: finding them in /proc, their CPU time, time waiting for a CPU and memory, and
waiting for the workers to go idle."""

from __future__ import annotations

import asyncio
import os
import socket
import time


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                out.append(int(entry))
    return out


def process_tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        todo.extend(_children(p))
    return pids


def pids_named(*names: str) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as f:
                    if f.read().strip() in names:
                        out.append(int(entry))
            except OSError:
                continue
    return out


def cpu_seconds(pids: list[int]) -> float:
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            continue
    return total / tick


def runqueue_seconds(pids: list[int]) -> float:
    """Time the processes' threads spent runnable but waiting for a CPU (/proc/<pid>/task/*/schedstat),
    summed over threads: above 0 the CPUs were the limit, taken by the other threads of the machine
    (the server's own included)."""
    total = 0
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    total += int(f.read().split()[1])
            except (OSError, IndexError, ValueError):
                continue
    return total / 1e9


def machine_ticks() -> tuple[int, int]:
    """(busy, all) CPU ticks of the whole machine so far (/proc/stat): busy is all but idle and I/O wait,
    so another program's work and time taken by the host (steal) count too."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


def rss_mib(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def settle(workers: list[int] | None, *, idle: float = 0.15, window: float = 0.5, limit: float = 60.0) -> None:
    """Wait until the workers have finished the sockets' connect work (each socket's state is sent before
    its presence is recorded and announced: with 1,250 sockets that work runs on for seconds after the last
    first message, and moves timed meanwhile would queue behind it). Idle: under `idle` of one core,
    both workers together, over `window` seconds. Without local workers (`--url`): one second."""
    if not workers:
        await asyncio.sleep(1.0)
        return
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        before = cpu_seconds(workers)
        await asyncio.sleep(window)
        if (cpu_seconds(workers) - before) / window < idle:
            return


def measure(groups: dict[str, list[int]]):
    """CPU (share of one core) over the phase, RSS before the sockets open and at the end, per group."""
    # A group is a list of pids or a function finding them again (PostgreSQL starts a process per
    # connection): a process that appeared during the phase counts with all its CPU time, one that
    # ended during the phase is missed.
    def pids(k) -> list[int]:
        return groups[k]() if callable(groups[k]) else groups[k]

    start_pids = {k: pids(k) for k in groups}
    before = {k: {p: cpu_seconds([p]) for p in v} for k, v in start_pids.items()}
    waited_before = runqueue_seconds(start_pids.get("workers", []))
    rss_before = {k: rss_mib(v) for k, v in start_pids.items()}
    load_before = os.getloadavg()[0]
    machine_before = machine_ticks()
    t0 = time.perf_counter()

    def done() -> dict:
        wall = time.perf_counter() - t0
        usage = {}
        for k in groups:
            now = pids(k)
            used = sum(cpu_seconds([p]) - before[k].get(p, 0.0) for p in now)
            usage[k] = {"cpu": used / wall, "rss": rss_mib(now), "rss_before": rss_before[k]}
        waited = runqueue_seconds(start_pids.get("workers", [])) - waited_before
        busy, total = (after - before for after, before in zip(machine_ticks(), machine_before, strict=True))
        return {"usage": usage, "workers_waiting_for_cpu": waited / wall,
                "load_average": (load_before, os.getloadavg()[0]),
                "machine_busy": busy / total * (os.cpu_count() or 1) if total else 0.0}
    return done
