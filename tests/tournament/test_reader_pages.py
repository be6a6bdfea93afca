"""Logged-in readers of the leaderboard and bracket: the stored public page with their own parts
(navigation, CSRF token, Admin link, "My event", their position), served by the page cache without
Django, and never another reader's.

Django runs behind the real page cache here through its test client (every middleware, the views, the
templates), in the test's thread, so the test database and the query counts see its queries.
"""

import re
from urllib.parse import urlencode

import pytest
from django.contrib.sessions.models import Session
from django.db import DEFAULT_DB_ALIAS, connections
from django.middleware.csrf import _get_new_csrf_string, _unmask_cipher_token
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournament.test_leaderboard_pages import big_bracket, ranked_event, request
from tournament import page_cache, page_parts
from tournament.models import Game, Seat
from tournament.services import results

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cold_caches")]

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]{64})"')


class Django:
    """Django behind the page cache, through the test client in this thread (on the test's database
    connection, which the event loop's context would not see); counts its requests."""

    def __init__(self):
        self.calls = 0
        self.connection = connections[DEFAULT_DB_ALIAS]

    async def __call__(self, scope, receive, send):
        self.calls += 1
        connections[DEFAULT_DB_ALIAS] = self.connection
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {name.decode(): value.decode("latin-1") for name, value in scope["headers"]}
        extra = {"HTTP_COOKIE": headers["cookie"]} if "cookie" in headers else {}
        path = scope["path"] + (f"?{scope['query_string'].decode()}" if scope["query_string"] else "")
        response = Client(enforce_csrf_checks=True).generic(
            scope["method"], path, body, content_type="application/x-www-form-urlencoded", **extra)
        out = [(name.encode(), value.encode("latin-1")) for name, value in response.items()]
        out += [(b"set-cookie", cookie.output(header="").strip().encode()) for cookie in response.cookies.values()]
        await send({"type": "http.response.start", "status": response.status_code, "headers": out})
        await send({"type": "http.response.body", "body": response.content})


