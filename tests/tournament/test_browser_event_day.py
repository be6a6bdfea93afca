"""A whole small event in real headless Chromium against a live ASGI server, as on the day.

The organizer works at a laptop (one desktop context): imports the eligibility list, opens registration
and check-in from the control room, checks students in at the desk, previews and confirms round one's
seating, starts it, follows it on the live round view (each student connected, a bot playing for the
no-show, without a reload) and gives it a time limit, plans the next round with its no-show left out, starts the final and marks
the event finished once the champion is known. Students are on phones (390x844): their "My event" page says
their table is ready without a reload (round one and the final), they arrive at the table to a full turn
clock, play, and see the hand's summary at the end. One student never comes: a bot plays her seat after
the arrival countdown and her missed turn.

Every step is a function of its own, so a step's page can change without rewriting the story. Each step
saves a picture of its page: into a temporary folder here, into ``docs/screenshots/`` when
``docs/screenshots.py`` runs this test (``EVENT_SCREENSHOTS``); the test checks every picture was made.
"""

import os
import re
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.games.test_browser_table import play_one_step
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_user
from tournament.models import AuditEntry, Event, Player, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 800}
TURN = 15  # seconds a move; the arrival countdown is shorter than the way from "My event" to the table
ARRIVAL = 12
# (roll number, name): the list. The first five register; four check in (Meera then never comes to her
# table: a no-show), Kiran stays at home; Tara never registers.
STUDENTS = [("CHE001", "Asha Sen"), ("CHE002", "Ravi Das"), ("CHE003", "Dev Pal"), ("CHE004", "Meera Iyer"),
            ("CHE005", "Kiran Bose"), ("CHE006", "Tara Nair")]
AT_THE_TABLE = ["Asha Sen", "Ravi Das", "Dev Pal"]  # on their phones
CSV = "roll_number,name,email,department,programme\n" + "".join(
    f"{roll},{name},,Chemical Engineering,UG\n" for roll, name in STUDENTS)
# The pictures every run makes, in the order of the guide (docs/organizers.md).
SCREENSHOTS = [
    "01-control-room.png", "02-eligibility-preview.png", "03-control-room-registration.png",
    "04-checkin-desk.png", "05-seating-preview.png", "06-my-event-phone.png", "07-table-phone.png",
    "08-live-round-view.png", "09-hand-summary-phone.png", "10-plan-next-round.png", "11-bracket-champion.png",
    "12-control-room-champion.png",
]


@pytest.fixture
def live_asgi_settings() -> dict:
    return {"LIVE_BOT_THINK_SECONDS": [0.05, 0.1], "LIVE_NEXT_HAND_SECONDS": 1, "LIVE_SWEEP_INTERVAL": 0.1,
            "LIVE_SOCKET_RATE_LIMIT": (1_000_000, 1.0)}


def cookie_of(user, url: str) -> dict:
    client = Client()
    client.force_login(user)
    return {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "url": url}


