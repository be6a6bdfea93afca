"""Bots at the table: a socket opened with a personal access token plays as its user, needs no Origin, and
its moves are marked as the bot's; a bad or revoked token is refused with 4401. Seats kept for bots (a
practice game with the student's bot, a bot-league event) take players' moves only through a token."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from access_tokens.revocation import REVOKED_REASON
from access_tokens.services import create_token, revoke_token
from access_tokens.websocket import CLOSE_BAD_TOKEN
from config.asgi import application
from games.models import LiveGame, LiveMove
from games.services import timers
from games.services.lifecycle import start_practice_game
from tests.games.factories import Socket, login_socket, make_tournament_game, session_cookie
from tests.tournament.organizer_factories import make_user
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]


def token_socket(live_id: int, secret: str) -> Socket:
    """A socket as a bot opens it: the token, no cookie, no Origin."""
    socket = Socket(live_id)
    socket.comm = WebsocketCommunicator(application, f"/ws/games/{live_id}/",
                                        headers=[(b"authorization", f"Bearer {secret}".encode())])
    return socket


def move_of(state: dict) -> dict:
    action = dict(state["view"]["legal_actions"][0])
    action.pop("seat", None)
    return {"type": "move", "version": state["version"], "action": action, "id": f"m{state['version']}"}


async def my_turn(socket: Socket, state: dict) -> dict:
    """Let the built-in bots move (the sweeper, driven here) until seat 0 may act; its newest state."""
    while not (state["view"]["turn"] == 0 and state["view"]["legal_actions"]):
        state = await next_update(socket, state["version"])
    return state


async def next_update(socket: Socket, after: int, within: float = 15) -> dict:
    """Sweep as the sweeper would, every quarter second, until an update newer than `after` reaches the
    socket. Other frames (presence, `seat_shared`) may come first, and a sweep does nothing before the bot's
    deadline or while the row is busy (the socket opening), so it sweeps until the update is there."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within
    while loop.time() < give_up:
        await database_sync_to_async(timers.sweep_once)(timezone.now())
        while not await socket.comm.receive_nothing(0.25):
            message = await socket.receive(presence=True)
            if message["type"] == "update" and message["version"] > after:
                return socket.state  # the update merged into the socket's picture
    raise AssertionError(f"no update after version {after} within {within} s")


async def practice_with_bot(with_my_bot=True):
    def build():
        user = make_user("botowner")
        live = start_practice_game(user, "uno-official", 2, seed=5, turn_seconds=0, with_my_bot=with_my_bot)
        return user, live, create_token(user, "my bot")
    return await database_sync_to_async(build)()


async def test_a_token_socket_plays_as_its_user_and_its_moves_are_marked():
    user, live, made = await practice_with_bot()
    bot = token_socket(live.pk, made.secret)
    state = await bot.connect()
    assert state["role"] == "player" and state["seat"] == 0
    state = await my_turn(bot, state)
    await bot.send(move_of(state))
    ack = await bot.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert ack["type"] == "ack", ack
    update = await bot.receive_until(lambda m: m["type"] == "update" and m["version"] == ack["version"])
    assert update["by"] == {"seat": 0, "actor": "player", "via_token": True}
    move = await database_sync_to_async(LiveMove.objects.get)(live_game=live, version=ack["version"])
    assert move.via_token and move.actor == "player" and move.user_id == user.pk
    # the log of a later full state (and of anyone watching) marks it too
    await bot.send({"type": "sync"})
    again = await bot.receive_until(lambda m: m["type"] == "state")
    logged = next(entry for entry in again["log"] if entry["version"] == ack["version"])
    assert logged["by"]["via_token"] is True
    assert all("via_token" not in entry["by"] for entry in again["log"] if entry["by"]["actor"] != "player")
    await bot.comm.disconnect()


async def test_a_token_in_the_url_is_refused_with_4401():
    """URLs end up in proxies' access logs: the header is the only way (docs/bots.md)."""
    user, live, made = await practice_with_bot()
    comm = WebsocketCommunicator(application, f"/ws/games/{live.pk}/?token={made.secret}")
    connected, _ = await comm.connect(timeout=10)
    assert connected
    closed = await comm.receive_output(timeout=5)
    assert closed["type"] == "websocket.close" and closed["code"] == CLOSE_BAD_TOKEN
    assert "Authorization" in closed["reason"] and "URL" in closed["reason"]


