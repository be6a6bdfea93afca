"""The parts of a public page that differ from one reader to another, and the page stored once for all.

The site's templates put each such part between ``<!--part:NAME-->`` and ``<!--/part:NAME-->`` (its
own template is ``templates/parts/NAME.html``): the navigation's account links and logout form (with
the reader's CSRF token), the Admin link for staff, the "My event" link and, on the leaderboard, the
reader's own position. Everything else in a leaderboard or bracket page is the same for every reader.

So a view renders the page once per scores version as a reader without a session sees it
(``render_public``), and for a logged-in reader fills in that reader's parts (``reader_response``). The
response then carries ``READER_PAGE_HEADER`` (the version), which tells ``tournament.page_cache`` that
the page is the public one with this reader's parts: it keeps those parts for the reader's session and
serves them again, filled into the stored public page, from the event loop (see its docstring).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from importlib import import_module
from urllib.parse import quote, unquote

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.context_processors import PermWrapper
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control

logger = logging.getLogger(__name__)

READER_PAGE_HEADER = "X-Reader-Page-Version"
READER_USER_HEADER = "X-Reader-User"
PART = re.compile(r"<!--part:([a-z_]+)-->(.*?)<!--/part:\1-->", re.S)
PART_BYTES = re.compile(PART.pattern.encode(), re.S)


def version_value(version) -> str:
    return f"{version.event_id} {version.created!r} {version.change}"


def render_public(template: str, context: dict, request) -> str:
    """``template`` as a reader without a session sees it, whoever ``request``'s reader is."""
    anonymous = AnonymousUser()
    return render_to_string(template, {**context, "user": anonymous, "perms": PermWrapper(anonymous),
                                       "messages": ()}, request)


def fill(html: str, parts: dict[str, str]) -> str:
    """``html`` with the parts named in ``parts`` replaced (the markers stay)."""
    def replace(match):
        name = match.group(1)
        return f"<!--part:{name}-->{parts[name]}<!--/part:{name}-->" if name in parts else match.group(0)

    return PART.sub(replace, html)


def reader_parts(public_html: str, context: dict, request) -> dict[str, str]:
    """Every part of ``public_html`` rendered for ``request``'s reader, with the view's ``context``."""
    names = dict.fromkeys(match.group(1) for match in PART.finditer(public_html))
    return {name: render_to_string(f"parts/{name}.html", context, request) for name in names}


def servable_reader(request) -> bool:
    """A logged-in reader whose page may be the public one with their parts filled in: no pending
    messages (the public page has none; the message middleware would drop them unshown) and a CSRF
    cookie already set (else Django sets one: that response differs)."""
    return (request.user.is_authenticated and "messages" not in request.COOKIES
            and settings.CSRF_COOKIE_NAME in request.COOKIES and not settings.CSRF_USE_SESSIONS)


def reader_user(user) -> str:
    """What a reader's parts say about them, besides the version's data: who they are and whether staff."""
    return f"{user.pk} {int(user.is_staff)} {quote(user.get_username(), safe='')}"


def session_reader(session_key: str) -> str | None:
    """``reader_user`` of the session's user as Django's own request path would find them now (the
    session loaded, the user fetched by their backend, active, the password hash checked), or None."""
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = auth.get_user(request)
    return reader_user(user) if user.is_authenticated else None


def reader_response(request, public_html: str, context: dict, version, *, keep: bool = True,
                    by_version: dict[str, tuple] | None = None) -> HttpResponse:
    """The public page with the logged-in reader's parts: private to them (``Cache-Control: private``;
    the session middleware adds ``Vary: Cookie``), and marked for the page cache when ``keep``.
    ``by_version`` names the parts that change with the scores version (the reader's position), each with
    what its renewer (``renews``) needs to render it for another version: the other parts stay right for
    the reader whatever the version."""
    response = HttpResponse(fill(public_html, reader_parts(public_html, context, request)))
    patch_cache_control(response, private=True)
    if keep:
        marks = [":".join([name, *(quote(str(fact), safe="/") for fact in facts)])
                 for name, facts in (by_version or {}).items()]
        response[READER_PAGE_HEADER] = " ".join([version_value(version), *marks])
        response[READER_USER_HEADER] = reader_user(request.user)
    return response


def parse_marks(marks: list[str]) -> dict[str, list[str]]:
    """``reader_response``'s ``by_version``, read back from its header."""
    parsed = {}
    for mark in marks:
        name, *facts = mark.split(":")
        parsed[name] = [unquote(fact) for fact in facts]
    return parsed


_renewers: dict[str, Callable[[list[str], object], str | None]] = {}


def renews(name: str):
    """Register a function that renders part ``name`` for a scores version from what the process already
    holds in memory (no I/O: the page cache calls it on its event loop), given the facts the view put in
    ``by_version``; it returns None when it cannot (then Django renders the part)."""
    def register(function):
        _renewers[name] = function
        return function

    return register


def renew(name: str, facts: list[str], version) -> str | None:
    renewer = _renewers.get(name)
    if renewer is None:
        return None
    try:
        return renewer(facts, version)
    except Exception:  # noqa: BLE001 - Django renders the part instead
        logger.exception("renewing part %s failed", name)
        return None
