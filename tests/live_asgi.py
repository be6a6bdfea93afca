"""A live ASGI server (Daphne, websockets included) for browser tests, sharing the test database.

pytest-django's ``live_server`` is WSGI only: no websockets. This starts the real ``config.asgi``
application with Daphne in a separate process, as in production, pointed at the test database that
pytest-django created (PostgreSQL: the same server; SQLite: the test database is a file, see
``config/environment.py``), with the same ``REDIS_URL`` channel layer if one is set. Settings the
test needs on the server side (bot think time, the pause between hands...) are passed to the process
and applied before Django starts there.

Run as ``python -m tests.live_asgi --port N --db-name NAME --settings JSON`` by ``LiveASGIServer``.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STARTUP_SECONDS = 20


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


class LiveASGIServer:
    """Start with ``start()``, stop with ``stop()``; ``url`` is ``http://127.0.0.1:PORT``."""

    host = "127.0.0.1"

    def __init__(self, db_name: str, settings: dict | None = None, environ: dict | None = None) -> None:
        self.db_name = db_name
        self.settings = settings or {}
        self.environ = environ or {}  # added to the process's environment (e.g. a test's own REDIS_URL)
        self.port = free_port(self.host)
        self.process: subprocess.Popen | None = None
        self.log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"live-asgi-{os.getpid()}-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> LiveASGIServer:
        env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", PYTHONUNBUFFERED="1")
        env.update(self.environ)
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the server runs like a real one
        command = [sys.executable, "-m", "tests.live_asgi", "--port", str(self.port), "--db-name", self.db_name,
                   "--settings", json.dumps(self.settings)]
        self.log = self.log_path.open("w")
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the live ASGI server stopped at start:\n{self.output()}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the live ASGI server did not listen within {STARTUP_SECONDS} s:\n{self.output()}")

    def output(self) -> str:
        try:
            return self.log_path.read_text()
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None
        self.log.close()
        self.log_path.unlink(missing_ok=True)


def serve(port: int, db_name: str, overrides: dict) -> None:
    """Inside the server process: configure Django for the test database, then run Daphne."""
    from django.conf import settings

    settings.DATABASES["default"]["NAME"] = db_name
    for key, value in overrides.items():
        setattr(settings, key, tuple(value) if isinstance(value, list) else value)
    if "127.0.0.1" not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]

    import django

    django.setup()
    from config.asgi import application

    if os.environ.get("LIVE_ASGI_SERVER") == "uvicorn":
        serve_uvicorn(application, port)
        return
    from daphne.server import Server

    Server(application=application, endpoints=[f"tcp:port={port}:interface=127.0.0.1"],
           signal_handlers=True, verbosity=0).run()


def serve_uvicorn(application, port: int) -> None:
    """uvicorn with the options of `make prod` (Makefile): proxy headers trusted from FORWARDED_ALLOW_IPS
    (uvicorn's default: 127.0.0.1) and its own websocket frame limit."""
    import uvicorn

    uvicorn.run(application, host="127.0.0.1", port=port, ws="websockets-sansio", ws_per_message_deflate=False,
                ws_max_size=makefile_ws_max_size(), proxy_headers=True, access_log=False, log_level="warning")


def makefile_ws_max_size() -> int:
    """The `--ws-max-size` that `make prod` gives uvicorn."""
    import re

    return int(re.search(r"--ws-max-size (\d+)", (ROOT / "Makefile").read_text()).group(1))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db-name", required=True)
    parser.add_argument("--settings", default="{}")
    args = parser.parse_args(argv)
    serve(args.port, args.db_name, json.loads(args.settings))


if __name__ == "__main__":
    main()


# ---- pytest fixtures (registered in tests/games/conftest.py) -----------------------------------------

try:
    import pytest
except ImportError:  # the server process does not need pytest
    pytest = None

