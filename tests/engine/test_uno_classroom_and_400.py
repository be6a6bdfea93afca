"""uno-classroom (004) and uno-400 (003): where they differ from the official rules."""

import pytest

from games.engine import (
    CARD_ID,
    Catch,
    Challenge,
    Draw,
    IllegalAction,
    Pass,
    Play,
    apply,
    get_preset,
    new_hand,
    situation,
)

from .helpers import deal


def test_classroom_two_to_ten_players():
    """004: "The game is for 2-10 players" """
    rules = get_preset("uno-classroom")
    new_hand(rules, 10, seed=1)
    with pytest.raises(Exception, match="2 to 10 players"):
        new_hand(rules, 11, seed=1)


def test_classroom_first_reverse_dealer_first():
    """004: "If turned up at the beginning of play, the dealer goes first, and the player to the dealer's
    right is next" """
    state = deal("uno-classroom", [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"], ["B1", "B2"]], ["RR"], dealer=1)
    assert state.turn == 1 and state.direction == -1
    apply(state, Draw(1))
    assert state.turn in (0, 1)


def test_classroom_first_draw_two_skips():
    """004: "If turned up at the beginning of play, the first player draws two cards and gets skipped." """
    state = deal("uno-classroom", [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"]], ["RD2"])
    assert len(state.hands[1]) == 4 and state.turn == 2


def test_classroom_first_wild_draw_4_reshuffled():
    """004: "If the first card is a Wild Draw Four card – Return it to the Draw Pile, shuffle the deck, and
    turn over a new one." """
    state = deal("uno-classroom", [["R1", "R2"], ["G1", "G2"]], ["WD4"])
    wd4 = CARD_ID["WD4"]
    assert state.discard[-1] != wd4 and state.pile.count(wd4) == 4


def test_classroom_reverse_with_two_players_passes_the_turn():
    """004: "you can only put down one card at a time" (no two-player "play again" rule)."""
    state = deal("uno-classroom", [["R1", "R2"], ["GR", "G2"]], ["G5"])
    apply(state, Play(1, "GR"))
    assert state.turn == 0


def test_classroom_no_stacking_of_draw_twos():
    """004: "you cannot put down a Draw Two on top of another Draw Two ... during the same turn" """
    state = deal("uno-classroom", [["R1", "R2", "R3"], ["GD2", "G2", "G3"], ["YD2", "Y2", "Y3"]], ["G5"])
    apply(state, Play(1, "GD2"))
    assert len(state.hands[2]) == 5 and state.turn == 0


def test_classroom_drawn_playable_card_is_played():
    """004: "If that card can be played, play it. Otherwise, keep the card" """
    state = deal("uno-classroom", [["R1", "R2"], ["Y1", "Y2"], ["B1", "B2"]], ["G5"], draws=["G7"])
    apply(state, Draw(1))
    with pytest.raises(IllegalAction, match="you must play the card you just drew"):
        apply(state, Pass(1))


def test_classroom_uno_penalty_two_and_challenge_six():
    """004: "that player must draw two new cards as a penalty" and "If not, the challenger needs to draw 6
    cards instead." """
    state = deal("uno-classroom", [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"]], ["G5"])
    apply(state, Play(1, "G1"))
    apply(state, Catch(0, 1))
    assert len(state.hands[1]) == 3
    state = deal("uno-classroom", [["R1", "R2", "R3"], ["WD4", "B3", "R7"], ["Y1", "Y2", "Y3"]], ["G5"])
    apply(state, Play(1, "WD4", "B"))
    apply(state, Challenge(2))
    assert len(state.hands[2]) == 9


def test_400_target_and_uno_penalty_two():
    """003: "The first player to score 400(can be changed) points win the game." and "the player must draw
    two cards." """
    rules = get_preset("uno-400")
    assert rules.target == 400 and rules.with_overrides(target=300).target == 300
    state = deal(rules, [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"]], ["G5"])
    apply(state, Play(1, "G1"))
    apply(state, Catch(2, 1))
    assert len(state.hands[1]) == 3


def test_400_wild_draw_4_bluff_is_decided_by_the_colour_alone():
    """003: "Note: A Player may play a " *Wild Draw Four* " card even if they have a matching number or word
    card of a different color in their hand." So in uno-400 the challenge finds a player guilty only for
    holding a card of the colour in play, as in 001."""
    rules = get_preset("uno-400")
    assert rules.wd4_restriction == "color"
    number = [["R1", "R2", "R3"], ["WD4", "B5", "R7"], ["Y1", "Y2", "Y3"]]  # B5 matches the number only
    state = deal("uno-400", number, ["G5"])
    apply(state, Play(1, "WD4", "B"))
    assert state.wd4_guilty is False
    events = apply(state, Challenge(2))
    assert events[0].data["guilty"] is False and len(state.hands[2]) == 3 + 6  # the challenger lost
    word = [["R1", "R2", "R3"], ["WD4", "BS", "R7"], ["Y1", "Y2", "Y3"]]  # a Skip on a Skip: a matching word
    state = situation("uno-400", word, "GS", turn=1)  # (a Skip turned up would skip seat 1)
    apply(state, Play(1, "WD4", "B"))
    assert state.wd4_guilty is False
    colour = [["R1", "R2", "R3"], ["WD4", "G7", "R7"], ["Y1", "Y2", "Y3"]]  # G7: the colour in play
    state = deal("uno-400", colour, ["G5"])
    apply(state, Play(1, "WD4", "B"))
    assert state.wd4_guilty is True
    events = apply(state, Challenge(2))
    assert events[0].data["guilty"] is True and len(state.hands[1]) == 2 + 4
    # the other reading of 003 (its restriction sentence alone) stays an option
    state = deal("uno-400", number, ["G5"], wd4_restriction="color_or_number")
    apply(state, Play(1, "WD4", "B"))
    assert state.wd4_guilty is True
