"""Where a student goes next in an event: register, check in, wait for a table, play at it, watch.

`next_step(event, user)` reads the student's registration and their newest seat and says what comes next
in one line with one button. "My event" shows it at the top (and refreshes it live, see
`tournament.my_event_socket`), and the home page shows it for each event a logged-in student can act in.
Read only: a few fixed queries, whatever the size of the event.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.urls import reverse

from tournament.models import BracketEntry, BracketStage, Event, Game, Player, Round, Seat

# Kinds, in the order an event goes through them.
REGISTER = "register"  # registration is open and the user is not registered
CHECK_IN = "check_in"  # registered, check-in is open
REGISTERED = "registered"  # registered; check-in has not opened
CLAIM = "claim"  # registered against a list entry without an e-mail: an organizer confirms it at the desk
WAIT_TABLE = "wait_table"  # checked in (or registered), no table yet
SEATED = "seated"  # a table in a round or stage that has not started
PLAY = "play"  # the table is ready: its game runs
BETWEEN = "between"  # the player's games are over; the next round or stage is not out yet
OUT = "out"  # a later round or stage is under way without the player
WITHDRAWN = "withdrawn"  # withdrew or was disqualified
WATCH = "watch"  # not registered, registration closed
FINISHED = "finished"  # the event is over


@dataclass(frozen=True)
class NextStep:
    kind: str
    title: str
    detail: str = ""
    url: str = ""
    button: str = ""

    @property
    def urgent(self) -> bool:
        """A step that needs the student now (the page shows it prominently)."""
        return self.kind in (PLAY, CHECK_IN, REGISTER)


def _watch(event: Event, title: str, detail: str = "", kind: str = WATCH) -> NextStep:
    return NextStep(kind, title, detail, reverse("event_detail", args=[event.slug]), "Watch the tables")


def next_step(event: Event, user, player: Player | None = None) -> NextStep:
    """What `user` does next in `event` (`player`: their registration, if the caller has it)."""
    if player is None and getattr(user, "is_authenticated", False):
        player = Player.objects.filter(event=event, user=user).first()
    if event.status == Event.Status.FINISHED:
        return NextStep(FINISHED, f"{event.name} is over.", "The final standings are on the leaderboard.",
                        reverse("leaderboard", args=[event.slug]), "See the leaderboard")
    if player is None:
        if event.registration_is_open():
            return NextStep(REGISTER, f"Registration for {event.name} is open.", "",
                            reverse("register", args=[event.slug]), "Register")
        if event.status == Event.Status.RUNNING:
            return _watch(event, f"{event.name} is under way.", "Follow its tables live.")
        return _watch(event, f"Registration for {event.name} is closed.")
    if not player.is_active:
        return _watch(event, f"You are {player.get_status_display().lower()} from {event.name}.",
                      kind=WITHDRAWN)
    seat = (Seat.objects.filter(player=player).select_related("table__round")
            .order_by("-table__round__number", "-table__stage").first())
    newest = Round.objects.filter(event=event).order_by("-number").first()
    if seat is None or (newest is not None and seat.table.round.number < newest.number):
        return _without_table(event, player, seat, newest)
    return _at_table(event, player, seat)


def _without_table(event: Event, player: Player, seat: Seat | None, newest: Round | None) -> NextStep:
    """No seat in the event's newest round: check in, wait for the seating, or watch it without them."""
    me = reverse("my_event", args=[event.slug])
    if newest is not None and newest.tables.exists():
        if newest.kind == Round.Kind.BRACKET and not BracketEntry.objects.filter(round=newest,
                                                                                  player=player).exists():
            return _watch(event, f"You are not in round {newest.number}'s bracket.",
                          "Thank you for playing: follow the tables and the leaderboard.", kind=OUT)
        if newest.kind == Round.Kind.TABLES:
            return _watch(event, f"You have no table in round {newest.number}.",
                          "Ask an organizer at the desk if you should have one.", kind=OUT)
        bye = next((stage.number for stage in BracketStage.objects.filter(round=newest)
                    if player.pk in (stage.bye_players or [])), None)
        stage = f"stage {bye + 1}" if bye else "the next stage"
        return NextStep(BETWEEN, f"You are through to round {newest.number}.",
                        f"Your table in {stage} appears here when it is drawn.", me, "")
    if player.claim_pending:
        return NextStep(CLAIM, "An organizer confirms your place on the list at the check-in desk.",
                        "Bring your college ID; you are seated once it is confirmed.", me, "")
    if player.status == Player.Status.REGISTERED and event.checkin_open:
        return NextStep(CHECK_IN, "Check-in is open: check in for the next round.", "", me, "Check in")
    if player.status == Player.Status.REGISTERED:
        return NextStep(REGISTERED, f"You are registered for {event.name}.",
                        "Check-in opens shortly before the round: come back then.", me, "")
    return NextStep(WAIT_TABLE, "You are checked in.", "Your table appears here as soon as the round is seated.",
                    me, "")


