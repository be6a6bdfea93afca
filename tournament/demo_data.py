"""The demo a newcomer sees after the quick start: an organizer, students, and an event in its second round.

"Chematoodlon Ocho Championship" (Ocho as in the Plato app, eligibility list of Chemical Engineering
undergraduates of Jadavpur University): 40 people on the list, 24 registered, round 1 at six tables of
four played off-line and recorded by the organizer; round 2 is a bracket of the best 16 (sized by round
1's participation as the organizer's "Plan next round" proposes it): four tables of four, the winners to
a final table. Tables 1 and 2 of stage 1 have finished (their winners are marked as going on); tables 3
and 4 play live (students' missed turns are taken over by bots, so they move on their own and the bracket
page's scores change). An exhibition table of bots plays for anyone to watch, and a bot league waits for
its two entered bots to check in (tournament/demo_bot_league.py).

The registered students' e-mail addresses are verified already; the list's other people are left for a
newcomer to sign up as (sign-up mails a link that verifies the address). The event's eligibility policy
admits undergraduates of Chemical Engineering; the list also holds a postgraduate and a Mechanical
Engineering student (outside the policy: registration refuses them with the reason) and two students
without an e-mail on the list: one has registered and their claim waits for the organizer to confirm,
the other is free for a newcomer to claim. One registrant has withdrawn (for the organizer to reinstate).

Idempotent and fast: running it again resets the demo passwords and adds nothing twice. Every demo user
gets the same password hash (hashed once: hashing 25 passwords one by one would take seconds). Recorded
scores are plausible hands from a seeded RNG; all names, e-mails and roll numbers are made up.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games.models import LiveGame
from tournament.demo_bot_league import load_bot_league
from tournament.models import (
    EligibilityEntry,
    Event,
    Game,
    Hand,
    HandScore,
    Player,
    Round,
    Seat,
    VerifiedEmail,
)
from tournament.services import advancing, bracket_stages, eligibility, next_round, registration, rounds
from tournament.services import players as player_actions
from tournament.services.game_end import finish_round_if_done
from tournament.services.live_tables import exhibition_table
from tournament.services.organizers import make_organizer
from tournament.services.results import points_won_for

DEMO_PASSWORD = "demo-pass-123"
ORGANIZER = "organizer"
STUDENTS = [("asha", "Asha"), ("ravi", "Ravi"), ("meera", "Meera"), ("kabir", "Kabir")]

EVENT_SLUG = "chematoodlon-ocho"
EVENT_NAME = "Chematoodlon Ocho Championship"
NEXT_EVENT_SLUG = "chematoodlon-winter-cup"
NEXT_EVENT_NAME = "Chematoodlon Ocho Winter Cup"
DEPARTMENT = "Chemical Engineering"
DEMO_SEED = 2020
REGISTERED = 24
POLICY = [{"column": "programme", "one_of": ["UG"]}, {"column": "department", "one_of": [DEPARTMENT]}]
# On the list beyond the 40 undergraduates: (key, name, e-mail, department, programme, year)
OUTSIDE_POLICY = [("pg", "Nilanjana Dey", "nilanjana.dey.pg@jadavpur.example.edu", DEPARTMENT, "PG", 1),
                  ("mech", "Arka Sinha", "arka.sinha.me@jadavpur.example.edu", "Mechanical Engineering", "UG", 2)]
WITHOUT_EMAIL = [("claimed", "Tuhin Majumder", "", DEPARTMENT, "UG", 1),
                 ("unclaimed", "Sudipta Kar", "", DEPARTMENT, "UG", 3)]
CLAIMANT = ("tuhin", "Tuhin", "tuhin.majumder@mail.example.com")  # registered against the entry without e-mail
WITHDRAWN = 39  # index into the people: registered, then withdrew
BRACKET_FINISHED_TABLES = 2  # stage 1's tables 1-2 have finished their game, 3-4 play live

# Made-up students: (first name, surname) pairs; the four demo logins come first.
SURNAMES = ["Sen", "Bose", "Iyer", "Khan", "Das", "Ghosh", "Mukherjee", "Chatterjee", "Banerjee", "Roy",
            "Dutta", "Saha", "Mondal", "Paul", "Sarkar", "Haldar", "Nandi", "Pal", "Kundu", "Biswas"]
FIRST_NAMES = ["Asha", "Ravi", "Meera", "Kabir", "Ananya", "Rohan", "Sayani", "Arijit", "Debolina", "Souvik",
               "Ishita", "Pritam", "Tanushree", "Aritra", "Moumita", "Sourav", "Riya", "Subhajit", "Payel",
               "Anirban", "Shreya", "Rajdeep", "Poulami", "Sandipan", "Trisha", "Abhishek", "Madhurima",
               "Sayan", "Oindrila", "Kaustav", "Rupsa", "Indranil", "Sohini", "Arnab", "Debjani", "Ritam",
               "Sneha", "Soumya", "Antara", "Joydeep"]


@dataclass
class DemoLogins:
    organizer: str
    students: list[str]
    password: str
    event: str = EVENT_NAME
    exhibition_url: str = ""
    bracket_url: str = ""
    newcomer_email: str = ""  # on the list, not registered: what a newcomer can sign up with
    newcomer_roll_number: str = ""
    policy: str = ""
    outside_policy: list[str] = None  # "name (roll number): why" of the list's entries the policy leaves out
    claim: str = ""  # "name (roll number)" whose claim waits for the organizer
    claimant: str = ""  # the claimant's login
    unclaimed_roll_number: str = ""  # on the list without e-mail, not registered
    withdrawn: str = ""
    registering: str = ""  # the event open for registration, where a newcomer registers
    registering_slug: str = ""
    bot_league_slug: str = ""  # the bot league (tournament/demo_bot_league.py)
    bot_entries: list = None  # its entries: LeagueEntry (login, bot, a fresh token)


def _people() -> list[dict]:
    people = []
    for index, first in enumerate(FIRST_NAMES):
        year = 4 - index % 4
        admitted = timezone.now().year - year + 1
        roll = f"0019{admitted % 100:02d}301{index + 1:03d}"
        surname = SURNAMES[index % len(SURNAMES)]
        people.append({
            "roll_number": roll, "name": f"{first} {surname}", "year": year,
            "email": f"{first}.{surname}.che{admitted % 100:02d}@jadavpur.example.edu".lower(),
            "username": STUDENTS[index][0] if index < len(STUDENTS) else f"{first}{surname}".lower(),
        })
    return people


def student_logins() -> list[tuple[str, str]]:
    """(username, name) of every demo student registered for the championship, in the order they are made
    (all share the demo password): the registered students, the claimant and the one who withdrew. The
    README lists them all; a test keeps the two the same."""
    people = _people()
    claimant = (CLAIMANT[0], f"{CLAIMANT[1]} Majumder")
    return [(p["username"], p["name"]) for p in people[:REGISTERED]] + [
        claimant, (people[WITHDRAWN]["username"], people[WITHDRAWN]["name"])]


def readme_logins() -> str:
    """The README's list of demo logins (Markdown), generated from the same data as the demo."""
    per_row = 3
    students = student_logins()
    lines = [f"Every login's password is `{DEMO_PASSWORD}`. The organizer of {EVENT_NAME} (who also has `/admin/`)",
             f"is `{ORGANIZER}`; its {len(students)} students are:", "",
             "| login | name " * per_row + "|", "|---|---" * per_row + "|"]
    for start in range(0, len(students), per_row):
        row = students[start:start + per_row]
        lines.append("".join(f"| `{username}` | {name} " for username, name in row)
                     + "| | " * (per_row - len(row)) + "|")
    return "\n".join(lines)