@pytest.fixture
def site(monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Django's sync code runs in the event loop here
    django = Django()

    async def session_now(session_key):  # the page cache's session check, also in this thread
        django.session_checks += 1
        connections[DEFAULT_DB_ALIAS] = django.connection
        return page_parts.session_reader(session_key)

    django.session_checks = 0
    monkeypatch.setattr(page_cache, "_session_now", session_now)
    return page_cache.PublicPageCache(django), django


def cookies_of(user):
    client = Client()
    client.force_login(user)
    return {"sessionid": client.cookies["sessionid"].value, "csrftoken": _get_new_csrf_string()}


def position(html):
    """(rank, points, player id) from the reader's position box (the id: only with a link to another page)."""
    found = re.search(r'id="my-position">You are ranked <strong>(\d+)</strong> with (\d+) point[^<]*(?:<a href="[^"]*#player-(\d+))?',
                      html)
    return found and (int(found.group(1)), int(found.group(2)), found.group(3) and int(found.group(3)))


def without_tokens(html):
    return TOKEN.sub("TOKEN", html)


@pytest.fixture
def alice_reader():
    """(Alice, the leaderboard's URL, her cookies): a player of an 8-player event with scores."""
    event, players, _ = ranked_event(8)
    alice = players[3]
    return alice, reverse("leaderboard", args=[event.slug]), cookies_of(alice.user)


def test_logged_in_readers_get_their_own_parts_never_another_readers(site, django_assert_num_queries):
    app, django = site
    event, players, _ = ranked_event(250)
    alice, bob = players[201], players[7]
    bob.user.is_staff = True
    bob.user.save()
    url = reverse("leaderboard", args=[event.slug])
    as_alice, as_bob = cookies_of(alice.user), cookies_of(bob.user)

    first_alice = request(app, url, as_alice)  # through Django; then the public page is fetched for readers
    assert django.calls == 2 and not page_cache._refreshing
    public = request(app, url)
    assert "Log in" in public.text and "my-position" not in public.text and django.calls == 2
    first_bob = request(app, url, as_bob)  # through Django
    assert django.calls == 3
    for _ in range(3):  # interleaved, from the stored page
        with django_assert_num_queries(0):
            got_alice, got_bob = request(app, url, as_alice), request(app, url, as_bob)
        for got, me, other, first in ((got_alice, alice, bob, first_alice), (got_bob, bob, alice, first_bob)):
            assert got.status == 200
            assert f'<span class="navbar-text me-2">{me.user.username}</span>' in got.text
            assert other.user.username not in got.text
            assert position(got.text)[2] == me.pk and position(got.text) == position(first.text)
            assert "My event" in got.text and "Log in" not in got.text
            assert without_tokens(got.text) == without_tokens(first.text)  # what Django gave this reader
            assert "private" in got.header("cache-control") and "Cookie" in got.header("vary")
            assert got.header("set-cookie") == "" and got.header("content-length") == str(len(got.text.encode()))
            assert got.header(page_cache.PUBLIC_PAGE_HEADER) == got.header("x-reader-page-version") == ""
        assert ">Admin</a>" in got_bob.text and ">Admin</a>" not in got_alice.text
    assert django.calls == 3
    assert "Log in" in request(app, url).text  # the public page is unchanged
    for cookies in (as_alice, None):  # other methods: Django, without the cache's own headers
        head = request(app, url, cookies, method="HEAD")
        assert head.status == 200 and head.text == "" and django.calls == 4 + (cookies is None)
        assert head.header(page_cache.PUBLIC_PAGE_HEADER) == head.header("x-reader-page-version") == ""
    assert alice.user.username in request(app, url, as_alice).text and django.calls == 5  # HEAD kept nothing

    # Each answer has a fresh masking of the reader's own CSRF secret (the token Django renders).
    tokens = {TOKEN.search(request(app, url, as_alice).text).group(1) for _ in range(3)}
    assert len(tokens) == 3 and {_unmask_cipher_token(t) for t in tokens} == {as_alice["csrftoken"]}


def test_logout_from_a_stored_page_works_and_the_session_is_not_served_again(site, alice_reader):
    app, django = site
    alice, url, as_alice = alice_reader
    request(app, url, as_alice)
    calls = django.calls
    served = request(app, url, as_alice)
    assert django.calls == calls and alice.user.username in served.text
    token = TOKEN.search(served.text).group(1)

    refused = request(app, reverse("logout"), as_alice, method="POST", body=b"csrfmiddlewaretoken=" + b"x" * 64)
    assert refused.status == 403 and Session.objects.filter(session_key=as_alice["sessionid"]).exists()
    done = request(app, reverse("logout"), as_alice, method="POST",
                   body=urlencode({"csrfmiddlewaretoken": token}).encode())
    assert done.status == 302 and not Session.objects.filter(session_key=as_alice["sessionid"]).exists()

    calls = django.calls
    after = request(app, url, as_alice)  # the old cookie again: Django, who sees no session
    assert django.calls == calls + 1
    assert "Log in" in after.text and alice.user.username not in after.text and position(after.text) is None
    assert 'sessionid=""' in after.header("set-cookie")  # Django tells the browser to drop it


def test_staff_see_the_admin_link_on_the_bracket_and_the_fragment_is_served_to_everyone(
        site, django_assert_num_queries):
    app, django = site
    event, round_two = big_bracket()
    entries = list(round_two.bracket_entries.select_related("player__user").order_by("seed")[:2])
    staff, student = entries[0].player.user, entries[1].player.user
    staff.is_staff = True
    staff.save()
    url = reverse("bracket", args=[event.slug, round_two.number])
    as_staff, as_student = cookies_of(staff), cookies_of(student)
    first_staff, first_student = request(app, url, as_staff), request(app, url, as_student)
    request(app, url)
    calls = django.calls
    with django_assert_num_queries(0):
        got_staff, got_student = request(app, url, as_staff), request(app, url, as_student)
    assert django.calls == calls
    assert ">Admin</a>" in got_staff.text and staff.username in got_staff.text and student.username not in got_staff.text
    assert ">Admin</a>" not in got_student.text and student.username in got_student.text
    assert without_tokens(got_staff.text) == without_tokens(first_staff.text)
    assert without_tokens(got_student.text) == without_tokens(first_student.text)
    assert "private" in got_student.header("cache-control")

    fragment = reverse("bracket_fragment", args=[event.slug, round_two.number])
    first = request(app, fragment, as_student)
    calls = django.calls
    with django_assert_num_queries(0):
        for cookies in (as_staff, as_student, None, {**as_student, "messages": "x"}):
            assert request(app, fragment, cookies).text == first.text
    assert django.calls == calls and "<html" not in first.text


def test_messages_cookie_missing_csrf_cookie_and_unknown_sessions_go_through_django(site, alice_reader):
    app, django = site
    alice, url, as_alice = alice_reader
    request(app, url)
    request(app, url, as_alice)
    cases = [
        ({**as_alice, "messages": "nonsense"}, True),  # pending messages: Django shows (and clears) them
        ({"sessionid": as_alice["sessionid"]}, True),  # no CSRF cookie yet: Django sets one
        ({"sessionid": "no-such-session", "csrftoken": as_alice["csrftoken"]}, False),
    ]
    for cookies, logged_in in cases:
        for _ in range(2):
            calls = django.calls
            got = request(app, url, cookies)
            assert django.calls == calls + 1, cookies
            assert (alice.user.username in got.text) is logged_in and ("Log in" in got.text) is not logged_in
    assert 'sessionid=""' in request(app, url, cases[2][0]).header("set-cookie")
    for _ in range(2):  # a search: Django, once per request (no public page fetched for it)
        calls = django.calls
        found = request(app, url, as_alice, query="q=P0003")
        assert django.calls == calls + 1 and alice.user.username in found.text and "search-results" in found.text
    # The same session with another CSRF cookie (a token for that one is needed): Django once, then stored.
    other = {"sessionid": as_alice["sessionid"], "csrftoken": _get_new_csrf_string()}
    calls = django.calls
    texts = [request(app, url, other).text for _ in range(2)]
    assert django.calls == calls + 1
    assert {_unmask_cipher_token(TOKEN.search(text).group(1)) for text in texts} == {other["csrftoken"]}


def test_an_expired_session_is_checked_again_after_reader_seconds(site, alice_reader, settings):
    app, django = site
    alice, url, as_alice = alice_reader
    request(app, url, as_alice)
    assert alice.user.username in request(app, url, as_alice).text
    Session.objects.filter(session_key=as_alice["sessionid"]).update(expire_date=timezone.now())
    settings.PAGE_CACHE_READER_SECONDS = 0  # the stored session's time is up
    calls = django.calls
    got = request(app, url, as_alice)
    assert django.calls == calls + 1 and alice.user.username not in got.text and "Log in" in got.text


def test_a_reader_sees_their_new_position_after_a_hand_is_recorded(site, django_capture_on_commit_callbacks):
    app, django = site
    event, players, tables = ranked_event(8)
    game = Game.objects.get(table=tables[1].table)
    seats = list(Seat.objects.filter(table=tables[1].table).order_by("number"))
    me = seats[2].player
    url = reverse("leaderboard", args=[event.slug])
    as_me = cookies_of(me.user)
    request(app, url, as_me)
    assert position(request(app, url, as_me).text)[1] == 0
    with django_capture_on_commit_callbacks(execute=True):
        results.record_hand(game, 2, seats[2].pk, dict(zip([s.pk for s in seats], [5, 6, 0, 7], strict=True)),
                            None, "played offline")
    assert position(request(app, url, as_me).text)[1] == 18  # a change made here: the reader's request is Django's
    assert position(request(app, url, as_me).text)[1] == 18


def test_a_reader_request_through_django_costs_pinned_queries(site, django_assert_num_queries):
    app, _ = site
    event, players, _ = ranked_event(250)
    url = reverse("leaderboard", args=[event.slug])
    request(app, url)
    as_reader = cookies_of(players[5].user)
    # the version check, the session, the user, the reader's player row
    with django_assert_num_queries(4):
        assert position(request(app, url, as_reader).text)[2] == players[5].pk
    with django_assert_num_queries(0):
        assert position(request(app, url, as_reader).text)[2] == players[5].pk


def age(reader_key, fraction):
    page_cache._readers[reader_key].checked -= page_cache.reader_seconds() * fraction
    return page_cache._readers[reader_key].checked


@pytest.mark.parametrize("change", ["session deleted", "staff no more", "password changed", "deactivated"])
def test_a_session_is_checked_again_ahead_of_time_and_forgotten_once_changed(site, alice_reader, change):
    """Parts whose session was checked more than half READER_SECONDS ago are served while Django's session
    and auth code check it again in the background (no page rendered); a session that is gone (a logout in
    another process) or whose user changed is forgotten by that check, and the next request is Django's."""
    app, django = site
    alice, url, as_alice = alice_reader
    alice.user.is_staff = True
    alice.user.save()
    request(app, url, as_alice)
    (reader_key,) = page_cache._readers
    aged = age(reader_key, 0.6)
    calls = django.calls
    assert alice.user.username in request(app, url, as_alice).text  # served; the session checked meanwhile
    assert django.calls == calls and django.session_checks == 1 and page_cache._readers[reader_key].checked > aged
    assert alice.user.username in request(app, url, as_alice).text and django.session_checks == 1

    if change == "session deleted":  # logged out elsewhere
        Session.objects.filter(session_key=as_alice["sessionid"]).delete()
    elif change == "staff no more":
        alice.user.is_staff = False
        alice.user.save()
    elif change == "password changed":
        alice.user.set_password("another-Long-pass-1")
        alice.user.save()
    else:
        alice.user.is_active = False
        alice.user.save()
    age(reader_key, 0.6)
    request(app, url, as_alice)  # still within READER_SECONDS: served, and the check sees the change
    assert django.session_checks == 2 and reader_key not in page_cache._readers
    after = request(app, url, as_alice)
    assert django.calls == calls + 1 and ">Admin</a>" not in after.text
    assert (alice.user.username in after.text) is (change == "staff no more")


def test_after_a_change_a_readers_position_is_renewed_without_django_once_the_process_holds_the_data(
        site, django_capture_on_commit_callbacks, django_assert_num_queries):
    app, django = site
    event, players, tables = ranked_event(250)
    game = Game.objects.get(table=tables[1].table)
    seats = list(Seat.objects.filter(table=tables[1].table).order_by("number"))
    alice, bob = seats[2].player, players[200]
    url = reverse("leaderboard", args=[event.slug])
    as_alice, as_bob = cookies_of(alice.user), cookies_of(bob.user)
    request(app, url)
    before_alice, before_bob = position(request(app, url, as_alice).text), position(request(app, url, as_bob).text)
    with django_capture_on_commit_callbacks(execute=True):
        results.record_hand(game, 2, seats[2].pk, dict(zip([s.pk for s in seats], [25, 26, 0, 27], strict=True)),
                            None, "played offline")
    assert "Log in" in request(app, url).text  # a reader without a session: the new page is stored

    calls = django.calls
    assert position(request(app, url, as_alice).text) == before_alice  # served; Django renders her part meanwhile
    assert django.calls == calls + 1
    now_alice = position(request(app, url, as_alice).text)
    assert now_alice[1] == before_alice[1] + 78 and now_alice[0] < before_alice[0] and django.calls == calls + 1

    with django_assert_num_queries(0):  # Bob's part for the new version, rendered by the page cache itself
        now_bob = position(request(app, url, as_bob).text)
    assert django.calls == calls + 1
    direct = Client()
    direct.cookies.load(as_bob)
    assert now_bob == position(direct.get(url).content.decode()) != before_bob  # what Django gives him


def test_a_session_check_costs_two_queries_and_says_who_the_reader_is(django_assert_num_queries):
    event, players, _ = ranked_event(8)
    user = players[3].user
    session = cookies_of(user)["sessionid"]
    with django_assert_num_queries(2):  # the session, the user
        assert page_parts.session_reader(session) == f"{user.pk} 0 {user.username}"
    with django_assert_num_queries(1):
        assert page_parts.session_reader("no-such-session") is None
