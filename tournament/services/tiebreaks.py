"""Recording the order a tiebreak hand decided at a bracket table; the bracket then advances.

A tie at the cut is ordered by a seeded draw or by a tiebreak hand (the stage's tie method,
``services.stage_results``); this is where the organizer records the hand's order.
"""

from __future__ import annotations

from django.db import transaction

from tournament.generators.brackets import BracketError
from tournament.models import Round, TiebreakDraw
from tournament.page_notices import notify_scores_changed
from tournament.services import audit
from tournament.services.advancing import AdvanceResult, advance_bracket
from tournament.services.bracket_view import load_bracket
from tournament.services.stage_results import HAND, settled_table


def record_tiebreak_hand(round_: Round, stage_number: int, table_number: int | None, order: list[int],
                         actor) -> AdvanceResult:
    """Record the order a tiebreak hand decided between tied players; the bracket then advances."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        table = settled_table(load_bracket(round_), stage_number, table_number)
        tie = table.tie
        if tie is None or not table.waiting_for_tiebreak:
            raise BracketError("That table has no tie waiting for a tiebreak hand.")
        if sorted(order) != sorted(tie.players):
            raise BracketError("Give the order of exactly the tied players.")
        TiebreakDraw.objects.create(round=round_, stage=stage_number, table_number=table_number,
                                    players_key=tie.digest, method=HAND, order=list(order), places=tie.places,
                                    actor=actor if getattr(actor, "pk", None) else None)
        audit.record(round_.event, actor, "bracket.tiebreak_hand",
                     f"Round {round_.number}, stage {stage_number}, table {table_number}",
                     changes={"order": list(order), "places": tie.places})
    result = advance_bracket(round_)
    notify_scores_changed(round_.event)
    return result
