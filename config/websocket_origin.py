"""The Origin check of cookie-authenticated websockets: the page that opens a socket must be this site.

A browser sends its session cookie with any page's websocket, so a socket carrying a session must come from
a page of this site: its ``Origin`` must be the site's own origin, scheme, host and port, as the socket
reached it (``Host`` header, ``ws``/``wss``: behind a TLS proxy uvicorn's ``--proxy-headers`` makes it
``wss`` from ``X-Forwarded-Proto``), with a host in ``ALLOWED_HOSTS``, or one of
``CSRF_TRUSTED_ORIGINS``. Channels' ``AllowedHostsOriginValidator`` compares the host only, so
``http://localhost:1`` passed for a site on ``http://localhost:8000``; this compares what Django's CSRF
check compares for a form. Sockets with a personal access token do not come here (access_tokens/websocket.py).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}
DEBUG_HOSTS = ["localhost", "127.0.0.1", "[::1]"]  # Django's own default under DEBUG


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin such as ``https://example.org``; None when it is not one."""
    try:
        parts = urlsplit(url.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def _header(scope, name: bytes) -> str:
    values = [value for key, value in scope.get("headers", []) if key == name]
    return values[0].decode("latin1") if len(values) == 1 else ""  # none, or two: refuse


def same_origin(scope) -> bool:
    """True when the socket's Origin is the site itself (or a trusted origin), as reached."""
    origin, host = _header(scope, b"origin"), _header(scope, b"host")
    if not origin or not host:
        return False
    parsed = _origin(origin)
    if parsed is None:
        return False
    if any(parsed == _origin(trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS):
        return True
    domain, _port = split_domain_port(host)
    allowed_hosts = settings.ALLOWED_HOSTS or (DEBUG_HOSTS if settings.DEBUG else [])
    if not domain or not validate_host(domain, allowed_hosts):
        return False
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return parsed == _origin(f"{scheme}://{host}")


FOREIGN_ORIGIN_REASON = ("This socket opens only from a page of this site: its Origin must be the site's own "
                         "scheme, host and port.")


class SameOriginValidator:
    """ASGI middleware: a websocket whose Origin is not the site's own is refused before the handshake, with
    HTTP 403. A server with the ASGI denial response extension (uvicorn) sends ``FOREIGN_ORIGIN_REASON`` as the
    answer's body, so a client can read why; others (Daphne) send the bare 403."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and same_origin(scope):
            return await self.application(scope, receive, send)
        if "websocket.http.response" not in scope.get("extensions", {}):
            return await WebsocketDenier()(scope, receive, send)
        message = await receive()
        if message.get("type") != "websocket.connect":
            return
        body = FOREIGN_ORIGIN_REASON.encode()
        await send({"type": "websocket.http.response.start", "status": 403,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "websocket.http.response.body", "body": body})
