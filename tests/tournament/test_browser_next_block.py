"""A real headless Chromium on a partner rotation's finished block: the table page (live ASGI server, real
websocket) learns the game is over, asks where the next block is played and shows the player the way;
following the link opens their next live table, as a player."""

import re

import pytest
from django.conf import settings
from django.test import Client

from games.models import LiveGame
from tests.tournament.bracket_factories import played_first_round
from tests.tournament.organizer_factories import pause_for_paper
from tournament.generators.brackets import PARTNERS_ROTATION
from tournament.models import Game, Seat
from tournament.services import bracket_stages, next_round, results
from tournament.services.next_round import NextRoundOptions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# Data is made in a fixture listed before `page`: the ORM runs before Playwright starts its event loop in
# this thread (services that broadcast over the channel layer cannot be called from inside it).
@pytest.fixture
def finished_block(live_asgi):
    """A four-player rotation final whose block 1 was finished (by hand): its player, both live tables."""
    event, organizer, _ = played_first_round(8, min_size=4, max_size=4)
    options = NextRoundOptions(field=4, advance=[1], formats=[PARTNERS_ROTATION], draw_seed=3)
    plan = next_round.plan_next_round(event, options)
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    first = Game.objects.get(table__round=round_two, number=1)
    pause_for_paper(first, organizer)
    seats = results.game_seats(first)
    for number in range(1, 5):
        left = {s.pk: 0 if i == 0 else 9 for i, s in enumerate(seats)}
        results.record_hand(first, number, seats[0].pk, left, organizer, "score sheet")
    second = Game.objects.get(table__round=round_two, number=2)
    me = first.seat_order[0]
    user = Seat.objects.select_related("player__user").get(table=first.table, number=me).player.user
    order = second.seat_order
    partner = Seat.objects.select_related("player").get(table=first.table, number=order[(order.index(me) + 2) % 4])
    client = Client()
    client.force_login(user)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
              "url": live_asgi.url}
    return {"cookie": cookie, "first": LiveGame.objects.get(game=first), "second": LiveGame.objects.get(game=second),
            "table": first.table.number, "partner": partner.label}


def test_a_player_on_a_finished_block_follows_the_link_to_their_next_table(live_asgi, finished_block, page):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.context.add_cookies([finished_block["cookie"]])
    page.goto(f"{live_asgi.url}/play/tables/{finished_block['first'].pk}/")
    assert page.locator("#table").get_attribute("data-role") == "player"
    link = page.locator("#next-block a.next-block-link")
    link.wait_for()
    box = page.locator("#next-block").inner_text()
    assert "Next block (2 of 3):" in box and f"your partner: {finished_block['partner']}" in box
    assert link.inner_text() == f"table {finished_block['table']} — go"
    assert page.locator("#banner").inner_text().startswith("Game over")
    assert page.locator("#role-badge").inner_text() == "Game over"  # not "Playing" any more
    link.click()
    page.wait_for_url(re.compile(rf"/play/tables/{finished_block['second'].pk}/$"))
    assert page.locator("#table").get_attribute("data-role") == "player"
    page.wait_for_selector("#conn-status[data-status=open]")
    page.wait_for_selector("#hand .card")
    assert page.locator("#next-block").is_hidden(), "the new block is being played: nothing to send on"
    assert not errors, errors
