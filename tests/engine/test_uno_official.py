"""uno-official (001): one scenario per rule, from explicit deck orders and dealers."""

import pytest

from games.engine import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    Draw,
    IllegalAction,
    Pass,
    Play,
    apply,
    get_preset,
    legal_actions,
    new_hand,
    start_hand,
    view_for,
)

from .helpers import deal

OFFICIAL = "uno-official"


def kinds(events):
    return [e.kind for e in events]


def test_deck_and_deal():
    """001: "Each player is dealt 7 cards." (108 cards: 003 lists the same deck)"""
    rules = get_preset(OFFICIAL)
    assert rules.deck_size == 108
    state = new_hand(rules, 4, seed=3)
    assert [len(h) for h in state.hands] == [7, 7, 7, 7]
    assert len(state.pile) + len(state.discard) == 108 - 28


def test_dealer_is_the_highest_draw():
    """001: "Each player draws a card. Player with the hightest point value is the dealer." """
    rules = get_preset(OFFICIAL)
    for seed in range(20):
        state, events = start_hand(rules, 4, seed=seed)
        draws = [e for e in events if e.kind == "dealer_draw"]
        last = draws[-1].data["draws"]
        best = max(rules.card_points(__import__("games.engine").engine.CARD_ID[c]) for _, c in last)
        winners = [s for s, c in last
                   if rules.card_points(__import__("games.engine").engine.CARD_ID[c]) == best]
        assert winners == [state.dealer]
        assert state.turn in range(4)


def test_explicit_dealer_skips_the_draw():
    state, events = start_hand(get_preset(OFFICIAL), 3, seed=1, dealer=2)
    assert state.dealer == 2
    assert "dealer_draw" not in kinds(events)


def test_first_card_wild_draw_4_goes_back():
    """001: "If turned up at the beginning of play, return this card to the deck and pick another card." """
    state = deal(OFFICIAL, [["R1", "R2"], ["G1", "G2"]], ["WD4", "B5"])
    assert state.discard == [__import__("games.engine").engine.CARD_ID["B5"]]
    assert state.pile[0] == __import__("games.engine").engine.CARD_ID["WD4"]  # bottom of the pile


