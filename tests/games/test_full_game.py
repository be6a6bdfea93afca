"""A whole tournament game to the target, played by two sockets and two bots: every hand is written to
Hand/HandScore as the engine scored it, the cumulative totals equal the engine's, the game finishes at
the target, and no socket ever received a card it should not have seen."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.hidden_cards import known_cards, private_codes
from games.models import LiveGame, LiveMove
from games.services import timers
from games.services.seats import turn_game_seat
from tests.games.factories import Socket, engine_game_of, login_socket, make_tournament_game
from tournament.models import Game, Hand, HandScore
from tournament.services.live_tables import exhibition_table, live_game_for
from tournament.services.rounds import seat_totals

pytestmark = [pytest.mark.django_db(transaction=True)]

@database_sync_to_async
def reload(pk):
    return LiveGame.objects.select_related("game").get(pk=pk)


@database_sync_to_async
def sweep():
    return timers.sweep_once(timezone.now())


async def catch_up(sockets, version):
    for s in sockets:
        if s.state["version"] < version:
            await s.receive_until(lambda m: m["type"] in ("update", "state") and m["version"] == version)


@pytest.mark.parametrize(("preset", "target"), [("uno-official", 120), ("ocho-plato", 300)])
async def test_a_whole_game_with_sockets_and_bots_to_the_target(preset, target):
    tgame, users = await database_sync_to_async(make_tournament_game)(2, bots=2, target_score=target,
                                                                      rules_preset=preset)
    live = await database_sync_to_async(live_game_for)(tgame, seed=2024)
    players = [await login_socket(live.pk, u) for u in users]
    watcher = Socket(live.pk)
    sockets = [*players, watcher]
    for s in sockets:
        await s.connect()
    board = Socket.__new__(Socket)  # the event's live leaderboard hears about every hand
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.games.factories import HOST, ORIGIN

    slug = await database_sync_to_async(lambda: tgame.table.round.event.slug)()
    board.comm = WebsocketCommunicator(application, f"/ws/events/{slug}/", headers=[ORIGIN, HOST])
    board.frames, board.state = [], None
    assert (await board.comm.connect(timeout=10))[0]
    await board.comm.receive_json_from()
    steps = 0
    while True:
        live = await reload(live.pk)
        await catch_up(sockets, live.version)
        if live.status == LiveGame.Status.FINISHED:
            break
        game = await engine_game_of(live)
        seat = turn_game_seat(game, live.hand_seats)
        if seat is None or seat >= 2:  # a bot's turn or the next deal (both immediate in tests)
            assert await sweep() == 1
        else:
            sock = players[seat]
            action = {k: v for k, v in sock.state["view"]["legal_actions"][0].items() if k != "seat"}
            await sock.send({"type": "move", "version": live.version, "action": action})
            reply = await sock.receive_until(lambda m: m["type"] in ("ack", "error"))
            assert reply["type"] == "ack", (reply, action, sock.state["view"])
        steps += 1
        assert steps < 5000
    game = await engine_game_of(live)
    assert game.over and max(game.totals) >= target
    # the tournament game is finished with the engine's winner
    tgame = await database_sync_to_async(Game.objects.select_related("winner").get)(pk=tgame.pk)
    assert tgame.status == Game.Status.FINISHED and tgame.finished_at is not None
    if len(game.winners) == 1:
        assert tgame.winner.number == game.winners[0]
    # one Hand per engine hand, HandScores equal to the engine's result, totals derived equal
    hands = await database_sync_to_async(lambda: list(Hand.objects.filter(game=tgame).order_by("number")))()
    assert len(hands) == len(game.results) >= 1
    for hand, result in zip(hands, game.results, strict=True):
        assert hand.number == result.number + 1 and hand.dealer == result.dealer and hand.source == "live"
        rows = await database_sync_to_async(lambda h=hand: {
            s.seat.number: (s.points_left, s.points_won)
            for s in HandScore.objects.filter(hand=h).select_related("seat")})()
        assert rows == {n: (result.points_left[n], result.points_won[n]) for n in range(4)}
    totals = await database_sync_to_async(lambda: seat_totals([tgame.pk])[tgame.pk])()
    by_number = await database_sync_to_async(lambda: {
        s.pk: s.number for s in tgame.table.seats.all()})()
    assert {by_number[k]: v for k, v in totals.items()} == dict(enumerate(game.totals))
    # every socket saw the end
    for s in sockets:
        assert s.state["game"]["status"] == "finished"
        assert s.state["game"]["winners"] == game.winners
    # no socket ever received a card it should not have
    moves = await database_sync_to_async(lambda: list(LiveMove.objects.filter(live_game=live)))()
    for seat, sock in enumerate(players):
        allowed = known_cards(moves, seat)
        seen = set()
        for frame in sock.frames:
            private_codes(frame, seen)
        assert seen and seen <= allowed, seen - allowed
    assert all(not private_codes(frame) for frame in watcher.frames)
    # (the check has teeth: one player's frames hold cards the other was never shown)
    other = set().union(*(private_codes(f) for f in players[1].frames))
    assert not other <= known_cards(moves, 0)
    kinds = {e["kind"] for m in moves for e in m.events}
    if preset == "ocho-plato":
        assert "xray" in kinds  # X-Ray reveals went to the player of the X-Ray only
    else:
        assert "challenged" in kinds or "uno" in kinds
    # the versions each socket saw have no gap
    for s in sockets:
        versions = [f["version"] for f in s.frames if f["type"] in ("update", "state")]
        assert versions == list(range(versions[0], versions[-1] + 1))
    # the leaderboard was told after the hands (on commit)
    boards = []
    while not await board.comm.receive_nothing(timeout=0.1):
        boards.append(await board.comm.receive_json_from())
    assert boards and all(b["type"] == "leaderboard" for b in boards)
    for s in sockets:
        await s.close()
    await board.comm.disconnect()


async def test_an_exhibition_of_bots_with_eliminations_plays_to_the_end():
    """Challenge UNO scoring: players are eliminated, hand seats and game seats part ways."""
    from tests.tournament.organizer_factories import make_event

    event = await database_sync_to_async(make_event)(
        rules_overrides={"scoring": "elimination"}, target_score=60, min_table_size=2, max_table_size=5)
    live = await database_sync_to_async(exhibition_table)(event, seats=4, seed=9)
    watcher = Socket(live.pk)
    await watcher.connect()
    eliminated_seen = False
    idle = 0
    for _ in range(20000):
        if not await sweep():
            live = await reload(live.pk)
            if live.status != LiveGame.Status.FINISHED and idle < 100:
                # nothing was due, or the row was busy for a moment (the sweeper skips a locked row)
                idle += 1
                await asyncio.sleep(0.05)
                continue
            assert live.status == LiveGame.Status.FINISHED
            break
        idle = 0
        live = await reload(live.pk)
        if len(live.hand_seats) < 4 and live.hand_seats:
            eliminated_seen = True
    game = await engine_game_of(live)
    assert game.over and len(game.winners) == 1 and eliminated_seen
    await catch_up([watcher], live.version)
    assert watcher.state["game"]["winners"] == game.winners
    assert all(not private_codes(frame) for frame in watcher.frames)
    await watcher.close()
