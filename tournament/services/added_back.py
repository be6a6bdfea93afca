"""No-shows an organizer adds back to the next round: what is wrong with the choice, and the previous
round's standings with them counted as having played (``tournament.services.next_round`` uses both).

Apart from ``tournament.services.participation`` (who took part), which the standings themselves are
built on: these read the standings, so living there made the two modules import each other.
"""

from __future__ import annotations

from dataclasses import replace

from tournament.models import Player
from tournament.services.participation import NO_SHOW, PLAYED
from tournament.standings import StandingRow, rank_standings


def added_back_problems(rows: list[StandingRow], added_back: dict[int, str], round_number: int) -> list[str]:
    """What is wrong with the no-shows the organizer adds back to the round after round ``round_number``
    (``rows``: its standings): each needs a reason (it goes to the audit log), and only a no-show of that
    round still in the event can be added back."""
    by_id = {row.player_id: row for row in rows}
    problems = []
    for pid, reason in sorted(added_back.items()):
        row = by_id.get(pid)
        if row is None or row.participation != NO_SHOW:
            name = row.display_name if row else f"Player #{pid}"
            problems.append(f"{name} is not a no-show of round {round_number}: only no-shows are added back.")
        elif row.status not in Player.ACTIVE_STATUSES:
            problems.append(f"{row.display_name} is {row.status.replace('_', ' ')}: they cannot be added back.")
        elif not reason.strip():
            problems.append(f"Give a reason for adding {row.display_name} back (it is written to the audit log).")
    return problems


def with_added_back(rows: list[StandingRow], added_back: dict[int, str]) -> list[StandingRow]:
    """A round's standings with the no-shows added back counted as having played: they compete for a place
    in the next round by their points, like everyone who played."""
    if not added_back:
        return rows
    return rank_standings([replace(row, participation=PLAYED)
                           if row.player_id in added_back and row.participation == NO_SHOW else row
                           for row in rows])
