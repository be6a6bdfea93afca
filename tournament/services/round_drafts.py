"""Round 1's seating kept on the server between preview and confirm: preview, swap two players, confirm.

The preview page shows a draft; its forms carry only the draft's ``version``, never a field per player,
so a round of any size is confirmed with a handful of fields. A new preview or a swap raises the version;
a form of an older version is refused (the organizer sees the current seating and decides again), and
``rounds.create_first_round`` refuses a draft whose players changed since (a withdrawal, a check-in).
"""

from __future__ import annotations

from django.db import transaction

from tournament.generators.seating import SeatingError, swap_players
from tournament.models import Event, Player, Round, RoundDraft
from tournament.services.rounds import (
    RoundError,
    SeatingPlan,
    create_first_round,
    plan_first_round,
    seating_candidates,
)

STALE = "The seating changed since this page was shown (a new preview or a swap, here or by another organizer): " \
        "check the tables below and try again."


def current_draft(event: Event) -> RoundDraft | None:
    return RoundDraft.objects.filter(event=event).first()


def plan_of(draft: RoundDraft) -> SeatingPlan:
    return SeatingPlan(draft.seed, draft.source, draft.fill_with_bots, draft.use_seeding,
                       [list(table) for table in draft.tables], list(draft.moved))


def preview(event: Event, actor, seed: int | None = None, source: str | None = None,
            fill_with_bots: bool = False, use_seeding: bool = False) -> RoundDraft:
    """Seat the players (``plan_first_round``) and keep it as the event's draft, replacing any earlier one.

    Raises ``SeatingError`` or ``RoundError`` for the organizer to read; nothing is kept then.
    """
    plan = plan_first_round(event, seed=seed, source=source, fill_with_bots=fill_with_bots,
                            use_seeding=use_seeding)
    with transaction.atomic():
        draft = RoundDraft.objects.select_for_update().filter(event=event).first()
        version = draft.version + 1 if draft else 1
        values = {"version": version, "seed": plan.seed, "source": plan.source, "fill_with_bots": fill_with_bots,
                  "use_seeding": use_seeding, "tables": plan.tables, "moved": [], "updated_by": actor}
        draft, _ = RoundDraft.objects.update_or_create(event=event, defaults=values)
    return draft


def _locked(event: Event, version: int) -> RoundDraft:
    draft = RoundDraft.objects.select_for_update().filter(event=event).first()
    if draft is None:
        raise RoundError("There is no seating to change: preview the seating first.")
    if draft.version != version:
        raise RoundError(STALE)
    return draft


def swap(event: Event, version: int, first: int, second: int, actor) -> tuple[Player, Player, RoundDraft]:
    """Seat two players of the draft in each other's places (tables keep their sizes)."""
    with transaction.atomic():
        draft = _locked(event, version)
        try:
            draft.tables = swap_players(draft.tables, first, second)
        except SeatingError as error:
            raise RoundError(str(error)) from error
        draft.moved = sorted(set(draft.moved) | {first, second})
        draft.version += 1
        draft.updated_by = actor
        draft.save(update_fields=["tables", "moved", "version", "updated_by", "updated_at"])
    players = Player.objects.in_bulk([first, second])
    return players[first], players[second], draft


def confirm(event: Event, version: int, actor) -> Round:
    """Create round 1 from exactly the draft of ``version`` (``create_first_round`` checks and audits it)."""
    with transaction.atomic():
        draft = _locked(event, version)
        round_ = create_first_round(event, plan_of(draft), actor)
        draft.delete()
    return round_


def discard(event: Event) -> None:
    RoundDraft.objects.filter(event=event).delete()


def players_changed(event: Event, draft: RoundDraft) -> str | None:
    """What changed among the players to seat since the draft was made (None when nothing did)."""
    candidates = {p.pk for p in seating_candidates(event, draft.source)}
    seated = {pid for table in draft.tables for pid in table if pid is not None}
    gone, new = len(seated - candidates), len(candidates - seated)
    if not gone and not new:
        return None
    parts = ([f"{gone} seated player{'s' * (gone != 1)} can no longer play"] if gone else []) + (
        [f"{new} player{'s' * (new != 1)} to seat {'are' if new != 1 else 'is'} not in it"] if new else [])
    return f"The players changed since this preview: {' and '.join(parts)}. Preview the seating again."
