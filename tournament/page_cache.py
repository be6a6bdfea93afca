"""A page cache in front of Django for the public pages many people read at once (leaderboard, bracket).

Django's own path costs 2.5-4 ms of CPU per request here, before the view runs (the ASGI handler's
thread hops for signals, the sync-only whitenoise middleware and the view; see docs/performance.md,
"Pages"), which caps two workers well below the 1,000 requests/s that 50 readers at p95 < 50 ms need. So
a response that a view marks as the same for every reader without a session (the
``PUBLIC_PAGE_HEADER`` header, holding the scores version it was rendered for) is kept here, whole, and
served again to such readers straight from the event loop, until that version is no longer the one
``tournament.standings_cache`` knows to be current (it is read again at most every
``STANDINGS_VERSION_CHECK_SECONDS``, and at once after a change heard of). A page marked as the same for
*every* reader, session or not (the bracket's fragment, which the live script fetches), is served to
all of them.

Then one request per page goes through Django, which checks the version in the database and re-marks
the page or renders the new one, while every other reader of the page gets it as stored: so a check never
sends every concurrent reader through Django, each in a thread and with a database connection of its
own. After a change made or heard of in this process (the live page's script fetches the bracket again
when its socket says scores changed), that request is the reader's, who gets the new page. When the
check is only due by time, it is made in the background and that reader gets the stored page too (stale
while revalidating): no reader waits for a rebuild (0.3-2 s for a big event's pages while its scores
change, docs/performance.md, "Pages"); a page is then at most one check and one rebuild older than
the one Django would give. When a check does not give a page to keep (the event was unpublished, an
error), the stored page is dropped and the next reader goes through Django. Only 200 responses without
``Set-Cookie`` are kept, with every header Django and its middleware set (security headers included).

**Logged-in readers.** What differs from one reader to another in these pages is marked in the
templates (``tournament.page_parts``: the navigation's account part with the logout form's CSRF token,
the Admin link, "My event", the reader's own position). A view answering a logged-in reader sends the
public page with that reader's parts filled in and marks it with ``READER_PAGE_HEADER``; this cache
then keeps *the reader's parts only*, under their session cookie, CSRF cookie and the page, with the
version they were rendered for and the response's headers (``Cache-Control: private``, ``Vary:
Cookie``). A later GET with the same two cookies is answered from the event loop: the stored public
page with those parts put in its marked places and a fresh masking of the reader's CSRF secret (the
token Django itself would render: it accepts any masking of the cookie's secret, and a new one per
response keeps the BREACH mitigation). After a change, a part that depends on the version (the
position) is rendered here for the stored page's version when this process holds that version's data
(``page_parts.renews``), else by Django in the background while the reader gets the previous one once
more; the other parts stay as they are.

The session is what Django said it was when it last answered this reader: it is trusted for
``READER_SECONDS`` (``PAGE_CACHE_READER_SECONDS``, default 5 s); from half that age a request is
served while Django checks the session again in the background (and forgets the parts if it no longer
finds it); after it, the reader's request goes through Django, which loads the session and user as
always. A logout in this process drops the session's parts at once; a logout, expiry, password change
or loss of staff status elsewhere shows within those seconds (the browser of a reader who logged out no
longer sends that cookie at all; Django checks every POST and every other page as before). A session
cookie is only ever answered with parts Django rendered for that same cookie, so no reader is served
another's parts. Anything else goes through Django: no session or CSRF cookie, a ``messages`` cookie, a
session whose parts are not kept (first visit, an invalid or expired session: Django answers it as
anonymous and deletes its cookie, so nothing is kept for it), a query string the view does not mark,
any method but GET (whose responses still lose this cache's headers). The version check of a stored
page read by logged-in readers is the same as above, made as a request without cookies; after a change
made or heard of here, the reader's own request goes through Django.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db import close_old_connections
from django.dispatch import receiver
from django.http.cookie import parse_cookie
from django.middleware.csrf import CSRF_TOKEN_LENGTH, _mask_cipher_secret, _unmask_cipher_token

from tournament.page_parts import (
    PART_BYTES,
    READER_PAGE_HEADER,
    READER_USER_HEADER,
    parse_marks,
    renew,
    session_reader,
)
from tournament.standings_cache import Version, heard_of_change, known_version

logger = logging.getLogger(__name__)

PUBLIC_PAGE_HEADER = "X-Public-Page-Version"
_HEADER = PUBLIC_PAGE_HEADER.lower().encode()
_READER_HEADER = READER_PAGE_HEADER.lower().encode()
_USER_HEADER = READER_USER_HEADER.lower().encode()
_OURS = (_HEADER, _READER_HEADER, _USER_HEADER)
EVERYONE = "everyone"  # a public page's mark: the same for readers with a session too
MAX_ENTRIES = 256
MAX_BODY = 1 << 20
MAX_READERS = 10_000  # (session, page) entries: about 1-2 KB each
_TOKEN = b'name="csrfmiddlewaretoken" value="'


def reader_seconds() -> float:
    return float(settings.PAGE_CACHE_READER_SECONDS)


@dataclass
class Stored:
    """A stored public page: its version, the ASGI messages Django sent, and (built for the first
    logged-in reader) its body cut at the reader parts: texts between them and the parts' names."""

    version: Version
    messages: list[dict]
    everyone: bool = False
    pieces: tuple[list[bytes], list[str]] | None = None