def _at_table(event: Event, player: Player, seat: Seat) -> NextStep:
    table = seat.table
    round_ = table.round
    where = f"round {round_.number}" + (f", stage {table.stage}" if round_.kind == Round.Kind.BRACKET else "")
    place = f"Table {table.number}, seat {seat.number + 1}"
    through = round_.number > 1 or (round_.kind == Round.Kind.BRACKET and table.stage > 1)
    games = [g for g in Game.objects.filter(table=table).order_by("number")
             if not g.seat_order or seat.number in g.seat_order]
    live = [g for g in games if g.status in (Game.Status.RUNNING, Game.Status.PAUSED)]
    if live:
        game = live[0]
        paused = " (paused by the organizer)" if game.status == Game.Status.PAUSED else ""
        return NextStep(PLAY, f"Your table is ready: {place}{paused}.", f"{where.capitalize()}.",
                        reverse("play_tournament_game", args=[game.pk]), "Play now")
    table_url = reverse("table_detail", args=[event.slug, table.pk])
    if any(g.status == Game.Status.PENDING for g in games) or not games:
        title = f"You are through: {where}." if through else f"Your table for {where}."
        return NextStep(SEATED, title, f"{place}. It opens here when the organizer starts it.", table_url,
                        "See my table")
    later = _later_stage_without(round_, table.stage, player) if round_.kind == Round.Kind.BRACKET else None
    if later is not None:
        return _watch(event, f"You did not go on to stage {later}.",
                      "Thank you for playing: follow the tables and the leaderboard.", kind=OUT)
    return NextStep(BETWEEN, f"Your games of {where} are over.",
                    "Your next table or stage appears here when the organizer draws it.", table_url,
                    "See my table's scores")


def _later_stage_without(round_: Round, stage: int, player: Player) -> int | None:
    """The number of a later stage of the bracket already drawn without `player` (None: none yet)."""
    for later in BracketStage.objects.filter(round=round_, number__gt=stage, built_at__isnull=False):
        if player.pk not in (later.bye_players or []):
            return later.number
    return None


HOME_EVENTS = 5


def next_steps_for(user) -> list[tuple[Event, NextStep]]:
    """For the home page: each event a logged-in `user` can act in now (registered for and not over,
    open for registration, or under way to watch), newest first, with what they do next in it."""
    if not getattr(user, "is_authenticated", False):
        return []
    events = (Event.objects.exclude(status__in=[Event.Status.DRAFT, Event.Status.FINISHED])
              .filter(Q(players__user=user) | Q(status__in=[Event.Status.REGISTRATION, Event.Status.RUNNING]))
              .distinct()
              .order_by("-created_at")[:HOME_EVENTS])
    mine = {p.event_id: p for p in Player.objects.filter(user=user, event__in=[e.pk for e in events])}
    return [(event, next_step(event, user, mine.get(event.pk))) for event in events]