@transaction.atomic
def load_demo() -> DemoLogins:
    User = get_user_model()
    password = make_password(DEMO_PASSWORD)
    organizer, _ = User.objects.get_or_create(username=ORGANIZER, defaults={"first_name": "Olga"})
    organizer.password = password
    organizer.save()
    event, _ = Event.objects.get_or_create(slug=EVENT_SLUG, defaults={
        "name": EVENT_NAME, "rules_preset": "ocho-plato", "eligibility": Event.Eligibility.LIST,
        "min_table_size": 4, "max_table_size": 4, "status": Event.Status.REGISTRATION,
        "turn_seconds": 20, "missed_turns_before_bot": 2,
        "description": "Ocho (as in the Plato app) for the undergraduates of the Department of Chemical "
                       "Engineering, Jadavpur University. Round 1 at tables of four; a second round is "
                       "sized by first-round participation.",
    })
    make_organizer(organizer, event)

    people = _people()
    known = set(EligibilityEntry.objects.filter(event=event).values_list("roll_number", flat=True))
    EligibilityEntry.objects.bulk_create([
        EligibilityEntry(event=event, roll_number=p["roll_number"], name=p["name"], email=p["email"],
                         department=DEPARTMENT, programme=EligibilityEntry.Programme.UG, year=p["year"])
        for p in people if p["roll_number"] not in known
    ] + [
        EligibilityEntry(event=event, roll_number=roll, name=name, email=email, department=department,
                         programme=programme, year=year)
        for roll, (_, name, email, department, programme, year) in _issue_entries().items() if roll not in known
    ])
    if not event.eligibility_policy:
        event.eligibility_policy = POLICY
        event.save(update_fields=["eligibility_policy"])

    for username, first_name in STUDENTS:
        User.objects.get_or_create(username=username, defaults={"first_name": first_name})
    registered = people[:REGISTERED]
    existing = {u.username: u for u in User.objects.filter(username__in=[p["username"] for p in registered])}
    User.objects.bulk_create([
        User(username=p["username"], first_name=p["name"].split()[0], last_name=p["name"].split()[1],
             email=p["email"], password=password)
        for p in registered if p["username"] not in existing
    ])
    User.objects.filter(username__in=[p["username"] for p in registered]).update(password=password)
    for p in registered[:len(STUDENTS)]:  # the demo logins, made above without an address
        User.objects.filter(username=p["username"], email="").update(email=p["email"])
    users = {u.username: u for u in User.objects.filter(username__in=[p["username"] for p in registered])}
    verified = set(VerifiedEmail.objects.filter(user__in=users.values()).values_list("user_id", flat=True))
    VerifiedEmail.objects.bulk_create([  # the demo's students have verified their addresses already
        VerifiedEmail(user=user, email=user.email, verified_at=timezone.now())
        for user in users.values() if user.pk not in verified
    ])
    already = set(Player.objects.filter(event=event).values_list("user_id", flat=True))
    now = timezone.now()
    Player.objects.bulk_create([
        Player(event=event, user=users[p["username"]], roll_number=p["roll_number"], display_name=p["name"],
               status=Player.Status.CHECKED_IN, checked_in_at=now)
        for p in registered if users[p["username"]].pk not in already
    ])

    claimed, unclaimed, withdrawn = _claim_and_withdrawal(event, organizer, people, password)  # while registering
    if not Round.objects.filter(event=event).exists():
        _play_first_round(event, organizer)
    bracket = Round.objects.filter(event=event, kind=Round.Kind.BRACKET).first() or _start_bracket(event, organizer)

    exhibition = _open_exhibition_table(event)
    registering = _open_registration_event(event, organizer)
    league, bot_entries = load_bot_league(organizer)
    entries = EligibilityEntry.objects.filter(event=event)
    return DemoLogins(ORGANIZER, [name for name, _ in STUDENTS], DEMO_PASSWORD,
                      exhibition_url=exhibition.get_absolute_url(),
                      bracket_url=reverse("bracket", args=[event.slug, bracket.number]),
                      newcomer_email=people[REGISTERED]["email"], newcomer_roll_number=people[REGISTERED]["roll_number"],
                      policy=eligibility.event_policy(event).describe(),
                      outside_policy=[f"{e.name} ({e.roll_number}): {reason}" for e in entries
                                      if (reason := eligibility.outside_policy(event, e))],
                      claim=f"{claimed.display_name} ({claimed.roll_number})" if claimed and claimed.claim_pending
                      else "", claimant=CLAIMANT[0], unclaimed_roll_number=unclaimed,
                      withdrawn=withdrawn.display_name if withdrawn and not withdrawn.is_active else "",
                      registering=registering.name, registering_slug=registering.slug,
                      bot_league_slug=league.slug, bot_entries=bot_entries)


