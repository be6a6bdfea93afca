"""A push service played by the test: an HTTP server on 127.0.0.1 that takes what the site posts to a
subscription's endpoint (answering 201, or 410 "gone" under /gone/; with a `hold` Event, only once the test sets it), and the browser's side of a subscription
(a P-256 key pair and an auth secret) to decrypt it with, as a phone's browser would (RFC 8291)."""

from __future__ import annotations

import base64
import os
import queue
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Received:
    path: str
    headers: dict  # names in lower case
    body: bytes


@dataclass
class BrowserKeys:
    """The keys a browser makes for one subscription."""

    private: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, endpoint: str) -> dict:
        point = self.private.public_key().public_bytes(serialization.Encoding.X962,
                                                        serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> bytes:
        return http_ece.decrypt(body, private_key=self.private, auth_secret=self.auth, version="aes128gcm")


class PushService:
    def __init__(self, hold: threading.Event | None = None) -> None:
        self.received: queue.Queue[Received] = queue.Queue()
        self.hold = hold
        self.answered = 0
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.received.put(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                if service.hold is not None:
                    service.hold.wait()  # a push service that is slow to answer, until the test lets it
                service.answered += 1
                self.send_response(410 if self.path.startswith("/gone/") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.hold is not None:
            self.hold.set()
        self.server.shutdown()
        self.server.server_close()

    def next(self, timeout: float = 20.0) -> Received:
        return self.received.get(timeout=timeout)
