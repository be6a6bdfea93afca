"""A real headless Chromium: the organizer adds a no-show back on "Plan next round", with a reason."""

import pytest

from tests.tournament.bracket_factories import played_first_round
from tests.tournament.organizer_factories import PASSWORD
from tests.tournament.participation_factories import bots_played, table_players
from tournament.models import AuditEntry, Game, Player, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASON = "Phone died; played on paper with the judge"


def test_the_organizer_adds_a_no_show_back_with_a_reason(live_server, page):
    event, organizer, round_one = played_first_round(16)
    game = Game.objects.filter(table__round=round_one).order_by("table__number").first()
    bots_played(game)  # table 1's students never opened their table
    kept = Player.objects.get(pk=table_players(game)[0])

    page.set_viewport_size({"width": 1280, "height": 900})  # an organizer at a laptop
    page.goto(f"{live_server.url}/admin/login/?next=/admin/tournament/event/{event.pk}/next-round/")
    page.fill("#id_username", organizer.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    summary = page.locator("#participation").inner_text()
    assert "12 played, 4 no-shows" in summary and kept.display_name in summary

    page.fill("#id_field", "12")
    page.fill("#id_advance", "")
    page.check(f"#id_add_back_{kept.pk}")
    page.click("input[type=submit][value=Preview]")
    assert f"Give a reason for adding {kept.display_name} back" in page.locator("#add-back").inner_text()
    assert page.locator("input[name=confirm]").count() == 0

    assert page.is_checked(f"#id_add_back_{kept.pk}"), "the box stays ticked"
    page.fill(f"#id_add_back_reason_{kept.pk}", REASON)
    page.click("input[type=submit][value=Preview]")
    row = page.locator(f'#field-list tr[data-player="{kept.pk}"]')
    assert row.get_attribute("class") == "in" and f"no-show added back: {REASON}" in row.inner_text()
    page.click("input[name=confirm]")
    page.wait_for_url("**/bracket/")
    round_two = Round.objects.get(event=event, number=2)
    assert round_two.bracket_entries.filter(player=kept).exists()
    entry = AuditEntry.objects.get(event=event, action="next_round.add_back")
    assert (entry.actor, entry.reason, entry.changes["player"]) == (organizer, REASON, kept.pk)
