"""Websockets and pages against the live ASGI server (tests/live_asgi.py) from a plain test: the
`websockets` library's blocking client, as a bot or a script would open them, and a logged-in HTTP
session for the server's forms."""

from __future__ import annotations

import http.cookiejar
import json
import re
import time
import urllib.parse
import urllib.request

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.games.factories import session_cookie


def ws_url(server, path: str) -> str:
    return server.url.replace("http://", "ws://", 1) + path


def open_socket(server, path: str, *, token: str | None = None, user=None, origin: bool | str = True,
                forwarded_for: str | None = None) -> ClientConnection:
    """A socket at `path`: with a token (a bot: no Origin, no cookie), or a browser's (Origin, the server's
    own or the one given, and the session cookie of `user` if given); `forwarded_for` as a proxy in front
    would send it (uvicorn believes it from 127.0.0.1)."""
    headers = {}
    if forwarded_for is not None:
        headers["X-Forwarded-For"] = forwarded_for
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    else:
        if origin:
            headers["Origin"] = server.url if origin is True else origin
        if user is not None:
            headers["Cookie"] = session_cookie(user).decode()
    return connect(ws_url(server, path), additional_headers=headers, open_timeout=20, close_timeout=5,
                   max_size=None, legacy=True)


def next_message(socket: ClientConnection, kind: str, timeout: float = 20) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(socket.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message.get("type") == kind:
            return message


def close_code(socket: ClientConnection, seconds: float) -> int | None:
    """The code of the server's close if it comes within `seconds` (frames before it are read and dropped),
    else None. The test server (Daphne) sends no close reason: reasons are checked in-process."""
    frame = close_frame(socket, seconds)
    return None if frame is None else frame[0]


def close_frame(socket: ClientConnection, seconds: float) -> tuple[int, str] | None:
    """(code, reason) of the server's close if it comes within `seconds` (frames before it are read and
    dropped), else None. Under uvicorn the reason arrives; Daphne sends none."""
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            socket.recv(timeout=max(0.01, deadline - time.monotonic()))
    except TimeoutError:
        return None
    except ConnectionClosed as closed:
        return (closed.rcvd.code, closed.rcvd.reason) if closed.rcvd else (1006, "")
    return None


class LoggedInSession:
    """HTTP as a logged-in browser: the session cookie of `user`, the CSRF token of each form read."""

    def __init__(self, server, user=None) -> None:
        """`user` None: a browser that is not logged in (its cookies kept from one answer to the next)."""
        self.server = server
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        if user is None:
            return
        name, value = session_cookie(user).decode().split("=", 1)
        self.jar.set_cookie(http.cookiejar.Cookie(
            0, name, value, None, False, "127.0.0.1", False, False, "/", True, False, None, True, None, None, {}))

    def get(self, path: str) -> str:
        with self.opener.open(self.server.url + path, timeout=20) as response:
            return response.read().decode()

    def get_final(self, path: str) -> tuple[str, str]:
        """(the path after redirects, the page)."""
        with self.opener.open(self.server.url + path, timeout=20) as response:
            return urllib.parse.urlsplit(response.geturl()).path, response.read().decode()

    def post_form(self, path: str, fields: dict, form_page: str | None = None) -> int:
        """POST `fields` to `path` as the form on `form_page` (default: `path`; read first for its CSRF
        token) does; the status after redirects."""
        page = self.get(form_page or path)
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": csrf}, doseq=True).encode()
        request = urllib.request.Request(self.server.url + path, data=body,
                                         headers={"Referer": self.server.url + path})
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code
