"""Who is told what: the notices for each thing the tournament and the live tables announce, read from the
database in the background thread (`notifications.background`) after the change committed. Only players
with an account and still in the event are told; bots and walk-ins are not."""

from __future__ import annotations

from django.urls import reverse

from games.models import LiveGame
from games.services.presence import connected_seats
from notifications.kinds import ANNOUNCEMENT, AWAY, PAUSE, PROGRESS, STAGE, TABLE, Notice
from tournament.models import Announcement, BracketEntry, BracketStage, Event, Game, Player, Round, Seat
from tournament.standings import compute_standings


def _seats(**where) -> list[Seat]:
    return list(Seat.objects.filter(player__user__isnull=False, player__status__in=Player.ACTIVE_STATUSES, **where)
                .select_related("player", "table__round__event").order_by("table__number", "number"))


def _game_of(seat: Seat, games: list[Game]) -> Game | None:
    """The running (or paused) game of the seat's table that the seat plays in."""
    return next((g for g in games if g.table_id == seat.table_id and g.status in (Game.Status.RUNNING,
                 Game.Status.PAUSED) and (not g.seat_order or seat.number in g.seat_order)), None)


def _where(seat: Seat) -> str:
    round_ = seat.table.round
    stage = f", stage {seat.table.stage}" if round_.kind == Round.Kind.BRACKET else ""
    return f"round {round_.number}{stage}: table {seat.table.number}, seat {seat.number + 1}"


def _table_notices(seats: list[Seat], kind: str, title: str, key: str) -> list[Notice]:
    games = list(Game.objects.filter(table__in={s.table_id for s in seats}))
    notices = []
    for seat in seats:
        event = seat.table.round.event
        game = _game_of(seat, games)
        url = (reverse("play_tournament_game", args=[game.pk]) if game is not None
               else reverse("table_detail", args=[event.slug, seat.table_id]))
        notices.append(Notice(seat.player.user_id, event.pk, kind, title,
                              f"{event.name}, {_where(seat)}. Tap to open your table.", url, key))
    return notices


def round_started(round_id: int) -> list[Notice]:
    seats = _seats(table__round_id=round_id, table__stage=1)
    return _table_notices(seats, TABLE, "Your table is ready", f"table:{round_id}")


def stage_started(round_id: int, number: int) -> list[Notice]:
    seats = _seats(table__round_id=round_id, table__stage=number)
    return _table_notices(seats, STAGE, f"Stage {number} starts: your table is ready",
                          f"stage:{round_id}:{number}")


def field_changed(round_id: int, stage: int) -> list[Notice]:
    """The players of a newly built stage (or a new bracket round) are through; those of the stage (or
    round) before who are not in it are out; each told their place on the event's leaderboard so far."""
    round_ = Round.objects.select_related("event").filter(pk=round_id).first()
    if round_ is None:
        return []  # replaced by the organizer since (its replacement tells)
    event = round_.event
    me = reverse("my_event", args=[event.slug])
    key = f"progress:{round_id}:{stage}"
    built = BracketStage.objects.filter(round=round_, number=stage).first()
    through = set(Seat.objects.filter(table__round=round_, table__stage=stage, player__isnull=False)
                  .values_list("player_id", flat=True))
    through |= set(built.bye_players or []) if built is not None else set()
    if stage == 1:
        through |= set(BracketEntry.objects.filter(round=round_).values_list("player_id", flat=True))
        before = Seat.objects.filter(table__round__event=event, table__round__number=round_.number - 1)
        where = f"round {round_.number}"
    else:
        before = Seat.objects.filter(table__round=round_, table__stage=stage - 1)
        where = f"stage {stage} of round {round_.number}"
    out = set(before.filter(player__isnull=False).values_list("player_id", flat=True)) - through
    players = Player.objects.filter(pk__in=through | out, user__isnull=False, status__in=Player.ACTIVE_STATUSES)
    places = {row.player_id: row.rank for row in compute_standings(event)} if players else {}
    notices = []
    for player in players:
        place = f" Your place so far: {places[player.pk]}." if places.get(player.pk) else ""
        if player.pk in through:
            notices.append(Notice(player.user_id, event.pk, PROGRESS, f"You are through to {where}",
                                  f"{event.name}: your page shows where you play next.{place}", me, key))
        else:
            notices.append(Notice(player.user_id, event.pk, PROGRESS, f"You did not go on to {where}",
                                  f"{event.name}: thank you for playing.{place}", me, key))
    return notices


def game_status_changed(game_id: int, action: str) -> list[Notice]:
    game = Game.objects.select_related("table__round__event").filter(pk=game_id).first()
    if game is None:
        return []
    seats = [s for s in _seats(table_id=game.table_id) if not game.seat_order or s.number in game.seat_order]
    title = "Your game is paused" if action == "pause" else "Your game goes on"
    detail = "the organizer paused it; wait at your table." if action == "pause" else "it resumed: your turn may be next."
    url = reverse("play_tournament_game", args=[game.pk])
    return [Notice(s.player.user_id, s.table.round.event_id, PAUSE, title,
                   f"{s.table.round.event.name}, {_where(s)}: {detail}", url) for s in seats]


def announced(announcement_id: int) -> list[Notice]:
    made = Announcement.objects.select_related("event").filter(pk=announcement_id).first()
    if made is None:
        return []
    event = made.event
    users = (Player.objects.filter(event=event, user__isnull=False, status__in=Player.ACTIVE_STATUSES)
             .values_list("user_id", flat=True))
    me = reverse("my_event", args=[event.slug])
    return [Notice(user_id, event.pk, ANNOUNCEMENT, f"{event.name}: announcement", made.text, me,
                   f"announcement:{made.pk}") for user_id in users]


def turn_timed_out(live_id: int, seat: int, user_id: int) -> list[Notice]:
    """The timer played for a seat: tell its player once per game, if no socket of theirs is at the table."""
    live = LiveGame.objects.filter(pk=live_id, kind=LiveGame.Kind.TOURNAMENT).select_related(
        "game__table__round__event").first()
    if live is None or live.game is None or seat in connected_seats(live_id):
        return []
    event: Event = live.game.table.round.event
    return [Notice(user_id, event.pk, AWAY, "Your turn clock is running",
                   f"{event.name}, {live.title}: the timer plays for you while you are away. Come back to your "
                   "table.", reverse("play_tournament_game", args=[live.game_id]), f"away:{live_id}")]
