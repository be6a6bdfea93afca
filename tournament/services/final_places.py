"""An event's places: the one ranking every page, file and socket shows (leaderboards, the standings CSV,
the leaderboard socket, "My event", the bracket's podium, the results page, the certificates).

Before the event has a bracket, its places are the standings' order (``tournament.standings``: who took
part, then points and the tiebreaks). Once a bracket round exists, they come from the bracket:

1. the champion, then the rest of the final table in the final's order;
2. those out at each earlier stage, later stages first; within a stage by their place at their table
   (``rank_table`` over ``table_results``: the stage's own table ranking), then by the points, games and
   hands they won and the points left at that table;
3. the first round's participants outside the bracket, by the standings' order;
4. then no-shows, then registrants never seated (the standings' order again).

While the bracket runs, a player still in it (playing, through, or with a bye) ranks above everyone out
at the stage they reached, and players still in at the same stage share a place: a player out already
sees their place so far, which can only get better as the other tables of their stage end.

Players equal on everything that decides a place share it, and a shared place reads "5-6".

A round's leaderboard of the bracket round lists the players seated there with the event's places, so
the two never disagree; any other round's leaderboard keeps that round's own standings.
"""

from __future__ import annotations

from dataclasses import replace

from tournament.generators.cuts import rank_table
from tournament.models import Event, Round
from tournament.services.bracket_view import BracketState, load_bracket, table_results
from tournament.services.participation import PLAYED
from tournament.services.stage_results import stage_advancers
from tournament.standings import StandingRow, compute_standings

# Where a bracket player stands: (stage reached, -1 champion / 0 still in / 1 out, place at the table,
# -points, -games, -hands, points left). Smaller sorts first once the stage reached is negated.
BracketKey = tuple[int, int, int, int, int, int, int]
CHAMPION, STILL_IN, OUT = "champion", "in", "out"  # StandingRow.bracket
BRACKET_STATUS = {-1: CHAMPION, 0: STILL_IN, 1: OUT}


def bracket_round_of(event: Event) -> Round | None:
    """The event's bracket round (its latest), or None while it has none."""
    return Round.objects.filter(event=event, kind=Round.Kind.BRACKET).order_by("-number").first()


def bracket_keys(state: BracketState) -> dict[int, BracketKey]:
    """Every bracket player's standing in the bracket (read only: no tiebreak draw is made here)."""
    keys: dict[int, BracketKey] = {}
    for stage_state in state.stages:
        stage = stage_state.stage
        stage_advancers(state, stage_state)  # marks who went on at each finished table
        for player in stage_state.byes:
            keys[player.pk] = (stage.number + 1, 0, 0, 0, 0, 0, 0)
        for table in stage_state.tables:
            decided = table.finished and not table.waiting_for_tiebreak
            groups = rank_table(table_results(table), stage.game_format) if decided else []
            at_table = {result.player_id: index for index, group in enumerate(groups) for result in group}
            for seat in table.seats:
                pid = seat.seat.player_id
                if pid is None:
                    continue
                if not decided:
                    keys[pid] = (stage.number, 0, 0, 0, 0, 0, 0)
                elif seat.advanced:
                    keys[pid] = (stage.number + 1, -1 if stage.is_final else 0, 0, 0, 0, 0, 0)
                else:  # out here; a player who withdrew since comes after their table's ranked players
                    keys[pid] = (stage.number, 1, at_table.get(pid, len(groups)), -seat.total, -seat.games_won,
                                 -seat.hands_won, seat.points_left)
    return keys


def place_rows(rows: list[StandingRow], keys: dict[int, BracketKey]) -> list[StandingRow]:
    """``rows`` (the event's standings, in their order) placed: bracket players who took part first by
    their bracket key, then everyone else in the standings' order; ranks and shared places set."""
    in_bracket = [r for r in rows if r.player_id in keys and r.participation == PLAYED]
    chosen = {r.player_id for r in in_bracket}
    in_bracket.sort(key=lambda r: (_sort_key(keys[r.player_id]), r.display_name.casefold(), r.player_id))
    ordered = [(("bracket", _sort_key(keys[r.player_id])), replace(r, bracket=BRACKET_STATUS[keys[r.player_id][1]]))
               for r in in_bracket]
    ordered += [(("standings", r.tiebreak_key()), r) for r in rows if r.player_id not in chosen]
    return with_places(ordered)


def with_places(ordered: list[tuple[tuple, StandingRow]]) -> list[StandingRow]:
    """Rows in their final order, each with the key that decides its place: equal neighbours share one."""
    placed: list[StandingRow] = []
    start = 0
    while start < len(ordered):
        end = start
        while end + 1 < len(ordered) and ordered[end + 1][0] == ordered[start][0]:
            end += 1
        label = str(start + 1) if end == start else f"{start + 1}-{end + 1}"
        placed += [replace(row, rank=start + 1, place=label) for _key, row in ordered[start:end + 1]]
        start = end + 1
    return placed


def _sort_key(key: BracketKey) -> tuple:
    return (-key[0], *key[1:])


def event_places(event: Event) -> list[StandingRow]:
    """The event's places (see the module's docstring)."""
    rows = compute_standings(event)
    bracket = bracket_round_of(event)
    if bracket is None:
        return with_places([(r.tiebreak_key(), r) for r in rows])
    return place_rows(rows, bracket_keys(load_bracket(bracket)))


def places(event: Event, round: Round | None = None) -> list[StandingRow]:
    """The leaderboard of ``event`` (its places), or of one of its rounds: the bracket round's players
    with their event places, any other round by its own standings."""
    if round is None:
        return event_places(event)
    rows = compute_standings(event, round=round)
    if round.kind != Round.Kind.BRACKET:
        return with_places([(r.tiebreak_key(), r) for r in rows])
    order = {row.player_id: (index, row) for index, row in enumerate(event_places(event))}
    rows.sort(key=lambda r: order[r.player_id][0] if r.player_id in order else len(order))
    return [replace(r, rank=order[r.player_id][1].rank, place=order[r.player_id][1].place,
                    bracket=order[r.player_id][1].bracket) if r.player_id in order else r for r in rows]


def place_of(event: Event, player_id: int) -> str:
    """``player_id``'s place in the event as shown ("3", "5-6"), or "" when they are not listed."""
    return next((row.place_label for row in event_places(event) if row.player_id == player_id), "")
