"""UNO and the catch with network lag: the server's order of arrival decides, and the catch window is the
engine's (open until the player calls UNO or the next player begins a turn)."""

import pytest

from tests.games.test_table_play import play_one, setup_table

pytestmark = [pytest.mark.django_db(transaction=True)]


async def drive_until_catchable(sockets):
    """Play first legal actions (which never call UNO) until someone could be caught."""
    version = 1
    for _ in range(400):
        view = sockets[0].state["view"]
        assert view["phase"] != "over", "the hand ended before anyone could be caught"
        if view["catchable"] is not None:
            return version, view["catchable"]
        await play_one(sockets, version)
        version += 1
    pytest.fail("nobody could be caught")


async def answer(sock):
    return await sock.receive_until(lambda m: m["type"] in ("ack", "error"))


async def update_at(sock, version):
    """The update of `version` (it may have arrived while waiting for another answer), or the same
    facts from a full state of that version (a socket sent the state first skips the update)."""
    for frame in sock.frames:
        if frame["type"] in ("update", "state") and frame["version"] == version:
            break
    else:
        frame = await sock.receive_until(lambda m: m["type"] in ("update", "state") and m["version"] == version)
    if frame["type"] == "state":
        logged = frame["log"][-1]
        assert logged["version"] == version
        return {**frame, "events": logged["events"]}
    return sock.picture_at(version)  # the update merged into what the socket had: its whole view


@pytest.mark.parametrize("first", ["uno", "catch"])
async def test_call_and_catch_in_both_orders(first):
    game, live, users, sockets, states = await setup_table(seed=11)
    version, target = await drive_until_catchable(sockets)
    caught = next(s for s in sockets if s.state["hand_seat"] == target)
    catcher = next(s for s in sockets if s is not caught)
    call = {"type": "move", "version": version, "action": {"type": "call_uno"}}
    catch = {"type": "move", "version": version, "action": {"type": "catch", "target": target}}
    cards_before = len(caught.state["view"]["hand"])
    if first == "uno":
        await caught.send(call)
        assert (await answer(caught))["type"] == "ack"
        await catcher.send(catch)  # on the version the call just moved on from
        refused = await answer(catcher)
        assert refused["code"] == "stale"  # the call moved the game on first
        await catcher.receive_until(lambda m: m["type"] == "state")
        await catcher.send({**catch, "version": version + 1})
        refused = await answer(catcher)
        assert refused["code"] == "illegal" and refused["message"] == f"seat {target} cannot be caught now"
        update = await update_at(caught, version + 1)
        assert update["events"] == [{"kind": "uno", "seat": target, "self_catch": True}]
        assert len(update["view"]["hand"]) == cards_before
    else:
        await catcher.send(catch)
        assert (await answer(catcher))["type"] == "ack"
        await caught.send(call)  # on the version the catch just moved on from
        refused = await answer(caught)
        assert refused["code"] == "stale"
        await caught.receive_until(lambda m: m["type"] == "state")
        await caught.send({**call, "version": version + 1})
        refused = await answer(caught)
        assert refused["code"] == "illegal"
        update = await update_at(caught, version + 1)
        kinds = [e["kind"] for e in update["events"]]
        assert kinds == ["caught", "drew"]
        penalty = update["events"][0]["penalty"]
        assert len(update["view"]["hand"]) == cards_before + penalty
        assert len(update["events"][1]["cards"]) == penalty  # the caught player sees what it drew
    for s in sockets:
        await s.close()


async def test_the_window_closes_when_the_next_player_begins_a_turn():
    game, live, users, sockets, states = await setup_table(seed=11)
    version, target = await drive_until_catchable(sockets)
    await play_one(sockets, version)  # the next player moves
    catcher = next(s for s in sockets if s.state["hand_seat"] != target)
    await catcher.send({"type": "move", "version": version + 1, "action": {"type": "catch", "target": target}})
    refused = await answer(catcher)
    assert refused["code"] == "illegal" and refused["message"] == f"seat {target} cannot be caught now"
    for s in sockets:
        await s.close()
