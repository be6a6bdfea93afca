"""Re-importing a corrected eligibility list: the difference by roll number, confirm exactly what was
previewed, policy flags, e-mails unique in any case, optional year and e-mail, other columns kept."""

import pytest
from django.core.exceptions import ValidationError

from tests.tournament.organizer_factories import make_event, make_user
from tournament.csv_formats import write_eligibility_csv
from tournament.models import AuditEntry, EligibilityEntry, Event, Player
from tournament.services.eligibility import (
    EligibilityImportError,
    PreviewOutdated,
    import_entries,
    preview_import,
)

pytestmark = pytest.mark.django_db

HEADER = "roll_number,name,email,department,programme,year,hostel\n"
FIRST = HEADER + (
    "R1,Asha Sen,asha@ju.in,Chemical Engineering,UG,2,H1\n"
    "R2,Ravi Das,ravi@ju.in,Chemical Engineering,UG,2,H2\n"
    "R3,Meera Roy,meera@ju.in,Chemical Engineering,UG,3,H1\n"
    "R4,Kabir Sen,kabir@ju.in,Chemical Engineering,UG,1,H3\n"
)
CORRECTED = HEADER + (
    "R1,Asha Sen,asha@ju.in,Chemical Engineering,UG,2,H1\n"  # unchanged
    "r2,Ravi Das,ravi.das@ju.in,Chemical Engineering,UG,3,H2\n"  # changed e-mail and year (roll in lower case)
    "R5,Tara Bose,tara@ju.in,Chemical Engineering,UG,1,H4\n"  # added
)  # R3 and R4 are not in the file


@pytest.fixture
def listed():
    event = make_event(status=Event.Status.REGISTRATION, eligibility=Event.Eligibility.LIST)
    import_entries(event, FIRST.encode(), make_user())
    return event


def test_preview_shows_added_changed_unchanged_and_missing(listed):
    Player.objects.create(event=listed, user=make_user(), roll_number="R3", display_name="Meera")
    plan = preview_import(listed, CORRECTED.encode())
    assert not plan.errors and not plan.file_error
    assert [row["roll_number"] for row in plan.added] == ["R5"]
    assert [row["roll_number"] for row in plan.unchanged] == ["R1"]
    [changed] = plan.changed
    assert changed.row["roll_number"] == "r2"
    assert [(c.field, c.old, c.new) for c in changed.changes] == [
        ("email", "ravi@ju.in", "ravi.das@ju.in"), ("year", 2, 3)]
    assert [(m.roll_number, m.registered) for m in plan.missing] == [("R3", True), ("R4", False)]
    assert [m.roll_number for m in plan.removable] == ["R4"]
    assert EligibilityEntry.objects.get(roll_number="R2").email == "ravi@ju.in"  # nothing saved yet


def test_confirm_keeps_missing_entries_by_default(listed):
    result = import_entries(listed, CORRECTED.encode(), make_user(), filename="fixed.csv")
    assert (result.created, result.updated, result.unchanged, result.removed, result.kept) == (1, 1, 1, 0, 2)
    entries = {e.roll_number: e for e in EligibilityEntry.objects.filter(event=listed)}
    assert sorted(entries) == ["R1", "R2", "R3", "R4", "R5"]
    assert (entries["R2"].email, entries["R2"].year) == ("ravi.das@ju.in", 3)
    audit = AuditEntry.objects.filter(action="eligibility.import").first()
    assert audit.target == "Eligibility list: 1 added, 1 changed, 1 unchanged, 0 removed, 2 kept from fixed.csv"
    assert audit.changes["changed"] == {"r2": {"email": ["ravi@ju.in", "ravi.das@ju.in"], "year": [2, 3]}}
    assert audit.changes["added_roll_numbers"] == ["R5"] and audit.changes["kept_not_in_file"] == ["R3", "R4"]


