"""Bots: the registry, determinism, legality on every preset, and the heuristic bot's judgement in
situations built from explicit deck orders."""

from __future__ import annotations

import copy
import json

import pytest

from games import engine
from games.engine.bots import BOTS, HeuristicBot, RandomBot, get_bot
from games.simulation import next_action


def hand_from(preset: str | engine.RuleSet, hands: list[list[str]], top: str, draws: list[str] = (),
              **overrides) -> engine.HandState:
    """Seat 0 moves first (the dealer is the last seat); every seat gets len(hands[0]) cards."""
    rules = engine.get_preset(preset) if isinstance(preset, str) else preset
    rules = rules.with_overrides(hand_size=len(hands[0]), **overrides)
    deck = engine.arrange_deck(rules, len(hands), hands, [top], list(draws))
    return engine.new_hand(rules, len(hands), deck=deck, dealer=len(hands) - 1)


def ask(bot, state, seat):
    return bot.act(engine.view_for(state, seat))


# ---- registry and determinism ---------------------------------------------------------------------------------


def test_registry_names_the_bots():
    assert set(BOTS) == {"random", "heuristic"}
    assert isinstance(get_bot("random", 3), RandomBot)
    assert isinstance(get_bot("heuristic", 3), HeuristicBot)
    with pytest.raises(ValueError, match="the bots are: random, heuristic"):
        get_bot("clever")


def run(names, preset, seats, seed, moves=400):
    state = engine.new_hand(engine.get_preset(preset), seats, seed=seed)
    bots = [get_bot(n, seed + i) for i, n in enumerate(names)]
    log = []
    while not state.over and len(log) < moves:
        action = next_action(state, bots)
        engine.apply(state, action)
        log.append(action.to_dict())
    return log


@pytest.mark.parametrize("name", sorted(BOTS))
def test_same_seed_same_game(name):
    assert run([name] * 3, "uno-official", 3, 11) == run([name] * 3, "uno-official", 3, 11)


def test_random_bot_depends_on_its_seed():
    view = {"legal_actions": list(range(1000)), "turn": 0, "seat": 0, "phase": "play"}
    assert get_bot("random", 1).act(view) != get_bot("random", 2).act(view)


# ---- bots see only the view and answer only with legal actions ------------------------------------------------


@pytest.mark.parametrize("preset", sorted(engine.PRESETS))
@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_answer_with_a_legal_action_from_the_view_alone(preset, name):
    rules = engine.get_preset(preset)
    for seats in (2, rules.max_players):
        for seed in range(3):
            state = engine.new_hand(rules, seats, seed=seed)
            bots = [get_bot(name, seed * 10 + s) for s in range(seats)]
            twins = [get_bot(name, seed * 10 + s) for s in range(seats)]
            for _ in range(400):  # whole games are played in test_simulation.py
                if state.over:
                    break
                choices = {}
                for seat in range(seats):
                    view = engine.view_for(state, seat)
                    frozen = copy.deepcopy(view)
                    choice = choices[seat] = bots[seat].act(view)
                    # The same answer from a JSON copy: the bot needs nothing but the view's data...
                    assert twins[seat].act(json.loads(json.dumps(frozen))) == choice
                    # ...and it leaves the view as it found it.
                    assert view == frozen
                    if choice is None:
                        assert seat != state.turn, "a bot did nothing on its turn"
                    else:
                        assert choice in view["legal_actions"]
                off_turn = [choices[(state.turn + i * state.direction) % seats] for i in range(1, seats)]
                chosen = next((c for c in off_turn if c is not None), choices[state.turn])
                engine.apply(state, engine.action_from_dict(chosen))


# ---- the heuristic bot's judgement ---------------------------------------------------------------------------


def test_keeps_wilds_and_plays_a_matching_card():
    state = hand_from("uno-official", [["W", "R5", "G3", "G4", "B1"], ["Y1", "Y2", "Y3", "Y4", "Y5"]], "R7",
                      reneging=False)
    assert ask(HeuristicBot(), state, 0) == {"type": "play", "seat": 0, "card": "R5", "colour": None}


def test_draws_rather_than_spend_its_only_playable_wild():
    state = hand_from("uno-official", [["W", "G1", "G3", "G4", "B1"], ["Y1", "Y2", "Y3", "Y4", "Y5"]], "R7")
    assert ask(HeuristicBot(), state, 0) == {"type": "draw", "seat": 0}


def test_names_the_colour_it_holds_most():
    state = hand_from("uno-official", [["W", "G1", "G3", "G4", "B1"], ["Y1", "Y2", "Y3", "Y4", "Y5"]], "R7",
                      reneging=False)
    assert ask(HeuristicBot(), state, 0) == {"type": "play", "seat": 0, "card": "W", "colour": "G"}


