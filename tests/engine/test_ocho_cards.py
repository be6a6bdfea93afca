"""ocho-cards (002): Ocho on standard playing cards."""

import pytest

from games.engine import CallUno, Catch, Draw, IllegalAction, Play, apply, get_preset, legal_actions, new_hand

from .helpers import deal

CARDS = "ocho-cards"


def test_two_decks_with_jokers_and_seven_cards():
    """002: "Start by dealing out 7 cards to each player" (two decks so that identical cards exist)."""
    rules = get_preset(CARDS)
    assert rules.deck_size == 108
    assert all(len(h) == 7 for h in new_hand(rules, 3, seed=2).hands)
    assert get_preset(CARDS).with_overrides(decks=3).deck_size == 162


def test_match_suit_or_rank():
    """002: "A card can be played if it matches the suit or rank of the face-up card." """
    state = deal(CARDS, [["3S", "4S"], ["5H", "9C"], ["7C", "4D"]], ["5C"])
    assert set(legal_actions(state, 1)) == {Play(1, "5H"), Play(1, "9C"), CallUno(1)}
    state = deal(CARDS, [["3S", "4S"], ["4H", "9C"], ["7C", "4D"]], ["5C"])
    with pytest.raises(IllegalAction, match="you must play a card of clubs or a 5 or a wild, or draw"):
        apply(state, Play(1, "4H"))


def test_ace_reverses_and_face_cards_are_wild():
    """002: Ace "Reverses the direction play is going in."; J, Q, K: "The player gets to change the current
    suit." """
    state = deal(CARDS, [["3S", "4S"], ["AC", "QD"], ["7C", "4D"], ["6H", "6D"]], ["5C"])
    apply(state, Play(1, "AC"))
    assert state.direction == -1 and state.turn == 0
    state = deal(CARDS, [["3S", "4S"], ["AC", "QD"], ["7C", "4D"]], ["5H"])
    apply(state, Play(1, "QD", "S"))
    assert state.colour == 4


def test_must_play_and_draw_until_playable():
    """002: "If the player is unable to play, they must draw from the Draw Pile until they get a card that
    they can play." """
    state = deal(CARDS, [["3S", "4S"], ["5H", "9D"], ["7C", "4D"]], ["5C"], draws=["8H", "9S", "6C"])
    with pytest.raises(IllegalAction, match="you must play it"):
        apply(state, Draw(1))
    state = deal(CARDS, [["3S", "4S"], ["6H", "9D"], ["7C", "4D"]], ["5C"], draws=["8H", "9S", "6C"])
    assert legal_actions(state, 1) == [Draw(1), CallUno(1)]
    apply(state, Draw(1))
    assert len(state.hands[1]) == 5
    assert legal_actions(state, 1) == [Play(1, "6C")]


def test_identical_card_skips():
    """002: "An identical card (Matching rank and suit)": "The next player in order loses their turn." """
    state = deal(CARDS, [["3S", "4S"], ["5C", "9D"], ["7C", "4D"], ["6H", "6D"]], ["5C"])
    events = apply(state, Play(1, "5C"))
    assert state.turn == 3
    assert "identical" in [e.kind for e in events]
    state = deal(CARDS, [["3S", "4S"], ["5C", "9D"], ["7C", "4D"], ["6H", "6D"]], ["5C"],
                 identical_card_skips=False)
    apply(state, Play(1, "5C"))
    assert state.turn == 2


def test_stacking_twos():
    """002: "Stacking Draw Twos compound the punishment ... The turn does not end until a player cannot or
    chooses not to play a 2, and incurs the total penalty." """
    state = deal(CARDS, [["2S", "4S"], ["2H", "9D"], ["7C", "4D"]], ["5S"], dealer=2)
    apply(state, Play(0, "2S"))
    apply(state, Play(1, "2H"))
    assert state.pending == 4 and state.turn == 2
    apply(state, Draw(2))
    assert len(state.hands[2]) == 6 and state.turn == 0


def test_stack_and_skip():
    """002: "If a Draw Two is stacked on an identical Draw Two (a 2 of the same suit), the skip occurs first,
    then the stacking may continue." """
    state = deal(CARDS, [["2S", "4S"], ["2S", "9D"], ["7C", "4D"], ["2C", "6D"]], ["5S"], dealer=3)
    apply(state, Play(0, "2S"))
    apply(state, Play(1, "2S"))
    assert state.turn == 3 and state.pending == 4  # seat 2 skipped
    apply(state, Play(3, "2C"))
    assert state.pending == 6 and state.turn == 0


