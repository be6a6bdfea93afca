"""Replacing a player who withdrew (or was disqualified) in a bracket stage that has not started.
"""

from __future__ import annotations

from django.db import transaction

from tournament.generators.brackets import BracketError
from tournament.generators.cuts import Tie, cut, draw_order, new_draw_seed
from tournament.models import BracketEntry, BracketStage, Player, Round, Seat, TiebreakDraw
from tournament.page_notices import notify_scores_changed
from tournament.services import audit, live_tables, participation
from tournament.services.advancing import advance_bracket
from tournament.services.bracket_view import ACTIVE, BracketState, load_bracket
from tournament.services.next_round import standing_groups
from tournament.services.stage_results import DRAW, HAND
from tournament.standings import compute_standings


def replace_player(round_: Round, player: Player, actor, reason: str) -> Player | None:
    """Replace a player who withdrew (or was disqualified) in a stage that has not started.

    In stage one the next-ranked player of the previous round not yet in the field takes the seat and
    the seed; in a later stage the next player of the table they came from goes on instead (the bracket
    is advanced again). Returns the replacement (None when a later stage was recomputed).
    """
    reason = (reason or "").strip()
    if not reason:
        raise BracketError("Say why the player is replaced.")
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        player = Player.objects.select_for_update().get(pk=player.pk, event=round_.event)
        if player.status in ACTIVE:
            raise BracketError(f"{player} is still in the event: withdraw or disqualify them first.")
        state = load_bracket(round_)
        located = None
        for stage_state in state.stages:
            for table in stage_state.tables:
                for seat in table.seats:
                    if seat.seat.player_id == player.pk:
                        located = (stage_state, table, seat)
            if player.pk in stage_state.stage.bye_players:
                located = (stage_state, None, None)
        if located is None:
            raise BracketError(f"{player} has no place in round {round_.number}'s bracket to give away.")
        stage_state, table, seat = located
        if stage_state.started:
            raise BracketError(f"Stage {stage_state.stage.number} has started; {player} cannot be replaced there.")
        if stage_state.stage.number > 1:
            outcome = advance_bracket(round_)
            audit.record(round_.event, actor, "bracket.replace", f"Round {round_.number}: {player}",
                         reason=reason, changes={"stage": stage_state.stage.number, "rebuilt": outcome.built})
            notify_scores_changed(round_.event)
            return None
        replacement = _next_ranked(round_, state, actor)
        if table is not None:
            Seat.objects.filter(pk=seat.seat.pk).update(player=replacement)
            live_tables.holders_changed(seats=[seat.seat.pk])
        else:
            stage = stage_state.stage
            stage.bye_players = [replacement.pk if p == player.pk else p for p in stage.bye_players]
            stage.save(update_fields=["bye_players"])
        entry = BracketEntry.objects.get(round=round_, player=player)
        entry.player, entry.replaced = replacement, player
        entry.reason = f"replaced {player.display_name} ({player.get_status_display().lower()})"[:200]
        entry.save(update_fields=["player", "replaced", "reason"])
        audit.record(round_.event, actor, "bracket.replace", f"Round {round_.number}: {player} → {replacement}",
                     reason=reason, changes={"seed": entry.seed, "withdrawn": player.pk, "replacement": replacement.pk})
    notify_scores_changed(round_.event)
    return replacement


def _next_ranked(round_: Round, state: BracketState, actor) -> Player:
    previous = Round.objects.filter(event=round_.event, number__lt=round_.number).order_by("-number").first()
    rows = compute_standings(round_.event, round=previous)
    played = {row.player_id for row in rows if row.participation == participation.PLAYED}
    in_field = set(state.seeds) | {e.replaced_id for e in state.entries if e.replaced_id}
    candidates = [r for r in rows if r.player_id in played and r.status in ACTIVE and r.player_id not in in_field]
    if not candidates:
        raise BracketError(f"Nobody else from round {previous.number} can take the place.")
    method = BracketStage.objects.filter(round=round_, number=1).values_list("tie_method", flat=True).first()
    created: list[TiebreakDraw] = []

    def resolve(tie: Tie):
        existing = TiebreakDraw.objects.filter(round=round_, stage=0, table_number=None, players_key=tie.digest).first()
        if existing:
            return list(existing.order)
        if method == HAND:
            return None
        seed = new_draw_seed()
        created.append(TiebreakDraw(round=round_, stage=0, players_key=tie.digest, method=DRAW, seed=seed,
                                    order=draw_order(tie.players, seed), places=tie.places,
                                    actor=actor if getattr(actor, "pk", None) else None))
        return created[-1].order

    result = cut(standing_groups(candidates), 1, resolve)
    if not result.complete:
        raise BracketError("The next players are tied on every tiebreak: record a tiebreak hand among "
                           f"{', '.join(state.players.get(p, p).__str__() for p in result.tie.players)} first.")
    TiebreakDraw.objects.bulk_create(created)
    return Player.objects.get(pk=result.chosen[0])