def test_remove_missing_removes_only_those_not_registered(listed):
    Player.objects.create(event=listed, user=make_user(), roll_number="r3", display_name="Meera")
    result = import_entries(listed, CORRECTED.encode(), make_user(), remove_missing=True)
    assert (result.removed, result.kept) == (1, 1)
    assert sorted(EligibilityEntry.objects.filter(event=listed).values_list("roll_number", flat=True)) == [
        "R1", "R2", "R3", "R5"]
    assert AuditEntry.objects.filter(action="eligibility.import").first().changes["removed"] == ["R4"]


def test_confirm_applies_only_what_was_previewed(listed):
    plan = preview_import(listed, CORRECTED.encode())
    other = CORRECTED.replace("Tara Bose", "Tara Basu").encode()
    with pytest.raises(PreviewOutdated, match="not the one previewed"):
        import_entries(listed, other, make_user(), digest=plan.digest, fingerprint=plan.fingerprint)
    # someone else changes the list between the preview and the confirm
    EligibilityEntry.objects.filter(event=listed, roll_number="R1").update(name="Asha S.")
    with pytest.raises(PreviewOutdated, match="list changed since your preview"):
        import_entries(listed, CORRECTED.encode(), make_user(), digest=plan.digest, fingerprint=plan.fingerprint)
    assert not EligibilityEntry.objects.filter(event=listed, roll_number="R5").exists()
    fresh = preview_import(listed, CORRECTED.encode())
    import_entries(listed, CORRECTED.encode(), make_user(), digest=fresh.digest, fingerprint=fresh.fingerprint)
    assert EligibilityEntry.objects.get(event=listed, roll_number="R1").name == "Asha Sen"


def test_other_columns_are_kept_and_their_changes_shown(listed):
    assert EligibilityEntry.objects.get(event=listed, roll_number="R1").extra == {"hostel": "H1"}
    moved = FIRST.replace("R1,Asha Sen,asha@ju.in,Chemical Engineering,UG,2,H1", "R1,Asha Sen,asha@ju.in,"
                          "Chemical Engineering,UG,2,H9")
    [changed] = preview_import(listed, moved.encode()).changed
    assert [(c.field, c.old, c.new) for c in changed.changes] == [("hostel", "H1", "H9")]


def test_confirm_writes_every_changed_field_including_empty_ones(listed):
    corrected = FIRST.replace("R1,Asha Sen,asha@ju.in,Chemical Engineering,UG,2,H1",
                              "R1,Asha S. Sen,,Chemical Engg,PhD,,H7")
    result = import_entries(listed, corrected.encode(), make_user())
    assert (result.updated, result.unchanged) == (1, 3)
    entry = EligibilityEntry.objects.get(event=listed, roll_number="R1")
    assert (entry.name, entry.email, entry.department, entry.programme, entry.year, entry.extra) == (
        "Asha S. Sen", "", "Chemical Engg", "PhD", None, {"hostel": "H7"})
    assert EligibilityEntry.objects.get(event=listed, roll_number="R2").extra == {"hostel": "H2"}


def test_same_email_in_any_case_is_a_row_error_naming_the_person(listed):
    content = HEADER + (
        "R6,Nila Pal,NILA@ju.in,Chemical Engineering,UG,1,H1\n"
        "R7,Nila Again,nila@JU.in,Chemical Engineering,UG,1,H1\n"
    )
    plan = preview_import(listed, (FIRST + content.split("\n", 1)[1]).encode())
    [error] = plan.errors
    assert (error.row, error.roll_number, error.name) == (7, "R7", "Nila Again")
    assert error.reason == "e-mail nila@JU.in appears twice in the file (also row 6, roll number R6)"


def test_an_email_kept_on_the_list_under_another_roll_number_is_a_row_error(listed):
    content = HEADER + "R9,Asha Sen,ASHA@ju.in,Chemical Engineering,UG,2,H1\n"  # R1 not in this file
    plan = preview_import(listed, content.encode())
    [error] = plan.errors
    assert (error.roll_number, error.name) == ("R9", "Asha Sen")
    assert "already on the list for roll number R1 (Asha Sen), who is not in this file" in error.reason
    with pytest.raises(EligibilityImportError, match="1 row has errors"):
        import_entries(listed, content.encode(), make_user())


