"""Every public, student and table page passes an axe-core audit (no serious or critical violation) at a
phone's size (390x844) and a laptop's (1280x800), in a real headless Chromium against the live ASGI site;
and with reduced motion asked for, nothing on them moves. At the phone's size every button, link styled as
a button and form control of a student's page is a 44 px touch target.

One test, one browser and one set of data (the demo: an event with a finished round, a live bracket, an
exhibition table and an event open for registration), each page audited at both sizes; the failure lists
every violation of every page at once."""

import pytest
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from games.models import LiveGame
from games.services.lifecycle import start_practice_game
from notifications.mail import unsubscribe_token
from tests.a11y_audit import audit, describe, moving, require_axe, small_targets
from tests.tournament.organizer_factories import make_user
from tournament.demo_bot_league import LEAGUE_SLUG
from tournament.demo_data import EVENT_SLUG, NEXT_EVENT_SLUG, load_demo
from tournament.models import Event, Player, Round, Seat
from tournament.services.email_verification import verification_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
# Besides those read with the student's session: the pages a student opens to get one.
ACCOUNT_PAGES = {"sign up", "log in", "password reset", "password reset sent", "new password"}


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def new_student_link() -> str:
    """The link mailed to a student who just signed up (it verifies once)."""
    user = make_user()
    user.email = f"{user.username}@students.example"
    user.save(update_fields=["email"])
    return verification_path(user)


@pytest.fixture
def site(live_asgi):
    """The demo, a student seated at one of its live bracket tables (with a practice game of their own),
    and the pages to audit: (name, path, who reads it: None for anyone, or a session cookie[, the status it
    answers, when not 200]). A path may be a function, called for each visit: a link that works once."""
    require_axe()
    load_demo()
    event = Event.objects.get(slug=EVENT_SLUG)
    bracket = Round.objects.get(event=event, kind=Round.Kind.BRACKET)
    live = (LiveGame.objects.filter(kind=LiveGame.Kind.TOURNAMENT, game__table__round=bracket)
            .select_related("game__table").order_by("pk").first())
    seat = Seat.objects.filter(table=live.game.table, player__isnull=False).select_related("player__user").first()
    student = seat.player.user
    practice = start_practice_game(student, "uno-official", 2, seed=5)
    finished_table = Seat.objects.filter(table__round__event=event, table__round__number=1).first().table
    player = Player.objects.filter(event=event).order_by("pk").first()
    me = session_of(student)
    pages = [
        ("home", "/", None),
        ("event list", reverse("event_list"), None),
        ("leaderboards", reverse("leaderboards"), None),
        ("event", reverse("event_detail", args=[event.slug]), None),
        ("event leaderboard", reverse("leaderboard", args=[event.slug]), None),
        ("round leaderboard", reverse("round_leaderboard", args=[event.slug, 1]), None),
        ("bracket", reverse("bracket", args=[event.slug, bracket.number]), None),
        ("watch list", reverse("watch", args=[event.slug]), None),
        ("score sheet", reverse("table_detail", args=[event.slug, finished_table.pk]), None),
        ("player", reverse("player_detail", args=[event.slug, player.pk]), None),
        ("table as spectator", live.get_absolute_url(), None),
        ("table as player", live.get_absolute_url(), me),
        ("my event", reverse("my_event", args=[event.slug]), me),
        ("sign up", reverse("signup"), None),
        ("log in", reverse("login"), None),
        ("password reset", reverse("password_reset"), None),
        ("register", reverse("register", args=[NEXT_EVENT_SLUG]), me),
        ("account e-mail", reverse("account_email"), me),
        ("access tokens", reverse("access_tokens:tokens"), me),
        ("play", reverse("games:play"), me),
        ("practice", reverse("games:practice"), me),
        ("practice table", practice.get_absolute_url(), me),
        ("verify a shuffle", reverse("games:verify"), None),
        ("offline", reverse("offline"), None),
        ("mail stopped", reverse("notifications:mail_off", args=[unsubscribe_token(student.pk)]), None),
        ("withdraw", reverse("withdraw", args=[event.slug]), me),
        ("e-mail verified", new_student_link, None),
        ("e-mail link not valid", reverse("verify_email_confirm", args=["MA", "bad-token"]), None, 400),
        ("password reset sent", reverse("password_reset_done"), None),
        ("new password", reverse("password_reset_confirm", args=[
            urlsafe_base64_encode(force_bytes(student.pk)), default_token_generator.make_token(student)]), None),
    ]
    pages += [
        ("results", reverse("results", args=[event.slug]), None),
        ("bot league", reverse("event_detail", args=[LEAGUE_SLUG]), None),
        ("writing a bot", reverse("bot_docs", args=["bots"]), None),
        ("the protocol", reverse("bot_docs", args=["protocol"]), None),
        ("ratings", reverse("ratings:ladders"), None),
        ("ladder", reverse("ratings:ladder", args=["uno"]), None),
        ("rating page", reverse("ratings:player", args=[student.pk]), None),
        ("replay", reverse("games:replay", args=[live.pk]), None),
    ]
    return pages


def test_every_page_passes_axe_at_phone_and_laptop_sizes(live_asgi, site, chromium):
    found = []
    audited = measured = 0
    for size, viewport in SIZES.items():
        # The system asks for reduced motion: nothing on any page may move.
        anonymous = chromium.new_context(viewport=viewport, reduced_motion="reduce")
        student = chromium.new_context(viewport=viewport, reduced_motion="reduce")
        for name, path, cookie, *status in site:
            path = path() if callable(path) else path
            context = anonymous
            if cookie:
                context = student
                context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_asgi.url}])
            page = context.new_page()
            page.set_default_timeout(20_000)
            response = page.goto(live_asgi.url + path)
            assert response.status == (status or [200])[0], f"{name} ({path}) answered {response.status}"
            assert "script-src" in response.headers["content-security-policy"]  # axe runs under the policy
            if page.locator("#table").count():
                page.locator("#table.ready").wait_for()  # drawn from the socket's first state
            page.wait_for_load_state("networkidle")
            violations = audit(page)
            if still_moving := moving(page):
                found.append(f"{name} ({size}, {path}): moves with reduced motion asked for: {still_moving[:5]}")
            audited += 1
            if violations:
                found.append(describe(f"{name} ({size}, {path})", violations))
            if size == "phone" and (cookie or name in ACCOUNT_PAGES):
                if small := small_targets(page):  # a student's thumb on every button, link-button and field
                    found.append(f"{name} ({size}, {path}): tap targets under 44 px: {small}")
                measured += 1
            page.close()
        anonymous.close()
        student.close()
    assert audited == 2 * len(site) and measured > len(ACCOUNT_PAGES)
    assert not found, "serious or critical accessibility violations:\n" + "\n".join(found)
