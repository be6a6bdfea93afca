"""Playing live through real websockets: a whole hand by three connected players, and what a hand's end
writes to the tournament's tables."""

import pytest
from channels.db import database_sync_to_async

from games.models import LiveGame, LiveMove
from tests.games.factories import Socket, login_socket, make_tournament_game
from tournament.models import Hand, HandScore
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]


def without_seat(action: dict) -> dict:
    return {k: v for k, v in action.items() if k != "seat"}


async def setup_table(players=3, seed=11, **event_fields):
    game, users = await database_sync_to_async(make_tournament_game)(players, **event_fields)
    live = await database_sync_to_async(live_game_for)(game, seed=seed)
    sockets = [await login_socket(live.pk, u) for u in users]
    states = [await s.connect() for s in sockets]
    return game, live, users, sockets, states


async def play_one(sockets, version):
    """The seat on turn plays its first legal action; every socket gets the update. Returns it."""
    views = [s.state["view"] for s in sockets]
    turn = views[0]["turn"]
    mover = next(s for s in sockets if s.state["hand_seat"] == turn)
    action = without_seat(mover.state["view"]["legal_actions"][0])
    await mover.send({"type": "move", "version": version, "action": action, "id": f"m{version}"})
    ack = await mover.receive()
    assert ack == {"type": "ack", "id": f"m{version}", "version": version + 1}
    for s in sockets:
        update = await s.receive_until(lambda m: m["type"] == "update" and m["version"] == version + 1)
        assert update["by"]["actor"] == "player"
    return action


async def test_a_whole_hand_played_by_three_sockets_is_stored_and_scored():
    game, live, users, sockets, states = await setup_table()
    assert [s["role"] for s in states] == ["player"] * 3
    assert [s["seat"] for s in states] == [0, 1, 2]
    assert states[0]["version"] == 1
    # each player sees its own hand, and only its own
    for s in states:
        assert len(s["view"]["hand"]) == 7
        assert s["view"]["seat"] == s["seat"]
    version = 1
    while True:
        view = sockets[0].state["view"]
        if view["phase"] == "over":
            break
        await play_one(sockets, version)
        version += 1
        assert version < 500
    # the hand's end was stored in the same transactions as the moves
    moves = await database_sync_to_async(lambda: list(LiveMove.objects.filter(live_game=live).order_by("version")))()
    assert [m.version for m in moves] == list(range(1, version + 1))
    last = moves[-1]
    scored = next(e for e in last.events if e["kind"] == "hand_scored")["data"]
    hand = await database_sync_to_async(lambda: Hand.objects.select_related("winner").get(game=game))()
    assert hand.number == 1 and hand.source == "live"
    assert hand.winner.number == scored["winner"]
    assert hand.dealer == scored["dealer"]
    rows = await database_sync_to_async(lambda: {s.seat.number: (s.points_left, s.points_won)
                                                 for s in HandScore.objects.filter(hand=hand).select_related("seat")})()
    assert rows == {n: (scored["points_left"][n], scored["points_won"][n]) for n in range(3)}
    # every socket was told the hand is over, with the scores; hands count from 1 in every frame
    for s in sockets:
        assert s.state["game"]["status"] == "between_hands"
        assert s.state["game"]["totals"] == scored["totals"]
        told = next(e for e in s.state["events"] if e["kind"] == "hand_scored")
        assert told["number"] == s.state["game"]["last_result"]["number"] == s.state["game"]["hand_number"] == 1
        assert s.state["game"]["shuffles"][0]["hand"] == 1
    for s in sockets:
        await s.close()


async def test_spectators_see_the_table_without_any_hand():
    game, live, users, sockets, states = await setup_table()
    watcher = Socket(live.pk)
    state = await watcher.connect()
    assert state["role"] == "spectator" and state["seat"] is None
    assert "hand" not in state["view"] and "legal_actions" not in state["view"]
    await play_one(sockets, 1)
    update = await watcher.receive_until(lambda m: m["type"] == "update")
    assert update["version"] == 2 and "hand" not in update["view"]
    refreshed = await database_sync_to_async(LiveGame.objects.get)(pk=live.pk)
    assert refreshed.version == 2
    for s in [*sockets, watcher]:
        await s.close()


async def test_the_table_hears_who_is_connected():
    game, live, users, sockets, states = await setup_table()
    turn = states[0]["view"]["turn"]
    leaving = next(s for s in sockets if s.state["hand_seat"] != turn)
    staying = [s for s in sockets if s is not leaving]
    mover = next(s for s in staying if s.state["hand_seat"] == turn)
    first = sockets[0]
    # the first socket hears the two others arrive (the frame may already be recorded, or still to come)
    def heard_all() -> bool:
        presence = [f for f in first.frames if f["type"] == "presence"]
        return bool(presence) and presence[-1] == {"type": "presence", "connected": [0, 1, 2]}

    while not heard_all():
        await first.receive(presence=True)
    watcher = Socket(live.pk)
    state = await watcher.connect()
    assert [s["connected"] for s in state["game"]["seats"]] == [True, True, True]
    await leaving.close()
    message = await watcher.receive(presence=True)
    expected = [seat for seat in (0, 1, 2) if seat != leaving.state["seat"]]
    assert message == {"type": "presence", "connected": expected}
    # an ordinary move changes no public fact of the game: its update leaves the seats (and the presence
    # the client merged into them) as they were
    await mover.send({"type": "move", "version": 1, "action": without_seat(mover.state["view"]["legal_actions"][0])})
    update = await watcher.receive_until(lambda m: m["type"] == "update")
    assert "game" not in update
    assert [s["connected"] for s in watcher.state["game"]["seats"]] == [seat in expected for seat in (0, 1, 2)]
    for s in [*staying, watcher]:
        await s.close()
