"""The organizer's eligibility pages through the admin: the policy on the event form, the re-import
preview (difference, policy flags, bad rows by name and roll number) and its confirm."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournament.models import AuditEntry, EligibilityEntry, Event, Player
from tournament.services.eligibility import import_entries

pytestmark = pytest.mark.django_db

HEADER = "roll_number,name,email,department,programme,year\n"
LIST = HEADER + (
    "R1,Asha Sen,asha@ju.in,Chemical Engineering,UG,2\n"
    "R2,Ravi Das,ravi@ju.in,Chemical Engineering,UG,2\n"
    "R3,Meera Roy,meera@ju.in,Chemical Engineering,UG,3\n"
)
CORRECTED = HEADER + (
    "R1,Asha Sen,asha@ju.in,Chemical Engineering,UG,2\n"
    "R2,Ravi Das,ravi@ju.in,Chemical Engineering,UG,3\n"
    "R4,Dev Nag,dev@ju.in,Chemical Engineering,PG,1\n"
    "R5,Nila Pal,ASHA@JU.IN,Chemical Engineering,UG,1\n"
)


def url(event):
    return reverse("admin:tournament_event_eligibility_upload", args=[event.pk])


def upload(client, event, content: str | bytes):
    data = content.encode() if isinstance(content, str) else content
    return client.post(url(event), {"file": SimpleUploadedFile("list.csv", data, content_type="text/csv")})


def confirm_data(response, **extra):
    plan = response.context["preview"]
    return {"token": response.context["token"], "digest": plan.digest, "fingerprint": plan.fingerprint,
            "confirm": "Import", **extra}


@pytest.fixture
def listed(event, organizer_client):
    Event.objects.filter(pk=event.pk).update(eligibility="list", eligibility_policy=[
        {"column": "programme", "one_of": ["UG"]}])
    event.refresh_from_db()
    import_entries(event, LIST.encode(), organizer_client.user)
    return event


def test_reimport_preview_shows_the_difference_and_confirm_applies_it(organizer_client, listed):
    response = upload(organizer_client, listed, CORRECTED)
    page = response.content.decode()
    assert response.status_code == 200
    assert '"added-count">1<' in page and '"changed-count">1<' in page and '"unchanged-count">1<' in page
    assert '"missing-count">1<' in page and '"bad-count bad">1<' in page and '"outside-count bad">1<' in page
    assert "<b>year</b>: <del>2</del> → <ins>3</ins>" in page
    assert "<td>5</td><td>R5</td><td>Nila Pal</td>" in page and "appears twice in the file" in page
    assert "<td>4</td><td>R4</td><td>Dev Nag</td><td class=\"bad\">programme is PG (must be UG)</td>" in page
    assert "already on the list" not in page
    assert 'value="keep" checked' in page
    response = organizer_client.post(url(listed), confirm_data(response, only_good_rows="on", missing="remove"))
    assert response.status_code == 302
    rolls = sorted(EligibilityEntry.objects.filter(event=listed).values_list("roll_number", "year"))
    assert rolls == [("R1", 2), ("R2", 3), ("R4", 1)]  # R3 removed (not registered), R5 skipped (bad row)
    audit = AuditEntry.objects.filter(action="eligibility.import").first()
    assert audit.actor == organizer_client.user and audit.changes["removed"] == ["R3"]


def test_registered_entries_stay_when_removing_those_not_in_the_file(organizer_client, listed):
    Player.objects.create(event=listed, user=organizer_client.user, roll_number="R3", display_name="Meera")
    response = upload(organizer_client, listed, LIST.replace("R3,Meera Roy,meera@ju.in,Chemical Engineering,UG,3\n", ""))
    assert "registered (always kept)" in response.content.decode()
    organizer_client.post(url(listed), confirm_data(response, missing="remove"))
    assert EligibilityEntry.objects.filter(event=listed, roll_number="R3").exists()


def test_confirm_of_a_preview_the_list_has_moved_from_is_refused(organizer_client, listed):
    response = upload(organizer_client, listed, CORRECTED.replace("R5,Nila Pal,ASHA@JU.IN", "R5,Nila Pal,nila@ju.in"))
    EligibilityEntry.objects.filter(event=listed, roll_number="R1").update(year=4)  # another organizer's edit
    response = organizer_client.post(url(listed), confirm_data(response))
    page = response.content.decode()
    assert response.status_code == 200 and "changed since your preview" in page
    assert not EligibilityEntry.objects.filter(event=listed, roll_number="R4").exists()
    assert "<b>year</b>: <del>4</del> → <ins>2</ins>" in page  # the new preview shows the new difference
    response = organizer_client.post(url(listed), confirm_data(response))
    assert response.status_code == 302
    assert EligibilityEntry.objects.filter(event=listed, roll_number="R4").exists()


def test_confirm_with_another_files_hash_is_refused(organizer_client, listed):
    response = upload(organizer_client, listed, CORRECTED.replace("R5,Nila Pal,ASHA@JU.IN", "R5,Nila Pal,nila@ju.in"))
    data = confirm_data(response)
    data["digest"] = "0" * 64
    page = organizer_client.post(url(listed), data).content.decode()
    assert "not the one previewed" in page
    assert not EligibilityEntry.objects.filter(event=listed, roll_number="R4").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe\x00\x00bad bytes", "not UTF-8"),
        (b"name;email\nAsha;a@b.in\n", "Missing columns: roll_number, department, programme"),
        (b",,,\n", "no header line"),
        (b'roll_number,name,email,department,programme\n"R1,unclosed\n', "name is missing"),
        (b"roll_number,name,email,department,programme\nR1,A\x00B,,ChE,UG\n", "NUL characters"),
    ],
)
def test_bad_files_are_explained_never_a_server_error(organizer_client, listed, content, message):
    response = upload(organizer_client, listed, content)
    assert response.status_code == 200
    assert message in response.content.decode()


def policy_rows(*rows):
    """The event form's policy editor as posted: one row per condition (column, kind, values, low, high)."""
    data = {"eligibility_policy-rows": str(len(rows))}
    for index, row in enumerate(rows):
        data.update({f"eligibility_policy-{index}-{part}": value for part, value in row.items()})
    return data


