"""The site under test: ASGI workers (uvicorn or daphne) and the sweeper as subprocesses on 127.0.0.1.

With a proxy (`--proxy`), each worker is a uvicorn process of its own on its own port and nginx (Debian's,
from PATH) listens in front of them, as `deploy/nginx.conf` does: `spread` passes each socket to the next
worker in turn (as the kernel spreads them over `uvicorn --workers`), `table` hashes the path, so that
every socket of a table reaches the same worker (docs/deploy.md, "One worker per table")."""

from __future__ import annotations

import os
import shutil
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

    def __init__(self, workers: int, server: str, db_name: str | None, deflate: bool = False,
                 proxy: str | None = None) -> None:
        from django.conf import settings

        # Without Redis a sweeper process could not reach the worker's sockets: the worker sweeps.
        self.own_sweeper = settings.CHANNEL_LAYERS["default"]["BACKEND"] != "channels.layers.InMemoryChannelLayer"
        self.sweeper = None

        self.port = free_port()
        self.workers, self.server, self.deflate, self.proxy = workers, server, deflate, proxy
        self.nginx: subprocess.Popen | None = None
        self.nginx_prefix: Path | None = None  # nginx's configuration and temporary files (removed on stop)
        self.env = dict(os.environ, DJANGO_SETTINGS_MODULE="bench.live_settings", PYTHONUNBUFFERED="1",
                        SECRET_KEY=settings.SECRET_KEY, DEBUG="0", ALLOWED_HOSTS="127.0.0.1,localhost",
                        SECURE_SSL_REDIRECT="0", PYTHONPATH=str(ROOT))
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        if db_name:
            self.env["BENCH_DB_NAME"] = db_name
        if not self.own_sweeper:
            self.env["BENCH_SWEEPER_IN_PROCESS"] = "1"
        self.processes: list[subprocess.Popen] = []
        # Each server process writes its round trips to PostgreSQL here (bench/live_instrument.py).
        self.round_trips_dir = tempfile.mkdtemp(prefix="bench-round-trips-")
        self.env["BENCH_ROUND_TRIPS_DIR"] = self.round_trips_dir
        self.log = open(Path(tempfile.gettempdir()) / f"bench-live-{os.getpid()}.log", "w")

    def start(self) -> Site:
        py = sys.executable
        listening = [self.port]  # ports to wait for
        if self.proxy:
            ports = [free_port() for _ in range(self.workers)]
            for port in ports:
                self._spawn(self._uvicorn(port, 1))
            self._start_nginx(ports)
            listening = ports + listening
        elif self.server == "uvicorn":
            self._spawn(self._uvicorn(self.port, self.workers))
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
                while listening:
                    with socket.create_connection(("127.0.0.1", listening[0]), timeout=0.5):
                        listening.pop(0)
                break
            except OSError:
                time.sleep(0.2)
        # every worker up (`uvicorn --workers` answers once its first worker does; each proxied one was awaited)
        time.sleep(1.0 if self.server == "uvicorn" and self.workers > 1 and not self.proxy else 0.2)
        return self

    def _uvicorn(self, port: int, workers: int) -> list[str]:
        command = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port",
                   str(port), "--ws", "websockets-sansio",
                   "--ws-per-message-deflate", "true" if self.deflate else "false",  # as `make prod`
                   "--log-level", "warning", "--no-access-log"]
        return command + (["--workers", str(workers)] if workers > 1 else [])

    def _start_nginx(self, ports: list[int]) -> None:
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.path.exists(nginx):
            raise RuntimeError("--proxy needs nginx (Debian's package nginx)")
        prefix = self.nginx_prefix = Path(tempfile.mkdtemp(prefix="bench-nginx-"))
        upstream = "".join(f"        server 127.0.0.1:{port};\n" for port in ports)
        balance = "        hash $uri consistent;\n" if self.proxy == "table" else ""
        (prefix / "nginx.conf").write_text(NGINX_CONF.format(upstream=balance + upstream, port=self.port))
        self.nginx = subprocess.Popen([nginx, "-p", str(prefix), "-e", "stderr", "-c", str(prefix / "nginx.conf"),
                                       "-g", "daemon off;"], stdout=self.log, stderr=subprocess.STDOUT)
        self.processes.append(self.nginx)

    def proxy_pids(self) -> list[int]:
        return process_tree(self.nginx.pid) if self.nginx is not None else []

    def _spawn(self, command: list[str], sweeper: bool = False, pass_fds=()) -> None:
        p = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
                             pass_fds=pass_fds)
        if sweeper:
            self.sweeper = p
        self.processes.append(p)

    def server_pids(self) -> list[int]:
        return [pid for p in self.processes if p is not self.sweeper and p is not self.nginx
                for pid in process_tree(p.pid)]

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
        if self.nginx_prefix is not None:
            shutil.rmtree(self.nginx_prefix, ignore_errors=True)
            self.nginx_prefix = None
        shutil.rmtree(self.round_trips_dir, ignore_errors=True)
        if not self.log.closed:
            self.log.close()


# nginx in front of the workers: websockets passed through, as in deploy/nginx.conf (one worker process is
# plenty for the bench; each socket is two connections, hence the file limit).
NGINX_CONF = """worker_processes 1;
worker_rlimit_nofile 65536;
pid nginx.pid;
error_log stderr warn;
events {{ worker_connections 30000; }}
http {{
    access_log off;
    client_body_temp_path client_body;
    proxy_temp_path proxy_temp;
    fastcgi_temp_path fastcgi_temp;
    uwsgi_temp_path uwsgi_temp;
    scgi_temp_path scgi_temp;
    upstream site {{
{upstream}    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        '' '';
    }}
    server {{
        listen 127.0.0.1:{port};
        proxy_http_version 1.1;
        location / {{
            proxy_pass http://site;
            proxy_set_header Host $http_host;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1h;
        }}
    }}
}}
"""
