"""Actions to and from dicts; views that hide what they must; replay and persistence."""

import json
import random

import pytest

from games.engine import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    Draw,
    HandSetup,
    HandState,
    MalformedAction,
    Pass,
    Play,
    action_from_dict,
    apply,
    get_preset,
    legal_actions,
    new_hand,
    replay,
    spectator_view,
    start_hand,
    view_for,
)


@pytest.mark.parametrize("action", [
    Play(1, "R7"), Play(0, "WD4", "G"), Draw(2), Pass(1), CallUno(0), Catch(1, 3), Challenge(2), Accept(2),
    ChooseColour(1, "B"),
])
def test_action_round_trip(action):
    assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action


@pytest.mark.parametrize("data, message", [
    ("play", "must be an object"),
    ({"type": "dance", "seat": 0}, "unknown action type"),
    ({"type": "play", "seat": "0", "card": "R7"}, "seat number"),
    ({"type": "play", "seat": 0, "card": "R10"}, "card code"),
    ({"type": "play", "seat": 0, "card": "W", "colour": "purple"}, "must be one of"),
    ({"type": "catch", "seat": 0}, "'target'"),
    ({"type": "draw", "seat": 0, "card": "R7"}, "unexpected field"),
])
def test_malformed_action_dicts(data, message):
    with pytest.raises(MalformedAction, match=message):
        action_from_dict(data)


def _played(preset, seats, seed, steps):
    state = new_hand(get_preset(preset), seats, seed=seed)
    rng = random.Random(seed)
    log = []
    for _ in range(steps):
        if state.over:
            break
        choices = [a for s in range(seats) for a in legal_actions(state, s)]
        action = rng.choice(choices)
        apply(state, action)
        log.append(action)
    return state, log


def test_views_hide_other_hands_and_secrets():
    state, _ = _played("ocho-plato", 4, 3, 30)
    secret = {"seed", "pile", "rng", "hands"}
    for seat in range(4):
        view = view_for(state, seat)
        json.dumps(view)
        assert view["hand"] == state.hand_codes(seat)
        assert not secret & set(view)
        assert [p["cards"] for p in view["players"]] == [len(h) for h in state.hands]
    spectator = spectator_view(state)
    json.dumps(spectator)
    assert not ({"hand", "legal_actions", "reveals", "partner_hand"} | secret) & set(spectator)


def test_drawn_cards_are_private():
    state, events = start_hand(get_preset("uno-official"), 3, seed=5, dealer=0)
    dealt = [e for e in events if e.kind == "dealt"]
    assert dealt[1].for_seat(1)["cards"] == state.hand_codes(1)
    assert "cards" not in dealt[1].for_seat(0) and "cards" not in dealt[1].public()


@pytest.mark.parametrize("preset", ["uno-official", "ocho-plato", "ocho-cards", "uno-classroom"])
def test_replay_reproduces_the_state(preset):
    state, log = _played(preset, 3, 11, 200)
    again = replay(HandSetup(get_preset(preset), 3, seed=11), [a.to_dict() for a in log])
    assert again == state
    assert HandState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_copy_is_independent():
    state = new_hand(get_preset("uno-official"), 2, seed=1)
    copy = state.copy()
    apply(copy, legal_actions(copy, copy.turn)[0])
    assert copy != state
    assert state == new_hand(get_preset("uno-official"), 2, seed=1)


def test_a_copy_shares_its_generator_until_either_draws():
    """`copy` shares the hand's generator instead of copying its 625 words: the first of the two to draw
    from it (a reshuffle, an X-Ray) takes a copy of its own first, so both draw what the original would."""
    from games.engine.drawing import refill

    state = new_hand(get_preset("uno-official"), 2, seed=1)
    copy = state.copy()
    assert copy.rng is state.rng and copy == state
    expected = state.rng.getstate()
    for hand in (copy, state):  # each reshuffles the same discard pile: the same order both times
        hand.discard = list(range(40))
        assert refill(hand, [])
    assert copy.pile == state.pile and copy.rng is not state.rng
    again = new_hand(get_preset("uno-official"), 2, seed=1)
    again.rng.setstate(expected)
    again.discard = list(range(40))
    refill(again, [])
    assert again.pile == state.pile and again.rng.getstate() == state.rng.getstate() == copy.rng.getstate()


