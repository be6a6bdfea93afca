"""The demo: idempotent, and a full event at once (list, registrations, round 1 with scores, round 2's bracket)."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from access_tokens.services import authenticate
from games.models import LiveGame
from tournament.demo_bot_league import LEAGUE_SLUG
from tournament.demo_data import (
    DEMO_PASSWORD,
    EVENT_SLUG,
    NEXT_EVENT_SLUG,
    ORGANIZER,
    STUDENTS,
    load_demo,
    readme_logins,
    student_logins,
)
from tournament.models import (
    AuditEntry,
    BracketEntry,
    BracketStage,
    EligibilityEntry,
    Event,
    Game,
    Hand,
    HandScore,
    Player,
    Round,
)
from tournament.services.eligibility import outside_policy
from tournament.services.organizers import ORGANIZER_GROUP
from tournament.standings import compute_standings

pytestmark = pytest.mark.django_db


def test_demo_builds_a_full_event_and_twice_adds_nothing(capsys):
    call_command("demo")
    out = capsys.readouterr().out
    assert "organizer / demo-pass-123" in out and "Chematoodlon Ocho Championship" in out

    event = Event.objects.get(slug=EVENT_SLUG)
    assert event.rules_preset == "ocho-plato" and event.eligibility == "list"
    counts = (EligibilityEntry.objects.count(), Player.objects.count(), Hand.objects.count(),
              HandScore.objects.count(), AuditEntry.objects.count())
    entries = EligibilityEntry.objects.filter(event=event)
    assert entries.count() == 44 and Player.objects.filter(event=event).count() == 26
    rolls = set(entries.values_list("roll_number", flat=True))
    assert set(Player.objects.filter(event=event).values_list("roll_number", flat=True)) <= rolls
    assert set(entries.values_list("year", flat=True)) == {1, 2, 3, 4}
    round_one, round_two = Round.objects.filter(event=event).order_by("number")
    assert round_one.status == "finished" and round_one.tables.count() == 6
    assert set(Game.objects.filter(table__round=round_one).values_list("status", flat=True)) == {"finished"}
    # round 2: a bracket of the best 16 (as proposed from round 1), stage 1 half played, half live
    assert (round_two.kind, round_two.status) == ("bracket", "running")
    assert BracketEntry.objects.filter(round=round_two).count() == 16
    assert list(BracketStage.objects.filter(round=round_two).values_list("number", "planned_tables",
                                                                        "is_final")) == [(1, 4, False), (2, 1, True)]
    stage_one = list(Game.objects.filter(table__round=round_two).order_by("table__number")
                     .values_list("table__stage", "status"))
    assert stage_one == [(1, "finished"), (1, "finished"), (1, "running"), (1, "running")]
    assert LiveGame.objects.filter(game__table__round=round_two, status="running").count() == 2
    for game in Game.objects.filter(status="finished"):
        totals = HandScore.objects.filter(hand__game=game, seat=game.winner).values_list("points_won", flat=True)
        assert sum(totals) >= game.target_score == 500

    # a bot league with two bots entered, waiting for them to check in; each entry's token is printed
    league = Event.objects.get(slug=LEAGUE_SLUG)
    assert league.bot_league and league.checkin_open and league.status == "running"
    assert sorted(Player.objects.filter(event=league).values_list("user__username", "status")) == [
        ("asha", "registered"), ("ravi", "registered")]
    tokens = re.findall(rf"UNO_TOKEN=(uno_\S+) \.venv/bin/python examples/bot\.py .*--event {LEAGUE_SLUG}", out)
    assert len(tokens) == 2 and all(authenticate(t) is not None for t in tokens)

    load_demo()
    assert counts == (EligibilityEntry.objects.count(), Player.objects.count(), Hand.objects.count(),
                      HandScore.objects.count(), AuditEntry.objects.count())
    assert all(authenticate(t) is None for t in tokens)  # the demo's tokens are made anew each time
    standings = compute_standings(event)
    assert len(standings) >= 24 and standings[0].points_won > 0


def test_demo_logins_work(client):
    load_demo()
    organizer = get_user_model().objects.get(username="organizer")
    assert organizer.is_staff and not organizer.is_superuser
    assert organizer.groups.filter(name=ORGANIZER_GROUP).exists()
    assert Event.objects.get(slug=EVENT_SLUG).organizers.filter(pk=organizer.pk).exists()
    assert client.login(username="organizer", password=DEMO_PASSWORD)
    round_ = Round.objects.get(event__slug=EVENT_SLUG, number=1)
    page = client.get(reverse("admin:tournament_round_overview", args=[round_.pk]))
    assert page.status_code == 200 and "Asha" in page.content.decode()
    for username, _ in STUDENTS:
        student = get_user_model().objects.get(username=username)
        assert Player.objects.filter(user=student, event__slug=EVENT_SLUG).exists()
        assert client.login(username=username, password=DEMO_PASSWORD)


def test_demo_bracket_page_shows_stages_seeds_and_live_scores(client):
    logins = load_demo()
    html = client.get(logins.bracket_url).content.decode()
    assert 'id="stage-1"' in html and 'id="stage-2"' in html and "Final" in html
    assert html.count('class="seed">') == 16, "every seed of the field is shown"
    assert html.count("✓ on") == 2, "the winners of the two finished tables go on"
    assert "Seated when stage 1 ends." in html
    # the tables playing live are on the page with their status, linked to their table pages
    for live in LiveGame.objects.filter(game__table__round__number=2, status="running").select_related("game"):
        assert reverse("table_detail", args=[EVENT_SLUG, live.game.table_id]) in html
    assert html.count("Running") == 2


def test_demo_prints_links_at_the_address_it_is_told(capsys):
    call_command("demo", site="http://127.0.0.1:8791/")
    out = capsys.readouterr().out
    assert "Site: http://127.0.0.1:8791/   Admin: http://127.0.0.1:8791/admin/" in out
    assert f"Round 2's bracket, live: http://127.0.0.1:8791/events/{EVENT_SLUG}/rounds/2/bracket/" in out
    assert "127.0.0.1:8000" not in out


def test_demo_students_are_verified_and_a_newcomer_is_told_how_to_sign_up(client, capsys):
    from django.core import mail

    from tournament.services.email_verification import verified_email

    call_command("demo", site="http://127.0.0.1:8791")
    out = capsys.readouterr().out
    registered = Player.objects.filter(event__slug=EVENT_SLUG).select_related("user")
    assert all(verified_email(p.user) for p in registered), "every demo student's address is verified"
    newcomer = EligibilityEntry.objects.filter(event__slug=EVENT_SLUG).exclude(
        roll_number__in=registered.values("roll_number")).order_by(
        "roll_number").filter(email__in=[line for line in out.split() if "@" in line])
    assert newcomer.count() == 1, "the printed address is on the list and not registered"
    entry = newcomer.get()
    assert f"sign up at http://127.0.0.1:8791/accounts/signup/ with {entry.email}" in out
    assert f"roll number {entry.roll_number}" in out and "printed in the console of `make run`" in out
    # the newcomer's way works: sign up, open the mailed link, register
    client.post(reverse("signup"), {"username": "newcomer", "email": entry.email, "password1": "a-Long-pass-8421",
                                    "password2": "a-Long-pass-8421"})
    link = mail.outbox[-1].body.split("http://testserver")[1].split()[0]
    client.get(link)
    response = client.post(reverse("register", args=[NEXT_EVENT_SLUG]), {"roll_number": entry.roll_number,
                                                                        "display_name": ""})
    assert response.status_code == 302, "registers for the open event as printed (the championship is running)"
    assert Player.objects.get(user__username="newcomer").roll_number == entry.roll_number


def test_the_readme_lists_every_demo_login():
    readme = (Path(settings.BASE_DIR) / "README.md").read_text()
    start, end = "<!-- demo-logins:", "<!-- /demo-logins -->"
    assert start in readme and end in readme, "README.md has lost its demo logins section"
    listed = readme.split(start, 1)[1].split("-->", 1)[1].split(end, 1)[0].strip()
    assert listed == readme_logins(), f"README.md's demo logins are out of date; put this there:\n{readme_logins()}"
    logins = [username for username, _ in student_logins()]
    for username in [ORGANIZER, *logins]:
        assert f"`{username}`" in listed
    assert f"`{DEMO_PASSWORD}`" in listed


def test_every_login_the_readme_lists_can_log_in(client):
    load_demo()
    User = get_user_model()
    students = [username for username, _ in student_logins()]
    assert set(students) == set(Player.objects.filter(event__slug=EVENT_SLUG).values_list("user__username", flat=True))
    for username in [ORGANIZER, *students]:
        assert User.objects.get(username=username).check_password(DEMO_PASSWORD), username


def test_demo_event_has_a_policy_entries_outside_it_a_claim_and_a_withdrawal(capsys):
    """Issue 14's paths for a newcomer organizer: the policy with rows it leaves out, a claim to confirm, an
    entry without e-mail to claim, a withdrawn player to reinstate (all printed by the demo)."""
    call_command("demo")
    out = capsys.readouterr().out
    event = Event.objects.get(slug=EVENT_SLUG)
    assert event.eligibility_policy == [{"column": "programme", "one_of": ["UG"]},
                                        {"column": "department", "one_of": ["Chemical Engineering"]}]
    assert "Who may register: programme is one of: UG; department is one of: Chemical Engineering." in out
    outside = {e.name: outside_policy(event, e) for e in EligibilityEntry.objects.filter(event=event)
               if outside_policy(event, e)}
    assert outside == {"Nilanjana Dey": "programme is PG (must be UG)",
                       "Arka Sinha": "department is Mechanical Engineering (must be Chemical Engineering)"}
    for name, reason in outside.items():
        assert name in out and reason in out
    claim = Player.objects.get(event=event, claim=Player.Claim.PENDING)
    assert claim.user.username == "tuhin" and claim.status == Player.Status.REGISTERED
    assert EligibilityEntry.objects.get(event=event, roll_number=claim.roll_number).email == ""
    assert f"A claim to confirm (Admin > Players, claim: awaiting an organizer): Tuhin Majumder ({claim.roll_number})" in out
    free = EligibilityEntry.objects.filter(event=event, email="").exclude(roll_number=claim.roll_number).get()
    assert not Player.objects.filter(event=event, roll_number=free.roll_number).exists()
    assert f"No e-mail on the list for roll number {free.roll_number}" in out
    withdrawn = Player.objects.get(event=event, status=Player.Status.WITHDRAWN)
    assert f"Withdrawn, to reinstate (Admin > Players): {withdrawn.display_name}" in out
    assert AuditEntry.objects.filter(event=event, action="player.withdraw", reason__contains="internship").count() == 1
    assert get_user_model().objects.get(username="tuhin").check_password(DEMO_PASSWORD)
    assert "tuhin" in out.split("Students (password")[1].split("\n")[0]


def test_a_newcomer_registers_for_the_open_event_as_printed(client, capsys):
    """The championship is running (its registration closed): the demo's open event takes the newcomer's
    registration, refuses a roll number outside the policy with the reason, and a roll number without e-mail
    becomes a claim."""
    from django.core import mail

    call_command("demo", site="http://127.0.0.1:8791")
    out = capsys.readouterr().out
    open_event = Event.objects.get(slug=NEXT_EVENT_SLUG)
    assert f"register for {open_event.name} at http://127.0.0.1:8791/events/{NEXT_EVENT_SLUG}/" in out
    assert open_event.registration_is_open() and not Event.objects.get(slug=EVENT_SLUG).registration_is_open()
    assert open_event.eligibility_policy == Event.objects.get(slug=EVENT_SLUG).eligibility_policy
    email = out.split("/accounts/signup/ with ")[1].split()[0]
    client.post(reverse("signup"), {"username": "newcomer", "email": email, "password1": "a-Long-pass-8421",
                                    "password2": "a-Long-pass-8421"})
    client.get(mail.outbox[-1].body.split("http://testserver")[1].split()[0])
    register = reverse("register", args=[NEXT_EVENT_SLUG])
    postgraduate = EligibilityEntry.objects.get(event=open_event, programme="PG")
    page = client.post(register, {"roll_number": postgraduate.roll_number, "display_name": ""}).content.decode()
    assert "programme is PG (must be UG)" in page
    free = out.split("No e-mail on the list for roll number ")[1].split(":")[0]
    assert f"{free}: registering with it for {open_event.name} makes a claim" in out
    assert client.post(register, {"roll_number": free, "display_name": ""}).status_code == 302
    assert Player.objects.get(event=open_event, user__username="newcomer").claim == Player.Claim.PENDING


def test_an_older_demo_database_is_told_how_to_get_the_claim_and_the_withdrawal(capsys):
    """A database from before the demo had them: the championship is running, so nobody can register there;
    the demo says so instead of leaving the newcomer looking for them."""
    call_command("demo")
    Player.objects.filter(event__slug=EVENT_SLUG, user__username__in=["tuhin", "joydeepbiswas"]).delete()
    capsys.readouterr()
    call_command("demo")
    out = capsys.readouterr().out
    assert "A claim to confirm" not in out and "Withdrawn, to reinstate" not in out
    assert "remove db.sqlite3 and run `make run` again" in out
