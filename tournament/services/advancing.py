"""Advancing a bracket round: the stages follow the results of the finished games.

Who advanced is never stored: ``advance_bracket`` derives it from the finished games' hand scores every
time it runs, builds a stage's tables once the stage before is complete, and rebuilds (or removes) tables
of stages that have not started when a correction changes the result. It is idempotent, so it is safe to
call after any change: ``tournament.services.game_end.game_ended`` calls ``on_game_finished(game)`` when a
game ends, and the results service when a correction changes a finished game. A stage that has started
follows a corrected result only while nothing there is played (``bracket_corrections``).

A partner rotation's table plays one game per block of four hands; ``advance_bracket`` also starts a
rotation's next block once the block before has ended (``tournament.services.rotations``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from tournament import signals
from tournament.generators.brackets import BracketError, StagePlan, seat_stage, short_stage
from tournament.generators.cuts import next_stage_seeds
from tournament.models import BracketStage, Event, Game, Round, TiebreakDraw
from tournament.page_notices import notify_scores_changed
from tournament.services import audit, bracket_corrections, rotations
from tournament.services.bracket_stages import build_stage, remove_unstarted, sizes_for, stage_plan
from tournament.services.bracket_view import BracketState, load_bracket
from tournament.services.stage_results import stage_advancers, waiting_for


@dataclass
class AdvanceResult:
    built: list[int] = field(default_factory=list)  # stage numbers whose tables were (re)built
    removed: list[int] = field(default_factory=list)  # stages whose unstarted tables were removed
    waiting: list[str] = field(default_factory=list)  # why a stage cannot be built yet, tables still playing
    blocks: list[str] = field(default_factory=list)  # partner rotation blocks started
    champion: int | None = None
    reseated: list[str] = field(default_factory=list)  # started stages following a corrected result
    conflicts: list[str] = field(default_factory=list)  # started stages that cannot follow it (played)


def advance_bracket(round_: Round) -> AdvanceResult:
    """Bring the bracket in line with the results: build every stage whose previous stage is complete,
    rebuild or remove stages not yet started whose entrants changed, finish the round at the champion.
    Idempotent: running it twice changes nothing the second time."""
    outcome = AdvanceResult()
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        if round_.kind != Round.Kind.BRACKET:
            return outcome
        outcome.blocks = rotations.continue_rotations(round_)
        state = load_bracket(round_)
        created: list[TiebreakDraw] = []
        for index, stage_state in enumerate(state.stages):
            advancers = stage_advancers(state, stage_state, created)
            if advancers is None and stage_state.tables:
                outcome.waiting.append(waiting_for(stage_state))
            if stage_state.stage.is_final:
                if advancers and advancers[0]:
                    outcome.champion = advancers[0][0]
                break
            following = state.stages[index + 1]
            if following.started:
                _follow_started(round_, state, index, advancers, outcome)
                continue
            seeds = None
            if advancers is not None:
                seeds = next_stage_seeds(stage_state.stage.bye_players, advancers, state.seeds)
            desired = None
            if seeds is not None:
                plan = _plan_for(round_, following.stage, len(seeds),
                                 sum(t.places_left_empty for t in stage_state.tables), outcome)
                desired = seat_stage(seeds, plan, following.stage.game_format) if plan else None
            current = [[s.seat.player_id for s in t.seats] for t in following.tables]
            if desired is not None and current == desired.tables and following.stage.bye_players == desired.byes:
                continue
            if following.tables or following.stage.built_at:
                remove_unstarted(round_, state.stages[index + 1:])
                outcome.removed.append(following.stage.number)
            if desired is not None:
                build_stage(round_, following.stage, stage_plan(following.stage, tuple(map(len, desired.tables))),
                             desired)
                outcome.built.append(following.stage.number)
                signals.field_changed.send(sender=Event, round_=round_, stage=following.stage.number)
                break  # later stages are rebuilt by the next call once this one is played
            break
        if created:
            TiebreakDraw.objects.bulk_create(created)
        if outcome.built or outcome.removed or created or outcome.blocks or outcome.reseated:
            audit.record(round_.event, None, "bracket.advance", f"Round {round_.number}",
                         changes={"built": outcome.built, "removed": outcome.removed, "blocks": outcome.blocks,
                                  "reseated": outcome.reseated,
                                  "draws": [{"stage": d.stage, "table": d.table_number, "seed": d.seed,
                                             "order": d.order} for d in created]})
        _settle_round_status(round_, outcome.champion is not None)
    return outcome


def _plan_for(round_: Round, stage: BracketStage, players: int, left_empty: int,
              outcome: AdvanceResult) -> StagePlan | None:
    """The plan to seat ``players`` in ``stage``: as planned, or short by the places the stage before left
    empty (the organizer's byes, ``services.open_places``); None (with why in ``outcome``) when neither."""
    missing = stage.planned_field - players
    if missing and missing != left_empty:
        outcome.waiting.append(f"Stage {stage.number} needs {stage.planned_field} players but only {players} can "
                               "go on (withdrawals): the organizer must replan it.")
        return None
    plan = stage_plan(stage, sizes_for(stage, round_.event))
    if not missing:
        return plan
    try:
        return short_stage(plan, players, 2 if stage.is_final else round_.event.min_table_size, stage.game_format)
    except BracketError as error:
        outcome.waiting.append(str(error))
        return None


def _follow_started(round_: Round, state: BracketState, index: int, advancers, outcome: AdvanceResult) -> None:
    """A started stage against the results it was seated from (``bracket_corrections``): reseated while
    nothing there is played, reported as a conflict otherwise."""
    found = bracket_corrections.disagreement(state, index, advancers, waiting_for(state.stages[index]))
    if found is None:
        return
    if bracket_corrections.can_reseat(found):
        outcome.reseated.append(bracket_corrections.reseat(round_, found, state.players))
    else:
        outcome.conflicts.append(bracket_corrections.conflict_message(found, state.players))


def started_stage_conflicts(round_: Round) -> list[str]:
    """Started stages whose players disagree with the results they were seated from and cannot follow
    them any more; read only (no draws made, nothing reseated)."""
    if round_.kind != Round.Kind.BRACKET:
        return []
    state = load_bracket(round_)
    conflicts = []
    for index, stage_state in enumerate(state.stages[:-1]):
        advancers = stage_advancers(state, stage_state)
        found = bracket_corrections.disagreement(state, index, advancers, waiting_for(stage_state))
        if found is not None and not bracket_corrections.can_reseat(found):
            conflicts.append(bracket_corrections.conflict_message(found, state.players))
    return conflicts


def _settle_round_status(round_: Round, decided: bool) -> None:
    status = Round.Status.FINISHED if decided else (
        Round.Status.RUNNING if round_.status != Round.Status.PLANNED else Round.Status.PLANNED)
    if round_.status != status:
        Round.objects.filter(pk=round_.pk).update(status=status)


def on_game_finished(game: Game) -> AdvanceResult | None:
    """Call after a tournament game ends (or after any change to its results): advances its bracket.

    Does nothing for games outside bracket rounds. Safe to call inside the caller's transaction; watchers
    are told once it commits.
    """
    round_ = Round.objects.select_related("event").get(tables=game.table_id)
    if round_.kind != Round.Kind.BRACKET:
        return None
    result = advance_bracket(round_)
    notify_scores_changed(round_.event)
    return result