@pytest.mark.parametrize("secret", ["uno_wrong", "revoked", ""])
async def test_a_bad_or_revoked_token_is_closed_with_4401(secret):
    user, live, made = await practice_with_bot()
    if secret == "revoked":
        await database_sync_to_async(revoke_token)(user, made.token.pk)
        secret = made.secret
    comm = WebsocketCommunicator(application, f"/ws/games/{live.pk}/",
                                 headers=[(b"authorization", f"Bearer {secret}".encode())])
    connected, _ = await comm.connect(timeout=10)
    assert connected
    closed = await comm.receive_output(timeout=5)
    assert closed["type"] == "websocket.close" and closed["code"] == CLOSE_BAD_TOKEN
    assert "token" in closed["reason"] or "Authorization" in closed["reason"]


async def test_a_cookie_socket_still_needs_its_origin():
    user, live, made = await practice_with_bot(with_my_bot=False)
    cookie = await database_sync_to_async(session_cookie)(user)
    comm = WebsocketCommunicator(application, f"/ws/games/{live.pk}/", headers=[(b"cookie", cookie)])
    connected, _ = await comm.connect(timeout=10)
    assert not connected  # no Origin: refused at the handshake, as before
    browser = await login_socket(live.pk, user)
    assert (await browser.connect())["seat"] == 0
    await browser.comm.disconnect()
    # a browser sending a site password (HTTP Basic) is still a browser, not a bad token
    behind_password = await login_socket(live.pk, user)
    behind_password.comm.scope["headers"].append((b"authorization", b"Basic dXNlcjpwYXNz"))
    assert (await behind_password.connect())["seat"] == 0
    await behind_password.comm.disconnect()


async def closed_at_once(comm) -> dict:
    connected, _ = await comm.connect(timeout=10)
    assert connected
    closed = await comm.receive_output(timeout=5)
    assert closed["type"] == "websocket.close", closed
    return closed


async def test_a_token_opens_only_its_own_tables():
    owner, live, made = await practice_with_bot()
    stranger = await database_sync_to_async(lambda: create_token(make_user("stranger"), "x"))()
    closed = await closed_at_once(token_socket(live.pk, stranger.secret).comm)  # a private game stays private
    assert closed["code"] == 4403 and "own tables" in closed["reason"]
    game, users = await database_sync_to_async(make_tournament_game)(players=2)
    public = await database_sync_to_async(live_game_for)(game, seed=3)
    closed = await closed_at_once(token_socket(public.pk, stranger.secret).comm)  # a table anyone may watch
    assert closed["code"] == 4403 and "own tables" in closed["reason"]


async def test_a_read_only_token_shows_the_seat_but_takes_no_move():
    user, live, made = await practice_with_bot()
    reader = await database_sync_to_async(create_token)(user, "watcher", ["tables:read"])
    socket = token_socket(live.pk, reader.secret)
    state = await socket.connect()
    assert state["seat"] == 0 and state["view"]["hand"]  # its user's seat, cards and all
    state = await my_turn(socket, state)
    await socket.send(move_of(state))
    refused = await socket.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert refused["type"] == "error" and refused["code"] == "forbidden" and "only read" in refused["message"]
    await socket.comm.disconnect()


async def test_a_bot_seat_takes_no_move_from_the_browser():
    user, live, made = await practice_with_bot()
    browser = await login_socket(live.pk, user)
    state = await browser.connect()
    state = await my_turn(browser, state)
    await browser.send(move_of(state))
    refused = await browser.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert refused["type"] == "error" and refused["code"] == "forbidden" and "access token" in refused["message"]
    await browser.comm.disconnect()


