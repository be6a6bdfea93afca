"""Planning the next round from who took part: no-shows are out unless the organizer adds one back, with a
reason in the audit log (the service, then the "Plan next round" admin page)."""

import pytest
from django.urls import reverse

from tests.tournament.bracket_factories import played_first_round
from tests.tournament.organizer_factories import PASSWORD
from tests.tournament.participation_factories import PLAYER, bots_played, move, table_players
from tournament.generators.brackets import BracketError
from tournament.models import AuditEntry, Game, Player, Round
from tournament.services import next_round
from tournament.services.next_round import NextRoundOptions

pytestmark = pytest.mark.django_db

REASON = "Her phone died; she played hand 1 on paper with the judge"


@pytest.fixture
def no_show_table():
    """Round 1 of 16 (four tables of 4) where table 1's students never opened the table: the timer and the
    takeover bots finished its game (its winner scored the fourth most points of the round)."""
    event, organizer, round_one = played_first_round(16)
    game = Game.objects.filter(table__round=round_one).order_by("table__number").first()
    bots_played(game)
    return event, organizer, round_one, game


def test_no_shows_are_out_however_many_points_the_bots_scored(no_show_table):
    event, _organizer, _round_one, game = no_show_table
    absent = table_players(game)
    assert next_round.default_options(event).field <= 12, "proposed from the 12 who played"
    plan = next_round.plan_next_round(event, NextRoundOptions(field=12, draw_seed=3))
    assert plan.confirmable, plan.problems
    assert (plan.played, sorted(line.row.player_id for line in plan.no_shows)) == (12, sorted(absent))
    assert set(plan.field_ids).isdisjoint(absent) and len(plan.field_ids) == 12
    assert all(line.reason == "no-show in round 1: made no move of their own" for line in plan.no_shows)
    assert "only 12 played" in next_round.plan_next_round(event, NextRoundOptions(field=16)).problems[0]


def test_a_student_who_moved_once_is_not_a_no_show(no_show_table):
    event, _organizer, _round_one, game = no_show_table
    move(game, 3, PLAYER)
    plan = next_round.plan_next_round(event, NextRoundOptions(field=13, draw_seed=3, advance=[1]))
    assert plan.played == 13 and table_players(game)[3] in plan.field_ids


def test_a_no_show_added_back_with_a_reason_competes_by_points_and_is_audited(no_show_table):
    event, organizer, _round_one, game = no_show_table
    winner = table_players(game)[0]  # the bots won table 1 for them; only tables 2-4's winners scored more
    options = NextRoundOptions(field=12, draw_seed=3, added_back={winner: REASON})
    plan = next_round.plan_next_round(event, options)
    assert plan.confirmable, plan.problems
    assert plan.field_ids.index(winner) == 3, "counted as having played: seeded by points"
    line = next(line for line in plan.no_shows if line.row.player_id == winner)
    assert line.added_back == REASON and line.seed == 4
    assert AuditEntry.objects.filter(action="next_round.add_back").count() == 0, "a preview writes nothing"
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    entry = AuditEntry.objects.get(event=event, action="next_round.add_back")
    assert (entry.actor, entry.reason, entry.changes["player"]) == (organizer, REASON, winner)
    assert entry.target == f"Round {round_two.number}: no-show {Player.objects.get(pk=winner)} added back"


def test_adding_back_needs_a_reason_and_a_no_show(no_show_table):
    event, organizer, round_one, game = no_show_table
    absent = table_players(game)
    plan = next_round.plan_next_round(event, NextRoundOptions(field=12, added_back={absent[1]: "   "}))
    assert not plan.confirmable
    assert plan.problems == [f"Give a reason for adding {Player.objects.get(pk=absent[1])} back (it is written to "
                             "the audit log)."]
    with pytest.raises(BracketError, match="Give a reason"):
        next_round.create_bracket_round(event, NextRoundOptions(field=12, added_back={absent[1]: ""}),
                                        plan.field_ids, organizer)
    present = next(p for p in Player.objects.filter(seats__table__round=round_one).values_list("pk", flat=True)
                   if p not in absent)
    plan = next_round.plan_next_round(event, NextRoundOptions(field=12, added_back={present: REASON}))
    assert any("is not a no-show of round 1" in p for p in plan.problems)
    assert not Round.objects.filter(event=event, number=2).exists()


# ---- the admin page -----------------------------------------------------------------------------------

def plan_url(event):
    return reverse("admin:tournament_event_plan_next_round", args=[event.pk])


OPTIONS = {"field": 12, "method": "top", "advance": "", "per_table": 1, "format_first": "standard",
           "format_later": "standard", "tie_method": "draw"}


def test_the_page_shows_who_played_and_the_no_shows_by_name(client, no_show_table):
    event, organizer, _round_one, game = no_show_table
    client.login(username=organizer.username, password=PASSWORD)
    page = client.get(plan_url(event)).content.decode()
    names = sorted(Player.objects.filter(pk__in=table_players(game)).values_list("display_name", flat=True),
                   key=str.casefold)
    summary = page.split('id="participation"')[1].split("</p>")[0]
    assert "12 played, 4 no-shows" in summary and all(name in summary for name in names)
    assert page.count('name="add_back_reason_') == 4
    page = client.get(plan_url(event), OPTIONS).content.decode()
    assert "12 played round 1, 4 no-shows" in page
    assert page.count("no-show in round 1: made no move of their own") == 4


def test_adding_a_no_show_back_on_the_page_needs_a_reason_and_is_audited(client, no_show_table):
    event, organizer, _round_one, game = no_show_table
    client.login(username=organizer.username, password=PASSWORD)
    winner = Player.objects.get(pk=table_players(game)[0])
    response = client.get(plan_url(event), {**OPTIONS, f"add_back_{winner.pk}": "on"})
    page = response.content.decode()
    assert response.status_code == 200
    assert f"Give a reason for adding {winner.display_name} back: it is written to the audit log" in page
    assert 'name="confirm"' not in page, "no preview to confirm while the form has an error"
    page = client.get(plan_url(event), {**OPTIONS, f"add_back_{winner.pk}": "on",
                                        f"add_back_reason_{winner.pk}": REASON}).content.decode()
    assert f"(no-show added back: {REASON})" in page.replace("&#x27;", "'")
    seed = page.split('name="draw_seed" value="')[1].split('"')[0]
    expected = page.split('name="expected_field" value="')[1].split('"')[0]
    assert str(winner.pk) in expected.split(",")
    confirm_form = page.split('<form method="post">')[1].split("</form>")[0]
    assert f'name="add_back_{winner.pk}" value="True"' in confirm_form
    response = client.post(plan_url(event), {**OPTIONS, "draw_seed": seed, "expected_field": expected,
                                             f"add_back_{winner.pk}": "True",
                                             f"add_back_reason_{winner.pk}": REASON, "confirm": "1"})
    assert response.status_code == 302
    entry = AuditEntry.objects.get(event=event, action="next_round.add_back")
    assert (entry.actor, entry.reason) == (organizer, REASON)
