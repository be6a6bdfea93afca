"""A cut falling among 100+ players equal on every tiebreak: previewed, confirmed through the admin,
recorded, replayed, and used again when a withdrawn player is replaced (the tie's stored name has a fixed
length however many players it holds; PostgreSQL enforces the column's length, so run this there too)."""

import pytest
from django.urls import reverse

from tests.tournament.bracket_factories import finish_table
from tests.tournament.organizer_factories import PASSWORD, make_event, make_organizer_of, make_players
from tournament.generators.cuts import Tie
from tournament.models import BracketEntry, Game, Player, Round, Seat, TiebreakDraw
from tournament.services import next_round, replacements, rounds
from tournament.services.next_round import NextRoundOptions

pytestmark = pytest.mark.django_db

PLAYERS = 200  # 50 tables of 4: 50 winners, and 150 others equal on every tiebreak
FIELD = 64


@pytest.fixture
def tied_round_one():
    """Round one where every table's winner scores the same and every other player kept 600 points:
    the 150 non-winners are equal on points, games, hands won and points left."""
    event = make_event(min_table_size=4, max_table_size=4)
    organizer = make_organizer_of(event)
    make_players(event, PLAYERS)
    plan = rounds.plan_first_round(event, seed=3, source=rounds.REGISTERED)
    round_one = rounds.create_first_round(event, plan, organizer)
    rounds.start_round(round_one, organizer)
    for game in Game.objects.filter(table__round=round_one).order_by("table__number"):
        members = [s.player_id for s in Seat.objects.filter(table_id=game.table_id).order_by("number")]
        finish_table(game, members, organizer, left=[0, 600, 600, 600])
    round_one.refresh_from_db()
    assert round_one.status == Round.Status.FINISHED
    winners = set(Seat.objects.filter(table__round=round_one, number=0).values_list("player_id", flat=True))
    return event, organizer, winners


def test_a_cut_among_120_tied_players_is_drawn_confirmed_and_replayed(client, tied_round_one):
    event, organizer, winners = tied_round_one
    form = {"field": FIELD, "method": "top", "advance": "1", "per_table": 1, "format_first": "standard",
            "format_later": "standard", "tie_method": "draw", "draw_seed": 77}
    plan = next_round.plan_next_round(event, NextRoundOptions(field=FIELD, advance=[1], draw_seed=77))
    assert plan.confirmable, plan.problems
    (tie, table_number), = plan.ties
    assert table_number is None and len(tie.players) == PLAYERS - len(winners) and tie.places == FIELD - len(winners)
    assert len(tie.key) > 400, "the tie's key alone no longer fits the old varchar(400)"
    assert winners <= set(plan.field_ids)

    assert client.login(username=organizer.username, password=PASSWORD)
    url = reverse("admin:tournament_event_plan_next_round", args=[event.pk])
    response = client.post(url, {**form, "confirm": "1", "expected_field": ",".join(map(str, plan.field_ids))})
    assert response.status_code == 302, response.content.decode()[:2000]
    round_two = Round.objects.get(event=event, number=2)
    draw = TiebreakDraw.objects.get(round=round_two, stage=0)
    draw.full_clean()  # every stored value fits its column (SQLite would not enforce the length itself)
    assert sorted(draw.order) == sorted(tie.players) and draw.places == FIELD - len(winners) and draw.seed == 77
    assert draw.players_key == tie.digest and len(draw.players_key) == 64
    assert sorted(BracketEntry.objects.filter(round=round_two).values_list("player_id", flat=True)) == sorted(
        plan.field_ids)
    drawn_in = [p for p in draw.order[:draw.places]]
    assert set(drawn_in) == set(plan.field_ids) - winners, "the recorded draw is the previewed one"

    # A drawn-in player withdraws before stage 1: the next of the tie takes the place by a new draw among
    # the 136 left (again longer than the old column), recorded once.
    leaving = Player.objects.get(pk=drawn_in[0])
    Player.objects.filter(pk=leaving.pk).update(status=Player.Status.WITHDRAWN)
    replacement = replacements.replace_player(round_two, leaving, organizer, "withdrew before stage 1")
    assert replacement.pk in set(tie.players) - set(plan.field_ids)
    second = TiebreakDraw.objects.exclude(pk=draw.pk).get(round=round_two, stage=0)
    second.full_clean()
    assert len(second.order) == len(tie.players) - draw.places and second.order[0] == replacement.pk


def test_the_same_tie_is_found_again_by_its_stored_name(tied_round_one):
    event, organizer, _ = tied_round_one
    options = NextRoundOptions(field=FIELD, advance=[1], draw_seed=5)
    plan = next_round.plan_next_round(event, options)
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    (tie, _), = plan.ties
    # Looked up by the digest of the same players in any order: one draw, the recorded one.
    same = Tie(list(reversed(tie.players)), tie.places)
    assert TiebreakDraw.objects.get(round=round_two, players_key=same.digest).order == tie.order
