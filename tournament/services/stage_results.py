"""Who goes on from each table of a bracket stage, derived from the finished games every time.

A table's players who took part there rank above its no-shows whatever the points (``rank_table``), so a
no-show never goes on past a player who took part. Where fewer took part than places go on, the open places
wait for the organizer's decision (``services.open_places``: a no-show sent on with a reason, or a bye).

Ties the documented tiebreaks (``tournament.standings``) cannot break are ordered by a seeded random draw
(the seed is stored in a ``TiebreakDraw``) or by a tiebreak hand whose order the organizer records
(``services.tiebreaks``).
"""

from __future__ import annotations

from tournament.generators.brackets import BracketError
from tournament.generators.cuts import Tie, cut, draw_order, new_draw_seed, rank_table
from tournament.models import BracketStage, TiebreakDraw
from tournament.services.bracket_view import BracketState, StageState, TableState, table_results

DRAW = BracketStage.TieMethod.DRAW
HAND = BracketStage.TieMethod.HAND


def _resolve_stage_tie(state: BracketState, stage: BracketStage, table: TableState, tie: Tie,
                       created: list[TiebreakDraw] | None) -> list | None:
    key = (stage.number, table.table.number, tie.digest)
    draw = state.draws.get(key)
    if draw is not None:
        return list(draw.order)
    if stage.tie_method == HAND or created is None:  # read-only callers never draw
        return None
    seed = new_draw_seed()
    draw = TiebreakDraw(round=state.round, stage=stage.number, table_number=table.table.number,
                        players_key=tie.digest, method=DRAW, seed=seed, order=draw_order(tie.players, seed),
                        places=tie.places)
    state.draws[key] = draw
    created.append(draw)
    return list(draw.order)


def stage_advancers(state: BracketState, stage_state: StageState,
                    created: list[TiebreakDraw] | None = None) -> list[list[int]] | None:
    """Who goes on from each table of the stage (marks them on the state); None while incomplete.

    New draws are made (and appended to ``created``) only when ``created`` is given: pages read only."""
    stage = stage_state.stage
    places = 1 if stage.is_final else stage.advance_per_table
    advancers: list[list[int]] = []
    complete = True
    for table in stage_state.tables:
        if not table.finished:
            complete = False
            advancers.append([])
            continue
        ranked = rank_table(table_results(table), stage.game_format)
        took = [r.player_id for group in ranked for r in group if r.took_part]
        no_shows = {r.player_id for group in ranked for r in group if not r.took_part}
        table.open_places = min(places - len(took), len(no_shows)) if len(took) < places else 0
        if table.open_places:
            decided = [d for d in table.decisions if d.player_id is None or d.player_id in no_shows]
            table.waiting_for_decision = len(decided) < table.open_places
            complete &= not table.waiting_for_decision
            used = decided[:table.open_places]
            table.places_left_empty = sum(d.player_id is None for d in used)
            chosen_list = took + [d.player_id for d in used if d.player_id is not None]
        else:
            groups = [[r.player_id for r in g] for g in ranked]
            result = cut(groups, places, lambda tie, t=table: _resolve_stage_tie(state, stage, t, tie, created))
            table.tie = result.tie
            table.waiting_for_tiebreak = not result.complete
            complete &= result.complete
            chosen_list = result.chosen
        chosen = set(chosen_list)
        for seat in table.seats:
            seat.advanced = seat.seat.player_id in chosen
        advancers.append(chosen_list)
    return advancers if complete and stage_state.tables else None


def settled_table(state: BracketState, stage_number: int, table_number: int | None) -> TableState:
    """A table of a loaded bracket with its stage's result worked out (read only: no draw is made), for
    the organizer's decisions at one table (a tiebreak hand, an open place). BracketError when none."""
    stage_state = next((s for s in state.stages if s.stage.number == stage_number), None)
    table = next((t for t in (stage_state.tables if stage_state else []) if t.table.number == table_number), None)
    if table is None:
        raise BracketError(f"There is no table {table_number} in stage {stage_number}.")
    stage_advancers(state, stage_state)
    return table


def waiting_for(stage_state: StageState) -> str:
    """Why a stage has no result yet, in words: the tables still playing, the ties waiting for a hand."""
    number = stage_state.stage.number
    playing = [t.table.number for t in stage_state.tables if not t.finished]
    tied = [t.table.number for t in stage_state.tables if t.waiting_for_tiebreak]
    deciding = [t.table.number for t in stage_state.tables if t.waiting_for_decision]
    parts = []
    if playing:
        parts.append(f"table{'s' * (len(playing) != 1)} {', '.join(map(str, playing))} still playing")
    if tied:
        parts.append(f"a tiebreak hand to record at table{'s' * (len(tied) != 1)} {', '.join(map(str, tied))}")
    if deciding:
        parts.append(f"the organizer's decision at table{'s' * (len(deciding) != 1)} "
                     f"{', '.join(map(str, deciding))}, where fewer took part than places go on")
    if not stage_state.started:
        parts = ["not started yet"]
    return f"Stage {number}: {' and '.join(parts) or 'not complete'}."
