"""Who may do what, as one matrix: every page, admin page and admin action, and every websocket action, for
a visitor, a student not registered, a student at another table, a spectator (a logged-in user of no
event), an organizer of another event, staff without the organizer group — and, as the control, the
player seated at the table and the event's own organizer. Builds on tests/tournament/test_permissions.py
(the admin, in depth) and tests/games/test_roles.py (roles changing on a socket)."""

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from config.asgi import application
from games.services.lifecycle import start_practice_game
from tests.games.factories import HOST, ORIGIN, session_cookie
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players, make_user
from tournament.models import Game, Hand, Player, Round
from tournament.services import rounds
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]

OUTSIDERS = ["anonymous", "unregistered", "other_table", "spectator", "other_organizer", "staff"]
ROLES = OUTSIDERS + ["seated", "organizer"]


@pytest.fixture
def world():
    """An event with two running tables of two, its live games, a practice game of the seated player,
    and one user per role."""
    event = make_event(name="Matrix cup", min_table_size=2, max_table_size=2, target_score=500)
    owner = make_organizer_of(event)
    make_players(event, 4)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), owner)
    rounds.start_round(round_, owner)
    games = list(Game.objects.filter(table__round=round_).order_by("table__number"))
    live = live_game_for(games[0], seed=5)
    live_game_for(games[1], seed=6)
    seated = games[0].table.seats.order_by("number")[0].player.user
    other_table = games[1].table.seats.order_by("number")[0].player.user
    users = {
        "anonymous": None, "unregistered": make_user("loner"), "other_table": other_table,
        "spectator": make_user("watcher"), "other_organizer": make_organizer_of(make_event(name="Elsewhere")),
        "staff": make_user("staffer", is_staff=True), "seated": seated, "organizer": owner,
    }
    practice = start_practice_game(seated, "uno-official", 1, turn_seconds=0)
    return {"event": event, "round": round_, "game": games[0], "live": live, "practice": practice, "users": users}


def client_for(world, role) -> Client:
    client = Client()
    user = world["users"][role]
    if user is not None:
        client.force_login(user)
    return client


PUBLIC = [
    ("home", lambda w: reverse("home")),
    ("events", lambda w: reverse("event_list")),
    ("leaderboards", lambda w: reverse("leaderboards")),
    ("event", lambda w: reverse("event_detail", args=[w["event"].slug])),
    ("leaderboard", lambda w: reverse("leaderboard", args=[w["event"].slug])),
    ("round leaderboard", lambda w: reverse("round_leaderboard", args=[w["event"].slug, 1])),
    ("results", lambda w: reverse("results", args=[w["event"].slug])),
    ("table", lambda w: reverse("table_detail", args=[w["event"].slug, w["game"].table_id])),
    ("player", lambda w: reverse("player_detail", args=[w["event"].slug, Player.objects.filter(event=w["event"])[0].pk])),
    ("watch live", lambda w: reverse("watch", args=[w["event"].slug])),
    ("watch list", lambda w: reverse("watch_fragment", args=[w["event"].slug])),
    ("play home", lambda w: reverse("games:play")),
    ("live table", lambda w: w["live"].get_absolute_url()),
    ("verify", lambda w: reverse("games:verify") + f"?game={w['live'].pk}"),
]


@pytest.mark.parametrize("role", ROLES)
def test_public_pages_open_for_everyone(world, role):
    client = client_for(world, role)
    for name, url in PUBLIC:
        response = client.get(url(world))
        assert response.status_code == 200, (name, role)


@pytest.mark.parametrize("role", ROLES)
def test_a_practice_game_is_its_owners_only(world, role):
    client = client_for(world, role)
    practice = world["practice"]
    expected = 200 if role == "seated" else 404
    assert client.get(practice.get_absolute_url()).status_code == expected, role
    assert client.get(reverse("games:verify"), {"game": practice.pk}).status_code == expected, role


STUDENT_PAGES = [("register", "get"), ("my_event", "get"), ("check_in", "post"), ("withdraw", "post"),
                 ("my_certificate", "get")]


@pytest.mark.parametrize("role", ROLES)
def test_the_email_page_is_ones_own(world, role):
    client = client_for(world, role)
    response = client.get(reverse("account_email"))
    if role == "anonymous":
        assert response.status_code == 302 and reverse("login") in response["Location"]
    else:
        assert response.status_code == 200
        assert response.context["user"] == world["users"][role]


@pytest.mark.parametrize("role", ROLES)
def test_student_pages_need_a_login_and_act_only_for_oneself(world, role):
    client = client_for(world, role)
    before = {p.pk: p.status for p in Player.objects.filter(event=world["event"])}
    for name, method in STUDENT_PAGES:
        response = getattr(client, method)(reverse(name, args=[world["event"].slug]))
        if role == "anonymous":
            assert response.status_code == 302 and reverse("login") in response["Location"], name
        else:
            assert response.status_code < 500, (name, role)
    assert client.get(reverse("games:practice")).status_code == (302 if role == "anonymous" else 200)
    after = {p.pk: p.status for p in Player.objects.filter(event=world["event"])}
    seated_player = Player.objects.get(event=world["event"], user=world["users"]["seated"])
    for pk, status in before.items():
        mine = world["users"][role] is not None and Player.objects.get(pk=pk).user_id == world["users"][role].pk
        if not mine:
            assert after[pk] == status, (role, pk)  # nobody changes another student's registration
    assert seated_player.status == before[seated_player.pk] or role == "seated"


