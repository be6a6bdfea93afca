"""A finished event for the final-places tests: round one of 24 (one table of no-shows), a bracket of 16
from it (four tables of four, the winners to a final of four) played to its champion, and a registrant
who came after round one and was never seated.

Stage 1's tables are finished with chosen points left, so that the players out there are ordered by
their place at their table, then by their points there, with two seconds equal on everything (a shared
place, "5-6")."""

from __future__ import annotations

from dataclasses import dataclass

from tests.tournament.bracket_factories import finish_table, played_first_round, stage_game, stage_tables
from tests.tournament.organizer_factories import make_players
from tests.tournament.participation_factories import bots_played
from tournament.models import Event, Game, Player, Round
from tournament.services import bracket_stages, next_round
from tournament.services.next_round import NextRoundOptions

# Points left in hand at each stage-1 table, best first (the winner's 0 first): the seconds of tables 1
# and 2 are equal on everything (they share a place), table 3's second comes next, then table 4's.
STAGE_ONE_LEFT = [[0, 500, 540, 580], [0, 500, 550, 590], [0, 510, 560, 600], [0, 520, 570, 610]]


@dataclass
class PlacedEvent:
    event: Event
    organizer: object
    round_one: Round
    bracket: Round
    no_shows: list[int]  # round one's table 6, played by the timer and bots only
    outside: list[int]  # round one's participants not in the bracket
    stage_one: list[list[int]]  # the stage-1 tables, best first at each
    final: list[int]  # the final, best first: [0] is the champion
    late: Player  # registered after round one, never seated


def bracket_started() -> tuple[Event, object, Round, Round, list[int]]:
    """Round one of 24 played (table 6 by bots alone: its players are no-shows), and the bracket of 16
    with stage 1 started. Returns (event, organizer, round one, bracket round, no-shows' ids)."""
    event, organizer, round_one = played_first_round(24, status=Event.Status.RUNNING)
    bots_game = Game.objects.get(table__round=round_one, table__number=6)
    bots_played(bots_game)
    no_shows = list(bots_game.table.seats.values_list("player_id", flat=True))
    options = NextRoundOptions(field=16, advance=[1], draw_seed=3)
    bracket = next_round.create_bracket_round(event, options, next_round.plan_next_round(event, options).field_ids,
                                              organizer)
    bracket_stages.start_stage(bracket, 1, organizer)
    return event, organizer, round_one, bracket, no_shows


def finish_stage_one(bracket: Round, organizer) -> list[list[int]]:
    """Every stage-1 table finished in seat order with ``STAGE_ONE_LEFT``; returns the tables as played."""
    tables = stage_tables(bracket, 1)
    for number, members in enumerate(tables, start=1):
        finish_table(stage_game(bracket, 1, number), members, organizer, left=STAGE_ONE_LEFT[number - 1])
    return tables


def finished_event() -> PlacedEvent:
    event, organizer, round_one, bracket, no_shows = bracket_started()
    stage_one = finish_stage_one(bracket, organizer)
    bracket_stages.start_stage(bracket, 2, organizer)
    final = list(reversed(stage_tables(bracket, 2)[0]))  # not simply the seat order
    finish_table(stage_game(bracket, 2, 1), final, organizer)
    in_bracket = {p for table in stage_one for p in table}
    outside = list(Player.objects.filter(event=event, seats__table__round=round_one)
                   .exclude(pk__in=in_bracket | set(no_shows)).values_list("pk", flat=True))
    late = make_players(event, 1)[0]
    Player.objects.filter(pk=late.pk).update(display_name="Zed Latecomer")
    late.refresh_from_db()
    return PlacedEvent(event, organizer, round_one, bracket, no_shows, outside, stage_one, final, late)
