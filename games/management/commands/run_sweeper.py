"""`manage.py run_sweeper`: the live games' turn timers, bot moves and next-hand deals in a process of
their own (every ASGI worker also sweeps; running both is harmless: each due game is locked and checked
again before anything is played).

The loop is the workers' own (`games.services.timers.sweep_forever`): one event loop for the whole
process, so every change is announced through one channel-layer connection as soon as it commits. It is a
long-running server process as the workers are, and collects its garbage as they do (`config.gc_tuning`):
with CPython's thresholds its full collections walked its whole heap every few seconds (25-50 ms of CPU
each at 200 tables, `BENCH_GC_LOG=1 python -m bench.live`), each delaying the turn timers and deals."""

import asyncio

from django.core.management.base import BaseCommand
from django.utils import timezone

from config import gc_tuning
from games.services.timers import sweep_forever, sweep_interval, sweep_once


class Command(BaseCommand):
    help = "Play timed-out turns, bot moves and next-hand deals of live games, in a loop (or once)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--once", action="store_true", help="Sweep once and exit.")
        parser.add_argument("--interval", type=float, default=None,
                            help="Seconds between sweeps when nothing was due (default: LIVE_SWEEP_INTERVAL).")

    def handle(self, *args, once: bool = False, interval: float | None = None, **options) -> None:
        if once:
            changed = sweep_once(timezone.now())
            self.stdout.write(f"{changed} game(s) changed")
            return
        pause = sweep_interval() if interval is None else interval
        gc_tuning.tune()
        self.stdout.write(f"Sweeping live games every {pause} s; Ctrl+C to stop.")
        try:
            asyncio.run(sweep_forever(pause))
        except KeyboardInterrupt:
            self.stdout.write("Stopped.")
