"""Where a student goes next in an event: register, check in, wait for a table, play at it, watch.

`next_step(event, user)` reads the student's registration and their newest seat and says what comes next
in one line with one button. "My event" shows it at the top (and refreshes it live, see
`tournament.my_event_socket`), and the home page shows it for each event a logged-in student can act in.
Read only: a few fixed queries, whatever the size of the event. Once a player's games can end their event
(their bracket table decided, the event over), the step says so with their place: the event's places
(``tournament.services.final_places``) as cached for its newest scores version, shared by every
student's page.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.urls import reverse

from tournament.models import BracketEntry, BracketStage, Event, Game, Player, Round, Seat
from tournament.scores_version import current_version
from tournament.services import final_places
from tournament.standings import StandingRow
from tournament.standings_cache import standings

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
WON = "won"  # the player is the bracket's champion


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
        return _event_over(event, player)
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


def _place(event: Event, player: Player) -> tuple[StandingRow | None, int]:
    """The player's row in the event's places (None: not listed) and how many are listed."""
    rows = standings(event, current_version(event))
    return next((row for row in rows if row.player_id == player.pk), None), len(rows)


def _results(event: Event, kind: str, title: str, detail: str) -> NextStep:
    return NextStep(kind, title, detail, reverse("results", args=[event.slug]), "See the results")


def _won(event: Event) -> NextStep:
    return _results(event, WON, f"You won {event.name}! 🏆", "You are the champion: congratulations.")


def _event_over(event: Event, player: Player | None) -> NextStep:
    row, listed = _place(event, player) if player is not None else (None, 0)
    if row is not None and row.bracket == final_places.CHAMPION:
        return _won(event)
    if row is not None:
        return _results(event, FINISHED, f"{event.name} is over: you placed {row.place_label} of {listed}.",
                        "Thank you for playing: every place is on the results page.")
    return _results(event, FINISHED, f"{event.name} is over.", "The final places are on the results page.")


def _bracket_ending(event: Event, player: Player, table_stage: int, is_final: bool) -> NextStep | None:
    """The step of a player whose bracket table is decided: they won, or they are out with their place
    so far; None while they are still in (through, or waiting for their table's tiebreak)."""
    row, listed = _place(event, player)
    if row is None or row.bracket not in (final_places.CHAMPION, final_places.OUT):
        return None
    if row.bracket == final_places.CHAMPION:
        return _won(event)
    if is_final:
        return _results(event, OUT, f"The final is over: you placed {row.place_label} of {listed}.",
                        "Well played: every place is on the results page.")
    return _results(event, OUT, f"You are out at stage {table_stage}: your place so far is {row.place_label} "
                    f"of {listed}.", "Thank you for playing: the places are final once the bracket ends.")


def _without_table(event: Event, player: Player, seat: Seat | None, newest: Round | None) -> NextStep:
    """No seat in the event's newest round: check in, wait for the seating, or watch it without them."""
    me = reverse("my_event", args=[event.slug])
    if newest is not None and newest.tables.exists():
        if newest.kind == Round.Kind.BRACKET and not BracketEntry.objects.filter(round=newest,
                                                                                  player=player).exists():
            row, listed = _place(event, player)
            so_far = f"Your place so far: {row.place_label} of {listed}. " if row is not None else ""
            return _watch(event, f"You are not in round {newest.number}'s bracket.",
                          f"{so_far}Thank you for playing: follow the tables and the leaderboard.", kind=OUT)
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
    if round_.kind == Round.Kind.BRACKET:
        final = BracketStage.objects.filter(round=round_, number=table.stage, is_final=True).exists()
        ending = _bracket_ending(event, player, table.stage, final)
        if ending is not None:
            return ending
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
