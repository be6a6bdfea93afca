"""The organizer's steps of the event-day test (tests/tournament/test_browser_event_day.py), at a laptop.

From the control room: import the eligibility list, open registration and check-in, check students in at
the desk, preview, confirm and start round one, follow it on the live round view and give it a time limit,
plan the final with its no-show left out, start it (the students play it on their phones) and mark the
event finished once the champion is known. The control room is a page, not live: steps reload it.
"""

import time
from pathlib import Path

from tests.tournament.event_day_browsers import DESKTOP, Day
from tests.tournament.event_day_student_steps import go_to_the_tables, play_to_the_end, see_the_hand_summary
from tournament.models import Event, Player


def state(page, key: str) -> str:
    return page.locator(f"#step-{key}").get_attribute("data-state")


def message(page) -> str:
    return page.locator(".messagelist").inner_text()


def control_room(day: Day, event: Event):
    day.organizer.goto(f"{day.url}/admin/tournament/event/{event.pk}/control-room/")
    return day.organizer


def import_the_list(day: Day, event: Event, csv: Path) -> None:
    page = day.organizer
    page.goto(f"{day.url}/admin/tournament/event/{event.pk}/change/")
    page.get_by_role("link", name="Control room").click()
    assert state(page, "list") == "now"
    day.snap(page, "01-control-room.png")
    page.get_by_role("link", name="Upload the eligibility list").click()
    page.set_input_files("#id_file", str(csv))
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name="Import").wait_for()
    day.snap(page, "02-eligibility-preview.png")
    page.get_by_role("button", name="Import").click()
    control_room(day, event)
    assert state(page, "list") == "done" and state(page, "registration") == "now"


def open_registration(day: Day, event: Event) -> None:
    page = day.organizer
    page.get_by_role("button", name="Open registration").click()
    assert "Registration is open." in message(page)


def open_check_in_at_the_desk(day: Day, event: Event, coming: list[str]) -> None:
    page = control_room(day, event)
    assert "Registered\n5" in page.locator("#step-registration").inner_text().replace("\t", "\n")
    day.snap(page, "03-control-room-registration.png")
    page.get_by_role("button", name="Open check-in").click()
    assert "Check-in is open." in message(page)
    page.get_by_role("link", name="Check students in").click()
    page.get_by_role("searchbox", name="Name or roll number").fill("CHE001")
    page.locator("#desk-results .desk-player").filter(has_text="Asha Sen").wait_for()
    page.get_by_role("searchbox", name="Name or roll number").fill("")
    page.get_by_role("button", name="Find").click()
    for name in coming:
        page.get_by_role("checkbox", name=f"Choose {name}").check()
    page.get_by_role("button", name="Check in the ticked players").click()
    assert f"{len(coming)} players checked in." in message(page)
    assert page.locator("#count-checked-in").inner_text() == str(len(coming))
    assert page.locator("#count-absent").inner_text() == "1"  # Kiran stayed at home
    day.snap(page, "04-checkin-desk.png")


def seat_round_one(day: Day, event: Event) -> None:
    page = control_room(day, event)
    assert state(page, "checkin") == "done" and state(page, "seated") == "now"
    page.get_by_role("link", name="Seat round 1").click()
    page.get_by_role("spinbutton", name="Seed").fill("7")
    page.get_by_role("button", name="Preview seating").click()
    page.locator("#preview").wait_for()
    day.snap(page, "05-seating-preview.png")
    page.get_by_role("button", name="Confirm: create round 1 with this seating").click()
    page.get_by_text("Round 1 created").wait_for()


def start_round_one(day: Day, event: Event) -> None:
    page = control_room(day, event)
    assert state(page, "seated") == "done" and state(page, "started") == "now"
    page.get_by_role("button", name="Start round 1").click()
    assert "Round 1 started." in message(page)
    assert state(page, "started") == "done" and state(page, "finished") == "now"


def follow_round_one(day: Day, event: Event) -> None:
    """From the control room to the round's live round view, which updates itself over its websocket:
    every seat away while nobody has come."""
    page = control_room(day, event)
    page.get_by_role("link", name="Follow round 1").click()
    page.locator('#live-status[data-live="open"]').wait_for(state="attached")
    assert page.locator("#live-table-1").is_visible()
    assert set(seat_states(day).values()) == {"away"}