async def test_a_bot_league_game_takes_players_moves_through_tokens_only():
    def build():
        game, users = make_tournament_game(players=2, entrants="bots")
        live = live_game_for(game, seed=3)
        return live, users, [create_token(u, "bot").secret for u in users]
    live, users, secrets = await database_sync_to_async(build)()
    assert live.token_moves_only
    browsers = [await login_socket(live.pk, u) for u in users]
    states = [await b.connect() for b in browsers]
    turn = states[0]["view"]["turn"]
    mover = next(i for i, s in enumerate(states) if s["hand_seat"] == turn)
    await browsers[mover].send(move_of(states[mover]))
    refused = await browsers[mover].receive_until(lambda m: m["type"] in ("ack", "error"))
    assert refused["code"] == "forbidden"
    bot = token_socket(live.pk, secrets[mover])
    state = await bot.connect()
    await bot.send(move_of(state))
    ack = await bot.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert ack["type"] == "ack", ack
    move = await database_sync_to_async(LiveMove.objects.get)(live_game=live, version=ack["version"])
    assert move.actor == "player" and move.via_token  # still the player's move (participation), marked as the bot's
    for s in [*browsers, bot]:
        await s.comm.disconnect()


async def test_at_a_bot_seat_only_the_bots_socket_ends_a_takeover():
    user, live, made = await practice_with_bot()

    def taken_over():
        LiveGame.objects.filter(pk=live.pk).update(bot_takeover=[True, False, False])

    def still_taken_over():
        return LiveGame.objects.get(pk=live.pk).bot_takeover[0]

    await database_sync_to_async(taken_over)()
    browser = await login_socket(live.pk, user)
    await browser.connect()
    await browser.send({"type": "sync"})
    await browser.receive_until(lambda m: m["type"] == "state")
    assert await database_sync_to_async(still_taken_over)()  # the owner watching is not the bot coming back
    bot = token_socket(live.pk, made.secret)
    await bot.connect()
    await bot.send({"type": "sync"})
    state = await bot.receive_until(lambda m: m["type"] == "state")
    assert state["game"]["seats"][0]["takeover"] is False
    assert not await database_sync_to_async(still_taken_over)()
    for s in (browser, bot):
        await s.comm.disconnect()


async def test_revoking_closes_the_open_socket_with_4401_and_why_and_tokens_open_no_other_socket():
    user, live, made = await practice_with_bot()
    bot = token_socket(live.pk, made.secret)
    await bot.connect()
    await database_sync_to_async(revoke_token)(user, made.token.pk)
    while (out := await bot.comm.receive_output(timeout=5))["type"] != "websocket.close":
        pass
    assert out["code"] == CLOSE_BAD_TOKEN and out["reason"] == REVOKED_REASON
    other = await database_sync_to_async(create_token)(user, "another")
    for path in ("/ws/organizer/rounds/1/", "/ws/events/any/", "/ws/events/any/me/", "/ws/health/"):
        comm = WebsocketCommunicator(application, path,
                                     headers=[(b"authorization", f"Bearer {other.secret}".encode())])
        closed = await closed_at_once(comm)
        assert closed["code"] == 4403 and "only table sockets" in closed["reason"], path


async def test_a_second_socket_at_a_seat_the_bot_plays_is_told_so():
    """The bot plays its owner's seat through its token; the owner's page, or a second socket of the bot
    (a restarted bot whose old socket lingers), opening at that seat hears `seat_shared` after its state;
    the first socket, and a page where no bot plays, hear nothing of the kind."""
    user, live, made = await practice_with_bot()
    bot = token_socket(live.pk, made.secret)
    await bot.connect()
    page = await login_socket(live.pk, user)
    assert (await page.connect())["seat"] == 0
    told = await page.receive_until(lambda m: m["type"] == "seat_shared")
    assert told["token_sockets"] == 1 and "your bot is already playing this seat" in told["message"]
    second = token_socket(live.pk, made.secret)
    await second.connect()
    told = await second.receive_until(lambda m: m["type"] == "seat_shared")
    assert "another socket of your bot" in told["message"]
    assert [m for m in await bot.drain(0.3) if m["type"] == "seat_shared"] == []
    for socket in (bot, page, second):
        await socket.comm.disconnect()

    practice = await database_sync_to_async(start_practice_game)(user, "uno-official", 2, seed=6, turn_seconds=0)
    mine = await login_socket(practice.pk, user)
    await mine.connect()
    assert [m for m in await mine.drain(0.3) if m["type"] == "seat_shared"] == []
    await mine.comm.disconnect()
