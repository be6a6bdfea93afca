"""Who goes on from each table of a bracket stage, derived from the finished games every time.

Ties the documented tiebreaks (``tournament.standings``) cannot break are ordered by a seeded random draw
(the seed is stored in a ``TiebreakDraw``) or by a tiebreak hand whose order the organizer records
(``services.tiebreaks``).
"""

from __future__ import annotations

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
        groups = [[r.player_id for r in g] for g in rank_table(table_results(table), stage.game_format)]
        result = cut(groups, places, lambda tie, t=table: _resolve_stage_tie(state, stage, t, tie, created))
        table.tie = result.tie
        table.waiting_for_tiebreak = not result.complete
        complete &= result.complete
        chosen = set(result.chosen)
        for seat in table.seats:
            seat.advanced = seat.seat.player_id in chosen
        advancers.append(result.chosen)
    return advancers if complete and stage_state.tables else None


def waiting_for(stage_state: StageState) -> str:
    """Why a stage has no result yet, in words: the tables still playing, the ties waiting for a hand."""
    number = stage_state.stage.number
    playing = [t.table.number for t in stage_state.tables if not t.finished]
    tied = [t.table.number for t in stage_state.tables if t.waiting_for_tiebreak]
    parts = []
    if playing:
        parts.append(f"table{'s' * (len(playing) != 1)} {', '.join(map(str, playing))} still playing")
    if tied:
        parts.append(f"a tiebreak hand to record at table{'s' * (len(tied) != 1)} {', '.join(map(str, tied))}")
    if not stage_state.started:
        parts = ["not started yet"]
    return f"Stage {number}: {' and '.join(parts) or 'not complete'}."