def test_event_form_edits_the_policy_with_clear_validation(organizer_client, event):
    change = reverse("admin:tournament_event_change", args=[event.pk])
    data = {"name": event.name, "slug": event.slug, "status": "draft", "rules_preset": "uno-official",
            "rules_overrides": "{}", "target_score": "", "min_table_size": 3, "max_table_size": 4,
            "turn_seconds": 30, "missed_turns_before_bot": 3, "arrival_grace_seconds": 300, "eligibility": "list",
            "organizers": [organizer_client.user.pk]}
    page = organizer_client.post(change, {**data, **policy_rows(
        {"column": "programme", "kind": "one_of", "values": "Diploma"})}).content.decode()
    assert "&#x27;Diploma&#x27; is not a known programme" in page
    page = organizer_client.post(change, {**data, **policy_rows(
        {"column": "year", "kind": "range", "low": "4", "high": "1"})}).content.decode()
    assert "Condition 1 (year): From (4) is larger than To (1)." in page
    data.update(policy_rows({"column": "programme", "kind": "one_of", "values": "B.Tech"},
                            {"column": "year", "kind": "range", "high": "4"}))
    assert organizer_client.post(change, data).status_code == 302
    event.refresh_from_db()
    assert event.eligibility_policy == [{"column": "programme", "one_of": ["UG"]}, {"column": "year", "to": 4}]
    audit = AuditEntry.objects.get(event=event, action="eligibility.policy")
    assert audit.actor == organizer_client.user
    assert audit.target == "Eligibility policy: programme is one of: UG; year is at most 4"
    assert audit.changes["policy"] == [[], event.eligibility_policy]
    assert organizer_client.post(change, data).status_code == 302  # saved again unchanged: no new entry
    assert AuditEntry.objects.filter(event=event, action="eligibility.policy").count() == 1
    page = organizer_client.get(url(event)).content.decode()
    assert "programme is one of: UG; year is at most 4" in page


def test_a_long_list_previews_every_count_but_not_every_unchanged_or_added_row(organizer_client, event):
    rows = "".join(f"R{n:04d},Student {n},s{n}@ju.in,ChE,UG,1\n" for n in range(400))
    page = upload(organizer_client, event, HEADER + rows).content.decode()
    assert '"added-count">400<' in page and "The first 300 are shown; all 400 are added." in page
    assert page.count("<td>Student ") == 300
    import_entries(event, (HEADER + rows).encode(), organizer_client.user)
    page = upload(organizer_client, event, HEADER + rows).content.decode()
    assert '"unchanged-count">400<' in page and "R0299 Student 299 and 100 more" in page


def test_a_confirm_without_the_previews_fingerprint_saves_nothing(organizer_client, listed):
    response = upload(organizer_client, listed, CORRECTED.replace("R5,Nila Pal,ASHA@JU.IN", "R5,Nila Pal,nila@ju.in"))
    data = confirm_data(response)
    del data["fingerprint"], data["digest"]
    page = organizer_client.post(url(listed), data).content.decode()
    assert "nothing was imported" in page
    assert not EligibilityEntry.objects.filter(event=listed, roll_number="R4").exists()


def test_an_entrys_other_columns_must_be_an_object_of_texts(organizer_client, listed):
    entry = EligibilityEntry.objects.get(event=listed, roll_number="R1")
    change = reverse("admin:tournament_eligibilityentry_change", args=[entry.pk])
    data = {"event": listed.pk, "roll_number": "R1", "name": "Asha Sen", "email": "", "department": "ChE",
            "programme": "UG", "year": "", "extra": '["A"]'}
    assert "must be a JSON object of column names and texts" in organizer_client.post(change, data).content.decode()
    data["extra"] = '{"section": "A"}'
    assert organizer_client.post(change, data).status_code == 302
    entry.refresh_from_db()
    assert (entry.email, entry.year, entry.extra) == ("", None, {"section": "A"})
