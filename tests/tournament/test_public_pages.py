"""Public pages (leaderboard, bracket, the bracket's fragment) are the same for every reader, cached by
scores version, answer conditional GETs and say how long a browser or a proxy may keep them; what is the
reader's own comes from /me.json."""

import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from tests.tournament.test_leaderboard_pages import big_bracket, ranked_event
from tournament.models import Game, Seat
from tournament.services import results

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cold_caches")]

ROOT = Path(__file__).resolve().parents[2]


def readers(players, *, staff=False):
    """Three clients: two different logged-in players (the first staff when ``staff``), one anonymous."""
    clients = []
    for player in players[:2]:
        client = Client()
        if staff and not clients:
            player.user.is_staff = True
            player.user.save()
        client.force_login(player.user)
        client.get(reverse("home"))  # a CSRF cookie, messages: what a browser holds
        clients.append(client)
    return [*clients, Client()]


def public_urls(event, round_two=None):
    urls = [reverse("leaderboard", args=[event.slug]), reverse("leaderboard", args=[event.slug]) + "?page=2"]
    if round_two is not None:
        urls += [reverse("bracket", args=[event.slug, round_two.number]),
                 reverse("bracket", args=[event.slug, round_two.number]) + "?stage=1&page=2",
                 reverse("bracket_fragment", args=[event.slug, round_two.number])]
    return urls


def test_the_leaderboard_is_the_same_for_every_reader(settings):
    settings.STANDINGS_VERSION_CHECK_SECONDS = 0  # every request reads the version: nothing held over
    event, players, _ = ranked_event(250)
    alice, bob, anonymous = readers(players[10:], staff=True)
    for url in public_urls(event):
        answers = [client.get(url) for client in (alice, bob, anonymous, alice)]
        assert {a.status_code for a in answers} == {200}
        assert len({a.content for a in answers}) == 1, url
        for answer in answers:
            assert not answer.cookies and "Cookie" not in answer.get("Vary", "")
            assert answer["Cache-Control"].startswith("public")
        html = answers[0].content.decode()
        assert players[10].user.username not in html and players[11].user.username not in html
        assert "csrfmiddlewaretoken" not in html and 'href="/admin/"' not in html
        assert 'data-me-url="/me.json?event=big&amp;position=1"' in html and "js/reader.js" in html
        assert 'id="my-position" hidden' in html
        # Without JavaScript the page works as for any reader without a session: log in, sign up.
        assert f'href="/accounts/login/?next={url.split("?")[0]}">Log in</a>' in html and 'href="/accounts/signup/"' in html


def test_the_bracket_and_its_fragment_are_the_same_for_every_reader():
    event, round_two = big_bracket()
    players = list(event.players.select_related("user").order_by("pk"))
    clients = readers(players, staff=True)
    for url in public_urls(event, round_two)[2:]:
        answers = [client.get(url) for client in clients]
        assert {a.status_code for a in answers} == {200} and len({a.content for a in answers}) == 1, url
        assert all(not a.cookies and "Cookie" not in a.get("Vary", "") for a in answers)
    page = clients[0].get(public_urls(event, round_two)[2]).content.decode()
    assert f'data-me-url="/me.json?event={event.slug}"' in page and players[0].user.username not in page


def test_pages_a_reader_gets_for_themselves_still_show_their_navigation(client):
    event, players, _ = ranked_event(8)
    client.force_login(players[0].user)
    html = client.get(reverse("player_detail", args=[event.slug, players[1].pk])).content.decode()
    assert f'<span class="navbar-text me-2">{players[0].user.username}</span>' in html
    assert 'name="csrfmiddlewaretoken"' in html and "js/reader.js" not in html
    assert f'href="/events/{event.slug}/me/">My event</a>' in html


