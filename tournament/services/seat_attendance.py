"""Who played at a table whose hand an organizer records by hand: the record-hand form's "did not play".

The live table is the evidence (``participation.live_attendance``): a seat where only the turn timer or
the takeover bot played is a no-show, and a hand recorded by hand does not change that. The organizer
may say otherwise, with a reason (audited): the seat is then counted as played. At a table played
entirely on paper (nothing live at any seat) the organizer says of every seat whether the player played
(the record-hand form requires the choice): "did not play" makes the seat a no-show, "played" is kept on
the seat as said. A seat where the player made moves of their
own took part; saying "did not play" there is refused. What is said is kept on the seat
(``Seat.organizer_says``) and read by ``participation.took_part_seats``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from tournament.models import Attendance, Seat
from tournament.services import audit
from tournament.services.participation import LIVE_PLAYED, LIVE_STOOD_IN, live_attendance


class AttendanceError(ValueError):
    pass


def attendance_problems(seats: list[Seat], live: Mapping[int, str], did_not_play: Collection[int],
                        played_reasons: Mapping[int, str]) -> dict[int, str]:
    """What is wrong with what the organizer says, by seat id (empty: nothing)."""
    problems = {}
    for seat in seats:
        if seat.is_bot:
            continue
        state = live.get(seat.pk, "")
        if seat.pk in did_not_play and state == LIVE_PLAYED:
            problems[seat.pk] = (f"{seat.label} made moves of their own at the live table: they took part, "
                                 "so 'did not play' cannot be ticked.")
        elif seat.pk not in did_not_play and state == LIVE_STOOD_IN and not played_reasons.get(seat.pk, "").strip():
            problems[seat.pk] = (f"{seat.label} did not take part at the live table (only the turn timer or a "
                                 "bot played for them): tick 'did not play', or give the reason they played.")
    return problems


def record_attendance(seats: list[Seat], did_not_play: Collection[int], played_reasons: Mapping[int, str],
                      actor, where: str) -> None:
    """Save what the organizer says of each seat (inside the caller's transaction), one audit entry for
    what changed. Raises ``AttendanceError`` with the first problem (``attendance_problems``)."""
    if not seats:
        return
    live = live_attendance(seats[0].table_id)
    on_paper = not any(live.values())
    problems = attendance_problems(seats, live, did_not_play, played_reasons)
    if problems:
        raise AttendanceError(next(iter(problems.values())))
    changed = {}
    reasons = []
    event = None
    for seat in Seat.objects.select_for_update(of=("self",)).filter(pk__in=[s.pk for s in seats if not s.is_bot]) \
            .select_related("player", "table__round__event"):
        event = seat.table.round.event
        state = live.get(seat.pk, "")
        says, reason = "", ""
        if seat.pk in did_not_play:
            says = Attendance.DID_NOT_PLAY
        elif state == LIVE_STOOD_IN:
            says, reason = Attendance.PLAYED, played_reasons[seat.pk].strip()[:200]
        elif on_paper:
            says = Attendance.PLAYED
        if (says, reason) != (seat.organizer_says, seat.organizer_reason):
            changed[seat.player.display_name] = [seat.organizer_says or "live table", says or "live table"]
            if reason:
                reasons.append(f"{seat.player.display_name}: {reason}")
            seat.organizer_says, seat.organizer_reason = says, reason
            seat.save(update_fields=["organizer_says", "organizer_reason"])
    if changed:
        audit.record(event, actor, "seat.attendance", where, reason="; ".join(reasons), changes=changed)