# Data is made in a fixture listed before `page`: the ORM runs before Playwright starts its event loop.
@pytest.fixture
def event_day(live_asgi, tmp_path):
    """A draft event open only to its list (not imported yet), low target so a game is a hand or two."""
    event = make_event(name="Chematoodlon Ocho", slug="chematoodlon", status=Event.Status.DRAFT,
                       eligibility=Event.Eligibility.LIST, rules_preset="uno-official", target_score=30,
                       min_table_size=3, max_table_size=4, turn_seconds=TURN, missed_turns_before_bot=1,
                       arrival_grace_seconds=ARRIVAL)
    organizer = make_organizer_of(event, "olga")
    students = {name: make_user(name.split()[0].lower()) for _, name in STUDENTS[:5]}
    csv = tmp_path / "chemical-engineering-ug.csv"
    csv.write_text(CSV)
    shots = Path(os.environ.get("EVENT_SCREENSHOTS") or tmp_path / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    return {"event": event, "organizer": cookie_of(organizer, live_asgi.url), "csv": csv, "shots": shots,
            "cookies": {name: cookie_of(user, live_asgi.url) for name, user in students.items()},
            "students": students}


class Day:
    """The browsers of the day: the organizer's page, the students' phones, and where pictures go."""

    def __init__(self, url: str, chromium, shots: Path) -> None:
        self.url, self.chromium, self.shots = url, chromium, shots
        self.errors: list[str] = []
        self.organizer = self.context(DESKTOP).new_page()

    def context(self, viewport: dict, cookie: dict | None = None):
        context = self.chromium.new_context(viewport=viewport, has_touch=viewport is PHONE)
        context.set_default_timeout(20_000)
        if cookie:
            context.add_cookies([cookie])
        context.on("page", lambda page: page.on("pageerror", lambda error: self.errors.append(str(error))))
        return context

    def phone(self, cookie: dict):
        page = self.context(PHONE, cookie).new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page

    def snap(self, page, name: str) -> None:
        assert name in SCREENSHOTS, name
        page.screenshot(path=str(self.shots / name), animations="disabled")


def state(page, key: str) -> str:
    return page.locator(f"#step-{key}").get_attribute("data-state")


def message(page) -> str:
    return page.locator(".messagelist").inner_text()


def control_room(day: Day, event: Event):
    day.organizer.goto(f"{day.url}/admin/tournament/event/{event.pk}/control-room/")
    return day.organizer


# ---- the organizer's steps --------------------------------------------------------------------------

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


def students_register(event: Event, students: dict) -> None:
    """Five of the six on the list register (registration has its own browser tests)."""
    roll = {name: number for number, name in STUDENTS}
    for name, user in students.items():
        Player.objects.create(event=event, user=user, display_name=name, roll_number=roll[name])


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


# ---- the students' steps ----------------------------------------------------------------------------

def wait_on_my_event(day: Day, event: Event, cookie: dict):
    page = day.phone(cookie)
    page.goto(f"{day.url}/events/{event.slug}/me/")
    page.get_by_text("This page updates by itself.").wait_for()
    assert page.locator("#my-event-live .next-step").get_attribute("data-step") == "seated"
    page.evaluate("window.notReloaded = true")
    return page


def go_to_the_tables(phones: dict) -> None:
    """The organizer started the round in their browser: each "My event" says so by itself, and Play opens
    the table (all at once, as the students walk in together)."""
    for page in phones.values():
        page.locator('#my-event-live .next-step[data-step="play"]').wait_for()
        assert page.evaluate("window.notReloaded") is True, "updated without a reload"
        assert "Your table is ready" in page.locator("#my-event-live .next-step").inner_text()
    for page in phones.values():
        page.get_by_role("link", name="Play now").click()
    for page in phones.values():
        page.locator("#table").wait_for()
        page.wait_for_selector("#conn-status[data-status=open]")


def back_to_my_event(day: Day, event: Event, phones: dict) -> None:
    """After round one: through, waiting for the next round."""
    for page in phones.values():
        page.goto(f"{day.url}/events/{event.slug}/me/")
        step = page.locator("#my-event-live .next-step")
        assert step.get_attribute("data-step") == "between", step.inner_text()
        assert "over" in step.inner_text()
        page.evaluate("window.notReloaded = true")


def clock_seconds(page) -> int:
    minutes, secs = re.fullmatch(r"(\d+):(\d\d)", page.locator("#countdown").inner_text().strip()).groups()
    return int(minutes) * 60 + int(secs)


def my_turn(page) -> bool:
    return page.evaluate("document.documentElement.dataset.myTurn === '1' && "
                         "!document.body.classList.contains('busy')")


def game_over(page) -> bool:
    return page.locator("#banner.game-over").count() > 0


def play_to_the_end(day: Day, phones: dict, watch=None, timeout: float = 150) -> dict:
    """The students at the table make their moves as they come until the game is over. On each one's first
    turn, the turn clock they find. The bots play the absent student's seat."""
    first_clock: dict = {}
    deadline = time.monotonic() + timeout
    while not all(game_over(page) for page in phones.values()):
        assert time.monotonic() < deadline, "round one's game did not end"
        for name, page in phones.items():
            if not game_over(page) and my_turn(page):
                if name not in first_clock and page.locator("#countdown").is_visible():
                    first_clock[name] = clock_seconds(page)
                play_one_step(page)
        if watch:
            watch()
        day.organizer.wait_for_timeout(50)
    return first_clock


def see_the_hand_summary(page, seats: int) -> None:
    summary = page.locator("#banner #hand-summary")
    summary.wait_for()
    assert "went out" in summary.locator(".summary-head").inner_text()
    assert summary.locator("tbody tr").count() == seats  # points left and running totals for each seat


# ---- the day ----------------------------------------------------------------------------------------

def test_a_whole_small_event(live_asgi, event_day, chromium):
    event, cookies = event_day["event"], event_day["cookies"]
    day = Day(live_asgi.url, chromium, event_day["shots"])
    day.organizer.context.add_cookies([event_day["organizer"]])

    import_the_list(day, event, event_day["csv"])
    open_registration(day, event)
    students_register(event, event_day["students"])
    open_check_in_at_the_desk(day, event, [*AT_THE_TABLE, "Meera Iyer"])
    seat_round_one(day, event)

    # Asha, Ravi and Dev wait on "My event" on their phones; Meera never opens anything (a no-show).
    phones = {name: wait_on_my_event(day, event, cookies[name]) for name in AT_THE_TABLE}
    day.snap(phones["Asha Sen"], "06-my-event-phone.png")
    start_round_one(day, event)
    follow_round_one(day, event)
    set_a_time_limit(day, 30)
    go_to_the_tables(phones)
    day.snap(phones["Asha Sen"], "07-table-phone.png")

    watch = LiveRoundWatch(day, AT_THE_TABLE, "Meera Iyer")
    first_clock = play_to_the_end(day, phones, watch)
    assert watch.complete, watch.seen
    # Arrived before their first turn: the whole turn clock, nothing run down while they walked in.
    assert set(first_clock) == set(AT_THE_TABLE)
    assert all(TURN - 4 <= seconds <= TURN for seconds in first_clock.values()), first_clock
    for page in phones.values():
        see_the_hand_summary(page, 4)
    day.snap(phones["Asha Sen"], "09-hand-summary-phone.png")

    wait_for_step(day, event, "finished", "done")
    back_to_my_event(day, event, phones)
    meera = Player.objects.get(event=event, display_name="Meera Iyer")
    plan_the_final(day, event, meera)
    champion = play_the_final(day, event, phones)
    assert "Champion:" in champion
    finish_the_event(day, event, champion)

    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert Round.objects.get(event=event, number=1).status == Round.Status.FINISHED
    actions = set(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {"eligibility.import", "event.open_registration", "event.open_checkin", "player.check_in",
            "round.create", "round.start", "round.time_limit", "bracket.create", "event.finish"} <= actions, actions
    assert Round.objects.get(event=event, number=2).status == Round.Status.FINISHED
    assert not day.errors, day.errors
    for name in SCREENSHOTS:
        picture = day.shots / name
        assert picture.exists() and picture.stat().st_size > 1000, f"{name} was not made"