def test_chooses_the_first_colour_it_holds_most():
    state = hand_from("uno-official", [["B1", "B3", "G4", "B5", "R1"], ["Y1", "Y2", "Y3", "Y4", "Y5"]], "W")
    assert state.phase == 3  # choose_colour
    assert ask(HeuristicBot(), state, 0) == {"type": "choose_colour", "seat": 0, "colour": "B"}


def test_calls_uno_then_sheds_the_high_card_when_an_opponent_is_close():
    state = hand_from("uno-official", [["R2", "R9"], ["Y1", "Y2"], ["G1", "G2"]], "R7")
    bot = HeuristicBot()
    assert ask(bot, state, 0) == {"type": "call_uno", "seat": 0}
    engine.apply(state, engine.action_from_dict(ask(bot, state, 0)))
    assert ask(bot, state, 0) == {"type": "play", "seat": 0, "card": "R9", "colour": None}


def test_hits_an_opponent_about_to_go_out():
    state = hand_from("uno-official", [["R2", "RS", "G3"], ["Y1", "Y2", "Y3"]], "R7")
    state.pile.append(state.hands[1].pop())  # seat 1 down to two cards (a test-only edit of the hand)
    assert ask(HeuristicBot(), state, 0)["card"] == "RS"


def test_catches_an_opponent_who_forgot_uno_but_not_its_partner():
    rules = engine.get_preset("uno-official").with_overrides(partners=True)
    hands = [["R2", "R3"], ["G1", "G2"], ["B1", "B2"], ["Y1", "Y2"]]
    state = hand_from(rules, hands, "R7")
    engine.apply(state, engine.Play(0, "R2"))  # seat 0 forgets UNO
    assert state.uno_window == 0
    assert ask(HeuristicBot(), state, 1) == {"type": "catch", "seat": 1, "target": 0}
    assert ask(HeuristicBot(), state, 3) == {"type": "catch", "seat": 3, "target": 0}
    assert ask(HeuristicBot(), state, 2) is None  # seat 2 is seat 0's partner
    assert ask(HeuristicBot(), state, 0) == {"type": "call_uno", "seat": 0}  # and it saves itself


def wd4_on_seat_1(cards_left: int) -> engine.HandState:
    mine = ["WD4", *(["G1", "G2", "G3", "G4", "G5", "G6", "G7"][:cards_left])]
    size = len(mine)
    other = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"][:size]
    state = hand_from("uno-official", [mine, other], "R7")
    if cards_left == 1:
        engine.apply(state, engine.CallUno(0))
    engine.apply(state, engine.Play(0, "WD4", "G"))
    return state


def test_challenges_a_wild_draw_4_from_a_big_hand():
    state = wd4_on_seat_1(6)
    assert state.phase == 2  # challenge
    assert ask(HeuristicBot(), state, 1) == {"type": "challenge", "seat": 1}


def test_accepts_a_wild_draw_4_from_a_player_with_one_card_left():
    state = wd4_on_seat_1(1)
    assert ask(HeuristicBot(), state, 1) == {"type": "accept", "seat": 1}
    assert HeuristicBot().should_challenge(engine.view_for(state, 1)) is False


def test_never_bluffs_a_wild_draw_4():
    state = hand_from("uno-official", [["WD4", "R1", "G3", "G4"], ["Y1", "Y2", "Y3", "Y4"]], "R7",
                      reneging=False)
    assert ask(HeuristicBot(), state, 0)["card"] == "R1"


def test_ocho_stacks_a_small_total_and_shields_a_large_one():
    rules = engine.get_preset("ocho-plato")
    state = hand_from(rules, [["RD2", "Y1", "Y2", "Y3"], ["GD2", "SH", "B1", "B2"], ["Y4", "Y5", "Y6", "Y7"]],
                      "R5")
    engine.apply(state, engine.Play(0, "RD2"))
    assert state.pending == 2 and state.turn == 1
    assert ask(HeuristicBot(), state, 1) == {"type": "play", "seat": 1, "card": "GD2", "colour": None}
    engine.apply(state, engine.Play(1, "GD2"))
    engine.apply(state, engine.Draw(2))  # seat 2 takes 4
    state2 = hand_from(rules, [["WD4", "Y1", "Y2", "Y3"], ["GD2", "SH", "B1", "B2"], ["Y4", "Y5", "Y6", "Y7"]],
                       "R5")
    engine.apply(state2, engine.Play(0, "WD4", "Y"))
    assert state2.pending == 4 and state2.turn == 1
    choice = ask(HeuristicBot(), state2, 1)
    assert choice["card"] == "SH"
    engine.apply(state2, engine.action_from_dict(choice))
    assert state2.turn == 0 and state2.pending == 4  # sent back to the player of the Wild Draw 4
