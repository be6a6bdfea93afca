"""A real headless Chromium as an organizer seating round 1: preview the seating, swap two players (the
preview shows them at each other's tables), confirm, and find the round created with exactly those tables."""

import pytest
from django.conf import settings
from django.test import Client

from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players
from tournament.models import Player, Round, RoundDraft, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# Data is made in a fixture listed before `page`: the ORM runs before Playwright starts its event loop.
@pytest.fixture
def organizer(live_asgi):
    event = make_event(min_table_size=3, max_table_size=4, target_score=100)
    make_players(event, 12, status=Player.Status.CHECKED_IN)
    user = make_organizer_of(event)
    client = Client()
    client.force_login(user)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
              "url": live_asgi.url}
    return {"event": event, "cookie": cookie}


def names_at(page, table: int) -> list[str]:
    return [text.removesuffix(" *").strip() for text in page.locator(f"#table-{table} li").all_inner_texts()]


def test_organizer_previews_swaps_two_players_and_confirms(live_asgi, organizer, page):
    event = organizer["event"]
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.context.add_cookies([organizer["cookie"]])
    page.goto(f"{live_asgi.url}/admin/tournament/event/{event.pk}/first-round/")
    page.get_by_role("spinbutton", name="Seed").fill("42")
    page.get_by_role("button", name="Preview seating").click()
    page.locator("#preview").wait_for()
    assert "12 players at 3 tables, seed 42" in page.locator("#preview").inner_text()
    before = {n: names_at(page, n) for n in (1, 2, 3)}
    assert [len(v) for v in before.values()] == [4, 4, 4]
    first, second = before[1][0], before[3][2]
    page.locator('#swap-form select[name="first"]').select_option(label=f"{first} · table 1")
    page.locator('#swap-form select[name="second"]').select_option(label=f"{second} · table 3")
    page.get_by_role("button", name="Swap").click()
    page.get_by_text("swapped seats").wait_for()
    after = {n: names_at(page, n) for n in (1, 2, 3)}
    assert after[1] == [second, *before[1][1:]]
    assert after[3] == [*before[3][:2], first, before[3][3]]
    assert after[2] == before[2]
    assert page.locator(".tables li.moved").count() == 2
    page.get_by_role("button", name="Confirm: create round 1 with this seating").click()
    page.get_by_text("Round 1 created with 3 tables (seed 42)").wait_for()
    assert "/admin/tournament/round/" in page.url
    round_ = Round.objects.get(event=event, number=1)
    seated = {n: [f"{s.player.display_name} ({s.player.roll_number})" for s in
                  Seat.objects.filter(table__round=round_, table__number=n).select_related("player").order_by("number")]
              for n in (1, 2, 3)}
    assert seated == after
    assert not RoundDraft.objects.filter(event=event).exists()
    assert not errors, errors
