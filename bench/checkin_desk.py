"""The check-in desk and the control room at scale: N registered players, through the organizer's admin
pages (tournament/admin/checkin_desk_views.py, control_room_views.py), in the Django process (the test
client; no network), on a throwaway database created for the run and dropped after it.

    .venv/bin/python bench/checkin_desk.py --players 1000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME .venv/bin/python bench/checkin_desk.py

Prints the server time (median of --repeat loads) and size of the desk page, a search as the organizer
types (the results alone), a check-in, "check in all registered" and the control room. DATABASE_URL from
the environment, as for the site; the run uses its test database (``test_`` + the name).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.throwaway_site import add_students, admin_client, on_a_throwaway_database, timed  # noqa: E402


def median_ms(client, url: str, repeat: int) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(repeat):
        response, seconds = timed(lambda: client.get(url))
        assert response.status_code == 200, response.status_code
        times.append(seconds)
        size = len(response.content)
    return statistics.median(times) * 1000, size


def run(players: int, repeat: int) -> None:
    from django.urls import reverse

    from tournament.models import Event, Player

    event = Event.objects.create(name="Desk bench", slug="desk-bench", status=Event.Status.REGISTRATION,
                                 checkin_open=True)
    add_students(event, players)
    client = admin_client()
    desk = reverse("admin:tournament_event_checkin_desk", args=[event.pk])
    room = reverse("admin:tournament_event_control_room", args=[event.pk])
    page_ms, page_size = median_ms(client, desk, repeat)
    search_ms, search_size = median_ms(client, f"{desk}?q=student+4&partial=1", repeat)
    roll_ms, _ = median_ms(client, f"{desk}?q=R00042", repeat)
    one = Player.objects.get(event=event, roll_number="R00042")
    response, check_in = timed(lambda: client.post(desk, {"action": "check_in", "player": one.pk}))
    assert response.status_code == 302, response.status_code
    response, check_in_all = timed(lambda: client.post(desk, {"action": "all"}))
    assert response.status_code == 302, response.status_code
    checked_in = Player.objects.filter(event=event, status=Player.Status.CHECKED_IN).count()
    room_ms, room_size = median_ms(client, room, repeat)
    print(f"{players} registered players; {checked_in} checked in at the end")
    print(f"desk page: {page_size:,} bytes, median {page_ms:.0f} ms; search as you type: {search_size:,} bytes, "
          f"median {search_ms:.0f} ms; by roll number: median {roll_ms:.0f} ms ({repeat} loads each)")
    print(f"check in one: {check_in * 1000:.0f} ms; check in all registered: {check_in_all * 1000:.0f} ms")
    print(f"control room: {room_size:,} bytes, median {room_ms:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5, help="page loads to time")
    args = parser.parse_args()
    if args.players < 50 or args.repeat < 1:
        parser.error("--players at least 50 and --repeat at least 1")
    on_a_throwaway_database(f"bench/checkin_desk.py --players {args.players} --repeat {args.repeat}",
                            lambda: run(args.players, args.repeat))


if __name__ == "__main__":
    main()
