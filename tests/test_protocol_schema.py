"""docs/protocol.schema.json: a valid JSON Schema that matches the code (the consumer's accepted messages,
the card codes, every event kind), and the tests' hook that validates every frame the server sends."""

import pytest
from channels.testing import WebsocketCommunicator
from jsonschema import Draft202012Validator

from games import engine
from games.socket_messages import MESSAGE_FIELDS
from tests.protocol_schema import check_server_frame, definition_for, event_kinds_in_code, schema, validate


def test_the_schema_is_a_valid_json_schema():
    Draft202012Validator.check_schema(schema())
    for sides in schema()["x-sockets"].values():
        for pointer in sides.values():
            assert pointer.removeprefix("#/$defs/") in schema()["$defs"]


def test_card_codes_and_colours_are_the_engines():
    defs = schema()["$defs"]
    assert defs["card"]["enum"] == sorted(engine.CARD_ID)
    assert defs["colour"]["enum"] == list(engine.COLOUR_CODES)


def test_the_client_messages_are_the_ones_the_consumer_accepts():
    defs = schema()["$defs"]
    kinds = {ref["$ref"].removeprefix("#/$defs/table_client_") for ref in defs["table_client"]["oneOf"]}
    assert kinds == set(MESSAGE_FIELDS)
    for kind, fields in MESSAGE_FIELDS.items():
        assert set(defs[f"table_client_{kind}"]["properties"]) == fields, kind
    actions = {ref["$ref"].removeprefix("#/$defs/action_") for ref in defs["action"]["oneOf"]}
    assert actions == set(engine.actions.ACTION_TYPES)


def test_every_event_kind_of_the_code_is_in_the_schema():
    kinds = event_kinds_in_code()
    assert {"played", "hand_scored", "takeover_started", "game_closed"} <= kinds  # the scan finds them
    listed = {ref["$ref"].removeprefix("#/$defs/event_") for ref in schema()["$defs"]["event"]["oneOf"]}
    assert kinds == listed


@pytest.mark.parametrize(("message", "fits"), [
    ({"type": "move", "version": 3, "action": {"type": "play", "card": "R7"}, "id": "m1"}, True),
    ({"type": "move", "version": 3, "action": {"type": "play", "card": "W", "colour": "G"}}, True),
    ({"type": "move", "version": 3, "action": {"type": "play", "card": "ZZ"}}, False),
    ({"type": "move", "version": -1, "action": {"type": "draw"}}, False),
    ({"type": "sync", "extra": 1}, False),
    ({"type": "ping", "echo": [1, {"a": None}]}, True),
    ({"type": "hello"}, False),
])
def test_client_messages(message, fits):
    if fits:
        validate("#/$defs/table_client", message)
    else:
        with pytest.raises(AssertionError):
            validate("#/$defs/table_client", message)


def test_socket_paths_map_to_their_definitions():
    assert definition_for("/ws/games/12/", "server") == "#/$defs/table_server"
    assert definition_for("/ws/events/spring-open/", "client") == "#/$defs/leaderboard_client"
    assert definition_for("/ws/bench/relay/1/", "server") is None


async def test_a_frame_the_schema_does_not_describe_fails_the_test_that_receives_it():
    """The hook in tests/conftest.py: a server that sends `hello` without its `user` on the health path."""

    async def app(scope, receive, send):
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": '{"type": "hello"}'})
        await send({"type": "websocket.send", "text": '{"type": "hello", "user": null}'})
        await receive()

    communicator = WebsocketCommunicator(app, "/ws/health/")
    assert (await communicator.connect())[0]
    with pytest.raises(AssertionError, match="health_server does not describe this frame"):
        await communicator.receive_from()
    assert await communicator.receive_json_from() == {"type": "hello", "user": None}
    await communicator.disconnect()


@pytest.mark.parametrize(("preset", "overrides", "seats"), [
    ("uno-official", {}, 3), ("uno-400", {}, 4), ("uno-classroom", {}, 2), ("ocho-plato", {}, 4),
    ("ocho-cards", {}, 5), ("ocho-plato", {"partners": True, "partners_see_hands": True}, 4),
    ("uno-official", {"scoring": "elimination", "target": 100, "blank_cards": True}, 3),
])
def test_every_view_and_event_of_bot_games_fits_the_schema(preset, overrides, seats):
    """Views and events of the engine, as the sockets carry them, over the first 500 moves of bot games."""
    from games.engine.bots import get_bot
    from games.services.snapshots import numbered_from_one
    from games.simulation import next_action

    rules = engine.get_preset(preset).with_overrides({"target": 100, **overrides})
    for seed in range(1):
        game, events = engine.Game.start(rules, seats, seed)
        bots = [get_bot("random", seed=s) for s in range(seats)]
        kinds = set()
        for _ in range(500):
            if game.over:
                break
            hand = game.hand
            if hand.over:
                events = game.next_hand()
            else:
                events = game.apply(next_action(hand, bots))
            for event in events:
                kinds.add(event.kind)
                if event.kind == "hand_scored":  # the socket numbers hands from 1, as every frame does
                    event = engine.TableEvent(event.kind, numbered_from_one(event.data), event.private,
                                              event.visible_to)
                validate("#/$defs/event", event.public())
                for seat in sorted(event.visible_to or ()):  # with its private part
                    validate("#/$defs/event", event.for_seat(seat))
            hand = game.hand
            validate("#/$defs/spectator_view", engine.spectator_view(hand))
            validate("#/$defs/seat_view", engine.view_for(hand, hand.turn))
        assert "played" in kinds and "drew" in kinds


def test_a_frame_on_a_socket_the_schema_does_not_describe_fails_the_test():
    with pytest.raises(AssertionError, match="describes no socket at /ws/nowhere/"):
        check_server_frame("/ws/nowhere/", '{"type": "x"}')
    check_server_frame("/ws/bench/relay/3/", '{"anything": 1}')  # the benchmark's relay is not the protocol