if pytest is not None:

    @pytest.fixture
    def live_asgi_settings() -> dict:
        """Settings for the server process; override this fixture (or change the dict) in a test."""
        return {
            "LIVE_BOT_THINK_SECONDS": [0.05, 0.15],
            "LIVE_NEXT_HAND_SECONDS": 30,
            "LIVE_SWEEP_INTERVAL": 0.05,
            # One test client opens many sockets from one address: the caps have their own tests
            # (tests/games/test_socket_caps.py), which set them low.
            "SOCKET_OPEN_RATE": [100_000, 1.0],
            "SOCKET_MAX_OPEN_PER_ADDRESS": 100_000,
            "SOCKET_MAX_OPEN_PER_ACCOUNT": 100_000,
            "SOCKET_MAX_OPEN_PER_ADDRESS_LOGGED_IN": 100_000,
            "LIVE_PRACTICE_STARTS_PER_ADDRESS": [100_000, 1],  # (tests/games/test_practice_caps.py)
        }

    @pytest.fixture(scope="session")
    def live_asgi_database_cleanup(django_db_setup, django_db_blocker):
        """At the end of the run, before the test database is dropped, end the sessions browser tests
        left open: the flush after a test that ran Playwright (which keeps an event loop and greenlets
        in this thread) leaves a connection in a context pytest-django's teardown does not reach."""
        yield
        from django.db import connection, connections

        with django_db_blocker.unblock():
            if connection.vendor == "postgresql":
                # With psycopg's pool (the default) a pooled connection may already have been ended by
                # the server; close the pool so this runs on a fresh one, and again after, so no pooled
                # connection keeps the test database from being dropped.
                _close_pool(connection)
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                   "WHERE datname = current_database() AND pid <> pg_backend_pid()")
            connections.close_all()
            if connection.vendor == "postgresql":
                _close_pool(connection)

    def _close_pool(connection) -> None:
        connection.close()
        if connection.settings_dict.get("OPTIONS", {}).get("pool"):
            connection.close_pool()

    @pytest.fixture
    def live_asgi(live_asgi_database_cleanup, transactional_db, live_asgi_settings):
        """A Daphne process serving config.asgi on the test database; stopped before the database is
        flushed. Data the test creates must be committed (``django_db(transaction=True)``)."""
        from django.db import connection

        name = connection.settings_dict["NAME"]
        if connection.vendor == "sqlite" and connection.is_in_memory_db():
            pytest.fail("the live ASGI server needs a file-based SQLite test database (config/environment.py)")
        server = LiveASGIServer(str(name), live_asgi_settings).start()
        try:
            yield server
        finally:
            server.stop()

    @pytest.fixture
    def live_asgi_workers(live_asgi_database_cleanup, transactional_db, live_asgi_settings):
        """``start(settings=None, environ=None)`` starts another Daphne worker on the test database (its own
        port; ``environ`` adds variables, e.g. another ``REDIS_URL``); every worker still running is stopped at
        the end. Workers given the same ``REDIS_URL`` share its channel layer, like the processes behind a
        load balancer."""
        from django.db import connection

        if connection.vendor == "sqlite" and connection.is_in_memory_db():
            pytest.fail("the live ASGI server needs a file-based SQLite test database (config/environment.py)")
        started: list[LiveASGIServer] = []

        def start(settings: dict | None = None, environ: dict | None = None) -> LiveASGIServer:
            server = LiveASGIServer(str(connection.settings_dict["NAME"]), {**live_asgi_settings, **(settings or {})},
                                    environ)
            started.append(server)
            return server.start()

        try:
            yield start
        finally:
            for server in started:
                server.stop()

    @pytest.fixture
    def live_uvicorn(live_asgi_database_cleanup, transactional_db):
        """``start(settings=None, forwarded_allow_ips="127.0.0.1", **environ)``: uvicorn as `make prod` runs
        it (``serve_uvicorn``) on the test database, trusting proxy headers from those addresses only;
        every server started is stopped at the end."""
        from django.db import connection

        started: list[LiveASGIServer] = []

        def start(settings: dict | None = None, forwarded_allow_ips: str = "127.0.0.1", **environ) -> LiveASGIServer:
            server = LiveASGIServer(str(connection.settings_dict["NAME"]), settings, {
                "LIVE_ASGI_SERVER": "uvicorn", "FORWARDED_ALLOW_IPS": forwarded_allow_ips, **environ})
            started.append(server)
            return server.start()

        yield start
        for server in started:
            server.stop()