def test_first_card_wild_first_player_chooses():
    """001: "the person to the left of the dealer chooses the color to begin play and plays the first card." """
    state = deal(OFFICIAL, [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"]], ["W"])
    assert state.turn == 1
    assert legal_actions(state, 1) == [ChooseColour(1, c) for c in "RYGB"]
    with pytest.raises(IllegalAction, match="choose the starting colour"):
        apply(state, Play(1, "G1"))
    apply(state, ChooseColour(1, "G"))
    assert state.colour == 2 and state.turn == 1
    apply(state, Play(1, "G1"))
    assert state.turn == 2


def test_first_card_wild_return_option():
    state = deal(OFFICIAL, [["R1", "R2"], ["G1", "G2"]], ["W", "B5"], first_card_wild="return")
    assert view_for(state, 0)["top"] == "B5"


def test_first_card_draw_two_draws_and_plays():
    """001: "If this card is turned up at the beginning of play, the first player must draw two cards."
    (It says nothing of losing the turn, unlike the Skip's sentence; so the first player then plays.)"""
    state = deal(OFFICIAL, [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"]], ["RD2"], draws=["B1", "B2"])
    assert len(state.hands[1]) == 4
    assert state.turn == 1


def test_first_card_draw_two_draw_and_skip_option():
    state = deal(OFFICIAL, [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"]], ["RD2"], first_card_draw2="draw_and_skip")
    assert len(state.hands[1]) == 4
    assert state.turn == 2


def test_first_card_reverse():
    """001: "If this card is turned up at the beginning of play, the player to the right now plays first,
    and play then goes to the right instead of left." """
    state = deal(OFFICIAL, [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"], ["B1", "B2"]], ["RR"], dealer=1)
    assert state.turn == 0 and state.direction == -1


def test_first_card_skip():
    """001: "If this card is turned up at the beginning of play, the first player (the player to the left of
    the dealer) is skipped." """
    state = deal(OFFICIAL, [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"]], ["RS"])
    assert state.turn == 2


def test_match_colour_or_number_else_draw():
    """001: "if the card is a Green 7, you must play a Green card or any color 7. Or, you may play any Wild
    card or a Wild Draw 4 card." """
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["Y7", "B3", "G2"], ["Y1", "Y2", "Y3"]], ["G7"])
    assert set(legal_actions(state, 1)) == {Play(1, "Y7"), Play(1, "G2"), Draw(1)}
    before = state.copy()
    with pytest.raises(IllegalAction, match="you must play a green card or a 7 or a wild, or draw"):
        apply(state, Play(1, "B3"))
    assert state == before
    with pytest.raises(IllegalAction, match="it is not your turn"):
        apply(state, Play(0, "R1"))
    with pytest.raises(IllegalAction, match="you do not hold R9"):
        apply(state, Play(1, "R9"))
    assert state == before


def test_skip_reverse_draw_two():
    """001: Skip: "The next person in line to play after this card is played loses his/her turn";
    Reverse: "This card reverses direction of play"; Draw 2: "the next persion to play must draw 2 cards
    and forfeit his/her turn." """
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["GS", "GR", "GD2"], ["G1", "G2", "G3"], ["B1", "B2", "B3"]],
                 ["G7"])
    apply(state, Play(1, "GS"))
    assert state.turn == 3
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["GS", "GR", "GD2"], ["G1", "G2", "G3"], ["B1", "B2", "B3"]],
                 ["G7"])
    apply(state, Play(1, "GR"))
    assert state.turn == 0 and state.direction == -1
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["GS", "GR", "GD2"], ["G1", "G2", "G3"], ["B1", "B2", "B3"]],
                 ["G7"])
    events = apply(state, Play(1, "GD2"))
    assert len(state.hands[2]) == 5 and state.turn == 3
    assert "skipped" in kinds(events)


WD4_HANDS = [["R1", "R2", "R3"], ["WD4", "B3", "G7"], ["Y1", "Y2", "Y3"]]


def test_wild_draw_4_accept():
    """001: "requires the next player to pick 4 cards from the DRAW pile and forfeit his/her turn." """
    state = deal(OFFICIAL, WD4_HANDS, ["Y5"])
    apply(state, Play(1, "WD4", "B"))
    assert state.turn == 2
    assert set(legal_actions(state, 2)) == {Challenge(2), Accept(2)}
    apply(state, Accept(2))
    assert len(state.hands[2]) == 7 and state.turn == 0 and state.colour == 3


def test_wild_draw_4_challenge_guilty():
    """001: "A challenged player must show his/her hand to the player who challenged. If the challenged
    player is guilty, he/she must draw 4 cards." """
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["WD4", "B3", "G7"], ["Y1", "Y2", "Y3"]], ["G5"])
    apply(state, Play(1, "WD4", "B"))  # holds G7: guilty
    events = apply(state, Challenge(2))
    shown = [e for e in events if e.kind == "challenged"][0]
    assert shown.data["guilty"] is True
    assert shown.visible_to == frozenset({2}) and shown.private["hand"] == ["B3", "G7"]
    assert "hand" not in shown.public()
    assert len(state.hands[1]) == 6 and len(state.hands[2]) == 3
    assert state.turn == 2
    assert view_for(state, 2)["reveals"] == [{"of": 1, "cards": ["B3", "G7"], "reason": "challenge"}]
    assert view_for(state, 0)["reveals"] == []


def test_wild_draw_4_challenge_innocent():
    """001: "If the challenged player is not guilty, the challenger must draw the 4 cards, plus 2 additional
    cards." """
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["WD4", "B3", "R7"], ["Y1", "Y2", "Y3"]], ["G5"])
    apply(state, Play(1, "WD4", "B"))
    apply(state, Challenge(2))
    assert len(state.hands[2]) == 9 and state.turn == 0


