"""`engine.situation`: a hand in an exact position for tests and puzzles."""

from collections import Counter

import pytest

from games import engine
from games.engine import Draw, Play, RuleError, apply, legal_actions, situation, view_for
from games.engine.decks import deck_cards


def test_an_exact_position_with_every_card_somewhere():
    state = situation("uno-official", [["R1", "WD4"], ["G2"], ["B3", "B4", "Y5"]], "R7", turn=2,
                      draws=["Y9", "G9"], discard=["R3"], direction=-1)
    assert [state.hand_codes(s) for s in range(3)] == [["R1", "WD4"], ["G2"], ["B3", "B4", "Y5"]]
    assert engine.CODE[state.top] == "R7" and [engine.CODE[c] for c in state.discard] == ["R3", "R7"]
    assert state.turn == 2 and state.direction == -1 and state.dealer == 0
    held = [c for h in state.hands for c in h] + state.pile + state.discard
    assert Counter(held) == Counter(deck_cards(state.rules))  # the whole deck, each card once
    view = view_for(state, 2)
    assert view["top"] == "R7" and view["colour"] == "R" and view["turn"] == 2 and view["phase"] == "play"
    assert legal_actions(state, 2) == [Draw(2)]  # nothing red, no 7
    events = apply(state, Draw(2))
    assert events[0].private == {"cards": ["Y9"]}  # `draws` come first
    assert state.turn == 1  # direction -1: seat 2 passes to seat 1


def test_a_wild_top_needs_its_colour_and_a_pending_stack_its_sender():
    with pytest.raises(RuleError, match="the top card W is wild: say which colour"):
        situation("uno-official", [["R1"], ["G2"]], "W")
    state = situation("uno-official", [["R1"], ["G2"]], "W", colour="G", turn=1)
    assert Play(1, "G2") in legal_actions(state, 1)
    state = situation("ocho-plato", [["R1", "GD2"], ["G2", "SH"]], "GD2", pending=2, pending_from=1)
    assert set(legal_actions(state, 0)) == {Play(0, "GD2"), Draw(0)}  # stack on it or draw the 2
    with pytest.raises(RuleError, match="pending_from"):
        situation("ocho-plato", [["R1"], ["G2"]], "GD2", pending=2)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"hands": [["R1"]], "top": "R2"}, "played by 2 to 10 players, not 1"),
    ({"hands": [["R1"], ["ZZ"]], "top": "R2"}, "there is no card 'ZZ'"),
    ({"hands": [["R0"], ["R0"]], "top": "R2"}, "no more R0 cards"),
    ({"hands": [["R1"], ["G1"]], "top": "R2", "turn": 2}, "turn must be a seat from 0 to 1"),
    ({"hands": [["R1"], ["G1"]], "top": "R2", "colour": "P"}, "'P' is not a colour"),
    ({"hands": [["R1"], ["G1"]], "top": "R2", "direction": 2}, "direction must be 1 or -1"),
])
def test_impossible_positions_are_refused(kwargs, message):
    with pytest.raises(RuleError, match=message):
        situation("uno-official", **kwargs)
