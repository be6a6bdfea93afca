"""A whole small event in real headless Chromium against a live ASGI server, as on the day.

The organizer works at a laptop (one desktop context): imports the eligibility list, opens registration
and check-in from the control room, checks students in at the desk, previews and confirms round one's
seating, starts it, follows it on the live round view (each student connected, a bot playing for the
no-show, without a reload) and gives it a time limit, plans the next round with its no-show left out, starts the final and marks
the event finished once the champion is known. Students are on phones (390x844): their "My event" page says
their table is ready without a reload (round one and the final), they arrive at the table to a full turn
clock, play, and see the hand's summary at the end; once the event is finished, one opens its results page
(the champion first on the podium). One student never comes: a bot plays her seat after
the arrival countdown and her missed turn.

Every step is a function of its own, so a step's page can change without rewriting the story: the
organizer's in tests/tournament/event_day_organizer_steps.py, the students' in
tests/tournament/event_day_student_steps.py, the browsers in tests/tournament/event_day_browsers.py. Each
step saves a picture of its page: into a temporary folder here, into ``docs/screenshots/`` when
``docs/screenshots.py`` runs this test (``EVENT_SCREENSHOTS``); the test checks every picture was made.
"""

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.tournament.event_day_browsers import SCREENSHOTS, Day
from tests.tournament.event_day_organizer_steps import (
    LiveRoundWatch,
    finish_the_event,
    follow_round_one,
    import_the_list,
    open_check_in_at_the_desk,
    open_registration,
    plan_the_final,
    play_the_final,
    seat_round_one,
    set_a_time_limit,
    start_round_one,
    wait_for_step,
)
from tests.tournament.event_day_student_steps import (
    back_to_my_event,
    go_to_the_tables,
    play_to_the_end,
    see_the_hand_summary,
    see_the_results,
    wait_on_my_event,
)
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_user
from tournament.models import AuditEntry, Event, Player, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TURN = 15  # seconds a move; the arrival countdown is shorter than the way from "My event" to the table
ARRIVAL = 12
# (roll number, name): the list. The first five register; four check in (Meera then never comes to her
# table: a no-show), Kiran stays at home; Tara never registers.
STUDENTS = [("CHE001", "Asha Sen"), ("CHE002", "Ravi Das"), ("CHE003", "Dev Pal"), ("CHE004", "Meera Iyer"),
            ("CHE005", "Kiran Bose"), ("CHE006", "Tara Nair")]
AT_THE_TABLE = ["Asha Sen", "Ravi Das", "Dev Pal"]  # on their phones
CSV = "roll_number,name,email,department,programme\n" + "".join(
    f"{roll},{name},,Chemical Engineering,UG\n" for roll, name in STUDENTS)


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


def students_register(event: Event, students: dict) -> None:
    """Five of the six on the list register (registration has its own browser tests)."""
    roll = {name: number for number, name in STUDENTS}
    for name, user in students.items():
        Player.objects.create(event=event, user=user, display_name=name, roll_number=roll[name])


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
    # Asha opens the results page on her phone: the champion first on the podium, all five registrants placed.
    see_the_results(day, event, phones["Asha Sen"], champion.split(":", 1)[1].replace("🏆", "").strip(),
                    len(event_day["students"]))

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