def _open_registration_event(event: Event, organizer) -> Event:
    """The department's next event, open for registration with the same list and policy: where a newcomer
    signs up and registers (the championship is running, so its registration is closed)."""
    upcoming, created = Event.objects.get_or_create(slug=NEXT_EVENT_SLUG, defaults={
        "name": NEXT_EVENT_NAME, "rules_preset": event.rules_preset, "eligibility": Event.Eligibility.LIST,
        "eligibility_policy": POLICY, "min_table_size": 4, "max_table_size": 4,
        "status": Event.Status.REGISTRATION, "turn_seconds": event.turn_seconds,
        "missed_turns_before_bot": event.missed_turns_before_bot,
        "description": "The next Ocho event for the undergraduates of Chemical Engineering: registration is open.",
    })
    make_organizer(organizer, upcoming)
    if created:
        EligibilityEntry.objects.bulk_create([
            EligibilityEntry(event=upcoming, **{name: getattr(entry, name) for name in EligibilityEntry.FIELDS},
                             extra=entry.extra)
            for entry in EligibilityEntry.objects.filter(event=event)])
    return upcoming


def _issue_entries() -> dict[str, tuple]:
    """The list's entries beyond the 40 undergraduates, by roll number."""
    year = timezone.now().year % 100
    return {f"0019{year:02d}30{9 if key in ('pg', 'mech') else 8}{index:03d}": (key, *rest)
            for index, (key, *rest) in enumerate(OUTSIDE_POLICY + WITHOUT_EMAIL, start=1)}