@dataclass
class Reader:
    """A logged-in reader's parts of one page (None in a part: a CSRF token), the version they were
    rendered for and the response's headers."""

    version: Version
    by_version: dict[str, list[str]]  # parts that change with the version (the position), with their facts
    parts: dict[str, list[bytes | None]]
    headers: list
    checked: float  # monotonic: when Django last said whose session it is
    user: bytes  # who the parts were rendered for (``page_parts.reader_user``)


_lock = threading.Lock()
_pages: OrderedDict[tuple, Stored] = OrderedDict()
_refreshing: set[tuple] = set()  # keys whose version a background request is checking through Django now
_tasks: set[asyncio.Task] = set()  # those requests (a reference, so that they are not collected)
_readers: OrderedDict[tuple, Reader] = OrderedDict()  # (session key, CSRF secret, page key) -> parts
_filling: dict[tuple, asyncio.Event] = {}  # reader keys a request is being answered for by Django now
_renewing: set[tuple] = set()  # pages for which a reader's parts are being rendered for a new version


def mark_public(response, version: Version, *, everyone: bool = False):
    """Say that ``response`` is the same for every reader without a session (``everyone``: for every
    reader at all), for ``version``."""
    value = f"{version.event_id} {version.created!r} {version.change}"
    response[PUBLIC_PAGE_HEADER] = f"{value} {EVERYONE}" if everyone else value
    return response


def _parse(value: bytes) -> tuple[Version, bool] | None:
    try:
        event_id, created, change, *rest = value.decode().split()
        if rest not in ([], [EVERYONE]):
            return None
        return Version(int(event_id), float(created), int(change)), bool(rest)
    except ValueError:
        return None


def _parse_reader(value: bytes) -> tuple[Version, dict[str, list[str]]] | None:
    """A reader page's mark: its version, and its parts that change with the version (with their facts)."""
    try:
        event_id, created, change, *marks = value.decode().split()
        return Version(int(event_id), float(created), int(change)), parse_marks(marks)
    except ValueError:
        return None


def _has_cookies(headers) -> bool:
    """Whether the request has a session or messages cookie (a cheap look before parsing any)."""
    cookie_names = (settings.SESSION_COOKIE_NAME.encode(), b"messages")
    for name, value in headers:
        if name == b"cookie" and any(c in value for c in cookie_names):
            return True
    return False


def _cookies(headers) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, value in headers:
        if name == b"cookie":
            found.update(parse_cookie(value.decode("latin-1")))
    return found


def _without_cookies(scope) -> dict:
    return {**scope, "headers": [(n, v) for n, v in scope.get("headers") or () if n != b"cookie"]}


def _key(scope) -> tuple:
    headers = dict(scope.get("headers") or ())
    return (scope.get("scheme"), headers.get(b"host"), headers.get(b"x-forwarded-proto"), scope["path"],
            scope.get("query_string", b""))


def clear() -> None:
    with _lock:
        _pages.clear()
        _refreshing.clear()
        _readers.clear()
        _filling.clear()
        _renewing.clear()


