"""The live tables of tournament games: which rules, seats and clock a game is played with at its table.

The tournament decides (the event's rules, changed by a bracket stage's format; the seats of the table or
of a partner rotation's block; the event's turn timer and arrival countdown); `games.services.lifecycle` creates the live game.
What happens at the table comes back as signals (`games.signals`, received in `tournament.receivers`).
"""

from __future__ import annotations

from django.db.models import Q

from games import engine
from games.models import LiveGame
from games.services import seats as live_seats
from games.services.lifecycle import create_demo_bot_table, open_tournament_table
from tournament.models import BracketStage, Event, Game, Round, Seat, Table
from tournament.page_notices import event_announce_group, round_live_group
from tournament.rules import rules_for_event
from tournament.services.format_rules import rules_for_format


def live_game_for(tournament_game: Game, seed: int | None = None) -> LiveGame:
    """The live game of a tournament `Game`, created on first call (idempotent and race-safe)."""
    existing = LiveGame.objects.filter(game=tournament_game).first()
    if existing is not None:
        return existing
    tournament_game = Game.objects.select_related("table__round__event").get(pk=tournament_game.pk)
    event = tournament_game.table.round.event
    rules = _rules_for_table(tournament_game.table) or rules_for_event(event)
    if tournament_game.target_score and tournament_game.target_score != rules.target:
        rules = rules.with_overrides(target=tournament_game.target_score)
    # A partner rotation's block plays some of the table's seats (Game.seat_order); other games all of them.
    seats = len(tournament_game.seat_order) or Seat.objects.filter(table_id=tournament_game.table_id).count()
    block = f", game {tournament_game.number}" if tournament_game.seat_order else ""
    table = tournament_game.table
    title = f"{event.name} – round {table.round.number}, table {table.number}{block}"
    return open_tournament_table(tournament_game, rules, seats, title, turn_seconds=event.turn_seconds,
                                 missed_turns_before_bot=event.missed_turns_before_bot,
                                 token_moves_only=event.bot_league,  # entrants' bots play through tokens
                                 arrival_seconds=event.arrival_grace_seconds if event.turn_seconds else 0,
                                 seed=seed, watch_group=round_live_group(tournament_game.table.round_id),
                                 announce_group=event_announce_group(event.pk))


def holders_changed(*, players=(), seats=()) -> int:
    """`players` (ids) changed status or name, or `seats` (ids) changed holder, without their live tables
    hearing of it otherwise (a seat replaced by an organizer is a notice at its table, a pause a new
    version): the running live tables where they sit read their seats afresh before the next move
    (`games.services.seats.holders_changed`), and a seat's new player's first own move there is theirs
    (`games.services.seats.seat_given_to_another`). In the change's transaction."""
    where = Q(table__seats__player__in=list(players)) | Q(table__seats__in=list(seats))
    changed = live_seats.holders_changed(Game.objects.filter(where).values("pk"))
    for seat in Seat.objects.filter(pk__in=list(seats)):
        numbers = list(Seat.objects.filter(table_id=seat.table_id).values_list("number", flat=True))
        for game in Game.objects.filter(table_id=seat.table_id, live__isnull=False):
            in_game = game.game_seat_numbers(numbers)
            if seat.number in in_game:
                live_seats.seat_given_to_another(game.pk, in_game.index(seat.number))
    return changed


def _rules_for_table(table: Table) -> engine.RuleSet | None:
    """A bracket stage's format (Challenge UNO, partners) changes the event's rules at its tables."""
    round_ = table.round
    if round_.kind != Round.Kind.BRACKET:
        return None
    stage = BracketStage.objects.filter(round=round_, number=table.stage).first()
    return None if stage is None else rules_for_format(round_.event, stage.game_format)


def start_live_games(round_: Round) -> list[LiveGame]:
    """Live games for every running game of a round (call after `start_round`, and after a bracket's
    `start_stage`; safe to call again: games that have one keep it)."""
    games = Game.objects.filter(table__round=round_, status=Game.Status.RUNNING).order_by("table__number", "number")
    return [live_game_for(g) for g in games]


def exhibition_table(event: Event, seats: int = 4, seed: int | None = None) -> LiveGame:
    """An exhibition table of bots playing `event`'s rules under its name (the demo's "watch a game")."""
    return create_demo_bot_table(seats, seed=seed, rules=rules_for_event(event),
                                 title=f"{event.name} – exhibition table of bots")