def test_only_the_player_who_must_draw_may_challenge():
    """001: "Only the person required to draw the 4 cards can make the challenge." """
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["WD4", "B3", "R7"], ["Y1", "Y2", "Y3"]], ["G5"])
    apply(state, Play(1, "WD4", "B"))
    before = state.copy()
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, Challenge(0))
    assert Challenge(0) not in legal_actions(state, 0)
    assert state == before


def test_wild_draw_4_may_be_played_on_a_matching_number():
    """001: "A player may play a "Wild Draw Four" card even if they have a matching number or word card of a
    different color in their hand." """
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["WD4", "B5", "R7"], ["Y1", "Y2", "Y3"]], ["G5"])
    apply(state, Play(1, "WD4", "B"))
    assert state.wd4_guilty is False


def test_restriction_enforced_without_challenge():
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["WD4", "G3", "R7"], ["Y1", "Y2", "Y3"]], ["G5"], challenge=False)
    assert Play(1, "WD4", "R") not in legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="only when you hold no card of the colour in play"):
        apply(state, Play(1, "WD4", "R"))
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["WD4", "B3", "R7"], ["Y1", "Y2", "Y3"]], ["G5"], challenge=False)
    apply(state, Play(1, "WD4", "R"))
    assert len(state.hands[2]) == 7 and state.turn == 0


def test_uno_caught():
    """001: "If you don't say UNO and another player catches you with just one card before the next player
    begins their turn you must pick FOUR more cards from the DRAW pile." """
    state = deal(OFFICIAL, [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"]], ["G5"])
    apply(state, Play(1, "G1"))
    assert Catch(0, 1) in legal_actions(state, 0) and Catch(2, 1) in legal_actions(state, 2)
    events = apply(state, Catch(0, 1))
    assert "caught" in kinds(events)
    assert len(state.hands[1]) == 5


def test_uno_called_before_playing():
    """001: "Before playing your next to last card, you must say "UNO."" """
    state = deal(OFFICIAL, [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"]], ["G5"])
    assert CallUno(1) in legal_actions(state, 1)
    apply(state, CallUno(1))
    apply(state, Play(1, "G1"))
    assert all(not isinstance(a, Catch) for a in legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="cannot be caught"):
        apply(state, Catch(0, 1))


def test_uno_self_catch():
    """001: "If you forget to say, "UNO" before your card touches the DISCARD pile, but you "catch" yourself
    before any other player catches you, you are safe" """
    state = deal(OFFICIAL, [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"]], ["G5"])
    apply(state, Play(1, "G1"))
    assert CallUno(1) in legal_actions(state, 1)
    apply(state, CallUno(1))
    with pytest.raises(IllegalAction):
        apply(state, Catch(0, 1))
    assert len(state.hands[1]) == 1


def test_uno_not_caught_after_next_player_begins():
    """001: "you may not catch a player for failure to say it after the next player begins his/her turn.
    "Beginning a turn" is defined as either drawing a card from the DRAW pile or drawing a card from your hand
    to play." """
    state = deal(OFFICIAL, [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"]], ["G5"])
    apply(state, Play(1, "G1"))
    apply(state, Draw(2))
    with pytest.raises(IllegalAction, match="cannot be caught"):
        apply(state, Catch(0, 1))


def test_uno_recall_option():
    """004: "Announcing "Uno" needs to be repeated every time you are left with one card." (off in 001)"""
    for recall, catchable in ((False, False), (True, True)):
        state = deal(OFFICIAL, [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"]], ["G5"],
                     draws=["R5", "Y7", "G9"], uno_recall=recall)
        apply(state, CallUno(1))
        apply(state, Play(1, "G1"))  # one card left, called
        apply(state, Draw(2))  # R5: not playable on G1, turn passes
        apply(state, Draw(0))  # Y7
        apply(state, Draw(1))  # G9 playable: 2 cards
        apply(state, Play(1, "G9"))
        assert (Catch(0, 1) in legal_actions(state, 0)) is catchable


def test_reneging():
    """001: "You may choose not to play a playable card from your hand. If so, you must draw a card from the
    DRAW pile. If playable, that card can be played, but you may not play a card from your hand after the
    draw." """
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["G1", "G2", "Y3"], ["Y1", "Y2", "Y3"]], ["G5"], draws=["G8"])
    apply(state, Draw(1))
    assert set(legal_actions(state, 1)) == {Play(1, "G8"), Pass(1)}
    before = state.copy()
    with pytest.raises(IllegalAction, match="you may only play the card you just drew"):
        apply(state, Play(1, "G1"))
    assert state == before
    apply(state, Pass(1))
    assert state.turn == 2 and len(state.hands[1]) == 4


def test_unplayable_drawn_card_ends_the_turn():
    """001: "If you draw a card you can play, play it. Otherwise, play moves to the next person." """
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["Y1", "Y2", "Y3"], ["B1", "B2", "B3"]], ["G5"], draws=["R8"])
    apply(state, Draw(1))
    assert state.turn == 2


def test_pass_after_draw_off_means_play_it():
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["Y1", "Y2", "Y3"], ["B1", "B2", "B3"]], ["G5"], draws=["G8"],
                 pass_after_draw=False)
    apply(state, Draw(1))
    assert legal_actions(state, 1) == [Play(1, "G8")]
    with pytest.raises(IllegalAction, match="you must play the card you just drew"):
        apply(state, Pass(1))


def test_two_players_reverse_is_skip():
    """001: "Playing a Reverse card works like playing a Skip card. By playing the Reverse card, you
    immediately play another card." """
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["GR", "G2", "Y3"]], ["G5"])
    apply(state, Play(1, "GR"))
    assert state.turn == 1


def test_two_players_reverse_without_the_rule():
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["GR", "G2", "Y3"]], ["G5"], two_player_rules=False)
    apply(state, Play(1, "GR"))
    assert state.turn == 0


