"""After a final, every place a person can read agrees with the bracket: the event leaderboard, the
round-two leaderboard, the standings CSV, the leaderboard socket, /me.json, the results page and
"My event" (whose step says where each player ended)."""

import csv
import io
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from config.asgi import application
from tests.games.factories import HOST, ORIGIN
from tests.tournament.places_factories import finished_event
from tournament.models import Player

pytestmark = [pytest.mark.django_db(transaction=True)]

SAME_ORIGIN = [ORIGIN, HOST]  # a page's socket: the same origin as the site it opened on
ROW = re.compile(r'<tr data-player-id="(\d+)"[^>]*>\s*<td[^>]*>([\d-]+)</td>')


def html_places(client: Client, url: str) -> dict[int, str]:
    return {int(pid): place for pid, place in ROW.findall(client.get(url).content.decode())}


@database_sync_to_async
def read_pages():
    done = finished_event()
    client = Client()
    slug = done.event.slug
    pages = {
        "leaderboard": html_places(client, reverse("leaderboard", args=[slug])),
        "round two": html_places(client, reverse("round_leaderboard", args=[slug, 2])),
        "results": html_places(client, reverse("results", args=[slug])),
    }
    names = dict(Player.objects.filter(event=done.event).values_list("display_name", "pk"))
    organizer = Client()
    organizer.force_login(done.organizer)
    sheet = organizer.get(reverse("admin:tournament_event_standings_csv", args=[done.event.pk])).content.decode()
    pages["csv"] = {names[row["player"]]: row["place"] for row in csv.DictReader(io.StringIO(sheet))}
    steps, me = {}, {}
    for pid in [done.final[0], done.final[2], done.stage_one[0][1], done.stage_one[3][3], done.outside[0],
                done.no_shows[0]]:
        student = Client()
        student.force_login(Player.objects.get(pk=pid).user)
        steps[pid] = student.get(reverse("my_event", args=[slug])).content.decode()
        me[pid] = student.get(reverse("me_json"), {"event": slug, "position": 1}).json()["position"]["place"]
    return done, pages, steps, me


async def socket_places(slug: str) -> dict[int, str]:
    communicator = WebsocketCommunicator(application, f"/ws/events/{slug}/", headers=SAME_ORIGIN)
    connected, _ = await communicator.connect()
    assert connected
    message = await communicator.receive_json_from(timeout=5)
    await communicator.disconnect()
    assert message["type"] == "leaderboard"
    return {row["player_id"]: row["place"] for row in message["rows"]}


async def test_every_page_file_and_socket_agrees_on_every_place_after_the_final():
    done, pages, steps, me = await read_pages()
    pages["socket"] = await socket_places(done.event.slug)
    whole = pages["leaderboard"]
    assert len(whole) == 25
    champion = done.final[0]
    assert whole[champion] == "1" and whole[done.stage_one[0][1]] == "5-6" and whole[done.late.pk] == "25"
    for name in ("csv", "socket", "results"):
        assert pages[name] == whole, name
    assert pages["round two"] == {pid: place for pid, place in whole.items() if pid in pages["round two"]}
    assert set(pages["round two"]) == {p for table in done.stage_one for p in table}
    for pid, place in me.items():
        assert place == whole[pid]

    def step(pid):
        return re.search(r'data-step="(\w+)"[^>]*>\s*<div class="flex-grow-1"><strong class="next-step-title">([^<]+)',
                         steps[pid]).groups()

    assert step(champion) == ("won", f"You won {done.event.name}! 🏆")
    assert step(done.final[2]) == ("out", "The final is over: you placed 3 of 25.")
    assert step(done.stage_one[0][1]) == ("out", "You are out at stage 1: your place so far is 5-6 of 25.")
    assert step(done.stage_one[3][3]) == ("out", "You are out at stage 1: your place so far is 16 of 25.")
    assert step(done.outside[0])[0] == "out" and f"{whole[done.outside[0]]} of 25" in steps[done.outside[0]]
    results = reverse("results", args=[done.event.slug])
    assert f'href="{results}"' in steps[champion] and "my-certificate" in steps[champion]
    assert "my-certificate" not in steps[done.no_shows[0]], "no certificate without taking part"