def test_year_column_may_be_left_out_and_email_cells_empty():
    event = make_event()
    content = "roll_number,name,email,department,programme\nR1,Asha Sen,,ChE,UG\nR2,Ravi Das,,ChE,UG\n"
    result = import_entries(event, content.encode(), make_user())
    assert result.created == 2 and result.skipped == 0
    assert list(EligibilityEntry.objects.filter(event=event).values_list("email", "year")) == [("", None)] * 2


def test_rows_outside_the_policy_are_flagged_with_the_reason():
    event = make_event(eligibility=Event.Eligibility.LIST, eligibility_policy=[
        {"column": "programme", "one_of": ["UG"]}, {"column": "department", "one_of": ["Chemical Engineering"]}])
    content = (FIRST + "R8,Dev Nag,dev@ju.in,Chemical Engineering,M.Tech,1,H2\n"
               "R9,Ila Ray,ila@ju.in,Physics,UG,1,H2\n")
    plan = preview_import(event, content.encode())
    assert [(f.row, f.roll_number, f.name, f.reason) for f in plan.outside_policy] == [
        (6, "R8", "Dev Nag", "programme is PG (must be UG)"),
        (7, "R9", "Ila Ray", "department is Physics (must be Chemical Engineering)"),
    ]
    import_entries(event, content.encode(), make_user())  # imported all the same; registration refuses them
    audit = AuditEntry.objects.get(action="eligibility.import")
    assert [f["roll_number"] for f in audit.changes["outside_policy"]] == ["R8", "R9"]


def test_event_clean_refuses_a_bad_policy_and_reads_programme_spellings():
    event = make_event(eligibility_policy=[{"column": "year", "from": 5, "to": 1}])
    with pytest.raises(ValidationError) as refused:
        event.full_clean()
    assert "from (5) is larger than to (1)" in str(refused.value.message_dict["eligibility_policy"])
    event.eligibility_policy = [{"column": "programme", "one_of": ["B.Tech", "Undergraduate"]}]
    event.full_clean()
    assert event.eligibility_policy == [{"column": "programme", "one_of": ["UG"]}]


def test_a_list_of_5000_rows_imports_in_a_few_queries(django_assert_max_num_queries):
    event = make_event()
    rows = "".join(f"R{n:05d},Student {n},s{n}@ju.in,ChE,UG,{n % 4 + 1},H{n % 9}\n" for n in range(5000))
    with django_assert_max_num_queries(80):  # batches (SQLite caps the parameters of one query), not rows
        result = import_entries(event, (HEADER + rows).encode(), make_user())
    assert result.created == 5000
    corrected = rows.replace(",H3\n", ",H33\n")
    with django_assert_max_num_queries(80):
        result = import_entries(event, (HEADER + corrected).encode(), make_user())
    assert (result.created, result.updated, result.unchanged) == (0, 556, 4444)


def test_an_exported_list_reimports_unchanged_with_its_other_columns(listed):
    exported = write_eligibility_csv(EligibilityEntry.objects.filter(event=listed))
    assert exported.splitlines()[0] == "roll_number,name,email,department,programme,year,hostel"
    plan = preview_import(listed, exported.encode())
    assert (len(plan.unchanged), plan.added, plan.changed, plan.missing, plan.errors) == (4, [], [], [], [])


def test_the_entry_list_in_the_admin_shows_other_columns(listed, client):
    from tests.tournament.organizer_factories import PASSWORD, make_organizer_of

    client.login(username=make_organizer_of(listed).username, password=PASSWORD)
    page = client.get("/admin/tournament/eligibilityentry/").content.decode()
    assert "Other columns" in page and "hostel: H3" in page