def admin_urls(w):
    game, round_ = w["game"], w["round"]
    return {
        "event change": reverse("admin:tournament_event_change", args=[w["event"].pk]),
        "round overview": reverse("admin:tournament_round_overview", args=[round_.pk]),
        "record hand": reverse("admin:tournament_game_record_hand", args=[game.pk]),
        "game change": reverse("admin:tournament_game_change", args=[game.pk]),
        "standings": reverse("admin:tournament_event_standings_csv", args=[w["event"].pk]),
        "certificates": reverse("admin:tournament_event_certificates", args=[w["event"].pk]),
        "players": reverse("admin:tournament_player_changelist"),
        "walk in": reverse("admin:tournament_player_walk_in"),
        "control room": reverse("admin:tournament_event_control_room", args=[w["event"].pk]),
        "check-in desk": reverse("admin:tournament_event_checkin_desk", args=[w["event"].pk]),
    }


@pytest.mark.parametrize("role", OUTSIDERS)
def test_outsiders_get_no_admin_page_of_the_event(world, role):
    client = client_for(world, role)
    for name, url in admin_urls(world).items():
        response = client.get(url)
        if role in ("anonymous", "unregistered", "other_table", "spectator"):
            assert response.status_code == 302 and reverse("admin:login") in response["Location"], (name, role)
        elif name in ("players", "walk in"):  # an organizer's own pages: they must not show this event
            assert response.status_code in (200, 403), (name, role)
            assert b"Matrix cup" not in response.content, (name, role)
        else:
            assert response.status_code in (302, 403, 404), (name, role)
            if response.status_code == 302:
                assert response["Location"] in (reverse("admin:index"), reverse("admin:login") + f"?next={url}")


def test_the_events_organizer_reaches_its_admin_pages(world):
    client = client_for(world, "organizer")
    for name, url in admin_urls(world).items():
        assert client.get(url).status_code == 200, name


@pytest.mark.parametrize("role", OUTSIDERS + ["seated"])
def test_outsiders_admin_actions_change_nothing(world, role):
    client = client_for(world, role)
    game, round_ = world["game"], world["round"]
    a, b = game.table.seats.order_by("number")
    urls = admin_urls(world)
    client.post(urls["round overview"], {"game": game.pk, "game_action": "pause", "reason": "x"})
    client.post(urls["record hand"], {"number": 1, "winner": a.pk, f"points_{a.pk}": 0, f"points_{b.pk}": 9,
                                      "reason": "x"})
    client.post(reverse("admin:tournament_player_changelist"),
                {"action": "withdraw", "_selected_action": [a.player_id], "apply": "1", "reason": "x"})
    client.post(reverse("admin:tournament_round_changelist"), {"action": "delete_selected",
                                                                "_selected_action": [round_.pk], "post": "yes"})
    players = {p.pk: (p.roll_number, p.status, p.user_id) for p in Player.objects.all()}
    for action, extra in [("free_roll_number", {}), ("reassign_roll_number", {"to": "loner"}),
                          ("reinstate", {}), ("confirm_claim", {})]:
        client.post(reverse("admin:tournament_player_changelist"),
                    {"action": action, "_selected_action": [a.player_id], "apply": "1", "reason": "x", **extra})
    client.post(urls["walk in"], {"event": world["event"].pk, "display_name": "Sneaky", "reason": "x"})
    for action in ("finish_event", "open_checkin", "start_round_one"):
        client.post(urls["control room"], {"action": action})
    for data in ({"action": "undo", "player": a.player_id}, {"action": "all"},
                 {"action": "walk_in", "display_name": "Sneaky", "reason": "x", "check_in": "on"}):
        client.post(urls["check-in desk"], data)
    world["event"].refresh_from_db()
    assert (world["event"].status, world["event"].checkin_open) == ("running", False)
    assert {p.pk: (p.roll_number, p.status, p.user_id) for p in Player.objects.all()} == players
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and not Hand.objects.filter(game=game).exists()
    assert Player.objects.get(pk=a.player_id).status != Player.Status.WITHDRAWN
    assert Round.objects.filter(pk=round_.pk).exists()


async def _socket(path, user):
    headers = [ORIGIN, HOST]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    return WebsocketCommunicator(application, path, headers=headers)


async def _frame(comm, kind):
    while True:
        message = json.loads(await comm.receive_from(timeout=3))
        if message["type"] == kind or message["type"] == "error":
            return message


@pytest.mark.parametrize("role", ROLES)
async def test_websocket_actions(world, role):
    """Only the seated player acts; everyone else watches the tournament table without any hidden card,
    and nobody but its owner opens the practice table."""
    live, user = world["live"], world["users"][role]
    comm = await _socket(live.ws_path, user)
    connected, _ = await comm.connect()
    assert connected, role
    state = await _frame(comm, "state")
    seated = role == "seated"
    assert state["role"] == ("player" if seated else "spectator"), role
    assert ("hand" in state["view"]) == seated, role
    if not seated:
        assert not state["view"].get("legal_actions") and not state["view"].get("hand"), role
    if seated:  # a player may not act for another seat
        other = 1 - state["hand_seat"]
        attempts = [{"type": "draw", "seat": other}, {"type": "catch", "target": other, "seat": other}]
    else:
        attempts = [{"type": "draw"}, {"type": "play", "card": "R1"}, {"type": "call_uno"},
                    {"type": "catch", "target": 1}, {"type": "draw", "seat": 0}, {"type": "accept"}]
    for action in attempts:
        await comm.send_to(text_data=json.dumps({"type": "move", "version": state["version"], "action": action}))
        reply = await _frame(comm, "ack")
        assert reply["type"] == "error" and reply["code"] == "forbidden", (role, action, reply)
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    synced = await _frame(comm, "state")
    assert synced["role"] == ("player" if seated else "spectator")
    await comm.disconnect()
    practice = await _socket(world["practice"].ws_path, user)
    connected, code = await practice.connect()
    if seated:
        assert connected
        await practice.disconnect()
    else:
        assert not connected and code == 4403, role
