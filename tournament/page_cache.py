"""A page cache in front of Django for the public pages many people read at once (leaderboard, bracket).

Django's own path costs 2.5-4 ms of CPU per request here, before the view runs (the ASGI handler's
thread hops for signals, the sync-only whitenoise middleware and the view; see docs/performance.md,
"Pages"), which caps two workers well below the 1,000 requests/s that 50 readers at p95 < 50 ms need. So
a response that a view marks as the same for every reader without a session (the
``PUBLIC_PAGE_HEADER`` header, holding the scores version it was rendered for) is kept here, whole, and
served again to such readers straight from the event loop, until that version is no longer the one
``tournament.standings_cache`` knows to be current (it is read again at most every
``STANDINGS_VERSION_CHECK_SECONDS``, and at once after a change heard of: then the request goes through
Django, which checks the version in the database and renders or re-marks the page).

While one request checks a stored page's version through Django, the other readers of that page get
it as stored (so a check never sends every concurrent reader through Django, each in a thread and with a
database connection of its own). Only GET requests without a session or messages cookie are served from
here; only 200 responses without
``Set-Cookie`` are kept, with every header Django and its middleware set (security headers included).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.conf import settings

from tournament.standings_cache import Version, known_version

PUBLIC_PAGE_HEADER = "X-Public-Page-Version"
_HEADER = PUBLIC_PAGE_HEADER.lower().encode()
MAX_ENTRIES = 256
MAX_BODY = 1 << 20

_lock = threading.Lock()
_pages: OrderedDict[tuple, tuple[Version, list[dict]]] = OrderedDict()
_refreshing: set[tuple] = set()  # keys whose version a request is checking through Django now


def mark_public(response, version: Version):
    """Say that ``response`` is the same for every reader without a session, for ``version``."""
    response[PUBLIC_PAGE_HEADER] = f"{version.event_id} {version.created!r} {version.change}"
    return response


def _parse(value: bytes) -> Version | None:
    try:
        event_id, created, change = value.decode().split()
        return Version(int(event_id), float(created), int(change))
    except ValueError:
        return None


def _anonymous(headers) -> bool:
    cookie_names = (settings.SESSION_COOKIE_NAME.encode(), b"messages")
    for name, value in headers:
        if name == b"cookie" and any(c in value for c in cookie_names):
            return False
    return True


def _key(scope) -> tuple:
    headers = dict(scope.get("headers") or ())
    return (scope.get("scheme"), headers.get(b"host"), headers.get(b"x-forwarded-proto"), scope["path"],
            scope.get("query_string", b""))


def clear() -> None:
    with _lock:
        _pages.clear()
        _refreshing.clear()


class PublicPageCache:
    """ASGI middleware: wrap Django's HTTP application with it (config/asgi.py)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        eligible = scope["method"] == "GET" and _anonymous(scope.get("headers") or ())
        key = _key(scope) if eligible else None
        refreshing = False
        if eligible:
            with _lock:
                entry = _pages.get(key)
                current = entry is not None and known_version(entry[0].event_id) == entry[0]
                if entry is not None and not current:
                    # One request at a time checks the version through Django; the others meanwhile get
                    # the page as stored (at most one check's time older than the check allows).
                    current = key in _refreshing
                    refreshing = not current
                    _refreshing.add(key)
            if current:
                for message in entry[1]:
                    await send(message)
                return
        try:
            await self._through_django(scope, receive, send, key if eligible else None)
        finally:
            if refreshing:
                with _lock:
                    _refreshing.discard(key)

    async def _through_django(self, scope, receive, send, key):
        eligible = key is not None
        captured: list = []

        async def capture(message):
            if message["type"] == "http.response.start":
                headers = message.get("headers") or []
                version = next((_parse(v) for n, v in headers if n.lower() == _HEADER), None)
                if version is not None:  # the header is for this cache only: never sent
                    message = {**message, "headers": [(n, v) for n, v in headers if n.lower() != _HEADER]}
                    cookies = any(n.lower() == b"set-cookie" for n, _ in headers)
                    if eligible and message.get("status") == 200 and not cookies:
                        captured.append(version)
            if captured:
                captured.append(message)
                if message["type"] == "http.response.body" and not message.get("more_body"):
                    _store(key, captured)
                    captured.clear()
            await send(message)

        await self.app(scope, receive, capture)


def _store(key: tuple, captured: list) -> None:
    version, messages = captured[0], captured[1:]
    size = sum(len(m.get("body", b"")) for m in messages)
    if size > MAX_BODY:
        return
    with _lock:
        _pages[key] = (version, messages)
        _pages.move_to_end(key)
        while len(_pages) > MAX_ENTRIES:
            _pages.popitem(last=False)
