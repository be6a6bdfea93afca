"""A bracket stage's tables: built (seats and games) from a seating, removed while not started, started.

The seating comes from the pure ``tournament.generators.brackets``; this module saves it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournament import signals
from tournament.generators.brackets import (
    BracketError,
    StagePlan,
    StageSeating,
    sizes_with_byes,
    stage_bounds,
)
from tournament.models import BracketStage, Event, Game, Round, Seat, Table
from tournament.page_notices import notify_scores_changed
from tournament.rules import target_score_for
from tournament.services import audit, rotations
from tournament.services.bracket_view import StageState
from tournament.services.rounds import open_live_tables, start_round


def stage_plan(stage: BracketStage, sizes: tuple[int, ...]) -> StagePlan:
    """The saved stage as the pure plan ``seat_stage`` takes, with these table sizes."""
    return StagePlan(stage.number, stage.planned_field, sizes, stage.byes, stage.advance_per_table, stage.is_final)


def build_stage(round_: Round, stage: BracketStage, plan: StagePlan, seating: StageSeating) -> list[Table]:
    """Save a stage's seating: its tables, seats and first games (a rotation's first block); its byes."""
    target = target_score_for(round_.event)
    tables = Table.objects.bulk_create([Table(round=round_, stage=stage.number, number=n)
                                        for n in range(1, len(seating.tables) + 1)])
    Seat.objects.bulk_create([Seat(table=table, number=index, player_id=pid)
                              for table, members in zip(tables, seating.tables, strict=True)
                              for index, pid in enumerate(members)])
    if rotations.is_rotation(stage.game_format):  # the rotation's first block; the next when it ends
        Game.objects.bulk_create([game for table, members in zip(tables, seating.tables, strict=True)
                                  for game in rotations.block_games(table, len(members), 1, running=False)])
    else:
        Game.objects.bulk_create([Game(table=table, number=1, target_score=target) for table in tables])
    stage.bye_players = list(seating.byes)
    stage.built_at = timezone.now()
    stage.save(update_fields=["bye_players", "built_at"])
    return tables


def sizes_for(stage: BracketStage, event: Event) -> tuple[int, ...]:
    """The stage's table sizes with the event's bounds now; refused when they would change its byes."""
    if stage.is_final:
        return (stage.planned_field,)
    sizes, byes = sizes_with_byes(stage.planned_field,
                                  *stage_bounds(stage.game_format, event.min_table_size, event.max_table_size))
    if byes != stage.byes:
        raise BracketError(f"Stage {stage.number} was planned with {stage.byes} byes; with the event's table "
                           f"sizes now it would need {byes}: plan the round again.")
    return sizes


def remove_unstarted(round_: Round, stage_states: list[StageState]) -> None:
    """Remove the tables and byes of these stages that have not started (they are built again)."""
    numbers = [s.stage.number for s in stage_states if not s.started]
    Table.objects.filter(round=round_, stage__in=numbers).delete()
    BracketStage.objects.filter(round=round_, number__in=numbers).update(bye_players=[], built_at=None)
    for s in stage_states:
        if s.stage.number in numbers:
            s.stage.bye_players, s.stage.built_at, s.tables = [], None, []


def start_stage(round_: Round, number: int, actor) -> int:
    """Start a built stage's games (stage 1 starts the round). Returns how many games started."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        stage = BracketStage.objects.filter(round=round_, number=number).first()
        if stage is None or stage.built_at is None:
            raise BracketError(f"Stage {number} has no tables yet: it is built when the stage before it ends.")
        if stage.started_at:
            raise BracketError(f"Stage {number} has already started.")
        if number == 1 and round_.status == Round.Status.PLANNED:
            start_round(round_, actor)
            started = Game.objects.filter(table__round=round_, table__stage=1).count()
        else:
            now = timezone.now()
            started = Game.objects.filter(table__round=round_, table__stage=number,
                                          status=Game.Status.PENDING).update(status=Game.Status.RUNNING,
                                                                             started_at=now)
            Round.objects.filter(pk=round_.pk).update(status=Round.Status.RUNNING)
            audit.record(round_.event, actor, "bracket.stage_start", f"Round {round_.number}, stage {number}",
                         changes={"games_started": started})
            open_live_tables(round_)
            signals.stage_started.send(sender=Event, round_=round_, number=number)
        BracketStage.objects.filter(pk=stage.pk).update(started_at=timezone.now())
    notify_scores_changed(round_.event)
    return started