def _claim_and_withdrawal(event: Event, organizer, people: list[dict], password: str):
    """A student registered against the entry without e-mail (their claim waits for the organizer), and a
    registrant who withdrew; made once, through the services, so the audit log shows them."""
    User = get_user_model()
    rolls = {key: roll for roll, (key, *_) in _issue_entries().items()}
    username, first_name, email = CLAIMANT
    claimant, _ = User.objects.get_or_create(username=username, defaults={"first_name": first_name,
                                                                          "last_name": "Majumder", "email": email})
    User.objects.filter(pk=claimant.pk).update(password=password)
    VerifiedEmail.objects.get_or_create(user=claimant, defaults={"email": email, "verified_at": timezone.now()})
    claimed = Player.objects.filter(event=event, user=claimant).first() or _register(event, claimant, rolls["claimed"])
    person = people[WITHDRAWN]
    leaver, _ = User.objects.get_or_create(username=person["username"], defaults={
        "first_name": person["name"].split()[0], "last_name": person["name"].split()[1], "email": person["email"]})
    User.objects.filter(pk=leaver.pk).update(password=password)
    VerifiedEmail.objects.get_or_create(user=leaver, defaults={"email": person["email"], "verified_at": timezone.now()})
    withdrawn = Player.objects.filter(event=event, user=leaver).first()
    if withdrawn is None and (withdrawn := _register(event, leaver, person["roll_number"])):
        withdrawn = player_actions.withdraw(withdrawn, organizer, "Asked to withdraw: away at an internship.")
    return claimed, rolls["unclaimed"], withdrawn


def _register(event: Event, user, roll_number: str) -> Player | None:
    try:
        return registration.register_player(event, user, roll_number)
    except registration.RegistrationRefused:  # the event's registration was closed since: leave it out
        return None


def _open_exhibition_table(event: Event):
    """A table of four bots playing the event's rules live, for anyone to watch (made once). No explicit
    seed: like every production table its hands use secret seeds, published only after each hand."""
    existing = LiveGame.objects.filter(kind=LiveGame.Kind.EXHIBITION, title__startswith=event.name).first()
    return existing or exhibition_table(event, seats=4)


def _play_first_round(event: Event, organizer) -> None:
    """Seat round 1; every table played off-line and its results were recorded (hands to the target)."""
    plan = rounds.plan_first_round(event, seed=DEMO_SEED, source=rounds.CHECKED_IN)
    round_ = rounds.create_first_round(event, plan, organizer)
    _record_games(Game.objects.filter(table__round=round_), random.Random(DEMO_SEED),
                  timezone.now() - timedelta(hours=3))
    rounds.start_round(round_, organizer)  # every game has ended: nothing to play live
    finish_round_if_done(Round.objects.get(pk=round_.pk))


def _start_bracket(event: Event, organizer) -> Round:
    """Round 2 as the organizer's "Plan next round" proposes it; stage 1's first tables were recorded
    (their winners go on), then the stage starts and the other tables play live."""
    options = next_round.default_options(event)
    options.draw_seed = DEMO_SEED
    plan = next_round.plan_next_round(event, options)
    round_ = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    _record_games(Game.objects.filter(table__round=round_, table__stage=1,
                                      table__number__lte=BRACKET_FINISHED_TABLES),
                  random.Random(DEMO_SEED + 1), timezone.now() - timedelta(minutes=50))
    bracket_stages.start_stage(round_, 1, organizer)  # the other tables' games start, each with its live table
    advancing.advance_bracket(round_)
    return round_


def _record_games(games, rng: random.Random, start) -> None:
    """Plausible hands recorded by the organizer until each game's target is reached."""
    seats_by_table: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__games__in=games).order_by("table__number", "number"):
        seats_by_table.setdefault(seat.table_id, []).append(seat)
    scores: list[HandScore] = []
    for game in games.select_related("table").order_by("table__number"):
        seats = seats_by_table[game.table_id]
        totals = {seat.pk: 0 for seat in seats}
        number = 0
        at = start
        while True:
            number += 1
            winner = rng.choice(seats)
            left = {s.pk: (0 if s is winner else rng.randint(4, 70)) for s in seats}
            won = points_won_for(winner.pk, left)
            ended = at + timedelta(minutes=rng.randint(4, 9))
            hand = Hand.objects.create(game=game, number=number, dealer=(number - 1) % len(seats), winner=winner,
                                       source=Hand.Source.MANUAL, started_at=at, ended_at=ended)
            at = ended
            scores += [HandScore(hand=hand, seat_id=s, points_left=left[s], points_won=won[s]) for s in left]
            for seat_id, points in won.items():
                totals[seat_id] += points
            if totals[winner.pk] >= game.target_score:
                game.status, game.winner = Game.Status.FINISHED, winner
                game.started_at, game.finished_at = start, ended
                game.save(update_fields=["status", "winner", "started_at", "finished_at"])
                break
    HandScore.objects.bulk_create(scores)
