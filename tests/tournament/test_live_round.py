"""The organizer's live round view: its socket refuses anyone but the event's organizers (on connect and
on every message), pushes the round's summary after a move and a player arriving, and the page's actions
(pause, finish with a reason, finish all, replace a no-show with a bot or a reserve) are made and audited."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from config.asgi import application
from games.models import LiveGame, LiveMove
from tests.games.factories import HOST, ORIGIN, login_socket, session_cookie
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players
from tests.tournament.test_rotation_live import play_live
from tournament.models import AuditEntry, Game, Player, Round, Seat
from tournament.services import rounds

pytestmark = [pytest.mark.usefixtures("live_settings")]


def start_round(tables: int = 1, reserves: int = 0):
    """A started round of `tables` tables of three students (live tables open, a target out of reach)."""
    event = make_event(min_table_size=3, max_table_size=3, target_score=5000, turn_seconds=0)
    organizer = make_organizer_of(event)
    make_players(event, 3 * tables)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=4), organizer)
    rounds.start_round(round_, organizer)
    spare = make_players(event, reserves, status=Player.Status.CHECKED_IN)
    return event, organizer, round_, spare


def organizer_socket(round_id: int, cookie: bytes | None) -> WebsocketCommunicator:
    headers = [ORIGIN, HOST] + ([(b"cookie", cookie)] if cookie else [])
    return WebsocketCommunicator(application, f"/ws/organizer/rounds/{round_id}/", headers=headers)


async def next_round_message(comm, timeout: float = 10) -> dict:
    while True:
        message = json.loads(await comm.receive_from(timeout=timeout))
        if message["type"] == "round":
            return message


# ---- the socket's permission checks ------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
async def test_the_socket_refuses_anonymous_users_and_other_events_organizers():
    event, organizer, round_, _ = await database_sync_to_async(start_round)()
    other = await database_sync_to_async(lambda: make_organizer_of(make_event()))()
    student = await database_sync_to_async(lambda: Seat.objects.filter(table__round=round_).first().player.user)()
    for cookie in (None, await database_sync_to_async(session_cookie)(other),
                   await database_sync_to_async(session_cookie)(student)):
        comm = organizer_socket(round_.pk, cookie)
        connected, code = await comm.connect(timeout=10)
        assert not connected and code == 4403
    comm = organizer_socket(round_.pk, await database_sync_to_async(session_cookie)(organizer))
    connected, _ = await comm.connect(timeout=10)
    assert connected
    first = await next_round_message(comm)
    assert first["round"] == round_.pk and 'id="live-table-1"' in first["html"]
    assert first["counts"]["away"] == 3  # nobody at the table yet
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_socket_checks_again_on_every_message_and_answers_bad_ones():
    event, organizer, round_, _ = await database_sync_to_async(start_round)()
    comm = organizer_socket(round_.pk, await database_sync_to_async(session_cookie)(organizer))
    assert (await comm.connect(timeout=10))[0]
    await next_round_message(comm)
    await comm.send_to(text_data='{"type": "move"}')
    assert json.loads(await comm.receive_from(timeout=10))["type"] == "error"
    await comm.send_to(text_data="not json")
    assert "not valid JSON" in json.loads(await comm.receive_from(timeout=10))["error"]
    await database_sync_to_async(lambda: event.organizers.remove(organizer))()  # no longer runs the event
    await comm.send_to(text_data='{"type": "refresh"}')
    assert (await comm.receive_output(timeout=10)) == {"type": "websocket.close", "code": 4403,
                                                      "reason": "only the event's organizers may watch this round live"}


# ---- pushed updates ----------------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
async def test_a_player_arriving_and_a_hand_played_are_pushed_to_the_organizer():
    event, organizer, round_, _ = await database_sync_to_async(start_round)()
    live = await database_sync_to_async(lambda: LiveGame.objects.get(game__table__round=round_))()
    assert live.watch_group == f"round-{round_.pk}-live"
    comm = organizer_socket(round_.pk, await database_sync_to_async(session_cookie)(organizer))
    assert (await comm.connect(timeout=10))[0]
    assert (await next_round_message(comm))["counts"]["connected"] == 0
    seat0 = await database_sync_to_async(lambda: Seat.objects.get(table__round=round_, number=0).player.user)()
    player = await login_socket(live.pk, seat0)
    await player.connect()
    arrived = await next_round_message(comm)  # the table nudges the round's group when a player arrives
    assert arrived["counts"]["connected"] == 1 and 'data-seat="0" data-state="connected"' in arrived["html"]
    await database_sync_to_async(play_live)(live.pk, 1)  # a whole hand, move by move
    played = await next_round_message(comm)
    while "1 hand" not in played["html"]:
        played = await next_round_message(comm)
    assert "leader" in played["html"]
    await player.close()
    await comm.disconnect()


# ---- actions through the page ------------------------------------------------------------------------

def organizer_client(organizer) -> Client:
    client = Client()
    client.force_login(organizer)
    return client


@pytest.mark.django_db
def test_the_page_shows_every_table_and_pause_and_finish_are_audited():
    event, organizer, round_, _ = start_round(tables=2)
    client = organizer_client(organizer)
    url = reverse("admin:tournament_round_live", args=[round_.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert page.content.count(b'class="live-table"') == 2 and b"/ws/organizer/rounds/" in page.content
    first, second = Game.objects.filter(table__round=round_).order_by("table__number")
    refused = client.post(url, {"action": f"pause:{first.pk}"}, follow=True)  # no reason given
    assert "Say why table 1 is paused" in refused.content.decode()
    first.refresh_from_db()
    assert first.status == Game.Status.RUNNING
    paused = client.post(url, {"action": f"pause:{second.pk}", f"reason_{second.pk}": "projector swap"},
                         follow=True).content.decode()
    assert "Table 2 paused." in paused
    assert AuditEntry.objects.get(action="game.pause", actor=organizer).reason == "projector swap"
    client.post(url, {"action": f"resume:{second.pk}"})
    client.post(url, {"action": f"pause:{first.pk}", f"reason_{first.pk}": "spilled drink"})
    first.refresh_from_db()
    assert first.status == Game.Status.PAUSED
    refused = client.post(url, {"action": f"finish:{second.pk}"}, follow=True)  # no reason given
    assert "Say why" in refused.content.decode()
    client.post(url, {"action": f"finish:{second.pk}", f"reason_{second.pk}": "fire drill"})
    second.refresh_from_db()
    assert second.status == Game.Status.FINISHED
    assert AuditEntry.objects.get(action="game.finish").reason == "fire drill"
    assert LiveGame.objects.get(game=second).status == LiveGame.Status.FINISHED


@pytest.mark.django_db
def test_finish_all_finishes_every_game_with_the_reason_audited():
    event, organizer, round_, _ = start_round(tables=2)
    client = organizer_client(organizer)
    url = reverse("admin:tournament_round_live", args=[round_.pk])
    client.post(url, {"action": "finish_all", "reason_all": "hall closes"})
    assert set(Game.objects.filter(table__round=round_).values_list("status", flat=True)) == {"finished"}
    assert AuditEntry.objects.filter(action="game.finish", reason="hall closes").count() == 2
    assert AuditEntry.objects.filter(action="round.finish_all", reason="hall closes", actor=organizer).exists()
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED


@pytest.mark.django_db
def test_a_no_show_is_replaced_by_a_bot_and_another_by_a_reserve():
    event, organizer, round_, (reserve,) = start_round(reserves=1)
    client = organizer_client(organizer)
    url = reverse("admin:tournament_round_live", args=[round_.pk])
    page = client.get(url).content.decode()
    seat1, seat2 = Seat.objects.filter(table__round=round_, number__in=(1, 2)).order_by("number")
    assert f'name="replacement_{seat1.pk}"' in page and reserve.display_name in page  # no-shows get the choice
    live = LiveGame.objects.get(game__table__round=round_)
    before = live.version
    client.post(url, {"action": f"replace:{seat1.pk}", f"replacement_{seat1.pk}": "bot",
                      f"reason_seat_{seat1.pk}": "did not come"})
    seat1.refresh_from_db()
    assert seat1.is_bot and seat1.bot_kind == "heuristic"
    entry = AuditEntry.objects.get(action="seat.replace_with_bot")
    assert entry.reason == "did not come" and entry.actor == organizer
    notice = LiveMove.objects.get(live_game=live, version=before + 1)  # the table hears of it at once
    assert notice.events[0]["kind"] == "seat_changed" and "A bot plays seat 2" in notice.events[0]["data"]["text"]
    client.post(url, {"action": f"replace:{seat2.pk}", f"replacement_{seat2.pk}": str(reserve.pk),
                      f"reason_seat_{seat2.pk}": "phone died"})
    seat2.refresh_from_db()
    assert seat2.player_id == reserve.pk
    assert AuditEntry.objects.filter(action="seat.replace_with_reserve", reason="phone died").exists()
    # without a reason nothing changes
    seat0 = Seat.objects.get(table__round=round_, number=0)
    client.post(url, {"action": f"replace:{seat0.pk}", f"replacement_{seat0.pk}": "bot"})
    seat0.refresh_from_db()
    assert not seat0.is_bot


@pytest.mark.django_db
def test_another_events_organizer_can_neither_see_nor_act():
    event, organizer, round_, _ = start_round()
    other = make_organizer_of(make_event())
    client = organizer_client(other)
    url = reverse("admin:tournament_round_live", args=[round_.pk])
    assert client.get(url).status_code == 404
    game = Game.objects.get(table__round=round_)
    assert client.post(url, {"action": f"pause:{game.pk}"}).status_code == 404
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


@pytest.mark.django_db
def test_the_event_links_to_its_running_rounds_live_view():
    event, organizer, round_, _ = start_round()
    client = organizer_client(organizer)
    response = client.get(reverse("admin:tournament_event_live", args=[event.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("admin:tournament_round_live",
                                                                           args=[round_.pk])
    overview = client.get(reverse("admin:tournament_round_overview", args=[round_.pk])).content.decode()
    assert reverse("admin:tournament_round_live", args=[round_.pk]) in overview
