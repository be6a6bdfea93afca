"""Eligibility list import: every kind of bad row is reported by row number, nothing saved on errors."""

import pytest

from tests.tournament.organizer_factories import make_event, make_user
from tournament.csv_formats import normalize_programme, read_eligibility_csv, write_eligibility_csv
from tournament.models import AuditEntry, EligibilityEntry
from tournament.services.eligibility import EligibilityImportError, import_entries, preview_import

HEADER = "roll_number,name,email,department,programme,year\n"
GOOD = HEADER + (
    "001910301001,Ananya Basu,ananya@jadavpuruniversity.in,Chemical Engineering,UG,2\n"
    "001910301002,Rohan Das,rohan@jadavpuruniversity.in,Chemical Engineering,B.Tech,3\n"
)


def reasons(result):
    return {error.row: error.reason for error in result.errors}


def test_good_file_reads_every_row():
    result = read_eligibility_csv(GOOD.encode())
    assert result.ok and len(result.rows) == 2
    assert result.rows[1]["programme"] == "UG" and result.rows[1]["year"] == 3


def test_bom_and_semicolons_are_accepted():
    content = "\ufeff" + GOOD.replace(",", ";")
    result = read_eligibility_csv(content.encode("utf-8"))
    assert result.ok and result.delimiter == ";" and len(result.rows) == 2
    assert result.rows[0]["roll_number"] == "001910301001"


def test_each_kind_of_bad_row_is_named_by_row_number():
    content = HEADER + (
        "A1,Good Person,good@example.com,ChE,UG,1\n"  # row 2
        ",No Roll,noroll@example.com,ChE,UG,1\n"  # row 3: missing roll
        "A2,Bad Mail,not-an-email,ChE,UG,1\n"  # row 4
        "A3,Odd Programme,odd@example.com,ChE,Diploma,1\n"  # row 5
        "A4,Bad Year,year@example.com,ChE,UG,fifth\n"  # row 6
        "A5,Year Zero,zero@example.com,ChE,UG,0\n"  # row 7
        "A1,Twice,twice@example.com,ChE,UG,1\n"  # row 8: duplicate in file
        "A7,Same Mail,GOOD@Example.com,ChE,UG,1\n"  # row 9: e-mail of row 2 in another case
        "A6,,noname@example.com,,UG,2\n"  # row 10: missing name and department
    )
    result = read_eligibility_csv(content.encode())
    found = reasons(result)
    assert [r["row"] for r in result.rows] == [2]
    assert found[3] == "roll_number is missing"
    assert "not a valid address" in found[4]
    assert "programme 'Diploma' is unknown" in found[5]
    assert "year 'fifth'" in found[6] and "year '0'" in found[7]
    assert found[8] == "roll number A1 appears twice in the file (also row 2)"
    assert found[9] == "e-mail GOOD@Example.com appears twice in the file (also row 2, roll number A1)"
    assert found[10] == "name is missing; department is missing"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"   \n\n", "empty"),
        (HEADER.encode(), "no rows"),
        (b"roll_number,name,email\nA,B,c@d.in\n", "Missing columns: department, programme."),
        (b"roll_number,name,email,department,programme,name\nA,B,c@d.in,C,UG,D\n", "named twice in the first line: name"),
        (b",,,\n , ,\n", "no header line"),
        ("roll_number,name\nÄ,B\n".encode("latin-1"), "not UTF-8"),
    ],
)
def test_whole_file_problems(content, message):
    result = read_eligibility_csv(content)
    assert message in result.file_error
    assert not result.rows


def test_programme_spellings():
    assert normalize_programme("ug") == "UG"
    assert normalize_programme("B. Tech") == "UG"
    assert normalize_programme("M.E.") == "PG"
    assert normalize_programme("Ph.D.") == "PhD"
    assert normalize_programme("Diploma") is None


def test_export_round_trips_and_defuses_formulas():
    class Entry:
        roll_number, name, email, department, programme, year = "R1", "=HYPERLINK(1)", "a@b.in", "ChE", "UG", None

    text = write_eligibility_csv([Entry()])
    assert text.splitlines()[1] == "R1,'=HYPERLINK(1),a@b.in,ChE,UG,"


@pytest.mark.django_db
def test_import_saves_rows_and_an_audit_entry():
    event = make_event()
    actor = make_user()
    result = import_entries(event, GOOD.encode(), actor, filename="list.csv")
    assert result.created == 2
    assert set(EligibilityEntry.objects.filter(event=event).values_list("roll_number", flat=True)) == {
        "001910301001", "001910301002"}
    entry = AuditEntry.objects.get(event=event, action="eligibility.import")
    assert entry.actor == actor and entry.changes["added"] == 2 and "list.csv" in entry.target


@pytest.mark.django_db
def test_nothing_saved_from_a_file_with_errors():
    event = make_event()
    content = (GOOD + "X,Broken,broken,ChE,UG,1\n").encode()
    with pytest.raises(EligibilityImportError, match="1 row has errors; nothing was imported"):
        import_entries(event, content, make_user())
    assert not EligibilityEntry.objects.filter(event=event).exists()
    assert not AuditEntry.objects.filter(event=event).exists()


@pytest.mark.django_db
def test_import_only_the_good_rows():
    event = make_event()
    content = (GOOD + "X,Broken,broken,ChE,UG,1\n").encode()
    result = import_entries(event, content, make_user(), only_good_rows=True)
    assert (result.created, result.skipped) == (2, 1)
    assert EligibilityEntry.objects.filter(event=event).count() == 2
    audit_changes = AuditEntry.objects.get(event=event).changes
    assert audit_changes["skipped_rows"] == [
        {"row": 4, "roll_number": "X", "name": "Broken", "reason": "e-mail 'broken' is not a valid address"}]


@pytest.mark.django_db
def test_second_import_of_the_same_file_changes_nothing():
    event = make_event()
    import_entries(event, GOOD.encode(), make_user())
    preview = preview_import(event, GOOD.encode())
    assert not preview.errors and not preview.added and not preview.changed
    assert [row["roll_number"] for row in preview.unchanged] == ["001910301001", "001910301002"]
    result = import_entries(event, GOOD.encode(), make_user())
    assert (result.created, result.updated, result.unchanged) == (0, 0, 2)


@pytest.mark.django_db
def test_undecodable_file_is_refused_by_the_service():
    with pytest.raises(EligibilityImportError, match="not UTF-8"):
        import_entries(make_event(), b"\xff\xfe\x00bad", make_user())


@pytest.mark.django_db
def test_a_row_without_email_imports_for_a_claim_an_organizer_confirms():
    event = make_event()
    content = HEADER + "A1,No Mail,,ChE,UG,1\n"
    result = import_entries(event, content.encode(), make_user())
    assert result.created == 1 and EligibilityEntry.objects.get(event=event).email == ""
