"""Real headless Chromium against the live ASGI server: the end of an event as people see it.

A student on a phone (390x844) is out at stage 1 of the bracket: the moment the organizer (at a laptop)
records their table's hand, "My event" says so with their place so far, without a reload and while the
other tables still play. Once the final is decided the champion's phone says they won and leads to the
results page's podium; the event leaderboard, the round-two leaderboard and every finalist's "My event" (on a
phone) show the places ``final_places`` computes, champion first; the organizer opens the results page and downloads the certificates from the
control room's last step."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.tournament.bracket_factories import finish_table, stage_game, stage_tables
from tests.tournament.event_day_browsers import DESKTOP, PHONE
from tests.tournament.organizer_factories import pause_for_paper
from tests.tournament.places_factories import bracket_started
from tests.tournament.test_browser_my_event import cookie_of
from tournament.models import Player
from tournament.services import bracket_stages, final_places, results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# Made before the browser starts: the ORM runs before Playwright starts its event loop.
@pytest.fixture
def stage_one_running(live_asgi):
    event, organizer, _one, bracket, _no_shows = bracket_started()
    game = stage_game(bracket, 1, 1)
    pause_for_paper(game, organizer)  # the organizer records its hand from the score sheet
    seats = results.game_seats(game)
    return {"event": event, "organizer": organizer, "bracket": bracket, "game": game, "seats": seats,
            "loser": seats[-1].player, "organizer_cookie": cookie_of(organizer, live_asgi.url),
            "loser_cookie": cookie_of(seats[-1].player.user, live_asgi.url)}


def my_event_step(phone, cookie: dict, base: str, event) -> tuple[str, str]:
    """(the step's kind, its text) on "My event", opened on a shared phone page with a student's cookie."""
    phone.context.clear_cookies()
    phone.context.add_cookies([cookie])
    phone.goto(base + reverse("my_event", args=[event.slug]))
    step = phone.locator("#my-event-live .next-step")
    return step.get_attribute("data-step"), step.inner_text()


def leaderboard_places(page, url: str) -> list[tuple[int, str]]:
    """(player id, place) of every row of a leaderboard page, top first."""
    page.goto(url)
    return [(int(row.get_attribute("data-player-id")), row.locator("td").first.inner_text().strip())
            for row in page.locator("#leaderboard tbody tr[data-player-id]").all()]


def test_my_event_ends_at_once_and_the_results_page_shows_the_podium(live_asgi, stage_one_running, chromium):
    data = stage_one_running
    event, bracket, game, seats = data["event"], data["bracket"], data["game"], data["seats"]
    base = live_asgi.url

    phone = chromium.new_context(viewport=PHONE, has_touch=True)
    phone.add_cookies([data["loser_cookie"]])
    student = phone.new_page()
    student.set_default_timeout(20_000)
    student.goto(f"{base}/events/{event.slug}/me/")
    student.get_by_text("This page updates by itself.").wait_for()
    assert student.locator("#my-event-live .next-step").get_attribute("data-step") == "play"
    student.evaluate("window.notReloaded = true")

    laptop = chromium.new_context(viewport=DESKTOP)
    laptop.add_cookies([data["organizer_cookie"]])
    organizer = laptop.new_page()
    organizer.set_default_timeout(20_000)
    organizer.goto(f"{base}/admin/tournament/game/{game.pk}/record-hand/?hand=1")
    organizer.select_option('select[name="winner"]', str(seats[0].pk))
    for index, seat in enumerate(seats):
        organizer.fill(f'input[name="points_{seat.pk}"]', str(0 if index == 0 else 500 + 10 * index))
    organizer.fill('textarea[name="reason"]', "score sheet of table 1")
    organizer.click('input[type="submit"][value="Save hand"]')
    # Nothing was played live here: the form asks who played, and the browser holds the hand until told.
    first_choice = organizer.locator(f'input[name="did_not_play_{seats[0].pk}"]').first
    assert first_choice.evaluate("radio => radio.validity.valueMissing") is True
    assert organizer.input_value('textarea[name="reason"]') == "score sheet of table 1"
    for seat in seats:
        organizer.get_by_role("radiogroup", name=f"{seat.label} played?").get_by_label("played", exact=True).check()
    organizer.click('input[type="submit"][value="Save hand"]')
    organizer.wait_for_load_state()

    # The other three tables still play: the student is told at once where they ended, nothing to wait for.
    out = student.locator('#my-event-live .next-step[data-step="out"]')
    out.wait_for()
    assert "You are out at stage 1: your place so far is 16 of 24." in out.inner_text()
    assert student.evaluate("window.notReloaded") is True, "updated without a reload"
    assert "appears here" not in out.inner_text()

    # The rest of the bracket is played; the champion opens "My event" on their phone.
    for number, members in enumerate(stage_tables(bracket, 1)[1:], start=2):
        finish_table(stage_game(bracket, 1, number), members, data["organizer"])
    bracket_stages.start_stage(bracket, 2, data["organizer"])
    final = stage_tables(bracket, 2)[0]
    finish_table(stage_game(bracket, 2, 1), final, data["organizer"])
    champion = Player.objects.get(pk=final[0])
    winner_phone = chromium.new_context(viewport=PHONE, has_touch=True)
    winner_phone.add_cookies([cookie_of(champion.user, base)])
    winner = winner_phone.new_page()
    winner.set_default_timeout(20_000)
    winner.goto(f"{base}/events/{event.slug}/me/")
    won = winner.locator('#my-event-live .next-step[data-step="won"]')
    won.wait_for()
    assert f"You won {event.name}!" in won.inner_text()
    assert winner.locator("#my-certificate").is_visible()
    winner.get_by_role("link", name="See the results").click()
    winner.locator("#podium").wait_for()
    assert winner.locator("#podium li").first.inner_text().endswith(champion.display_name)
    width = winner.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the results page fits the phone"

    # Every page agrees with final_places, the champion first.
    expected = [(row.player_id, row.place_label) for row in final_places.event_places(event)]
    assert expected[0] == (champion.pk, "1") and {pk for pk, _ in expected[:4]} == set(final)
    in_bracket = {pk for table in stage_tables(bracket, 1) for pk in table}
    assert leaderboard_places(organizer, base + reverse("leaderboard", args=[event.slug])) == expected
    assert leaderboard_places(organizer, base + reverse("round_leaderboard", args=[event.slug, bracket.number])) == [
        row for row in expected if row[0] in in_bracket]
    places = dict(expected)
    for finalist in Player.objects.filter(pk__in=final[1:]):
        kind, text = my_event_step(winner, cookie_of(finalist.user, base), base, event)
        assert f"you placed {places[finalist.pk]} of {len(expected)}." in text, text

    # The organizer: the control room's last step links the results and the certificates.
    organizer.goto(f"{base}/admin/tournament/event/{event.pk}/control-room/")
    organizer.get_by_role("link", name="Results page").click()
    organizer.locator("#podium").wait_for()
    assert organizer.locator("#placement tbody tr").count() == 24
    organizer.go_back()
    with organizer.expect_download() as download:
        organizer.get_by_role("link", name="Certificates and results sheet (PDF)").click()
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(open(download.value.path(), "rb").read())).pages)
    assert champion.display_name in text and "1st place" in text and data["loser"].display_name in text
    for context in (phone, laptop, winner_phone):
        context.close()
