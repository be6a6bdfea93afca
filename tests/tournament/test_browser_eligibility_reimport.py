"""A real headless Chromium: an organizer re-imports a corrected eligibility list through the admin, sees
the difference (added, changed with old and new values, unchanged, not in the file, outside the policy)
before confirming, and the list then holds exactly what the preview showed."""

import pytest

from tests.tournament.organizer_factories import PASSWORD, make_event, make_organizer_of
from tournament.models import AuditEntry, EligibilityEntry, Event
from tournament.services.eligibility import import_entries

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEADER = "roll_number,name,email,department,programme,year,section\n"
FIRST = HEADER + (
    "CHE01,Asha Sen,asha@ju.example,Chemical Engineering,UG,2,A\n"
    "CHE02,Ravi Das,ravi@ju.example,Chemical Engineering,UG,2,B\n"
    "CHE03,Meera Roy,meera@ju.example,Chemical Engineering,UG,3,A\n"
)
CORRECTED = HEADER + (
    "CHE01,Asha Sen,asha@ju.example,Chemical Engineering,UG,2,A\n"
    "CHE02,Ravi Das,ravi@ju.example,Chemical Engineering,UG,3,B\n"
    "CHE04,Dev Nag,dev@ju.example,Chemical Engineering,M.Tech,1,A\n"
)


@pytest.fixture
def organizer_and_event():
    event = make_event(name="Chematoodlon Ocho", status=Event.Status.REGISTRATION,
                       eligibility=Event.Eligibility.LIST,
                       eligibility_policy=[{"column": "programme", "one_of": ["UG"]}])
    organizer = make_organizer_of(event, "organizer")
    import_entries(event, FIRST.encode(), organizer)
    return organizer, event


def test_organizer_reimports_a_corrected_list_and_confirms_what_the_preview_showed(
    live_server, chromium, organizer_and_event, tmp_path
):
    organizer, event = organizer_and_event
    corrected = tmp_path / "corrected.csv"
    corrected.write_text(CORRECTED, encoding="utf-8")
    context = chromium.new_context(viewport={"width": 1280, "height": 900})  # an organizer's laptop
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"{live_server.url}/admin/login/?next=/admin/tournament/event/{event.pk}/change/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Eligibility list").first.click()
    assert "Who may register: programme is one of: UG" in page.locator("#policy").inner_text()

    page.set_input_files("#id_file", str(corrected))
    page.get_by_role("button", name="Preview").click()
    summary = page.locator("#import-summary").inner_text()
    assert summary == ("1 to add, 1 to change, 1 unchanged, 1 on the list but not in the file, "
                       "0 bad rows, 1 outside the policy.")
    assert page.locator("#changed-rows tbody tr td").all_inner_texts()[1:3] == ["CHE02", "Ravi Das"]
    assert page.locator("#changed-rows li.change").inner_text() == "year: 2 → 3"
    assert page.locator("#outside-policy tbody td").all_inner_texts() == [
        "4", "CHE04", "Dev Nag", "programme is PG (must be UG)"]
    assert page.locator("#missing-rows tbody td").all_inner_texts() == ["CHE03", "Meera Roy", "not registered"]
    assert page.locator('input[name="missing"][value="keep"]').is_checked()
    assert not EligibilityEntry.objects.filter(event=event, roll_number="CHE04").exists()  # nothing saved yet

    page.get_by_label("Remove the 1 not registered").check()
    page.get_by_role("button", name="Import").click()
    message = page.locator(".messagelist .success").inner_text()
    assert message == ("Eligibility list of Chematoodlon Ocho: 1 added, 1 changed, 1 unchanged, "
                       "1 removed, 0 kept though not in the file.")
    assert "/admin/tournament/eligibilityentry/" in page.url
    entries = EligibilityEntry.objects.filter(event=event).order_by("roll_number")
    assert [(e.roll_number, e.programme, e.year, e.extra) for e in entries] == [
        ("CHE01", "UG", 2, {"section": "A"}), ("CHE02", "UG", 3, {"section": "B"}),
        ("CHE04", "PG", 1, {"section": "A"})]
    audit = AuditEntry.objects.filter(action="eligibility.import").first()
    assert audit.actor == organizer and audit.changes["removed"] == ["CHE03"]
    assert errors == []
    context.close()
