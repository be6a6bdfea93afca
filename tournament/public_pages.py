"""Public pages many people read at once (an event's leaderboard, a bracket and its fragment): the same
for every reader, kept per event and scores version, and answered so that any HTTP cache can keep them.

A public page is rendered as a reader without a session sees it (``render_public``): it never reads the
session or the user, so Django adds neither ``Vary: Cookie`` nor a cookie, and a logged-in reader gets
the very same bytes. What is the reader's own (their name and the logout form, the Admin link, "My
event", their position on a leaderboard) comes from ``/me.json`` (``tournament.views.reader``), which
``static/js/reader.js`` fetches and fills in.

The rendered HTML is kept in Django's cache under the event's scores version
(``tournament.scores_version``): a new version is a new key, so a change shows at once and old pages
expire. The event and its version are looked up once per ``STANDINGS_VERSION_CHECK_SECONDS`` per
process (``event_and_version``: no query in between, unless a change was made or heard of here).
``public_page`` answers conditional requests (``ETag`` from the event and version, through Django's
``condition``) and says how long a browser and a proxy may keep the page (``Cache-Control``). A proxy
cache in front (nginx, ``deploy/nginx.conf``) then coalesces readers and serves stale pages while it
revalidates: docs/deploy.md.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from functools import wraps

from cachetools import TLRUCache
from django.conf import settings
from django.contrib.auth.context_processors import PermWrapper
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.views.decorators.http import condition, require_safe

from tournament.scores_version import Version, heard_of_change, public_event
from tournament.standings_cache import memo, peek, shared, shared_name

logger = logging.getLogger(__name__)

MAX_EVENTS = 1024  # slugs remembered per process (events, not readers: a handful in practice)


def _until_next_check(_slug, known: tuple, _now: float) -> float:
    return known[2] + float(settings.STANDINGS_VERSION_CHECK_SECONDS)


_lock = threading.Lock()  # cachetools' caches are not thread-safe; page requests run in several threads
# slug -> (the public event, its version, monotonic time they were read), until the version is to be read again
_events: TLRUCache[str, tuple] = TLRUCache(MAX_EVENTS, _until_next_check)


def event_and_version(request, slug: str):
    """The public event with this slug and its scores version (``(None, None)``: none), read from the
    database at most every ``STANDINGS_VERSION_CHECK_SECONDS`` per process and slug, and at once after a
    change made or heard of here (``scores_version.heard_of_change``); once per request whatever the
    setting."""
    held = getattr(request, "public_event", None)
    if held is not None and held[0] == slug:
        return held[1]
    with _lock:
        known = _events.get(slug)
    if known is not None and not heard_of_change(known[0].pk):
        event, version = known[0], known[1]
    else:
        read_at = time.monotonic()
        event, version = public_event(slug)
        with _lock:
            if event is None:
                _events.pop(slug, None)
            else:
                _events[slug] = (event, version, read_at)
    request.public_event = (slug, (event, version))
    return event, version


def clear() -> None:
    """Forget the events remembered (tests)."""
    with _lock:
        _events.clear()


def etag(version: Version) -> str:
    """The page's entity tag: its event (with when it was created) and scores version."""
    return f"{version.event_id}.{int(version.created * 1000)}.{version.change}"


def _etag_of(request, slug: str, *args, **kwargs) -> str | None:
    _event, version = event_and_version(request, slug)
    return etag(version) if version is not None else None


def public_page(view: Callable) -> Callable:
    """Decorate a view of a public page (its first argument after the request is the event's slug):
    GET and HEAD only, conditional GETs answered with ``304 Not Modified`` while the scores version holds, and
    ``Cache-Control: public`` on 200 and 304 answers (``PUBLIC_PAGE_MAX_AGE`` for browsers,
    ``PUBLIC_PAGE_PROXY_MAX_AGE`` for a shared cache, ``PUBLIC_PAGE_STALE_SECONDS`` of
    stale-while-revalidate)."""
    conditional = require_safe(condition(etag_func=_etag_of)(view))

    @wraps(view)
    def answer(request, *args, **kwargs):
        response = conditional(request, *args, **kwargs)
        if response.status_code in (200, 304):
            patch_cache_control(response, public=True, max_age=int(settings.PUBLIC_PAGE_MAX_AGE),
                                s_maxage=int(settings.PUBLIC_PAGE_PROXY_MAX_AGE),
                                stale_while_revalidate=int(settings.PUBLIC_PAGE_STALE_SECONDS))
        return response

    return answer


def render_public(template: str, context: dict, request) -> str:
    """``template`` as a reader without a session sees it, whoever ``request``'s reader is (the session
    and the user are not read: the answer carries no ``Vary: Cookie``)."""
    anonymous = AnonymousUser()
    return render_to_string(template, {**context, "user": anonymous, "perms": PermWrapper(anonymous),
                                       "messages": (), "reader_script": True}, request)


def stored_page(kind: str, version: Version, parts: tuple) -> str | None:
    """The HTML stored for this kind of page, version and ``parts``, or None: kept in this process once
    read (``standings_cache.memo``: no round trip to the cache for the next reader), else read from
    Django's cache, where the worker that rendered it stored it."""
    local = (kind, version, *parts)
    html = peek(local)
    if html is not None:
        return html
    try:
        html = cache.get(shared_name(kind, version, *parts))
    except Exception:  # noqa: BLE001 - a cache that is down only costs time
        logger.warning("page cache unavailable", exc_info=True)
        return None
    if html is not None:
        memo(local, lambda: html)
    return html


def cached_page(kind: str, version: Version, parts: tuple, build: Callable[[], str]) -> str:
    """The HTML stored in Django's cache for this kind of page, version and ``parts`` (what else tells
    pages apart: round, page number...), else ``build()``'s, stored there. Readers arriving while the
    page is being built wait for that build: in this process (``standings_cache.memo``) and, with the
    shared cache, in every worker (``standings_cache.shared``)."""
    html = stored_page(kind, version, parts)
    if html is not None:
        return html
    name = shared_name(kind, version, *parts)
    html = memo((kind, version, *parts), lambda: shared(name, lambda: (build(), True)))
    try:
        cache.set(name, html, timeout=float(settings.STANDINGS_CACHE_SECONDS))
    except Exception:  # noqa: BLE001
        logger.warning("page cache unavailable", exc_info=True)
    return html
