"""The site under test: ASGI workers (uvicorn or daphne) and the sweeper as subprocesses on 127.0.0.1."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.live.processes import free_port, process_tree

ROOT = Path(__file__).resolve().parents[2]


class Site:
    """The site's ASGI workers and sweeper as subprocesses on 127.0.0.1."""

    def __init__(self, workers: int, server: str, db_name: str | None, deflate: bool = False) -> None:
        from django.conf import settings

        # Without Redis a sweeper process could not reach the worker's sockets: the worker sweeps.
        self.own_sweeper = settings.CHANNEL_LAYERS["default"]["BACKEND"] != "channels.layers.InMemoryChannelLayer"
        self.sweeper = None

        self.port = free_port()
        self.workers, self.server, self.deflate = workers, server, deflate
        self.env = dict(os.environ, DJANGO_SETTINGS_MODULE="bench.live_settings", PYTHONUNBUFFERED="1",
                        SECRET_KEY=settings.SECRET_KEY, DEBUG="0", ALLOWED_HOSTS="127.0.0.1,localhost",
                        SECURE_SSL_REDIRECT="0", PYTHONPATH=str(ROOT))
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        if db_name:
            self.env["BENCH_DB_NAME"] = db_name
        if not self.own_sweeper:
            self.env["BENCH_SWEEPER_IN_PROCESS"] = "1"
        self.processes: list[subprocess.Popen] = []
        self.log = open(Path(tempfile.gettempdir()) / f"bench-live-{os.getpid()}.log", "w")

    def start(self) -> Site:
        py = sys.executable
        if self.server == "uvicorn":
            self._spawn([py, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port",
                         str(self.port), "--workers", str(self.workers), "--ws", "websockets-sansio",
                         "--ws-per-message-deflate", "true" if self.deflate else "false",  # as `make prod`
                         "--log-level", "warning", "--no-access-log"])
        else:  # N daphne processes accepting on one inherited listening socket
            self.sock = socket.socket()
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.sock.bind(("127.0.0.1", self.port))
            self.sock.listen(1024)
            self.sock.set_inheritable(True)
            fd = self.sock.fileno()
            for _ in range(self.workers):
                self._spawn([py, "-m", "daphne", "--fd", str(fd), "-v", "0", "config.asgi:application"],
                            pass_fds=(fd,))
        if self.own_sweeper:
            self._spawn([py, str(ROOT / "manage.py"), "run_sweeper", "--interval", "0.05"], sweeper=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for p in self.processes:
                if p.poll() is not None:
                    self.stop()  # the others too (the sweeper held database connections after a failed start)
                    raise RuntimeError(f"a server process stopped at start; see {self.log.name}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.2)
        time.sleep(1.0 if self.server == "uvicorn" and self.workers > 1 else 0.2)  # every worker up
        return self

    def _spawn(self, command: list[str], sweeper: bool = False, pass_fds=()) -> None:
        p = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
                             pass_fds=pass_fds)
        if sweeper:
            self.sweeper = p
        self.processes.append(p)

    def server_pids(self) -> list[int]:
        return [pid for p in self.processes if p is not self.sweeper for pid in process_tree(p.pid)]

    def stop(self) -> None:
        for p in self.processes:
            if p.poll() is None:
                p.terminate()
        for p in self.processes:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=10)
        self.processes = []
        if not self.log.closed:
            self.log.close()
