"""The check-in desk: find a student as they walk in, check many in at once, and the desk's counts.

Searching reads at most ``limit`` + 1 players (a page of results and whether there are more), so the desk
stays fast whatever the size of the event. Checking in one player, undoing it and confirming a claim are
``tournament.services.players``; adding a walk-in is ``tournament.services.list_places``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import BooleanField, Count, Exists, ExpressionWrapper, Max, OuterRef, Q, QuerySet
from django.utils import timezone

from tournament.models import Event, Player, Round, Seat
from tournament.services import audit

SEARCH_LIMIT = 25


@dataclass(frozen=True)
class DeskCounts:
    registered: int  # registered or checked in
    checked_in: int
    not_checked_in: int  # registered, not (yet) here
    claims_pending: int
    seated: int  # active players with a seat in the current round (its current stage, for a bracket)
    seated_in: str  # that round, named: "round 2", "round 3, stage 2"


@dataclass(frozen=True)
class SearchResult:
    players: list[Player]
    more: bool  # more players match than are shown


@dataclass(frozen=True)
class CurrentSeating:
    """Where players are seated now: the event's latest round, and for a bracket its latest stage drawn
    (None before any round: round one is next)."""

    round_id: int | None
    number: int
    stage: int | None

    @property
    def label(self) -> str:
        return f"round {self.number}" + (f", stage {self.stage}" if self.stage is not None else "")


def current_seating(event: Event) -> CurrentSeating:
    """The event's current round (and stage), in one query."""
    round_ = (Round.objects.filter(event=event).order_by("-number").annotate(last_stage=Max("tables__stage"))
              .values("pk", "number", "kind", "last_stage").first())
    if round_ is None:
        return CurrentSeating(None, 1, None)
    stage = round_["last_stage"] if round_["kind"] == Round.Kind.BRACKET and round_["last_stage"] else None
    return CurrentSeating(round_["pk"], round_["number"], stage)


def _seated_now(seating: CurrentSeating) -> Exists:
    seats = Seat.objects.filter(player=OuterRef("pk"), table__round_id=seating.round_id)
    if seating.stage is not None:
        seats = seats.filter(table__stage=seating.stage)
    return Exists(seats)


def desk_counts(event: Event) -> DeskCounts:
    """The desk's counts, in two queries (the current round, then the counts)."""
    seating = current_seating(event)
    row = Player.objects.filter(event=event, status__in=Player.ACTIVE_STATUSES).aggregate(
        registered=Count("pk"), checked_in=Count("pk", filter=Q(status=Player.Status.CHECKED_IN)),
        claims=Count("pk", filter=Q(claim=Player.Claim.PENDING)), seated=Count("pk", filter=_seated_now(seating)))
    return DeskCounts(registered=row["registered"], checked_in=row["checked_in"],
                      not_checked_in=row["registered"] - row["checked_in"], claims_pending=row["claims"],
                      seated=row["seated"], seated_in=seating.label)


SHOW = {
    "all": "Everyone", "waiting": "Not checked in", "checked_in": "Checked in", "claims": "Claims pending",
}


def search(event: Event, query: str = "", show: str = "all", limit: int = SEARCH_LIMIT) -> SearchResult:
    """Players of the event whose display name, roll number or username contains ``query`` (any case),
    an exact roll number first; ``show`` narrows them (see ``SHOW``); each says whether it has a seat in the
    current round (``seated``). Two queries (the current round, then the players)."""
    players: QuerySet[Player] = Player.objects.filter(event=event).select_related("user").annotate(
        seated=_seated_now(current_seating(event)))
    query = " ".join((query or "").replace("\x00", "").split())[:80]
    if query:
        players = players.filter(Q(display_name__icontains=query) | Q(roll_number__icontains=query)
                                 | Q(user__username__icontains=query))
    if show == "waiting":
        players = players.filter(status=Player.Status.REGISTERED)
    elif show == "checked_in":
        players = players.filter(status=Player.Status.CHECKED_IN)
    elif show == "claims":
        players = players.filter(claim=Player.Claim.PENDING, status__in=Player.ACTIVE_STATUSES)
    order = ["display_name", "pk"]
    if query:
        players = players.annotate(exact=ExpressionWrapper(Q(roll_number__iexact=query), output_field=BooleanField()))
        order = ["-exact", *order]
    found = list(players.order_by(*order)[:limit + 1])
    return SearchResult(found[:limit], len(found) > limit)


@dataclass(frozen=True)
class BulkResult:
    checked_in: list[str]
    skipped: list[str]  # "name: why"


def check_in_many(event: Event, player_ids: list[int] | None, actor, reason: str = "") -> BulkResult:
    """Check in the chosen registered players of the event (``None``: every registered player). Players
    not registered, or whose claim awaits confirmation, are skipped and named with why; one audit entry
    per player checked in. Ids of another event's players are ignored."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        players = Player.objects.select_for_update().filter(event=event)
        if player_ids is not None:
            players = players.filter(pk__in=player_ids)
        else:
            players = players.filter(status=Player.Status.REGISTERED)
        chosen, skipped = [], []
        for player in players.order_by("display_name", "pk"):
            if player.status != Player.Status.REGISTERED:
                skipped.append(f"{player}: {player.get_status_display().lower()}")
            elif player.claim_pending:
                skipped.append(f"{player}: claim of roll number {player.roll_number} not confirmed yet")
            else:
                chosen.append(player)
        Player.objects.filter(pk__in=[p.pk for p in chosen]).update(
            status=Player.Status.CHECKED_IN, checked_in_at=timezone.now())
        audit.record_many(event, actor, "player.check_in", [
            (f"Player {p}", {"status": [Player.Status.REGISTERED, Player.Status.CHECKED_IN], "bulk": True})
            for p in chosen], reason=reason.strip())
    return BulkResult([p.display_name for p in chosen], skipped)