@receiver(user_logged_out, dispatch_uid="page_cache_forget_session")
def forget_session(sender, request=None, **kwargs) -> None:
    """A reader logged out here: their session's parts go at once (other processes: ``READER_SECONDS``)."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if key:
        with _lock:
            for reader_key in [k for k in _readers if k[0] == key]:
                del _readers[reader_key]


class PublicPageCache:
    """ASGI middleware: wrap Django's HTTP application with it (config/asgi.py)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] != "GET":  # nothing kept (HEAD's body is empty), the cache's own headers removed
            await self._through_django(scope, receive, send, None, anonymous=False)
            return
        key = _key(scope)
        headers = scope.get("headers") or ()
        if not _has_cookies(headers):
            await self._public(scope, receive, send, key)
            return
        with _lock:
            entry = _pages.get(key)
        if entry is not None and entry.everyone:
            await self._public(scope, receive, send, key)
            return
        cookies = _cookies(headers)
        session, secret = cookies.get(settings.SESSION_COOKIE_NAME), cookies.get(settings.CSRF_COOKIE_NAME)
        if "messages" in cookies or not session or not secret or settings.CSRF_USE_SESSIONS:
            await self._through_django(scope, receive, send, key, anonymous=False)
            return
        await self._reader(scope, receive, send, key, (session, secret, key))

    async def _public(self, scope, receive, send, key) -> None:
        """A reader without a session (or any reader of a page for everyone)."""
        with _lock:
            entry = _pages.get(key)
            check = (entry is not None and known_version(entry.version.event_id) != entry.version
                     and key not in _refreshing)
            if check:
                _refreshing.add(key)
        if entry is None:
            await self._through_django(scope, receive, send, key)
            return
        if check and heard_of_change(entry.version.event_id):
            await self._check(self._through_django(scope, receive, send, key), key)
            return
        if check:
            self._check_in_background(scope, key)
        for message in entry.messages:
            await send(message)

    def _check_in_background(self, scope, key) -> None:
        task = asyncio.ensure_future(self._check(self._in_background(scope, key), key))
        _tasks.add(task)
        task.add_done_callback(_tasks.discard)

    async def _reader(self, scope, receive, send, key, reader_key) -> None:
        """A logged-in reader: the stored public page with their stored parts, else Django (once at a
        time per reader and page: the same reader's other requests meanwhile wait for it). A part that
        changes with the version (the position) and is older than the stored page is rendered here for
        the page's version when this process holds the data (``page_parts.renews``). Parts still older
        than the page, or whose session was checked more than half ``READER_SECONDS`` ago, are served
        while Django renders them again in the background (so a reader who keeps reading never waits for
        it; parts are never served once their session was checked ``READER_SECONDS`` ago)."""
        secret = reader_key[1]
        for attempt in range(2):
            now = time.monotonic()
            refresh = None
            with _lock:
                entry = _pages.get(key)
                check = (key not in _refreshing and entry is not None
                         and known_version(entry.version.event_id) != entry.version)
                if check:
                    _refreshing.add(key)
                reader = _readers.get(reader_key)
                age = now - reader.checked if reader is not None else 0.0
                if reader is not None and age >= reader_seconds():
                    reader = None  # the session is to be checked by Django again, now
                older = entry is not None and reader is not None and bool(reader.by_version) and _older(
                    reader.version, entry.version)
            if older:  # the position for the page's version, rendered here when this process holds its data
                reader = _renewed(reader_key, reader, entry.version) or reader
                older = reader.version != entry.version
            with _lock:
                filling = _filling.get(reader_key)
                if older and key in _renewing:
                    older = False  # another reader's parts are being rendered for the version: then in the loop
                if entry is not None and reader is not None and filling is None and (
                        age >= reader_seconds() / 2 or older):
                    refresh = _filling[reader_key] = asyncio.Event()  # checked ahead, while this one is served
                    if older:
                        _renewing.add(key)
            if check:  # the public page's version, checked as for a reader without a session
                self._check_in_background(_without_cookies(scope), key)
            heard = check and entry is not None and heard_of_change(entry.version.event_id)
            body = None
            if entry is not None and reader is not None and not heard:
                body = _fill_in(entry, reader.parts, secret)
            if refresh is not None:
                if body is None:
                    _done_filling(reader_key, refresh, key if older else None)
                else:
                    task = asyncio.ensure_future(self._refresh_reader(scope, key, reader_key, refresh)
                                                 if older else _check_session(reader_key, reader, refresh))
                    _tasks.add(task)
                    task.add_done_callback(_tasks.discard)
            if body is not None:
                headers = [*reader.headers, (b"content-length", str(len(body)).encode())]
                await send({"type": "http.response.start", "status": 200, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
            if filling is None or attempt or heard:
                break
            await filling.wait()
        done = asyncio.Event()
        with _lock:
            mine = reader_key not in _filling
            if mine:
                _filling[reader_key] = done
        try:
            kept = await self._through_django(scope, receive, send, key, anonymous=False, reader_key=reader_key)
        finally:
            if mine:
                _done_filling(reader_key, done)
        with _lock:  # a page for readers (not a search...) that no one without a session has read yet
            fetch = kept and key not in _pages and key not in _refreshing
            if fetch:
                _refreshing.add(key)
        if fetch:
            self._check_in_background(_without_cookies(scope), key)

    async def _refresh_reader(self, scope, key, reader_key, done: asyncio.Event) -> None:
        """The reader's page through Django in the background: their parts for the new version."""
        try:
            await self._in_background(scope, key, anonymous=False, reader_key=reader_key)
        finally:
            _done_filling(reader_key, done, key)

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

    async def _in_background(self, scope, key, **kwargs) -> bool:
        """A reader's request sent through Django for the page cache only (a check due by time, a
        logged-in reader's parts for a newer version)."""
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
            return await self._through_django(scope, receive, discard, key, **kwargs)
        except Exception:  # noqa: BLE001 - the page is dropped; the next reader goes through Django
            logger.exception("checking the stored page %s failed", key[3])
            return False

    async def _through_django(self, scope, receive, send, key, *, anonymous: bool = True,
                              reader_key: tuple | None = None) -> bool:
        """Django's response, sent on and, when marked and ``key`` is given, stored: a public page (for a
        reader without a session, or marked for everyone), or a logged-in reader's parts (``reader_key``).
        Whether either was stored."""
        captured: list = []
        kind = None
        stored = False

        async def capture(message):
            nonlocal stored, kind
            if message["type"] == "http.response.start":
                headers = message.get("headers") or []
                public = next((_parse(v) for n, v in headers if n.lower() == _HEADER), None)
                reader = next((_parse_reader(v) for n, v in headers if n.lower() == _READER_HEADER), None)
                user = next((v for n, v in headers if n.lower() == _USER_HEADER), None)
                if any(n.lower() in _OURS for n, _ in headers):  # the headers are for this cache only: never sent
                    headers = [(n, v) for n, v in headers if n.lower() not in _OURS]
                    message = {**message, "headers": headers}
                ok = message.get("status") == 200 and key is not None
                cookies = [v for n, v in headers if n.lower() == b"set-cookie"]
                if ok and not cookies and public is not None and (anonymous or public[1]):
                    kind = "public"
                    captured.extend([public, message])
                elif ok and reader is not None and user is not None and reader_key is not None and all(
                        _same_csrf_cookie(v, reader_key[1]) for v in cookies):
                    kind = "reader"
                    captured.extend([reader, user, [(n, v) for n, v in headers if n.lower() != b"set-cookie"]])
                elif reader_key is not None:  # not this reader's page (logged out, session gone): forget it
                    with _lock:
                        _readers.pop(reader_key, None)
            elif kind == "public":
                captured.append(message)
            elif kind == "reader":
                captured.append(message.get("body", b""))
            if kind is not None and message["type"] == "http.response.body" and not message.get("more_body"):
                if kind == "public":
                    (version, everyone), messages = captured[0], captured[1:]
                    stored = _store(key, Stored(version, messages, everyone))
                else:
                    (version, by_version), user, headers = captured[:3]
                    _store_reader(key, reader_key, version, by_version, user, headers, b"".join(captured[3:]))
                    stored = True
                kind = None
                captured.clear()
            await send(message)

        await self.app(scope, receive, capture)
        return stored


async def wait_for_refreshes() -> None:
    """Wait until the background requests started so far are done (tests)."""
    while _tasks:
        await asyncio.gather(*list(_tasks), return_exceptions=True)


def _store(key: tuple, entry: Stored) -> bool:
    size = sum(len(m.get("body", b"")) for m in entry.messages)
    if size > MAX_BODY:
        return False
    with _lock:
        _pages[key] = entry
        _pages.move_to_end(key)
        while len(_pages) > MAX_ENTRIES:
            _pages.popitem(last=False)
    return True


def _same_csrf_cookie(set_cookie: bytes, secret: str) -> bool:
    """Whether a ``Set-Cookie`` value only sends the reader's own CSRF cookie again (Django does so, with
    the same value and a later expiry, whenever a page renders a token): not kept in their stored
    headers; they get it again whenever Django answers them."""
    return set_cookie.startswith(f"{settings.CSRF_COOKIE_NAME}={secret};".encode())


def _split(body: bytes) -> tuple[list[bytes], list[str]]:
    """A page cut at its reader parts: the texts around them (one more than the parts) and their names."""
    texts, names, at = [], [], 0
    for match in PART_BYTES.finditer(body):
        texts.append(body[at:match.start()])
        names.append(match.group(1).decode())
        at = match.end()
    texts.append(body[at:])
    return texts, names


def _store_reader(key: tuple, reader_key: tuple, version: Version, by_version: dict, user: bytes, headers: list,
                  body: bytes) -> None:
    """Keep the parts of a page Django rendered for a logged-in reader (``reader_key``: their cookies),
    each with its markers, its CSRF token cut out (one made afresh per response) and checked against the
    reader's CSRF cookie."""
    secret = reader_key[1]
    parts: dict[str, list[bytes | None]] = {}
    for match in PART_BYTES.finditer(body):
        part = match.group(0)
        chunks: list[bytes | None] = []
        while (at := part.find(_TOKEN)) >= 0:
            start = at + len(_TOKEN)
            token = part[start:start + CSRF_TOKEN_LENGTH].decode("ascii", "replace")
            if len(token) != CSRF_TOKEN_LENGTH or not token.isalnum() or _unmask_cipher_token(token) != secret:
                return  # not the token of this reader's cookie: keep nothing
            chunks += [part[:start], None]
            part = part[start + CSRF_TOKEN_LENGTH:]
        parts[match.group(1).decode()] = [*chunks, part]
    headers = [(n, v) for n, v in headers if n.lower() != b"content-length"]
    with _lock:
        _readers[reader_key] = Reader(version, by_version, parts, headers, time.monotonic(), user)
        _readers.move_to_end(reader_key)
        while len(_readers) > MAX_READERS:
            _readers.popitem(last=False)


def _renewed(reader_key: tuple, reader: Reader, version: Version) -> Reader | None:
    """``reader`` with its parts that change with the version rendered for ``version`` without Django
    (``page_parts.renews``), kept; or None when one of them cannot be."""
    parts = dict(reader.parts)
    for name, facts in reader.by_version.items():
        html = renew(name, facts, version)
        if html is None:
            return None
        parts[name] = [f"<!--part:{name}-->{html}<!--/part:{name}-->".encode()]
    renewed = Reader(version, reader.by_version, parts, reader.headers, reader.checked, reader.user)
    with _lock:
        if _readers.get(reader_key) is reader:
            _readers[reader_key] = renewed
    return renewed


def _older(reader: Version, page: Version) -> bool:
    """Whether a reader's parts are for another version than the stored page's, and not a newer one
    (the page is then being checked: rendering the parts again would give the same)."""
    newer = (reader.event_id, reader.created) == (page.event_id, page.created) and reader.change > page.change
    return reader != page and not newer


def _done_filling(reader_key: tuple, done: asyncio.Event, renewing: tuple | None = None) -> None:
    with _lock:
        if _filling.get(reader_key) is done:
            del _filling[reader_key]
        if renewing is not None:
            _renewing.discard(renewing)
    done.set()


def _session_of(session_key: str) -> str | None:
    try:
        return session_reader(session_key)
    finally:
        close_old_connections()  # as after a request


async def _session_now(session_key: str) -> str | None:
    """``page_parts.session_reader``, on the thread Django answers requests on."""
    return await sync_to_async(_session_of, thread_sensitive=True)(session_key)


async def _check_session(reader_key: tuple, reader: Reader, done: asyncio.Event) -> None:
    """Ask Django (its session and auth code, two queries, no page) whether the session is still the
    reader's parts were rendered for: if so they are trusted for ``READER_SECONDS`` more, else forgotten."""
    same, started = False, time.monotonic()
    try:
        now = await _session_now(reader_key[0])
        same = now is not None and now.encode("latin-1") == reader.user
    except Exception:  # noqa: BLE001 - the parts are forgotten: the reader's next request goes through Django
        logger.exception("checking a reader's session failed")
    finally:
        with _lock:
            current = _readers.get(reader_key)
            if current is not None and current.user == reader.user:
                if same:
                    current.checked = max(current.checked, started)
                else:
                    del _readers[reader_key]
        _done_filling(reader_key, done)


def _fill_in(entry: Stored, parts: dict[str, list[bytes | None]], secret: str) -> bytes | None:
    """The stored public page with a reader's parts, or None when it has a part the reader's lack."""
    if entry.pieces is None:
        entry.pieces = _split(b"".join(m.get("body", b"") for m in entry.messages))
    texts, names = entry.pieces
    if any(name not in parts for name in names):
        return None
    token = None
    out = [texts[0]]
    for name, text in zip(names, texts[1:], strict=True):
        for chunk in parts[name]:
            if chunk is None:
                token = token or _mask_cipher_secret(secret).encode()
                chunk = token
            out.append(chunk)
        out.append(text)
    return b"".join(out)
