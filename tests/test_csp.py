"""The Content-Security-Policy (config/settings.py, config/csp_reports.py; docs/security.md): every URL the
site routes answers with it, a page's inline <style> carries the nonce its header names, the cached public
pages need none, and the report endpoint logs what browsers send and answers bad input with a 4xx.
That the pages keep the policy in a browser is held by every browser test (the `chromium` fixture) and
shown in tests/test_browser_csp.py."""

import json
import logging
import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from config.csp_reports import MAX_BODY, MAX_FIELD, MAX_REPORTS
from games.services.lifecycle import start_practice_game
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players, make_user
from tournament.models import Game, Player
from tournament.services import rounds
from tournament.services.live_tables import live_game_for

pytestmark = pytest.mark.django_db

POLICY = {
    "default-src": "'self'", "script-src": "'self'", "img-src": "'self' data:", "font-src": "'self'",
    "connect-src": "'self'", "object-src": "'none'", "frame-ancestors": "'none'", "base-uri": "'self'",
    "form-action": "'self'", "report-uri": "/csp-report/", "report-to": "csp",
}


def directives(header: str) -> dict[str, str]:
    return dict((part.strip().split(" ", 1) + [""])[:2] for part in header.split(";") if part.strip())


def routes(resolver=None, prefix="") -> list[tuple[str, URLPattern]]:
    """Every named URL pattern of the site with its namespaced name."""
    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            found += routes(pattern, f"{prefix}{pattern.namespace}:" if pattern.namespace else prefix)
        elif pattern.name:
            found.append((prefix + pattern.name, pattern))
    return found


class InlineCode(HTMLParser):
    """What a page holds that the policy would block: inline scripts and event handlers, style
    attributes, <style> blocks without a nonce."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        named = dict(attrs)
        if tag == "script" and "src" not in named and named.get("type") != "application/json":
            self.found.append(f"inline <script> at line {self.getpos()[0]}")
        if tag == "style" and not named.get("nonce"):
            self.found.append(f"<style> without a nonce at line {self.getpos()[0]}")
        self.found += [f"{name}= on <{tag}> at line {self.getpos()[0]}" for name, _ in attrs
                       if name == "style" or name.startswith("on")]


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


@pytest.fixture
def world():
    event = make_event(name="Policy cup", min_table_size=2, max_table_size=2)
    owner = make_organizer_of(event)
    make_players(event, 4)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), owner)
    rounds.start_round(round_, owner)
    game = Game.objects.filter(table__round=round_).first()
    live = live_game_for(game, seed=5)
    start_practice_game(owner, "uno-official", 1, turn_seconds=0)
    return {"slug": event.slug, "event_id": event.pk, "round_id": round_.pk, "number": round_.number,
            "table_id": game.table_id, "game_id": game.pk, "live_game_id": live.pk,
            "player_id": Player.objects.filter(event=event).first().pk, "app_label": "tournament"}


def test_every_routed_url_answers_with_the_policy_and_holds_no_inline_code(world):
    client = Client(raise_request_exception=False)
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    seen = 0
    for name, pattern in routes():
        names = list(re.compile(pattern.pattern.regex.pattern).groupindex)
        url = reverse(name, kwargs={n: world.get(n, 1) for n in names})
        response = client.get(url)
        header = response.headers.get("Content-Security-Policy")
        assert header, f"{url} ({name}) answered {response.status_code} without a Content-Security-Policy"
        for directive, value in POLICY.items():
            assert directives(header).get(directive) == value, (url, directive, header)
        assert "unsafe" not in header, (url, header)
        assert response.headers["Reporting-Endpoints"] == 'csp="/csp-report/"'
        assert response.status_code < 500, url
        if response.get("Content-Type", "").startswith("text/html"):
            assert not inline_code(response.content.decode()), (url, inline_code(response.content.decode()))
        seen += 1
    assert seen > 60  # the site's pages, its admin's and the API's


def test_an_admin_page_inline_style_carries_the_nonce_of_its_header(client, world):
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    response = client.get(reverse("admin:index"))
    nonce = re.search(r"style-src 'self' 'nonce-([^']+)'", response.headers["Content-Security-Policy"])[1]
    assert f'<style nonce="{nonce}">' in response.content.decode()
    again = client.get(reverse("admin:index")).headers["Content-Security-Policy"]
    assert nonce not in again  # a new one for every response


def test_cached_public_pages_need_no_nonce(client, world):
    """A leaderboard is rendered once for every reader (tournament/public_pages.py): a nonce in it would
    be another request's. Its header names none, so nothing inline on it could run."""
    for url in (reverse("leaderboard", args=[world["slug"]]), reverse("home")):
        response = client.get(url)
        assert response.status_code == 200
        assert "nonce" not in response.headers["Content-Security-Policy"]
        assert "nonce=" not in response.content.decode()


