"""Builders for the bracket tests: a first round played to the end with chosen results, and finishing a
bracket table's game with a chosen order (through the organizer's results service, as in real use)."""

from __future__ import annotations

from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players, pause_for_paper
from tournament.models import Game, Round, Seat, Table
from tournament.services import bracket_stages, next_round, results, rounds
from tournament.services.next_round import NextRoundOptions


def finish_table(game: Game, order: list[int] | None = None, actor=None, left: list[int] | None = None,
                 number: int | None = None):
    """Record one hand that ends ``game``: the first of ``order`` (player ids, best first) goes out and
    wins; the others finish in ``order`` by fewer points left (the documented 4th tiebreak)."""
    seats = list(Seat.objects.filter(table_id=game.table_id).order_by("number"))
    by_player = {s.player_id: s for s in seats}
    ranked = [by_player[p] for p in order] if order else seats
    if left is None:
        left = [0] + [500 + 10 * i for i in range(len(ranked) - 1)]
    points = {seat.pk: value for seat, value in zip(ranked, left, strict=True)}
    if number is None:
        number = game.hands.count() + 1
    pause_for_paper(game, actor)
    return results.record_hand(game, number, ranked[0].pk, points, actor, "played offline")


def played_first_round(players: int = 16, min_size: int = 4, max_size: int = 4, **event_fields):
    """An event whose round 1 is finished: every table's game won by its first seat (player order by
    seat), organizer returned. Players ranked by table order within the round's standings."""
    event = make_event(min_table_size=min_size, max_table_size=max_size, **event_fields)
    organizer = make_organizer_of(event)
    make_players(event, players)
    plan = rounds.plan_first_round(event, seed=7, source=rounds.REGISTERED)
    round_one = rounds.create_first_round(event, plan, organizer)
    rounds.start_round(round_one, organizer)
    for index, game in enumerate(Game.objects.filter(table__round=round_one).order_by("table__number")):
        seats = list(Seat.objects.filter(table_id=game.table_id).order_by("number"))
        # Winners score differently per table so the round's standings are a clear order.
        left = [0] + [500 + 10 * index + i for i in range(len(seats) - 1)]
        finish_table(game, [s.player_id for s in seats], organizer, left=left)
    round_one.refresh_from_db()
    assert round_one.status == Round.Status.FINISHED
    return event, organizer, round_one


def stage_tables(round_: Round, stage: int) -> list[list[int]]:
    return [[s.player_id for s in t.seats.order_by("number")]
            for t in Table.objects.filter(round=round_, stage=stage).order_by("number")]


def stage_game(round_: Round, stage: int, table: int) -> Game:
    return Game.objects.get(table__round=round_, table__stage=stage, table__number=table)


def bracket_round(players=16, **options):
    """A bracket of every player of a finished first round (top 1 of each table goes on unless ``options``
    say otherwise), its stage 1 started."""
    event, organizer, _ = played_first_round(players)
    opts = NextRoundOptions(**{"field": players, "advance": [1], "draw_seed": 9, **options})
    round_two = next_round.create_bracket_round(event, opts, next_round.plan_next_round(event, opts).field_ids,
                                                organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    return event, organizer, round_two