def test_same_seed_same_hand():
    rules = get_preset("uno-400")
    assert new_hand(rules, 4, seed=9) == new_hand(rules, 4, seed=9)
    assert new_hand(rules, 4, seed=9) != new_hand(rules, 4, seed=10)


def test_apply_trusts_only_actions_listed_for_the_same_state():
    """`apply` skips re-validation only for an action object `legal_actions` listed for this exact state; a
    stale listed action (the state moved on) or an equal copy is checked in full."""
    from games.engine import IllegalAction, Play, apply, legal_actions, new_hand

    state = new_hand(get_preset("uno-official"), 3, seed=11)
    while state.phase != 0:  # play, not choose_colour
        apply(state, legal_actions(state, state.turn)[0])
    seat = state.turn
    listed = legal_actions(state, seat)
    assert state.offered == tuple(listed)
    other = state.copy()
    assert other.offered is None
    first = listed[0]
    apply(state, first)
    assert state.offered is None
    stale = [a for a in listed if isinstance(a, Play) and a.card not in state.hand_codes(seat)]
    for action in stale:
        with pytest.raises(IllegalAction):
            apply(state, action)
    # an equal action built from JSON, not the listed object, is validated and gives the same result
    assert apply(other, engine_action_from(first)) is not None and other == state


def engine_action_from(action):
    from games.engine import action_from_dict

    return action_from_dict(action.to_dict())


@pytest.mark.parametrize("preset, seats", [("uno-official", 2), ("ocho-plato", 4), ("ocho-cards", 3)])
def test_apply_without_events_reaches_the_same_state(preset, seats):
    """`apply(state, action, events=False)` returns no events and leaves exactly the state `apply` does."""
    from games.engine import apply, legal_actions, new_hand

    rng = random.Random(3)
    loud = new_hand(get_preset(preset), seats, seed=8)
    quiet = loud.copy()
    while not loud.over:
        action = rng.choice(legal_actions(loud, loud.turn))
        assert apply(loud, action)
        assert apply(quiet, action, events=False) == []
        assert quiet == loud and not quiet.quiet


@pytest.mark.parametrize("preset, seats", [("uno-official", 2), ("uno-official", 4), ("uno-400", 3),
                                           ("uno-classroom", 2), ("ocho-plato", 4), ("ocho-cards", 3),
                                           ("ocho-plato", 2), ("uno-400", 2)])
def test_step_makes_the_move_apply_makes(preset, seats):
    """`step(state, i)` is `apply(state, legal_moves(state)[i])` on the state (no events) and returns
    `legal_moves` of the new position, move by move, including after another seat's `legal_actions` was
    asked for (step then lists the turn's own)."""
    from games.engine import action_from_dict, apply, legal_actions, legal_moves, new_hand, step

    rng = random.Random(5)
    for seed in range(12):
        loud = new_hand(get_preset(preset), seats, seed=seed)
        fast = loud.copy()
        moves = legal_moves(fast)
        while not loud.over:
            assert type(moves) is tuple and list(moves) == legal_actions(loud, loud.turn)
            index = rng.randrange(len(moves))
            if rng.random() < 0.2:
                legal_actions(fast, (fast.turn + 1) % seats)  # offered now lists another seat's actions
            apply(loud, action_from_dict(moves[index].to_dict()))
            moves = step(fast, index)
            assert fast == loud and not fast.quiet and fast.offered is moves
            if rng.random() < 0.1:
                assert legal_moves(fast) == moves
        assert moves == () and legal_moves(fast) == ()


def test_step_refuses_a_move_that_is_not_listed():
    from games.engine import IllegalAction, legal_moves, new_hand, step

    state = new_hand(get_preset("uno-official"), 3, seed=2)
    before = state.to_dict()
    count = len(legal_moves(state))
    for index in (count, -1, 1.0, "0", None):
        with pytest.raises(IllegalAction, match="there is no move"):
            step(state, index)
        assert state.to_dict() == before
    while not state.over:
        step(state, 0)
    with pytest.raises(IllegalAction, match="the hand is over"):
        step(state, 0)