def test_conditional_gets_are_answered_304_with_the_cache_headers(client, settings):
    settings.PUBLIC_PAGE_MAX_AGE, settings.PUBLIC_PAGE_PROXY_MAX_AGE, settings.PUBLIC_PAGE_STALE_SECONDS = 1, 2, 30
    event, round_two = big_bracket()
    for url in public_urls(event, round_two):
        first = client.get(url)
        tag = first["ETag"]
        assert re.fullmatch(rf'"{event.pk}\.\d+\.\d+"', tag), tag
        expected = {"public", "max-age=1", "s-maxage=2", "stale-while-revalidate=30"}
        assert set(first["Cache-Control"].split(", ")) == expected
        again = client.get(url, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
        assert set(again["Cache-Control"].split(", ")) == expected  # a proxy refreshes its copy with these
        assert client.get(url, headers={"If-None-Match": '"1.2.3"'}).status_code == 200
    assert client.post(public_urls(event)[0]).status_code == 405  # GET and HEAD only


def test_a_missing_event_or_page_is_a_plain_404_nobody_caches(client):
    event, _players, _ = ranked_event(8)
    for url in ("/events/nope/leaderboard/", f"/events/{event.slug}/leaderboard/?page=9",
                f"/events/{event.slug}/rounds/7/leaderboard/", f"/events/{event.slug}/rounds/1/bracket/"):
        answer = client.get(url)
        assert answer.status_code == 404 and "public" not in answer.get("Cache-Control", ""), url


def record(event, tables, left, number=2):
    game = Game.objects.get(table=tables[1].table)
    seats = list(Seat.objects.filter(table=tables[1].table).order_by("number"))
    results.record_hand(game, number, seats[2].pk, dict(zip([s.pk for s in seats], left, strict=True)), None,
                        "played offline")
    return seats[2].player


def test_a_new_scores_version_busts_the_cached_page_and_its_etag(client, settings,
                                                                 django_capture_on_commit_callbacks):
    settings.STANDINGS_VERSION_CHECK_SECONDS = 60  # a change made here is seen at once all the same
    event, players, tables = ranked_event(8)
    url = reverse("leaderboard", args=[event.slug])
    before = client.get(url)
    assert client.get(url).content == before.content
    with django_capture_on_commit_callbacks(execute=True):
        winner = record(event, tables, [5, 6, 0, 7])
    after = client.get(url, headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert after.content != before.content
    assert re.search(rf'id="player-{winner.pk}">\s*<td>\d+</td>\s*<td><a [^>]+>{winner.display_name}</a>'
                     r'.*?</td>\s*<td class="text-end">18</td>', after.content.decode(), re.S)
    assert client.get(url, headers={"If-None-Match": after["ETag"]}).status_code == 304


# ---- /me.json --------------------------------------------------------------------------------------


def test_me_json_for_an_anonymous_reader_says_nobody_and_sets_no_cookie(client):
    event, _players, _ = ranked_event(8)
    answer = client.get(reverse("me_json"), {"event": event.slug, "position": 1})
    assert answer.status_code == 200 and answer.json() == {"user": None, "login_url": "/accounts/login/"}
    assert "no-store" in answer["Cache-Control"] and "private" in answer["Cache-Control"]
    assert not answer.cookies


def test_me_json_for_a_player_gives_their_parts_and_position(client, django_assert_num_queries, settings):
    settings.STANDINGS_VERSION_CHECK_SECONDS = 0  # the version read on each request: pinned below
    event, players, _ = ranked_event(250)
    me = players[201]
    client.force_login(me.user)
    url = reverse("me_json")
    answer = client.get(url, {"event": event.slug, "position": 1})
    got = answer.json()
    assert got["user"] == {"name": me.user.username, "staff": False} and got["admin_url"] is None
    assert got["logout_url"] == "/accounts/logout/" and got["my_event_url"] == f"/events/{event.slug}/me/"
    assert got["csrf_cookie"] == "csrftoken" and answer.cookies["csrftoken"].value  # the logout form's token
    position = got["position"]
    page = client.get(reverse("leaderboard", args=[event.slug]), {"page": position["page"]}).content.decode()
    assert re.search(rf'id="player-{me.pk}">\s*<td>{position["place"]}</td>', page)
    assert position["url"] == f"/events/big/leaderboard/?page={position['page']}#player-{me.pk}"
    assert "no-store" in answer["Cache-Control"]
    with django_assert_num_queries(4):  # session, user, the event with its version, the player
        client.get(url, {"event": event.slug, "position": 1})
    assert "position" not in client.get(url, {"event": event.slug}).json()  # the bracket asks for none


def test_me_json_gives_a_rounds_position_and_none_to_a_reader_who_does_not_play(client, admin_user):
    event, players, _ = ranked_event(8)
    client.force_login(players[3].user)
    whole = client.get(reverse("me_json"), {"event": event.slug, "position": 1}).json()["position"]
    in_round = client.get(reverse("me_json"), {"event": event.slug, "position": 1, "round": 1}).json()["position"]
    assert in_round["url"] == f"/events/big/rounds/1/leaderboard/?page=1#player-{players[3].pk}"
    assert (in_round["rank"], in_round["points_won"]) == (whole["rank"], whole["points_won"])
    assert client.get(reverse("me_json"), {"event": event.slug, "position": 1, "round": 9}).json()["position"] is None
    client.force_login(admin_user)
    got = client.get(reverse("me_json"), {"event": event.slug, "position": 1}).json()
    assert got["user"]["staff"] is True and got["admin_url"] == "/admin/" and got["position"] is None
    assert client.get(reverse("me_json")).json()["my_event_url"] is None  # no event asked about


@pytest.mark.parametrize("query,status", [({"event": "no-such"}, 404), ({"event": "big", "round": "x"}, 400),
                                          ({"event": "big", "round": "1234567"}, 400)])
def test_me_json_refuses_bad_input_with_a_clear_error(client, query, status):
    ranked_event(8)
    answer = client.get(reverse("me_json"), query)
    assert answer.status_code == status and answer.json()["error"]
    assert client.post(reverse("me_json")).status_code in (403, 405)


def test_logout_works_with_the_csrf_cookies_value_as_the_forms_token():
    """What reader.js does: the logout form's token is the csrftoken cookie's value (Django's docs for
    AJAX), so no token is embedded in the cached page. The cookie stays readable by the script."""
    assert django_settings.CSRF_COOKIE_HTTPONLY is False and django_settings.CSRF_USE_SESSIONS is False
    event, players, _ = ranked_event(8)
    client = Client(enforce_csrf_checks=True)
    client.force_login(players[0].user)
    client.get(reverse("me_json"), {"event": event.slug})
    secret = client.cookies["csrftoken"].value
    assert client.post(reverse("logout"), {}).status_code == 403
    answer = client.post(reverse("logout"), {"csrfmiddlewaretoken": secret})
    assert answer.status_code == 302
    assert client.get(reverse("me_json")).json()["user"] is None


def test_no_private_django_name_is_imported_anywhere():
    private = re.compile(r"^\s*from django[\w.]* import .*\b_[a-z]", re.M)
    found = [str(path.relative_to(ROOT)) for folder in ("config", "tournament", "games", "access_tokens", "bench",
                                                         "tests")
             for path in (ROOT / folder).rglob("*.py") if private.search(path.read_text())]
    assert found == []
