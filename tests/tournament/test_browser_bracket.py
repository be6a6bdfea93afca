"""A real headless Chromium watches a bracket page while the final's game ends.

pytest-django's ``live_server`` serves HTTP only, so the page's websocket cannot open here; the page then
polls its bracket fragment every few seconds. This tests that fallback path end to end.
"""

import pytest

from tests.tournament.bracket_factories import finish_table, played_first_round, stage_game, stage_tables
from tournament.services import brackets
from tournament.services.brackets import NextRoundOptions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_bracket_page_updates_when_the_final_ends(live_server, page):
    event, organizer, _ = played_first_round(16)
    options = NextRoundOptions(field=16, advance=[1], draw_seed=4)
    round_two = brackets.create_bracket_round(event, options, brackets.plan_next_round(event, options).field_ids,
                                              organizer)
    brackets.start_stage(round_two, 1, organizer)
    for number, members in enumerate(stage_tables(round_two, 1), start=1):
        finish_table(stage_game(round_two, 1, number), members, organizer)
    brackets.start_stage(round_two, 2, organizer)
    final = stage_tables(round_two, 2)[0]

    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{live_server.url}/events/{event.slug}/rounds/2/bracket/")
    assert page.locator("#stage-2 .bracket-table").count() == 1
    assert page.locator("#champion").count() == 0
    # Phone: the stages are stacked, and a stage's tables scroll sideways instead of squeezing.
    first, second = page.locator("#stage-1").bounding_box(), page.locator("#stage-2").bounding_box()
    assert second["y"] > first["y"]
    assert page.evaluate("(() => { const s = document.querySelector('#stage-1 .stage-tables');"
                         " return s.scrollWidth > s.clientWidth; })()")

    finish_table(stage_game(round_two, 2, 1), final, organizer)
    page.locator("#champion").wait_for(timeout=15_000)
    champion = page.locator("#champion").inner_text()
    assert "Champion:" in champion
    assert page.locator("#stage-2 li.advanced").count() == 1
    assert "Updated at" in page.locator("#live-status").inner_text()
    assert all(url.startswith(live_server.url) or url.startswith("ws") for url in requests), requests


def test_projector_mode_puts_stages_side_by_side_in_large_type(live_server, page):
    event, organizer, _ = played_first_round(16)
    options = NextRoundOptions(field=16, advance=[1], draw_seed=4)
    brackets.create_bracket_round(event, options, brackets.plan_next_round(event, options).field_ids, organizer)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/events/{event.slug}/rounds/2/bracket/?projector=1")
    first, second = page.locator("#stage-1").bounding_box(), page.locator("#stage-2").bounding_box()
    assert second["x"] > first["x"] and abs(second["y"] - first["y"]) < 5
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.bracket-seats li')).fontSize)")
    assert size >= 20
