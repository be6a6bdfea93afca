"""A real headless Chromium: the organizer corrects a stage-1 hand after the final has a hand scored, and
the record-hand page says the correction is refused and what was played in the final."""

import pytest
from django.conf import settings
from django.test import Client

from tests.tournament.bracket_factories import finish_table, played_first_round, stage_game, stage_tables
from tests.tournament.organizer_factories import pause_for_paper
from tournament.models import Hand
from tournament.services import advancing, bracket_stages, next_round, results
from tournament.services.next_round import NextRoundOptions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# Data is made in a fixture listed before `page`: the ORM runs before Playwright starts its event loop.
@pytest.fixture
def played_final(live_asgi):
    event, organizer, _ = played_first_round(16)
    options = NextRoundOptions(field=16, advance=[1], draw_seed=3)
    plan = next_round.plan_next_round(event, options)
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    for number, members in enumerate(stage_tables(round_two, 1), start=1):
        finish_table(stage_game(round_two, 1, number), members, organizer)
    advancing.advance_bracket(round_two)
    bracket_stages.start_stage(round_two, 2, organizer)
    final = stage_game(round_two, 2, 1)
    pause_for_paper(final, organizer)
    seats = results.game_seats(final)
    results.record_hand(final, 1, seats[0].pk, {s.pk: 0 if i == 0 else 10 for i, s in enumerate(seats)},
                        organizer, "score sheet")
    game = stage_game(round_two, 1, 1)
    client = Client()
    client.force_login(organizer)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
              "url": live_asgi.url}
    return {"cookie": cookie, "game": game, "seats": results.game_seats(game)}


def test_the_organizer_is_told_why_a_stage_one_correction_is_refused(live_asgi, played_final, chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})  # the organizer's desk
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        context.add_cookies([played_final["cookie"]])
        game, seats = played_final["game"], played_final["seats"]
        page.goto(f"{live_asgi.url}/admin/tournament/game/{game.pk}/record-hand/?hand=1")
        page.select_option('select[name="winner"]', str(seats[1].pk))
        for index, seat in enumerate(seats):
            page.fill(f'input[name="points_{seat.pk}"]', "0" if index == 1 else "500")
        page.fill('textarea[name="reason"]', "the score sheet was misread")
        for seat in seats:  # a table played on paper: the organizer says who played
            page.check(f'input[name="did_not_play_{seat.pk}"][value="played"]')
        page.click('input[type="submit"][value="Save hand"]')
        page.wait_for_load_state()
        error = page.locator(".errorlist.nonfield").inner_text()
        assert "Refused: Stage 2 (the final) has been played already (1 hand scored at table 1)" in error
        assert "Undo what was played in stage 2 first" in error
    finally:
        context.close()
    assert Hand.objects.get(game=game, number=1).winner_id == seats[0].pk
