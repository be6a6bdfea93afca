"""The organizer's decision at a bracket table where fewer players took part than places go on.

A table's players who took part rank above its no-shows whatever the points (``generators.cuts.rank_table``),
so they all go on; the places left over are never filled silently. For each, the organizer either sends one
of the table's no-shows on (with a reason: they were there, the live table failed them…) or leaves the place
empty (a bye: the next stage is seated one player short, ``generators.brackets.short_stage``). Each decision is audited;
the bracket then advances (``services.advancing``), reading the decisions through ``load_bracket``.
"""

from __future__ import annotations

from django.db import transaction

from tournament.generators.brackets import BracketError
from tournament.models import OpenPlaceDecision, Round
from tournament.page_notices import notify_scores_changed
from tournament.services import audit
from tournament.services.advancing import AdvanceResult, advance_bracket
from tournament.services.bracket_view import load_bracket
from tournament.services.stage_results import settled_table


def decide_open_place(round_: Round, stage_number: int, table_number: int, player_id: int | None, reason: str,
                      actor) -> AdvanceResult:
    """Fill one open place of a table: ``player_id`` (a no-show of that table) goes on, or None: the place
    stays empty (a bye). The reason is required and goes to the audit log."""
    reason = (reason or "").strip()
    if not reason:
        raise BracketError("Give a reason for the decision: it is written to the audit log with your name.")
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        table = settled_table(load_bracket(round_), stage_number, table_number)
        if not table.waiting_for_decision:
            raise BracketError(f"Table {table_number} of stage {stage_number} has no open place to decide.")
        name = "a bye (the place stays empty)"
        if player_id is not None:
            seat = next((s for s in table.seats if s.seat.player_id == player_id), None)
            if seat is None or seat.took_part or not seat.active:
                raise BracketError("Only a no-show of that table who is still in the event can be sent on.")
            if any(d.player_id == player_id for d in table.decisions):
                raise BracketError(f"{seat.seat.label} is already sent on.")
            name = seat.seat.label
        OpenPlaceDecision.objects.create(round=round_, stage=stage_number, table_number=table_number,
                                         player_id=player_id, reason=reason[:200],
                                         actor=actor if getattr(actor, "pk", None) else None)
        audit.record(round_.event, actor, "bracket.open_place",
                     f"Round {round_.number}, stage {stage_number}, table {table_number}", reason=reason,
                     changes={"sent_on": player_id, "decided": name})
    result = advance_bracket(round_)
    notify_scores_changed(round_.event)
    return result
