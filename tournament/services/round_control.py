"""The organizer's round-wide and per-seat actions of the live round view: a time limit, finish every game,
replace a no-show with a reserve (a walk-in, a player out earlier) or a bot. Each is one transaction with its audit entry; the live tables
follow in the same transaction (`games.services.lifecycle`)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.services.lifecycle import LiveTableBusy, tournament_seat_changed
from tournament.models import Game, Player, Round, Seat
from tournament.page_notices import notify_scores_changed
from tournament.services import audit
from tournament.services.bracket_view import load_bracket
from tournament.services.game_status import change_game_status
from tournament.services.rounds import RoundError
from tournament.services.stage_results import stage_advancers

REPLACE_BOT_KIND = Seat.BotKind.HEURISTIC
OPEN_GAME = (Game.Status.PENDING, Game.Status.RUNNING, Game.Status.PAUSED)


def set_time_limit(round_: Round, at: datetime | None, actor) -> Round:
    """Set (or clear, with None) the round's time limit; the rule is in docs/rules.md ("Time limit")."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        if round_.status == Round.Status.FINISHED:
            raise RoundError(f"Round {round_.number} is finished; it has no time limit to set.")
        if at is not None and at <= timezone.now() and round_.status == Round.Status.PLANNED:
            raise RoundError("A planned round's time limit must be in the future.")
        before = round_.time_limit_at
        round_.time_limit_at = at
        round_.save(update_fields=["time_limit_at"])
        audit.record(round_.event, actor, "round.time_limit", f"Round {round_.number}",
                     changes={"time_limit_at": [before.isoformat() if before else None,
                                                at.isoformat() if at else None]})
        notify_scores_changed(round_.event)  # the round's pages and live views read the new limit
    return round_


def finish_all(round_: Round, actor, reason: str) -> list[Game]:
    """Finish every running or paused game of the round (the leader of each wins, as `change_game_status`
    says), each in its own transaction and audit entry, plus one entry for the whole. A table a move holds
    right now is named in the error; the others stay finished (press again to finish the rest)."""
    reason = (reason or "").strip()
    if not reason:
        raise RoundError("Say why every game of the round is finished.")
    round_ = Round.objects.select_related("event").get(pk=round_.pk)
    games = list(Game.objects.filter(table__round=round_, status__in=(Game.Status.RUNNING, Game.Status.PAUSED))
                 .order_by("table__stage", "table__number", "number"))
    finished, busy = [], []
    for game in games:
        try:
            finished.append(change_game_status(game, "finish", actor, reason=reason))
        except RoundError as error:
            busy.append(str(error))
    audit.record(round_.event, actor, "round.finish_all", f"Round {round_.number}", reason=reason,
                 changes={"finished": [g.pk for g in finished], "not_finished": busy})
    if busy:
        raise RoundError(f"{len(finished)} game(s) finished; not finished: " + "; ".join(busy))
    return finished


def reserves(round_: Round) -> list[Player]:
    """Players of the event who may play and are not playing in this round now (the reserves a no-show's
    seat may go to): walk-ins and players never seated in it, and in a bracket the players out at an earlier
    stage; checked-in first."""
    busy = _playing_in(round_)
    return [p for p in Player.objects.filter(event_id=round_.event_id, status__in=Player.ACTIVE_STATUSES)
            .order_by("-status", "display_name") if p.pk not in busy]


def _playing_in(round_: Round) -> set[int]:
    """Who plays in the round now: everyone seated in it; in a bracket, the players seated at a table still
    playing, those who went on from a finished one, and the byes."""
    if round_.kind != Round.Kind.BRACKET:
        return set(Seat.objects.filter(table__round=round_, player__isnull=False).values_list("player_id", flat=True))
    state = load_bracket(round_)
    busy = set()
    for stage_state in state.stages:
        stage_advancers(state, stage_state)  # marks who went on; read only
        busy.update(stage_state.stage.bye_players)
        for table in stage_state.tables:
            busy.update(s.seat.player_id for s in table.seats if s.seat.player_id and (s.advanced or not table.finished))
    return busy


def replace_with_bot(seat: Seat, actor, reason: str) -> Seat:
    """A bot plays the seat of a player who did not come, for the rest of the round."""
    return _replace(seat, None, actor, reason)


def replace_with_reserve(seat: Seat, reserve: Player, actor, reason: str) -> Seat:
    """A reserve (a player of the event without a seat in this round) takes a no-show's seat."""
    return _replace(seat, reserve, actor, reason)


def _replace(seat: Seat, reserve: Player | None, actor, reason: str) -> Seat:
    reason = (reason or "").strip()
    if not reason:
        raise RoundError("Say why the player is replaced.")
    with transaction.atomic():
        seat = (Seat.objects.select_for_update(of=("self",)).select_related("table__round__event", "player")
                .get(pk=seat.pk))
        round_ = seat.table.round
        if seat.is_bot:
            raise RoundError(f"Table {seat.table.number}, seat {seat.number + 1} is already a bot's.")
        if round_.status == Round.Status.FINISHED:
            raise RoundError(f"Round {round_.number} is finished.")
        games = list(Game.objects.select_for_update().filter(table=seat.table, status__in=OPEN_GAME))
        if not games:
            raise RoundError(f"Table {seat.table.number} has no game still to play.")
        if reserve is not None:
            reserve = Player.objects.select_for_update().get(pk=reserve.pk)
            if reserve.event_id != round_.event_id or not reserve.is_active:
                raise RoundError(f"{reserve} is not a player of this event who may play.")
            if reserve.pk in _playing_in(round_):
                raise RoundError(f"{reserve} already plays in round {round_.number}.")
        before = seat.player
        seat.in_place_of = seat.in_place_of or before  # the seating's player, however often replaced
        seat.player = reserve
        seat.bot_kind = "" if reserve is not None else REPLACE_BOT_KIND
        seat.save(update_fields=["player", "bot_kind", "in_place_of"])
        now_by = f"{reserve.display_name} plays" if reserve is not None else "A bot plays"
        text = f"{now_by} seat {seat.number + 1} in place of {before.display_name}"
        for game in games:
            if game.status == Game.Status.PENDING:
                continue
            numbers = game.game_seat_numbers(seat.table.seats.values_list("number", flat=True))
            if seat.number not in numbers:
                continue
            try:
                tournament_seat_changed(game, numbers.index(seat.number), text)
            except LiveTableBusy as busy:
                raise RoundError(f"Table {seat.table.number}: {busy}.") from busy
        audit.record(round_.event, actor, "seat.replace_with_" + ("reserve" if reserve else "bot"),
                     f"Round {round_.number}, table {seat.table.number}, seat {seat.number + 1}", reason=reason,
                     changes={"player": [before.pk, reserve.pk if reserve else None],
                              "bot_kind": ["", seat.bot_kind]})
        notify_scores_changed(round_.event)
    return seat
