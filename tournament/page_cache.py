"""A page cache in front of Django for the public pages many people read at once (leaderboard, bracket).

Django's own path costs 2.5-4 ms of CPU per request here, before the view runs (the ASGI handler's
thread hops for signals, the sync-only whitenoise middleware and the view; see docs/performance.md,
"Pages"), which caps two workers well below the 1,000 requests/s that 50 readers at p95 < 50 ms need. So
a response that a view marks as the same for every reader without a session (the
``PUBLIC_PAGE_HEADER`` header, holding the scores version it was rendered for) is kept here, whole, and
served again to such readers straight from the event loop, until that version is no longer the one
``tournament.standings_cache`` knows to be current (it is read again at most every
``STANDINGS_VERSION_CHECK_SECONDS``, and at once after a change heard of).

Then one request per page goes through Django, which checks the version in the database and re-marks
the page or renders the new one, while every other reader of the page gets it as stored: so a check never
sends every concurrent reader through Django, each in a thread and with a database connection of its
own. After a change made or heard of in this process (the live page's script fetches the bracket again
when its socket says scores changed), that request is the reader's, who gets the new page. When the
check is only due by time, it is made in the background and that reader gets the stored page too (stale
while revalidating): no reader waits for a rebuild (0.3-2 s for a big event's pages while its scores
change, docs/performance.md, "Pages"); a page is then at most one check and one rebuild older than
the one Django would give. When a check does not give a page to keep (the event was unpublished, an
error), the stored page is dropped and the next reader goes through Django. Only GET requests without a
session or messages cookie are served from here; only 200 responses without ``Set-Cookie`` are kept,
with every header Django and its middleware set (security headers included).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict

from django.conf import settings

from tournament.standings_cache import Version, heard_of_change, known_version

logger = logging.getLogger(__name__)

PUBLIC_PAGE_HEADER = "X-Public-Page-Version"
_HEADER = PUBLIC_PAGE_HEADER.lower().encode()
MAX_ENTRIES = 256
MAX_BODY = 1 << 20

_lock = threading.Lock()
_pages: OrderedDict[tuple, tuple[Version, list[dict]]] = OrderedDict()
_refreshing: set[tuple] = set()  # keys whose version a background request is checking through Django now
_tasks: set[asyncio.Task] = set()  # those requests (a reference, so that they are not collected)


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
        if not eligible:
            await self.app(scope, receive, send)
            return
        key = _key(scope)
        with _lock:
            entry = _pages.get(key)
            check = (entry is not None and known_version(entry[0].event_id) != entry[0]
                     and key not in _refreshing)
            if check:
                _refreshing.add(key)
        if entry is None:
            await self._through_django(scope, receive, send, key)
            return
        if check and heard_of_change(entry[0].event_id):
            await self._check(self._through_django(scope, receive, send, key), key)
            return
        if check:
            task = asyncio.ensure_future(self._check(self._in_background(scope, key), key))
            _tasks.add(task)
            task.add_done_callback(_tasks.discard)
        for message in entry[1]:
            await send(message)

    @staticmethod
    async def _check(through_django, key) -> None:
        """Await a stored page's check through Django; drop the page when the check gave none to keep."""
        stored = False
        try:
            stored = await through_django
        finally:
            with _lock:
                _refreshing.discard(key)
                if not stored:
                    _pages.pop(key, None)

    async def _in_background(self, scope, key) -> bool:
        """A reader's request sent through Django for the page cache only (a check due by time)."""
        requested = False

        async def receive():
            nonlocal requested
            if not requested:
                requested = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await asyncio.Future()  # no disconnect: Django cancels this listener once it has answered

        async def discard(message):
            pass

        try:
            return await self._through_django(scope, receive, discard, key)
        except Exception:  # noqa: BLE001 - the page is dropped; the next reader goes through Django
            logger.exception("checking the stored page %s failed", key[3])
            return False

    async def _through_django(self, scope, receive, send, key) -> bool:
        """Django's response, sent on and, when marked and ``key`` is given, stored: whether it was."""
        eligible = key is not None
        captured: list = []
        stored = False

        async def capture(message):
            nonlocal stored
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
                    stored = _store(key, captured)
                    captured.clear()
            await send(message)

        await self.app(scope, receive, capture)
        return stored


async def wait_for_refreshes() -> None:
    """Wait until the background requests started so far are done (tests)."""
    while _tasks:
        await asyncio.gather(*list(_tasks), return_exceptions=True)


def _store(key: tuple, captured: list) -> bool:
    version, messages = captured[0], captured[1:]
    size = sum(len(m.get("body", b"")) for m in messages)
    if size > MAX_BODY:
        return False
    with _lock:
        _pages[key] = (version, messages)
        _pages.move_to_end(key)
        while len(_pages) > MAX_ENTRIES:
            _pages.popitem(last=False)
    return True