def test_two_players_skip_and_draw_two():
    """001: "By playing a Skip card, you may immediately play another card." and "After playing a Draw 2
    card or a Wild Draw 4 card, your opponent draws the number of cards indicated, and play is back to
    you." """
    state = deal(OFFICIAL, [["R1", "R2", "R3"], ["GS", "GD2", "Y3"]], ["G5"])
    apply(state, Play(1, "GS"))
    assert state.turn == 1
    apply(state, Play(1, "GD2"))
    assert state.turn == 1 and len(state.hands[0]) == 5


def test_last_card_draw_two_still_draws():
    """001: "If the last card played in a hand is a Draw 2 card or Wild Draw 4 card, the next player must
    draw 2 or 4 cards ... These cards are counted when points are totaled." """
    state = deal(OFFICIAL, [["R1", "R2"], ["GD2", "G3"], ["Y1", "Y2"]], ["G5"], draws=["WD4", "W", "B1"])
    apply(state, CallUno(1))
    apply(state, Play(1, "G3"))
    apply(state, Draw(2))  # WD4: playable, keep it
    apply(state, Pass(2))
    apply(state, Draw(0))  # W: keep it
    apply(state, Pass(0))
    events = apply(state, Play(1, "GD2"))
    assert state.over and state.winner == 1
    assert len(state.hands[2]) == 5
    assert kinds(events)[-1] == "hand_over"
    # seat 2 holds Y1 Y2 WD4 and the two drawn cards B1 and R0
    assert events[-1].data["points_left"] == [1 + 2 + 50, 0, 1 + 2 + 50 + 1 + 0]


def test_reshuffle_when_the_draw_pile_runs_out():
    """001: "If no one is out of cards by the time the DRAW pile is depleted, reshuffle the DISCARD pile and
    continue to play." """
    state = deal(OFFICIAL, [["R1", "R2"], ["G1", "G2"]], ["G5"])
    moved = state.pile[:]
    state.discard[:0] = moved  # pretend every card has been played
    state.pile.clear()
    events = apply(state, Draw(1))
    assert "reshuffled" in kinds(events)
    assert len(state.discard) == 1 and len(state.hands[1]) == 3
