"""A real headless Chromium: an organizer walks an event from "list imported" to "round one started"
through its control room (desktop), and checks students in at the desk on a tablet."""

import pytest
from django.conf import settings
from django.test import Client

from tests.tournament.organizer_factories import make_event, make_organizer_of, make_user
from tournament.models import AuditEntry, EligibilityEntry, Event, Player, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STUDENTS = [("CHE001", "Asha Sen", ""), ("CHE002", "Ravi Das", ""), ("CHE003", "Meera Iyer", "pending"),
            ("CHE004", "Kiran Bose", ""), ("CHE005", "Dev Pal", ""), ("CHE006", "Tara Nair", ""),
            ("CHE007", "Isha Roy", "")]


# Data is made in a fixture listed before `page`: the ORM runs before Playwright starts its event loop.
@pytest.fixture
def organizer(live_asgi):
    event = make_event(name="Chematoodlon", status=Event.Status.DRAFT, eligibility=Event.Eligibility.LIST,
                       min_table_size=3, max_table_size=4, target_score=100)
    for roll, name, claim in STUDENTS:
        EligibilityEntry.objects.create(event=event, roll_number=roll, name=name, department="ChE", programme="UG")
        Player.objects.create(event=event, user=make_user(), display_name=name, roll_number=roll, claim=claim)
    user = make_organizer_of(event, "olga")
    client = Client()
    client.force_login(user)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
              "url": live_asgi.url}
    return {"event": event, "cookie": cookie, "user": user}


def state(page, key: str) -> str:
    return page.locator(f"#step-{key}").get_attribute("data-state")


def message(page) -> str:
    return page.locator(".messagelist").inner_text()


def test_organizer_runs_the_event_from_its_list_to_round_one_started(live_asgi, organizer, chromium):
    event = organizer["event"]
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([organizer["cookie"]])
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"{live_asgi.url}/admin/tournament/event/{event.pk}/change/")
    page.get_by_role("link", name="Control room").click()
    assert state(page, "list") == "done" and state(page, "registration") == "now"
    assert "Entries on the list" in page.locator("#step-list").inner_text()

    page.get_by_role("button", name="Open registration").click()
    assert "Registration is open." in message(page)
    assert state(page, "registration") == "done" and state(page, "checkin") == "now"
    assert "Registered\n7" in page.locator("#step-registration").inner_text().replace("\t", "\n")

    page.get_by_role("button", name="Open check-in").click()
    assert "Check-in is open." in message(page)
    page.get_by_role("link", name="Check students in").click()
    assert "/check-in/" in page.url
    page.get_by_role("link", name="Check in all registered…").click()
    page.get_by_role("button", name="Yes, check them all in").click()
    assert "6 players checked in." in message(page)
    assert "Meera Iyer: claim of roll number CHE003 not confirmed yet" in message(page)

    page.get_by_role("link", name="Control room").first.click()
    assert state(page, "checkin") == "done" and state(page, "seated") == "now"
    page.get_by_role("link", name="Seat round 1").click()
    page.get_by_role("button", name="Preview seating").click()
    page.locator("#preview").wait_for()
    page.get_by_role("button", name="Confirm: create round 1 with this seating").click()
    page.get_by_text("Round 1 created").wait_for()

    page.goto(f"{live_asgi.url}/admin/tournament/event/{event.pk}/control-room/")
    assert state(page, "seated") == "done" and state(page, "started") == "now"
    assert "Players seated" in page.locator("#step-seated").inner_text()
    page.get_by_role("button", name="Start round 1").click()
    assert "Round 1 started." in message(page)
    assert state(page, "started") == "done" and state(page, "finished") == "now"
    assert page.get_by_role("link", name="Follow round 1").count() == 1
    assert Round.objects.get(event=event, number=1).status == Round.Status.RUNNING
    actions = set(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {"event.open_registration", "event.open_checkin", "player.check_in", "round.create",
            "round.start"} <= actions
    assert not errors, errors
    context.close()


def test_organizer_checks_students_in_at_the_desk_on_a_tablet(live_asgi, organizer, chromium):
    event = organizer["event"]
    Event.objects.filter(pk=event.pk).update(status=Event.Status.REGISTRATION, checkin_open=True)
    context = chromium.new_context(viewport={"width": 820, "height": 1180}, has_touch=True)
    context.add_cookies([organizer["cookie"]])
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_asgi.url}/admin/tournament/event/{event.pk}/check-in/")
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    assert page.locator("#count-registered").inner_text() == "7"

    # The results follow the search box as the organizer types.
    page.get_by_role("searchbox", name="Name or roll number").fill("asha")
    page.locator("#desk-results .desk-player").filter(has_text="Asha Sen").wait_for()
    page.wait_for_function("() => document.querySelectorAll('#desk-results .desk-player').length === 1")
    page.get_by_role("button", name="Check in Asha Sen").click()
    assert "Asha Sen is checked in." in message(page)
    assert page.locator("#count-checked-in").inner_text() == "1"
    assert page.get_by_role("searchbox", name="Name or roll number").input_value() == "asha"  # kept

    # By roll number: Meera's claim, confirmed with the desk's reason edited, and checked in.
    page.get_by_role("searchbox", name="Name or roll number").fill("CHE003")
    page.get_by_role("button", name="Find").click()
    page.get_by_role("textbox", name="Why the claim of Meera Iyer is confirmed").fill("College ID 4411 seen")
    page.get_by_role("button", name="Confirm claim").click()
    assert "claim of roll number CHE003 is confirmed and they are checked in" in message(page)

    # Several at once, then one undone.
    page.get_by_role("searchbox", name="Name or roll number").fill("")
    page.get_by_role("button", name="Find").click()
    page.get_by_role("checkbox", name="Choose Ravi Das").check()
    page.get_by_role("checkbox", name="Choose Kiran Bose").check()
    page.get_by_role("button", name="Check in the ticked players").click()
    assert "2 players checked in." in message(page)
    page.get_by_role("button", name="Undo the check-in of Kiran Bose").click()
    assert "Kiran Bose's check-in is undone" in message(page)

    # A walk-in without an account.
    page.get_by_label("Display name").fill("Nila Roy")
    page.get_by_role("button", name="Add the walk-in").click()
    assert "Nila Roy joined as a walk-in and is checked in." in message(page)
    counts = {key: page.locator(f"#count-{key}").inner_text()
              for key in ("registered", "checked-in", "absent", "claims", "seated")}
    assert counts == {"registered": "8", "checked-in": "4", "absent": "4", "claims": "0", "seated": "0"}
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    statuses = dict(Player.objects.filter(event=event).values_list("display_name", "status"))
    assert sorted(n for n, s in statuses.items() if s == "checked_in") == [
        "Asha Sen", "Meera Iyer", "Nila Roy", "Ravi Das"]
    assert AuditEntry.objects.get(event=event, action="player.confirm_claim").reason == "College ID 4411 seen"
    assert not errors, errors
    context.close()
