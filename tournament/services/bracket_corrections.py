"""A corrected result in a bracket stage whose next stage has already started.

The next stage was seated from the stage's results. When a correction changes who goes on from a table:

- while nothing of the next stage has been played (no hand scored there, no move at its live tables
  other than the system's deal), the player who no longer goes on gives their seat (or bye) to the one
  who now does: the same seat at the same table, so the other players stay where they are. A live table
  reads its seats' players on every move, so from then on the new player plays the seat and the old one
  cannot. Audited as ``bracket.reseat``.
- once something there has been played, the two disagree: ``advance_bracket`` reports it ("Bring the
  bracket up to date" shows it), and the results service refuses a correction that would cause it,
  saying what was played.

A reserve or a bot that the organizer's "Replace" put in a seat is not a disagreement either: the seat is
still the one the results gave its player (``Seat.in_place_of``).

A player of the started stage who withdrew since is not a disagreement: a started stage keeps its players
(``replace_player`` gives places away only before a stage starts).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from games.models import LiveMove
from tournament.models import BracketStage, HandScore, Player, Round, Seat
from tournament.services import audit, live_tables

ACTIVE = (Player.Status.REGISTERED, Player.Status.CHECKED_IN)


@dataclass
class Disagreement:
    """A started stage's players against the results of the stage before it."""

    stage: BracketStage  # the started stage
    tables: list  # its TableStates (``services.bracket_view``)
    previous: int  # the stage whose results seat it
    swaps: list[tuple[int, int]] = field(default_factory=list)  # (seated, goes on instead), same table before
    unmatched: bool = False  # who goes on cannot be paired seat for seat with who no longer does
    incomplete: str = ""  # the stage before has no result now (why, in words)
    played: str = ""  # what the started stage has played, in words ("" when nothing)


def stage_label(stage: BracketStage) -> str:
    return f"Stage {stage.number}{' (the final)' if stage.is_final else ''}"


def disagreement(state, index: int, advancers: list[list[int]] | None, waiting: str) -> Disagreement | None:
    """How the started stage after ``state.stages[index]`` differs from who goes on now (``advancers``,
    None while that stage has no complete result; ``waiting`` then says why). None when they agree or
    the next stage has not started."""
    stage_state, following = state.stages[index], state.stages[index + 1]
    if not following.started:
        return None
    found = Disagreement(following.stage, following.tables, stage_state.stage.number)
    if advancers is None:
        found.incomplete = waiting
        found.played = _played(following)
        return found
    seated = {_seated_by_results(s.seat) for t in following.tables for s in t.seats} - {None}
    seated |= set(following.stage.bye_players)
    going_on = set(stage_state.stage.bye_players) | {pid for chosen in advancers for pid in chosen}
    out = [pid for pid in seated - going_on
           if state.players.get(pid) is not None and state.players[pid].status in ACTIVE]
    if not out:
        return None
    origin = {s.seat.player_id: t.table.number for t in stage_state.tables for s in t.seats}
    seed = state.seeds.get
    leaving, arriving = defaultdict(list), defaultdict(list)
    for pid in sorted(out, key=lambda p: seed(p) or 10**6):
        leaving[origin.get(pid)].append(pid)
    for pid in sorted(going_on - seated, key=lambda p: seed(p) or 10**6):
        arriving[origin.get(pid)].append(pid)
    for table_number, players in leaving.items():
        if table_number is None or len(arriving.get(table_number, [])) != len(players):
            found.unmatched = True
        found.swaps.extend(zip(players, arriving.get(table_number, []), strict=False))
    found.played = _played(following)
    return found


def _seated_by_results(seat: Seat) -> int | None:
    """Whom the stage's seating put at ``seat``: the player a reserve or a bot replaced there (the
    organizer's "Replace", ``round_control``) stays the one the results are compared with."""
    return seat.in_place_of_id or seat.player_id


