"""Round 1's seating page at scale: N checked-in players previewed, shown and confirmed through the
organizer's admin page (tournament/admin/seating_views.py), in the Django process (the test client; no
network), on a throwaway database created for the run and dropped after it.

    .venv/bin/python bench/round_preview.py --players 1000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME .venv/bin/python bench/round_preview.py

Prints the preview page's size in bytes and its server time (median of --repeat loads), the time to
build the preview (the POST that seats everyone and keeps the draft), a swap, and the confirm (round 1
created: tables, seats, games, audit). DATABASE_URL from the environment, as for the site; the run uses
its test database (``test_`` + the name), never the site's own.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.throwaway_site import add_students, admin_client, on_a_throwaway_database, timed  # noqa: E402


def run(players: int, repeat: int, min_size: int, max_size: int) -> None:
    from django.urls import reverse

    from tournament.models import Event, Player, Round, RoundDraft, Seat

    event = Event.objects.create(name="Preview bench", slug="preview-bench", min_table_size=min_size,
                                 max_table_size=max_size)
    add_students(event, players, status=Player.Status.CHECKED_IN)
    client = admin_client()
    url = reverse("admin:tournament_event_first_round", args=[event.pk])

    response, build = timed(lambda: client.post(url, {"seed": "1", "source": "checked_in", "preview": "Preview"}))
    assert response.status_code == 302, response.status_code
    loads = []
    for _ in range(repeat):
        page, seconds = timed(lambda: client.get(url))
        assert page.status_code == 200, page.status_code
        loads.append(seconds)
    draft = RoundDraft.objects.get(event=event)
    first, second = draft.tables[0][0], draft.tables[-1][0]
    response, swap = timed(lambda: client.post(url, {"version": draft.version, "first": first, "second": second,
                                                     "swap": "Swap"}))
    assert response.status_code == 302, response.status_code
    draft.refresh_from_db()
    response, confirm = timed(lambda: client.post(url, {"version": draft.version, "confirm": "Confirm"}))
    assert response.status_code == 302, response.status_code
    seated = Seat.objects.filter(table__round__event=event, player__isnull=False).count()
    tables = Round.objects.get(event=event).tables.count()
    print(f"{players} checked-in players, tables of {min_size} to {max_size}: {tables} tables, {seated} seated")
    print(f"preview page: {len(page.content):,} bytes; server time median {statistics.median(loads) * 1000:.0f} ms "
          f"(min {min(loads) * 1000:.0f}, max {max(loads) * 1000:.0f}, {repeat} loads)")
    print(f"build the preview (POST): {build * 1000:.0f} ms; swap two players: {swap * 1000:.0f} ms; "
          f"confirm (round 1 created): {confirm * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5, help="preview page loads to time")
    parser.add_argument("--min-size", type=int, default=3)
    parser.add_argument("--max-size", type=int, default=4)
    args = parser.parse_args()
    if args.players < args.min_size or args.repeat < 1:
        parser.error("--players must fill a table and --repeat be at least 1")
    on_a_throwaway_database(f"bench/round_preview.py --players {args.players} --repeat {args.repeat}",
                            lambda: run(args.players, args.repeat, args.min_size, args.max_size))


if __name__ == "__main__":
    main()
