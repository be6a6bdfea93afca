"""A student arriving late at their tournament table, in a real headless Chromium on a phone against a live
ASGI server: the table waited for them (the bots played on, nothing was played for them), everyone
watching saw the arrival countdown, and the student finds a full turn clock on their first turn."""

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from games import engine
from games.models import LiveGame, LiveMove
from games.services import timers
from games.services.seats import turn_game_seat
from tests.games.factories import make_tournament_game
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TURN = 20


@pytest.fixture
def late_table(live_asgi):
    """A student and two bots; a minute after the round started (well past a 20 s turn) the bots have
    played up to the student, who has not come yet. Made before the browser starts."""
    game, (student,) = make_tournament_game(1, 2, turn_seconds=TURN, arrival_grace_seconds=300,
                                            missed_turns_before_bot=1)
    live = live_game_for(game, seed=5)
    later = timezone.now() + timedelta(seconds=60)
    for _ in range(50):  # the sweeper, a minute on: the bots move; the student's seat is awaited
        if not timers.sweep_once(later):
            break
    live = LiveGame.objects.get(pk=live.pk)
    assert turn_game_seat(engine.Game.from_dict(live.state), live.hand_seats) == 0, "the student is on turn"
    client = Client()
    client.force_login(student)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
              "url": live_asgi.url}
    return live, student, cookie


def seconds(text: str) -> int:
    minutes, secs = re.fullmatch(r"(\d+):(\d\d)", text.strip()).groups()
    return int(minutes) * 60 + int(secs)


def test_a_student_arriving_late_finds_a_full_turn_clock(live_asgi, late_table, chromium, page):
    live, student, cookie = late_table
    name = student.players.get().display_name
    # A spectator sees the table waiting for the student, with the countdown.
    watcher = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    watcher.goto(f"{live_asgi.url}{live.get_absolute_url()}")
    wait = watcher.locator("#arrival-wait")
    wait.wait_for(state="visible")
    text = wait.inner_text()
    assert text.startswith(f"Waiting for {name} to arrive: ")
    assert 200 < seconds(text.rsplit(" ", 1)[1]) <= 300

    # The student arrives on their phone: it is their turn, with the whole turn time.
    page.context.add_cookies([cookie])
    page.goto(f"{live_asgi.url}{live.get_absolute_url()}")
    page.locator("#turn-line.my-turn").wait_for()
    clock = page.locator("#countdown")
    clock.wait_for(state="visible")
    assert TURN - 3 <= seconds(clock.inner_text()) <= TURN
    assert page.locator("#arrival-wait").is_hidden()
    assert not LiveMove.objects.filter(live_game=live, seat=0).exclude(actor=LiveMove.Actor.SYSTEM).exists()
    assert "Time ran out" not in page.locator("#log-list").inner_text()
    # everyone watching hears of the arrival: the countdown goes away
    wait.wait_for(state="hidden")
    watcher.context.close()
