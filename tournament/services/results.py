"""Recording and correcting a hand's result by hand (when a table played offline or a result was wrong).

Scores follow the engine's "winner takes" scoring of the game's format (the event's rules, or in a bracket
its stage's format): the player who went out scores the points left in the other hands; with partners
(the partners format and the partner rotations) both players of the team that went out score the
opponents' points left. Challenge UNO's running totals with eliminations are refused here (play it live
or finish the game with a reason). A partner rotation's block ends after its four hands
(``tournament.services.rotations``); the next block is made when every game of the block has ended. Only the per-hand ``HandScore`` rows are stored; after every change
the game's totals are recomputed from them, so a corrected hand corrects the game: it finishes when a seat
reaches the target, and a finished game whose winner no longer reaches it is running again.

A game being played at its live table (running, live table open) takes no hand by hand, new or corrected:
the organizer pauses it first. While paused, a recorded hand takes the next number; after the resume the
live table's next hand takes the next free number after it. A hand recorded by hand that finishes the
game (the target, or a rotation block's fourth hand) closes its live table, as finishing the game does.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from games.models import LiveGame
from games.services.lifecycle import LiveTableBusy, tournament_game_status_changed
from tournament.generators.brackets import BracketError
from tournament.models import BracketStage, Game, Hand, HandScore, Round, Seat
from tournament.page_notices import notify_scores_changed
from tournament.rules import RulesRefused, rules_for_event
from tournament.services import audit, seat_attendance
from tournament.services.advancing import on_game_finished, started_stage_conflicts
from tournament.services.format_rules import rules_for_format
from tournament.services.game_end import game_ended
from tournament.services.rotations import end_block_if_played
from tournament.services.rounds import seat_totals

SUPPORTED_SCORING = "winner_takes"


class ResultError(ValueError):
    """A hand result that cannot be recorded; the message says what to fix."""


@dataclass(frozen=True)
class HandOutcome:
    hand: Hand
    created: bool
    game_finished: bool
    game_reopened: bool
    reseated: list[str] = field(default_factory=list)  # a started bracket stage following the correction


def points_won_for(winner_seat_id: int, points_left: Mapping[int, int],
                   team_of: Mapping[int, int] | None = None) -> dict[int, int]:
    """Winner-takes scoring: the winner scores everyone else's points left; the others score nothing.

    With ``team_of`` (seat id -> team, partners) the winner's team scores the other team's points left,
    each of its two players."""
    if team_of is None:
        return {seat_id: (sum(v for s, v in points_left.items() if s != winner_seat_id)
                          if seat_id == winner_seat_id else 0) for seat_id in points_left}
    team = team_of[winner_seat_id]
    gain = sum(v for s, v in points_left.items() if team_of[s] != team)
    return {seat_id: gain if team_of[seat_id] == team else 0 for seat_id in points_left}


def game_seats(game: Game) -> list[Seat]:
    """The seats playing ``game`` in game seat order (a partner rotation's block: four of the table's)."""
    seats = {s.number: s for s in Seat.objects.filter(table_id=game.table_id).select_related("player")}
    return [seats[n] for n in game.game_seat_numbers(seats) if n in seats]


def rules_of(game: Game):
    """The engine rules ``game`` is played with: the event's, changed by its bracket stage's format."""
    round_ = game.table.round
    try:
        if round_.kind == Round.Kind.BRACKET:
            stage = BracketStage.objects.filter(round=round_, number=game.table.stage).first()
            if stage is not None:
                return rules_for_format(round_.event, stage.game_format), stage.get_game_format_display()
        return rules_for_event(round_.event), "the event's rules"
    except RulesRefused as refused:
        raise ResultError(f"The event's rules are refused by the engine: {refused}") from refused
    except BracketError as error:
        raise ResultError(str(error)) from error


def _check_scoring(game: Game, seats: list[Seat]) -> dict[int, int] | None:
    """Refuse what this form cannot score for the game's format; the seats' teams when partners play."""
    rules, name = rules_of(game)
    scoring = getattr(rules, "scoring", SUPPORTED_SCORING)
    if scoring != SUPPORTED_SCORING:
        raise ResultError(
            f"Hands can be recorded by hand only with winner-takes scoring (with or without partners); "
            f"this game plays {name}, scored {scoring!r}: play it live, or finish it with a reason.")
    if not getattr(rules, "partners", False):
        return None
    if len(seats) != 4:
        raise ResultError(f"Partners play at tables of exactly 4; this game has {len(seats)} seats.")
    return {seat.pk: index % 2 for index, seat in enumerate(seats)}  # game seats 0+2 against 1+3


def record_hand(
    game: Game,
    number: int,
    winner_seat_id: int,
    points_left: Mapping[int, int],
    actor,
    reason: str,
    did_not_play: Collection[int] | None = None,
    played_reasons: Mapping[int, str] | None = None,
) -> HandOutcome:
    """Record hand ``number`` of ``game`` (the next one) or correct it (an earlier one).

    ``points_left`` maps every seat id at the table to the value of the cards left in its hand; the
    winner's is 0. ``reason`` is required and goes into the audit entry with the before and after.
    ``did_not_play`` (seat ids) and ``played_reasons`` (seat id: why a no-show of the live table played)
    say who played, as the form does (``services.seat_attendance``); None leaves it to the live table.
    """
    reason = (reason or "").strip()
    if not reason:
        raise ResultError("Give a reason for recording or correcting the hand.")
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("table__round__event").get(pk=game.pk)
        event = game.table.round.event
        if game.status == Game.Status.PENDING:
            raise ResultError("The game has not started yet; start the round first.")
        _refuse_while_played_live(game)
        ordered = game_seats(game)
        team_of = _check_scoring(game, ordered)
        conflicts_before = set(started_stage_conflicts(game.table.round))
        seats = {seat.pk: seat for seat in ordered}
        points = _checked_points(seats, winner_seat_id, points_left)
        hand = Hand.objects.filter(game=game, number=number).first()
        last_number = Hand.objects.filter(game=game).order_by("-number").values_list("number", flat=True).first()
        if hand is None:
            expected = (last_number or 0) + 1
            if number != expected:
                raise ResultError(f"The next hand of this game is hand {expected}; earlier hands can be corrected.")
            if game.status == Game.Status.FINISHED:
                raise ResultError("The game is finished; correct one of its hands instead of adding one.")
        won = points_won_for(winner_seat_id, points, team_of)
        was_at_target = any(total >= game.target_score for total in game_totals(game).values())
        before = _hand_snapshot(hand, seats) if hand else None
        created = hand is None
        if created:
            previous_dealer = (Hand.objects.filter(game=game, number=number - 1)
                               .values_list("dealer", flat=True).first())
            dealer = 0 if previous_dealer is None else (previous_dealer + 1) % len(seats)
            now = timezone.now()
            hand = Hand.objects.create(game=game, number=number, dealer=dealer, winner_id=winner_seat_id,
                                       source=Hand.Source.MANUAL, started_at=now, ended_at=now)
        else:
            hand.winner_id = winner_seat_id
            hand.source = Hand.Source.MANUAL
            hand.save(update_fields=["winner", "source"])
            HandScore.objects.filter(hand=hand).delete()
        HandScore.objects.bulk_create([
            HandScore(hand=hand, seat_id=seat_id, points_left=points[seat_id], points_won=won[seat_id])
            for seat_id in sorted(seats)
        ])
        if did_not_play is not None:
            try:
                seat_attendance.record_attendance(ordered, did_not_play, played_reasons or {}, actor,
                                                  f"Round {game.table.round.number}, {game.table}")
            except seat_attendance.AttendanceError as error:
                raise ResultError(str(error)) from error
        after = _hand_snapshot(hand, seats, points, won, winner_seat_id)
        if game.seat_order:  # a partner rotation's block: ends after its hands, never at a target
            finished, reopened = end_block_if_played(game), False
            change = {"game": {"block_finished": True}} if finished else {}
        else:
            finished, reopened, change = _settle_game(game, was_at_target)
        audit.record(
            event, actor, "hand.record" if created else "hand.correct",
            f"Round {game.table.round.number}, {game.table}, game {game.number}, hand {number}",
            reason=reason, changes={"before": before, "after": after, **change},
        )
        round_ = game.table.round
        advanced = None
        try:
            if finished:
                _close_live_table(game)
                advanced = game_ended(game)
            elif reopened and round_.status == Round.Status.FINISHED:
                Round.objects.filter(pk=round_.pk).update(status=Round.Status.RUNNING)
            if (game.status == Game.Status.FINISHED and not finished) or reopened:
                advanced = on_game_finished(game)  # a correction: the bracket follows the result
        except BracketError as error:
            raise ResultError(str(error)) from error
        reseated: list[str] = []
        if game.status == Game.Status.FINISHED or reopened:
            _refuse_what_a_started_stage_cannot_follow(round_, conflicts_before)
            reseated = list(advanced.reseated) if advanced is not None else []
    notify_scores_changed(event)
    return HandOutcome(hand, created, finished, reopened, reseated)


def _refuse_what_a_started_stage_cannot_follow(round_: Round, before: set[str]) -> None:
    """A bracket stage that has started follows a corrected result of the stage before it only while
    nothing there is played (``services.bracket_corrections``); a correction that a started stage can
    no longer follow is refused (the transaction rolls back) with what must be undone first."""
    new = [text for text in started_stage_conflicts(round_) if text not in before]
    if new:
        raise ResultError("Refused: " + " ".join(new))


def played_live_now(game: Game) -> bool:
    """The game is running and its live table is open: players (or bots, after missed turns) are playing
    it there, and the table writes each hand it finishes."""
    return game.status == Game.Status.RUNNING and LiveGame.objects.filter(
        game_id=game.pk, status=LiveGame.Status.RUNNING).exists()


def _refuse_while_played_live(game: Game) -> None:
    """A game whose live table is playing writes its own hands: a hand recorded by hand meanwhile would
    race the table for the next number, or be played twice (on paper and at the table). The organizer
    pauses the game first (its live table then refuses moves and its clock stops), records or corrects,
    and resumes it; a hand finished live after the resume takes the next free number (``live_results``).
    Call with ``game`` locked: a pause or resume waits for the lock, so the check holds until commit."""
    if played_live_now(game):
        raise ResultError(
            f"{game} is being played live at its table: pause the game first (the round's tables page, "
            f"Pause), then record or correct the hand, and resume the game afterwards; or finish the game.")


def _close_live_table(game: Game) -> None:
    """A hand recorded by hand finished the game (a rotation block's last hand, or the target): its paused
    live table closes and tells its sockets, as when the organizer finishes the game."""
    try:
        tournament_game_status_changed(game, "finish")
    except LiveTableBusy as busy:
        raise ResultError(f"{game}: {busy}.") from busy


def _checked_points(seats: dict[int, Seat], winner_seat_id: int, points_left: Mapping[int, int]) -> dict[int, int]:
    if winner_seat_id not in seats:
        raise ResultError("The winner must hold a seat at this table.")
    points = {int(k): v for k, v in points_left.items()}
    if set(points) != set(seats):
        raise ResultError("Give the points left for every seat at the table, and only for them.")
    for seat_id, value in points.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ResultError(f"Points left for {seats[seat_id].label} must be a whole number, 0 or more.")
    if points[winner_seat_id] != 0:
        raise ResultError(f"{seats[winner_seat_id].label} went out, so their points left must be 0.")
    return points


def _hand_snapshot(hand: Hand, seats: dict[int, Seat], points=None, won=None, winner_id=None) -> dict:
    """The hand's result in words and numbers, for the audit entry's before/after."""
    if points is None:
        rows = list(HandScore.objects.filter(hand=hand).values_list("seat_id", "points_left", "points_won"))
        points = {s: left for s, left, _ in rows}
        won = {s: w for s, _, w in rows}
        winner_id = hand.winner_id
    return {
        "winner": seats[winner_id].label if winner_id in seats else None,
        "source": hand.source,
        "scores": {seats[s].label: {"points_left": points[s], "points_won": won[s]} for s in sorted(points)},
    }


def _settle_game(game: Game, was_at_target: bool) -> tuple[bool, bool, dict]:
    """Finish the game at the first hand that brings a seat to the target; reopen a game that had
    finished at the target when a correction leaves nobody there (an early finish by an organizer stays)."""
    rows = HandScore.objects.filter(hand__game=game).order_by("hand__number").values_list(
        "hand__number", "seat_id", "points_won")
    totals: dict[int, int] = {}
    winner_id = None
    current_hand = None
    for hand_number, seat_id, won in rows:
        if winner_id is not None and hand_number != current_hand:
            break
        current_hand = hand_number
        totals[seat_id] = totals.get(seat_id, 0) + won
        if totals[seat_id] >= game.target_score and winner_id is None:
            winner_id = seat_id
    if winner_id is not None:
        changed = game.status != Game.Status.FINISHED or game.winner_id != winner_id
        if changed:
            before = [game.status, game.winner_id]
            game.status = Game.Status.FINISHED
            game.winner_id = winner_id
            game.finished_at = game.finished_at or timezone.now()
            game.save(update_fields=["status", "winner", "finished_at"])
            return True, False, {"game": {"status_winner_seat": [before, [game.status, winner_id]]}}
        return False, False, {}
    if game.status == Game.Status.FINISHED and was_at_target:
        before = [game.status, game.winner_id]
        game.status = Game.Status.RUNNING
        game.winner_id = None
        game.finished_at = None
        game.save(update_fields=["status", "winner", "finished_at"])
        return False, True, {"game": {"status_winner_seat": [before, [game.status, None]]}}
    return False, False, {}


def game_totals(game: Game) -> dict[int, int]:
    """Cumulative points won per seat of ``game`` (sum over its hands)."""
    return seat_totals([game.pk]).get(game.pk, {})