def set_a_time_limit(day: Day, minutes: int) -> None:
    page = day.organizer
    page.get_by_role("spinbutton", name="Time limit in minutes from now").fill(str(minutes))
    page.locator('button[value="time_limit"]').click()
    page.locator('#live-status[data-live="open"]').wait_for(state="attached")
    assert "time limit" in page.locator(".live-counts").inner_text()


def seat_states(day: Day) -> dict:
    """The live round view's seats: name → connected, away, bot_for_player, bot or left."""
    return dict(day.organizer.evaluate("""() => [...document.querySelectorAll('tr[data-seat]')]
        .map(tr => [tr.children[1].innerText.replace('★', '').trim(), tr.dataset.state])"""))


class LiveRoundWatch:
    """What the organizer's live round view showed while round one was played, without a reload: each
    student connected, the no-show's seat played by a bot for her. Its picture is taken at that moment."""

    def __init__(self, day: Day, connected: list[str], no_show: str) -> None:
        self.day, self.connected, self.no_show = day, connected, no_show
        self.seen: set = set()
        self.day.organizer.evaluate("window.notReloaded = true")

    def __call__(self) -> None:
        if self.complete:
            return
        self.seen |= set(seat_states(self.day).items())
        if self.complete:
            assert self.day.organizer.evaluate("window.notReloaded") is True
            self.day.snap(self.day.organizer, "08-live-round-view.png")

    @property
    def complete(self) -> bool:
        return (self.no_show, "bot_for_player") in self.seen and all(
            (name, "connected") in self.seen for name in self.connected)


def plan_the_final(day: Day, event: Event, no_show: Player) -> None:
    page = control_room(day, event)
    assert state(page, "finished") == "done" and state(page, "next_round") == "now"
    page.get_by_role("link", name="Plan next round").click()
    assert "3 played, 1 no-show" in page.locator("#participation").inner_text()
    assert no_show.display_name in page.locator("#participation").inner_text()
    assert page.locator("#add-back").count() == 1  # the no-show could be added back, with a reason
    page.fill("#id_field", "3")
    page.fill("#id_advance", "")
    page.click("input[type=submit][value=Preview]")
    page.locator("input[name=confirm]").wait_for()
    no_show_row = page.locator(f'#field-list tr[data-player="{no_show.pk}"]')
    assert no_show_row.get_attribute("class") == "out"
    no_show_row.scroll_into_view_if_needed()
    day.snap(page, "10-plan-next-round.png")
    page.click("input[name=confirm]")
    page.wait_for_url("**/bracket/")


def play_the_final(day: Day, event: Event, phones: dict) -> str:
    """Start the final from the control room; the three students' "My event" pages say their table is
    ready, they play it out on their phones, and the bracket's public page names the champion."""
    page = control_room(day, event)
    assert state(page, "stages") == "now"
    page.get_by_role("button", name="Start stage 1").click()
    go_to_the_tables(phones)
    play_to_the_end(day, phones)
    for phone in phones.values():
        see_the_hand_summary(phone, 3)
    bracket = day.context(DESKTOP).new_page()
    bracket.goto(f"{day.url}/events/{event.slug}/rounds/2/bracket/")
    bracket.locator("#champion").wait_for(timeout=120_000)
    champion = bracket.locator("#champion").inner_text()
    day.snap(bracket, "11-bracket-champion.png")
    bracket.context.close()
    return champion


def finish_the_event(day: Day, event: Event, champion: str) -> None:
    page = control_room(day, event)
    assert state(page, "champion") == "now"
    assert champion.split(":", 1)[1].strip().split()[0] in page.locator("#step-champion").inner_text()
    day.snap(page, "12-control-room-champion.png")
    page.get_by_role("button", name="Mark the event finished").click()
    assert state(page, "champion") == "done"


def wait_for_step(day: Day, event: Event, key: str, wanted: str, timeout: float = 120) -> None:
    """Reload the control room until a step reaches a state (the control room is a page, not live)."""
    deadline = time.monotonic() + timeout
    while state(control_room(day, event), key) != wanted:
        assert time.monotonic() < deadline, f"step {key} never became {wanted}"
        day.organizer.wait_for_timeout(1000)
