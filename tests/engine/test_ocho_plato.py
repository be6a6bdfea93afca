"""ocho-plato (000 and the notes on Plato's own page): stacking, Shield, X-Ray, Dead Red, Boo Blue, teams."""

import pytest

from games.engine import (
    CallUno,
    Draw,
    IllegalAction,
    Play,
    RuleError,
    apply,
    get_preset,
    legal_actions,
    new_hand,
    score_hand,
    situation,
    spectator_view,
    view_for,
)

from .helpers import deal

PLATO = "ocho-plato"


def test_eight_cards_and_no_uno_call():
    """000: "8 random cards are dealt to each player"; Plato's page: no UNO call and no penalty."""
    rules = get_preset(PLATO)
    state = new_hand(rules, 4, seed=1)
    assert all(len(h) == 8 for h in state.hands)
    state = deal(PLATO, [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"]], ["G5"])
    assert CallUno(1) not in legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="no UNO call"):
        apply(state, CallUno(1))


def test_ocho_wild_any_time():
    """000: "A player can use a 8 Wild Card at any time, even if he/she has other playable cards." """
    state = deal(PLATO, [["R1", "R2"], ["O8", "G2"], ["Y1", "Y2"]], ["G5"])
    assert Play(1, "O8", "Y") in legal_actions(state, 1)
    apply(state, Play(1, "O8", "Y"))
    assert view_for(state, 2)["colour"] == "Y"


def test_stacking_draw_2_and_draw_4_add_up():
    """000: "Player 1 plays a Draw 2 and then Player 2 plays a Draw 4. Next, Player 3 does not have any Draw
    cards and now needs to draw a total of 6 cards." """
    state = deal(PLATO, [["GD2", "R2"], ["WD4", "G2"], ["Y1", "Y2"]], ["G5"], dealer=2)
    apply(state, Play(0, "GD2"))
    assert state.pending == 2 and state.turn == 1
    assert set(legal_actions(state, 1)) == {*(Play(1, "WD4", c) for c in "RYGB"), Draw(1)}
    with pytest.raises(IllegalAction, match="you must draw 2 cards, or answer with a Draw 2 or a Wild Draw 4"):
        apply(state, Play(1, "G2"))
    apply(state, Play(1, "WD4", "Y"))
    assert state.pending == 6 and state.turn == 2
    apply(state, Draw(2))
    assert len(state.hands[2]) == 8 and state.turn == 0 and state.pending == 0


def test_stacking_option_off():
    state = deal(PLATO, [["GD2", "R2"], ["GD2", "G2"], ["Y1", "Y2"]], ["G5"], dealer=2, stacking="off")
    apply(state, Play(0, "GD2"))
    assert len(state.hands[1]) == 4 and state.turn == 2


def test_shield_sends_the_pile_back_and_is_wild():
    """000: "Blocks any Draw 2 or Draw 4 cards played against you. The player who last played the Draw 2 or
    Draw 4 card against you must draw those number of cards. A Shield doubles as a Wild card" """
    state = deal(PLATO, [["GD2", "R2"], ["GD2", "G2"], ["SH", "Y2"]], ["G5"], dealer=2)
    apply(state, Play(0, "GD2"))
    apply(state, Play(1, "GD2"))
    events = apply(state, Play(2, "SH", "B"))
    assert [e.kind for e in events] == ["played", "shielded"]
    assert state.turn == 1 and state.pending == 4 and state.colour == 3
    assert legal_actions(state, 1) == [Draw(1)]
    apply(state, Draw(1))
    assert len(state.hands[1]) == 5
    assert state.turn == 0  # play goes on after the Shield's player


def test_a_shield_played_as_the_last_card_still_sends_the_draws_back():
    """000: "Blocks any Draw 2 or Draw 4 cards played against you. The player who last played the Draw 2 or
    Draw 4 card against you must draw those number of cards." Going out on the Shield does not cancel that:
    the cards are drawn before the hand is scored, and they count."""
    state = situation(PLATO, [["R2", "R3"], ["GD2", "G2"], ["SH"]], "G5", turn=1, draws=["R9", "B9"])
    apply(state, Play(1, "GD2"))
    assert state.pending == 2 and state.turn == 2
    events = apply(state, Play(2, "SH", "R"))
    assert [e.kind for e in events] == ["played", "shielded", "drew", "hand_over"]
    assert events[1].data == {"seat": 2, "to": 1, "total": 2}
    assert state.hand_codes(1) == ["G2", "R9", "B9"]
    assert state.over and state.winner == 2 and state.pending == 0
    assert events[-1].data["points_left"] == [2 + 3, 2 + 9 + 9, 0]
    assert score_hand(state).points_won == (0, 0, 25)


def test_a_shield_sent_back_as_the_last_card_goes_to_the_seat_that_shielded():
    """000: "A Shield ... can also deflect another Shield": the last Shield sends the total to the player
    who last sent it."""
    state = situation(PLATO, [["GD2", "SH"], ["SH", "R2"], ["Y1"]], "G5", turn=0)
    apply(state, Play(0, "GD2"))
    apply(state, Play(1, "SH", "B"))  # sent back to seat 0, who shields it back with the last card
    assert state.turn == 0 and state.pending == 2
    events = apply(state, Play(0, "SH", "Y"))
    assert events[1].data == {"seat": 0, "to": 1, "total": 2}
    assert len(state.hands[1]) == 1 + 2 and state.winner == 0


def test_the_shield_option_off_and_rules_stored_before_it():
    """`shield_out_sends_back` is on in ocho-plato only; rules stored without it (hands played before the
    option existed) read it as off, so those hands replay as they were played."""
    rules = get_preset(PLATO)
    assert rules.shield_out_sends_back
    assert not any(get_preset(p).shield_out_sends_back for p in ("uno-official", "uno-400", "uno-classroom",
                                                                 "ocho-cards"))
    old = rules.to_dict()
    del old["shield_out_sends_back"]
    stored = type(rules).from_dict(old)
    assert stored.shield_out_sends_back is False
    state = situation(stored, [["R2", "R3"], ["GD2", "G2"], ["SH"]], "G5", turn=2, pending=2, pending_from=1)
    events = apply(state, Play(2, "SH", "R"))
    assert [e.kind for e in events] == ["played", "hand_over"] and state.hand_codes(1) == ["GD2", "G2"]


def test_shield_deflects_a_shield():
    """000: "A Shield ... can also deflect another Shield." """
    state = deal(PLATO, [["GD2", "SH", "R1"], ["SH", "G2", "R2"], ["Y1", "Y2", "Y3"]], ["G5"], dealer=2)
    apply(state, Play(0, "GD2"))
    apply(state, Play(1, "SH", "R"))
    assert state.turn == 0
    assert Play(0, "SH", "G") in legal_actions(state, 0)
    apply(state, Play(0, "SH", "G"))
    assert state.turn == 1 and state.pending == 2
    apply(state, Draw(1))
    assert len(state.hands[1]) == 4 and state.turn == 2


def test_x_ray_reveals_to_its_player_alone():
    """000: "reveals 1 random card from each opponent. Only the player who plays the X-ray can see the
    revealed cards." """
    state = deal(PLATO, [["XR", "R2"], ["B1", "B2"], ["Y1", "Y2"]], ["G5"], dealer=2)
    events = apply(state, Play(0, "XR", "R"))
    xray = [e for e in events if e.kind == "xray"][0]
    assert xray.visible_to == frozenset({0})
    revealed = xray.private["revealed"]
    assert [o for o, _ in revealed] == [1, 2]
    assert revealed[0][1] in ("B1", "B2") and revealed[1][1] in ("Y1", "Y2")
    assert "revealed" not in xray.public() and "revealed" not in xray.for_seat(1)
    assert [r["of"] for r in view_for(state, 0)["reveals"]] == [1, 2]
    assert view_for(state, 1)["reveals"] == [] and "reveals" not in spectator_view(state)


def test_dead_red():
    """000: "When a Dead Red is played, any player with NO red cards in their hands must draw 2 cards. ...
    The Dead Red is considered a red card and can be played after any red cards." """
    state = deal(PLATO, [["DR", "G2"], ["R1", "B2"], ["Y1", "Y2"]], ["R5"], dealer=2)
    events = apply(state, Play(0, "DR"))
    dead = [e for e in events if e.kind == "dead_red"][0]
    assert dead.data["hit"] == [2, 0]  # seat 0 kept no red card either (dead_red_hits_player)
    assert [len(h) for h in state.hands] == [3, 2, 4]


def test_dead_red_spares_its_player_when_option_off():
    state = deal(PLATO, [["DR", "G2"], ["R1", "B2"], ["Y1", "Y2"]], ["R5"], dealer=2, dead_red_hits_player=False)
    apply(state, Play(0, "DR"))
    assert [len(h) for h in state.hands] == [1, 2, 4]


def test_dead_red_cannot_be_shielded():
    """000: "The Dead Red cannot be blocked by a Shield." """
    state = deal(PLATO, [["DR", "G2"], ["B1", "B2"], ["SH", "Y2"]], ["R5"], dealer=2)
    apply(state, Play(0, "DR"))
    assert state.pending == 0 and len(state.hands[2]) == 4 and len(state.hands[1]) == 4


def test_boo_blue_fewest_cards_draw_with_ties():
    """000: "When a Boo Blue card is played, the player with the fewest cards must draw 2 card." (ties: all
    of them draw)"""
    state = deal(PLATO, [["BB", "G2", "G3"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"]], ["B5"], dealer=2)
    apply(state, Play(0, "BB"))  # seat 0 now holds 2 cards: the fewest, and it counts
    assert [len(h) for h in state.hands] == [4, 3, 3]
    state = deal(PLATO, [["BB", "G2", "G3"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"]], ["B5"], dealer=2,
                 boo_blue_counts_player=False)
    apply(state, Play(0, "BB"))
    assert [len(h) for h in state.hands] == [2, 5, 5]


def test_table_size_option():
    """Plato's page: tables of up to 4 players (one language version says 6)."""
    rules = get_preset(PLATO)
    with pytest.raises(RuleError, match="2 to 4 players"):
        new_hand(rules, 5, seed=1)
    new_hand(rules.with_overrides(max_players=6), 6, seed=1)


def test_teams_see_each_other_and_win_together():
    """Plato's page: teams of two, partners opposite, see each other's cards; the team wins when either
    partner goes out."""
    rules = get_preset(PLATO).with_overrides(partners=True, partners_see_hands=True)
    state = deal(rules, [["R1", "R2"], ["G1", "G2"], ["Y1", "Y2"], ["B1", "B2"]], ["R5"], dealer=3)
    view = view_for(state, 0)
    assert view["partner"] == 2 and view["partner_hand"] == ["Y1", "Y2"]
    assert "partner_hand" not in spectator_view(state)
    state = deal(rules, [["R1"], ["G1"], ["R2"], ["B1"]], ["R5"], dealer=1)
    apply(state, Play(2, "R2"))
    score = score_hand(state)
    assert score.team == 0 and score.points_won == (2, 0, 2, 0)  # the partner's R1 is not counted


def test_partners_see_hands_needs_partners():
    with pytest.raises(RuleError, match="needs the partners option"):
        get_preset(PLATO).with_overrides(partners_see_hands=True)