def _played(stage_state) -> str:
    """What of the stage has been played, in words: hands scored, moves at its live tables ("" if none)."""
    games = {g.pk: t.table.number for t in stage_state.tables for g in t.games}
    scored = sorted(set(HandScore.objects.filter(hand__game_id__in=games)
                        .values_list("hand__game_id", flat=True).distinct()))
    if scored:
        tables = sorted({games[g] for g in scored})
        hands = HandScore.objects.filter(hand__game_id__in=scored).values("hand_id").distinct().count()
        return f"{hands} hand{'s' * (hands != 1)} scored at table{'s' * (len(tables) != 1)} " \
               f"{', '.join(map(str, tables))}"
    moved = sorted(set(LiveMove.objects.filter(live_game__game_id__in=games)
                       .exclude(actor=LiveMove.Actor.SYSTEM).values_list("live_game__game_id", flat=True)))
    if moved:
        tables = sorted({games[g] for g in moved})
        return f"moves made at the live table{'s' * (len(tables) != 1)} of table{'s' * (len(tables) != 1)} " \
               f"{', '.join(map(str, tables))}"
    return ""


def can_reseat(found: Disagreement) -> bool:
    return not found.played and not found.incomplete and not found.unmatched and bool(found.swaps)


def conflict_message(found: Disagreement, players: dict[int, Player]) -> str:
    """Why the started stage cannot follow the results, and what must be undone first."""
    label, previous = stage_label(found.stage), f"stage {found.previous}"
    if found.incomplete:
        return (f"{label} has started from {previous}'s results, but {previous} has no complete result now "
                f"({found.incomplete.rstrip('.')}): a correction there may change who goes on, not leave a "
                f"table without a result. Record the correction so that the game still ends.")
    names = "; ".join(f"{_name(players, new)} instead of {_name(players, old)}" for old, new in found.swaps)
    if found.played:
        return (f"{label} has been played already ({found.played}), and {previous}'s results now send "
                f"{names or 'other players'} on. Undo what was played in {label.split(' (')[0].lower()} first: "
                f"its players can change only while nothing there is played. Otherwise leave the result "
                f"as it was.")
    return (f"{label} cannot follow {previous}'s results ({names or 'other players go on'}): the players "
            f"who no longer go on cannot be matched seat for seat with those who now do. Plan the round again.")


def _name(players: dict[int, Player], pid: int) -> str:
    player = players.get(pid)
    return player.display_name if player is not None else f"player {pid}"


def reseat(round_: Round, found: Disagreement, players: dict[int, Player], actor=None) -> str:
    """Give each seat (or bye) of who no longer goes on to who now does; audited. Returns what was done."""
    stage = found.stage
    moved = []
    for old, new in found.swaps:
        held = next(((t, s) for t in found.tables for s in t.seats if _seated_by_results(s.seat) == old), None)
        if held is not None:
            table, seat_state = held
            Seat.objects.filter(pk=seat_state.seat.pk).update(player_id=new, bot_kind="", in_place_of=None)
            seat_state.seat.in_place_of_id, seat_state.seat.bot_kind = None, ""
            live_tables.holders_changed(seats=[seat_state.seat.pk])
            seat_state.seat.player_id = new
            Seat.player.field.set_cached_value(seat_state.seat, players.get(new))
            seat_state.seed = None
            moved.append({"from": old, "to": new, "table": table.table.number, "seat": seat_state.seat.number})
        elif old in stage.bye_players:
            stage.bye_players = [new if p == old else p for p in stage.bye_players]
            stage.save(update_fields=["bye_players"])
            moved.append({"from": old, "to": new, "bye": True})
    text = (f"{stage_label(stage)}: " + "; ".join(
        f"{_name(players, m['to'])} takes {_name(players, m['from'])}'s "
        + ("bye" if m.get("bye") else f"seat at table {m['table']}") for m in moved) + ".")
    audit.record(round_.event, actor, "bracket.reseat", f"Round {round_.number}, stage {stage.number}",
                 reason=f"a corrected result in stage {found.previous}", changes={"moved": moved})
    return text
