"""The facts the control room's steps are derived from (``tournament.event_steps``), read in a fixed
number of queries whatever the size of the event (one more for round one's participation and, once the
bracket is decided, the bracket's own load to name the champion)."""

from __future__ import annotations

from django.db.models import Count, Q

from tournament.event_steps import EventFacts, RoundFacts, StageFacts
from tournament.models import BracketStage, EligibilityEntry, Event, Game, Player, Round, Seat, Table
from tournament.services import participation
from tournament.services.bracket_view import load_bracket
from tournament.services.stage_results import stage_advancers

UNFINISHED = (Game.Status.PENDING, Game.Status.RUNNING, Game.Status.PAUSED)
PLAYING = (Game.Status.RUNNING, Game.Status.PAUSED)


def _table_counts(round_: Round) -> dict[int, dict]:
    """Per table: its stage, whether a game is being played, whether every game is finished."""
    rows = (Table.objects.filter(round=round_).annotate(
        games_n=Count("games", distinct=True),
        playing=Count("games", filter=Q(games__status__in=PLAYING), distinct=True),
        unfinished=Count("games", filter=Q(games__status__in=UNFINISHED), distinct=True))
        .values_list("pk", "stage", "games_n", "playing", "unfinished"))
    return {pk: {"stage": stage, "playing": playing > 0, "finished": games_n > 0 and not unfinished}
            for pk, stage, games_n, playing, unfinished in rows}


def _round_facts(round_: Round) -> RoundFacts:
    tables = _table_counts(round_)
    seats = Seat.objects.filter(table__round=round_).aggregate(
        players=Count("pk", filter=Q(player__isnull=False)), bots=Count("pk", filter=Q(player__isnull=True)))
    played = no_shows = 0
    if round_.status != Round.Status.PLANNED and round_.kind == Round.Kind.TABLES:
        taking_part = participation.round_participation(round_)
        played, no_shows = taking_part.played, len(taking_part.no_shows)
    stages = ()
    if round_.kind == Round.Kind.BRACKET:
        stages = tuple(
            StageFacts(number=s.number, tables=sum(1 for t in tables.values() if t["stage"] == s.number),
                       started=s.started_at is not None, is_final=s.is_final,
                       tables_finished=sum(1 for t in tables.values() if t["stage"] == s.number and t["finished"]))
            for s in BracketStage.objects.filter(round=round_).order_by("number"))
    return RoundFacts(
        number=round_.number, status=round_.status, tables=len(tables), seated=seats["players"], bots=seats["bots"],
        tables_running=sum(1 for t in tables.values() if t["playing"]),
        tables_finished=sum(1 for t in tables.values() if t["finished"]),
        played=played, no_shows=no_shows, stages=stages)


def champion_of(round_: Round) -> str:
    """The display name of the bracket's champion once its final is decided, else ""."""
    state = load_bracket(round_)
    final = next((s for s in state.stages if s.stage.is_final), None)
    advancers = stage_advancers(state, final) if final else None
    if not advancers or not advancers[0]:
        return ""
    player = state.players.get(advancers[0][0])
    return player.display_name if player else ""


def event_facts(event: Event) -> EventFacts:
    players = Player.objects.filter(event=event, status__in=Player.ACTIVE_STATUSES).aggregate(
        registered=Count("pk"), checked_in=Count("pk", filter=Q(status=Player.Status.CHECKED_IN)),
        claims=Count("pk", filter=Q(claim=Player.Claim.PENDING)))
    rounds = list(Round.objects.filter(event=event).order_by("number")[:2])
    round_one = next((r for r in rounds if r.number == 1), None)
    later = next((r for r in rounds if r.number > 1), None)
    next_round = _round_facts(later) if later else None
    champion = ""
    if later is not None and later.kind == Round.Kind.BRACKET and later.status == Round.Status.FINISHED:
        champion = champion_of(later)
    return EventFacts(
        status=event.status, list_only=event.eligibility == Event.Eligibility.LIST,
        list_entries=EligibilityEntry.objects.filter(event=event).count() if event.eligibility == Event.Eligibility.LIST
        else 0,
        registered=players["registered"], claims_pending=players["claims"], checked_in=players["checked_in"],
        checkin_open=event.checkin_open, round_one=_round_facts(round_one) if round_one else None,
        next_round=next_round, champion=champion)
