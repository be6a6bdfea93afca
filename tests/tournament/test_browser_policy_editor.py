"""A real headless Chromium: an organizer sets the first customer's eligibility policy with the event
page's editor (the list's columns and values offered), sees a bad row explained, and finds the entries
outside the policy marked on the list."""

import pytest

from tests.tournament.organizer_factories import PASSWORD, make_event, make_organizer_of
from tournament.models import AuditEntry, EligibilityEntry, Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def organizer_and_event():
    event = make_event(name="Chematoodlon Ocho", status=Event.Status.REGISTRATION,
                       eligibility=Event.Eligibility.LIST)
    organizer = make_organizer_of(event, "organizer")
    for roll, name, programme, department, hostel in (
            ("CHE01", "Asha Sen", "UG", "Chemical Engineering", "H4"),
            ("CHE02", "Ravi Das", "UG", "Chemical Engineering", "H1"),
            ("CHE90", "Dev Nag", "PG", "Chemical Engineering", "H4"),
            ("ME01", "Arka Sinha", "UG", "Mechanical Engineering", "H2")):
        EligibilityEntry.objects.create(event=event, roll_number=roll, name=name, email=f"{roll}@ju.example",
                                        department=department, programme=programme, year=2,
                                        extra={"hostel": hostel})
    return organizer, event


def test_organizer_sets_the_policy_with_the_editor_and_sees_who_is_outside_it(
    live_server, chromium, organizer_and_event
):
    organizer, event = organizer_and_event
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()  # an organizer's laptop
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/admin/login/?next=/admin/tournament/event/{event.pk}/change/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()

    editor = page.locator("#eligibility_policy-editor")
    assert "programme: UG (3) · PG (1)" in editor.inner_text()
    assert "hostel: H4 (2) · H1 (1) · H2 (1)" in editor.inner_text()
    assert "hostel" in page.get_by_label("Column of condition 1").locator("option").all_inner_texts()
    page.get_by_label("Column of condition 1").select_option("programme")
    page.get_by_label("Values of condition 1").fill("UG")
    page.get_by_label("Column of condition 2").select_option("department")
    page.get_by_label("Kind of condition 2").select_option(label="is from … to … (a number)")
    page.get_by_label("Values of condition 2").fill("Chemical Engineering")
    page.get_by_role("button", name="Save and continue editing").click()
    page.locator(".errorlist").first.wait_for()
    assert ("Condition 2 (department): a number range takes From and To, not values"
            in page.locator(".errorlist").first.inner_text())

    page.get_by_label("Kind of condition 2").select_option(label="is one of")
    page.get_by_role("button", name="Save and continue editing").click()
    page.locator(".messagelist .success").wait_for()
    assert page.locator(".errorlist").count() == 0
    event.refresh_from_db()
    assert event.eligibility_policy == [{"column": "programme", "one_of": ["UG"]},
                                        {"column": "department", "one_of": ["Chemical Engineering"]}]
    assert AuditEntry.objects.filter(event=event, action="eligibility.policy", actor=organizer).count() == 1

    page.locator("#content").get_by_role("link", name="Eligibility list", exact=True).click()
    page.locator("#result_list tbody tr").first.wait_for()
    rows = {row.locator("th, td").nth(1).inner_text(): row.inner_text()
            for row in page.locator("#result_list tbody tr").all()}
    assert "Outside: programme is PG (must be UG)" in rows["CHE90"]
    assert "Outside: department is Mechanical Engineering (must be Chemical Engineering)" in rows["ME01"]
    assert "may register" in rows["CHE01"] and "may register" in rows["CHE02"]
    assert errors == []