def test_joker_is_the_unavoidable_bomb():
    """002: "The Bomb: Wild Draw Four is unavoidable. Playing one guarantees that the next player will draw
    four cards." """
    state = deal(CARDS, [["JK", "4S"], ["2S", "JK"], ["7C", "4D"]], ["5S"], dealer=2)
    apply(state, Play(0, "JK", "H"))
    assert len(state.hands[1]) == 6 and state.turn == 2 and state.pending == 0


def test_uno_call_penalty_four():
    """002: "If another player calls "Uno" ... before the player with one card left, that player must draw
    four cards." """
    state = deal(CARDS, [["3S", "4S"], ["5C", "9D"], ["7C", "4D"]], ["5H"])
    apply(state, Play(1, "5C"))
    apply(state, Catch(2, 1))
    assert len(state.hands[1]) == 5
    state = deal(CARDS, [["3S", "4S"], ["5C", "9D"], ["7C", "4D"]], ["5H"])
    apply(state, CallUno(1))
    apply(state, Play(1, "5C"))
    assert not [a for a in legal_actions(state, 2) if isinstance(a, Catch)]


def test_ocho_announcement():
    """002: "Ocho: When an eight is played, it is encouraged to say "Ocho!"" """
    state = deal(CARDS, [["3S", "4S"], ["8C", "9D"], ["7C", "4D"]], ["5C"])
    assert "ocho" in [e.kind for e in apply(state, Play(1, "8C"))]
    state = deal(CARDS, [["3S", "4S"], ["8C", "9D"], ["7C", "4D"]], ["5C"], ocho_announcement=False)
    assert "ocho" not in [e.kind for e in apply(state, Play(1, "8C"))]


@pytest.mark.parametrize("stacking", ["draw2", "off"])
def test_stack_and_skip_with_two_players(stacking):
    """002: "If a Draw Two is stacked on an identical Draw Two (a 2 of the same suit), the skip occurs first,
    then the stacking may continue." and an identical card: "The next player in order loses their turn."
    With two players the skip lands on the opponent; nobody is left to continue the stack but the player
    who played the 2, so the opponent also draws the total and the player moves again."""
    if stacking == "off":
        state = deal(CARDS, [["2S", "4S", "2S"], ["2H", "9D", "6D"]], ["5S"], draws=["7H", "8H", "9H", "10H"],
                     dealer=1, stacking=stacking)
        apply(state, Play(0, "2S"))
        assert len(state.hands[1]) == 5 and state.turn == 0
        events = apply(state, Play(0, "2S"))  # identical to the top 2S
        assert len(state.hands[1]) == 7
    else:
        state = deal(CARDS, [["2H", "2S", "4S"], ["2S", "9D", "6D"]], ["5H"], draws=["7H", "8H", "9H", "10H"],
                     dealer=1, stacking=stacking)
        apply(state, Play(0, "2H"))
        apply(state, Play(1, "2S"))  # a 2 of another suit: stacked, 4 for seat 0
        assert state.pending == 4 and state.turn == 0
        events = apply(state, Play(0, "2S"))  # identical to the top 2S: skip first, and 6 for seat 1
        assert len(state.hands[1]) == 2 + 6
    kinds = [(e.kind, e.data.get("seat")) for e in events]
    assert ("identical", 0) in kinds and ("skipped", 1) in kinds and ("drew", 1) in kinds
    assert ("drew", 0) not in kinds and "stacked" not in [k for k, _ in kinds]
    assert state.turn == 0 and state.pending == 0 and state.phase != 4


def test_identical_ace_with_two_players_skips_the_opponent_once():
    """With two players an Ace (Reverse) acts as a Skip, and an identical Ace skips too: both skips land on
    the opponent ("The next player in order loses their turn"); the player never skips themselves."""
    state = deal(CARDS, [["AS", "4S", "9C"], ["AH", "9D", "6D"]], ["AS"], dealer=1)
    events = apply(state, Play(0, "AS"))
    assert state.turn == 0
    assert [e.data["seat"] for e in events if e.kind == "skipped"] == [1]
