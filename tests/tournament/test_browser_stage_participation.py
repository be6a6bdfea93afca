"""The organizer (a laptop-sized page in Chromium) runs a bracket where a no-show's takeover bot went out
first at a stage-1 table: the record-hand form shows who took part live and "did not play", the bracket page
sends the player who took part on, and the live round offers reserves for a seat, pausing with a reason.
The students' moves are driven through the services (stored as the live table stores them); what they see is
checked on phone-sized pages: after stage 1 the no-show's "My event" says she is out with her place and the
player who took part is told she goes on (the places after the final: ``test_browser_results``)."""

import pytest
from django.urls import reverse

from tests.tournament.bracket_factories import bracket_round, finish_table, stage_game, stage_tables
from tests.tournament.event_day_browsers import PHONE
from tests.tournament.participation_factories import played_live_except
from tests.tournament.test_browser_live_round import cookie_for
from tests.tournament.test_browser_results import my_event_step
from tournament.models import Player, Seat
from tournament.services import bracket_stages, final_places

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_no_shows_bot_wins_a_stage_table_and_the_player_who_took_part_goes_on(live_server, chromium):
    event, organizer, round_two = bracket_round()
    members = stage_tables(round_two, 1)[0]
    absent, first_player = (Player.objects.get(pk=pk) for pk in members[:2])
    game = stage_game(round_two, 1, 1)
    played_live_except(game, {absent.pk})
    seats = {s.player_id: s for s in Seat.objects.filter(table_id=game.table_id)}
    desk = chromium.new_context(viewport={"width": 1280, "height": 900})
    phone_context = chromium.new_context(viewport=PHONE, has_touch=True)
    desk.add_cookies([cookie_for(organizer, live_server.url)])
    try:
        page = desk.new_page()
        page.set_default_timeout(20_000)
        page.goto(live_server.url + reverse("admin:tournament_game_record_hand", args=[game.pk]))
        row = page.locator(f'#attendance tr[data-seat="{seats[absent.pk].pk}"]')
        assert "no-show" in row.locator(".live-attendance").inner_text()
        assert row.get_by_role("checkbox", name=f"{absent.display_name} did not play").is_checked()
        took = page.locator(f'#attendance tr[data-seat="{seats[first_player.pk].pk}"]')
        assert "took part" in took.locator(".live-attendance").inner_text()
        assert not took.get_by_role("checkbox").is_checked()
        # Her bot went out first and scores the hand; the others' cards are on the paper sheet.
        page.select_option("#id_winner", str(seats[absent.pk].pk))
        for left, pk in zip((500, 510, 520), members[1:], strict=True):
            page.fill(f"#id_points_{seats[pk].pk}", str(left))
        page.fill("#id_reason", "from the table's paper sheet")
        row.get_by_role("checkbox").uncheck()  # without a reason she stays a no-show: the form says so
        page.get_by_role("button", name="Save hand").click()
        page.get_by_text("did not take part at the live table").wait_for()
        page.locator(f'#attendance tr[data-seat="{seats[absent.pk].pk}"]').get_by_role("checkbox").check()
        page.get_by_role("button", name="Save hand").click()
        page.get_by_text("Hand 1 recorded. The game is finished.").wait_for()

        for number, table in enumerate(stage_tables(round_two, 1)[1:], start=2):
            finish_table(stage_game(round_two, 1, number), table, organizer)
        page.goto(live_server.url + reverse("admin:tournament_event_bracket", args=[event.pk, round_two.pk]))
        table_one = page.locator("#s1-table-1")
        assert "(no-show)" in table_one.locator("tr", has_text=absent.display_name).inner_text()
        assert "goes on" in table_one.locator("tr", has_text=first_player.display_name).inner_text()
        assert "goes on" not in table_one.locator("tr", has_text=absent.display_name).inner_text()
        final = page.locator("#s2-table-1")
        assert final.get_by_text(first_player.display_name).count() == 1
        assert final.get_by_text(absent.display_name).count() == 0

        # The students, on a phone: she is out with her place so far, the player who took part goes on.
        phone = phone_context.new_page()
        phone.set_default_timeout(20_000)
        kind, text = my_event_step(phone, cookie_for(absent.user, live_server.url), live_server.url, event)
        assert kind == "out"
        assert (f"You are out at stage 1: your place so far is {final_places.place_of(event, absent.pk)} of "
                f"{Player.objects.filter(event=event).count()}.") in text
        kind, text = my_event_step(phone, cookie_for(first_player.user, live_server.url), live_server.url, event)
        assert kind == "seated" and "You are through: round 2, stage 2." in text

        # The final: a seat nobody took yet can go to a reserve, a player out at stage 1.
        bracket_stages.start_stage(round_two, 2, organizer)
        page.goto(live_server.url + reverse("admin:tournament_round_live", args=[round_two.pk]))
        final_seat = Seat.objects.get(table__round=round_two, table__stage=2, number=0)
        choice = page.locator(f'select[name="replacement_{final_seat.pk}"]')
        offered = choice.locator("option").all_inner_texts()
        assert f"{absent.display_name} (reserve)" in offered and offered[-1] == "a bot"
        reserve = Player.objects.get(pk=stage_tables(round_two, 1)[1][1])
        choice.select_option(str(reserve.pk))
        page.fill(f'input[name="reason_seat_{final_seat.pk}"]', "did not come to the final")
        page.locator(f'button[value="replace:{final_seat.pk}"]').click()
        page.get_by_text(f"Table 1, seat 1: {reserve.display_name} plays it now.").wait_for()
        final_game = stage_game(round_two, 2, 1)
        page.locator(f'button[value="pause:{final_game.pk}"]').click()
        page.get_by_text("Say why table 1 is paused").wait_for()
        page.fill(f'input[name="reason_{final_game.pk}"]', "projector swap")
        page.locator(f'button[value="pause:{final_game.pk}"]').click()
        page.get_by_text("Table 1 paused.").wait_for()

    finally:
        desk.close()
        phone_context.close()