REPORT_URI = {"csp-report": {
    "document-uri": "https://ocho.example/events/cup/", "violated-directive": "script-src-elem",
    "effective-directive": "script-src-elem", "blocked-uri": "inline", "source-file": "https://ocho.example/",
    "line-number": 12, "script-sample": "alert(1)", "disposition": "enforce", "referrer": "x"}}
REPORTING_API = [{"type": "csp-violation", "age": 3, "url": "https://ocho.example/play/", "body": {
    "documentURL": "https://ocho.example/play/", "effectiveDirective": "connect-src",
    "blockedURL": "wss://elsewhere.example/ws/", "disposition": "enforce", "lineNumber": 4}},
    {"type": "deprecation", "body": {"id": "x"}}]


def post(client, body, content_type="application/csp-report", **extra):
    return client.post(settings.CSP_REPORT_PATH, body, content_type=content_type, **extra)


def test_the_header_names_the_report_endpoint(client):
    assert settings.CSP_REPORT_PATH == reverse("csp_report")


def test_a_report_uri_violation_is_logged(client, caplog):
    with caplog.at_level(logging.WARNING, logger="config.csp_reports"):
        response = post(client, json.dumps(REPORT_URI))
    assert response.status_code == 204
    [record] = caplog.records
    line = record.getMessage()
    assert "effective-directive='script-src-elem'" in line and "blocked-uri='inline'" in line
    assert "document-uri='https://ocho.example/events/cup/'" in line and "line-number='12'" in line
    assert "referrer" not in line


def test_reporting_api_violations_are_logged_and_other_reports_ignored(client, caplog):
    with caplog.at_level(logging.WARNING, logger="config.csp_reports"):
        response = post(client, json.dumps(REPORTING_API), content_type="application/reports+json")
    assert response.status_code == 204
    [record] = caplog.records
    assert "effective-directive='connect-src'" in record.getMessage()
    assert "blocked-uri='wss://elsewhere.example/ws/'" in record.getMessage()


def test_a_batch_is_logged_up_to_its_cap_and_long_fields_cut(client, caplog):
    long = [{"type": "csp-violation", "body": {"effectiveDirective": "img-src", "blockedURL": "x" * 5000}}] * 2
    many = [{"type": "csp-violation", "body": {"effectiveDirective": "img-src"}}] * 30
    with caplog.at_level(logging.WARNING, logger="config.csp_reports"):
        assert post(client, json.dumps(long)).status_code == 204
        assert post(client, json.dumps(many)).status_code == 204
    messages = [r.getMessage() for r in caplog.records]
    assert all(len(m) < MAX_FIELD + 200 for m in messages[:2])
    assert len(messages) == 2 + MAX_REPORTS + 1
    assert messages[-1] == f"CSP violation: {30 - MAX_REPORTS} more in the same report, not logged"


@pytest.mark.parametrize("body, status, says", [
    (b"", 400, "not JSON"),
    (b"{not json", 400, "not JSON"),
    (b"\xff\xfe\x00junk", 400, "not JSON"),
    (b"[" * 10_000 + b"]" * 10_000, 413, "at most"),
    (b"[" * 5000 + b"]" * 5000, 400, "not JSON"),  # nested past the parser's depth
    (b'"a string"', 400, "csp-report"),
    (b'{"csp-report": "not an object"}', 400, "csp-report"),
    (b'[{"type": "deprecation", "body": {}}]', 400, "csp-violation"),
    (b"[]", 400, "csp-report"),
    (b"x" * (MAX_BODY + 1), 413, "at most"),
])
def test_bad_bodies_answer_a_clear_4xx_and_log_nothing(client, caplog, body, status, says):
    with caplog.at_level(logging.WARNING, logger="config.csp_reports"):
        response = post(client, body)
    assert response.status_code == status
    assert says in response.content.decode()
    assert not [r for r in caplog.records if r.name == "config.csp_reports"]


def test_a_lying_or_missing_length_never_reads_past_the_cap(client):
    assert post(client, b"{}", CONTENT_LENGTH=str(10 * MAX_BODY)).status_code == 413
    assert post(client, b"{}", CONTENT_LENGTH="many").status_code == 400


def test_only_posts_are_reports(client):
    assert client.get(settings.CSP_REPORT_PATH).status_code == 405
    assert client.put(settings.CSP_REPORT_PATH, b"{}").status_code == 405
