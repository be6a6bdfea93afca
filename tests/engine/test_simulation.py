"""Whole games between bots: every preset and player count finishes, the guards turn an endless game
into an error naming it, and the statistics add up."""

from __future__ import annotations

import os

import pytest

from games import engine, simulation

SEEDS = range(int(os.environ.get("SIMULATION_SEEDS", "6")))


def table_for(players: int, seed: int) -> list[str]:
    """Seeds take turns: all heuristic bots; one random bot among them; all random bots (which draw a lot,
    so piles run out and reshuffle)."""
    if seed % 3 == 0:
        return ["heuristic"] * players
    if seed % 3 == 1:
        return ["random" if s == seed % players else "heuristic" for s in range(players)]
    return ["random"] * players


@pytest.mark.parametrize("preset", sorted(engine.PRESETS))
def test_every_player_count_finishes_its_games(preset):
    rules = engine.get_preset(preset)
    for players in range(2, rules.max_players + 1):
        for seed in SEEDS:
            names = table_for(players, seed)
            played = rules.with_overrides(target=100) if "heuristic" not in names else rules
            record = simulation.play_game(played, simulation.table_of(names, seed), seed)
            assert record.winners, f"{preset} with {players} players, seed {seed} has no winner"
            assert max(record.totals) >= played.target
            assert record.hands and all(h.moves > 0 for h in record.hands)


@pytest.mark.parametrize("overrides,players", [
    ({"partners": True, "partners_see_hands": True}, 4),
    ({"scoring": "running_total", "target": 200}, 3),
    ({"scoring": "elimination", "target": 150}, 4),
    ({"challenge": False, "stacking": "draw2"}, 5),
])
def test_option_variations_finish(overrides, players):
    rules = engine.get_preset("uno-official").with_overrides(overrides)
    for seed in SEEDS:
        record = simulation.play_game(rules, simulation.table_of(["heuristic"] * players, seed), seed)
        assert record.winners
        if rules.partners:
            assert sorted(w % 2 for w in record.winners) == [record.winners[0] % 2] * 2
        if rules.scoring == "elimination":
            assert len(record.winners) == 1


def test_the_move_guard_names_preset_players_and_seed():
    rules = engine.get_preset("uno-400")
    with pytest.raises(simulation.SimulationStuck, match=r"uno-400 with 3 players, seed 7: hand 1 passed 5 moves"):
        simulation.play_game(rules, simulation.table_of(["random"] * 3, 7), 7, max_moves_per_hand=5)


def test_the_hand_guard_names_preset_players_and_seed():
    rules = engine.get_preset("ocho-plato").with_overrides(target=100_000)
    with pytest.raises(simulation.SimulationStuck, match=r"ocho-plato with 2 players, seed 3: the game passed 2 "
                                                         r"hands"):
        simulation.play_game(rules, simulation.table_of(["heuristic"] * 2, 3), 3, max_hands=2)


def test_statistics_add_up_and_repeat_for_a_seed():
    rules = engine.get_preset("uno-official")
    seen = []
    stats = simulation.simulate(rules, 3, 6, "heuristic", 42, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 6) for i in range(1, 7)]
    assert stats.games == 6 and sum(stats.seat_wins) == pytest.approx(6)
    assert stats.hands >= 6 and stats.moves >= stats.hands
    assert stats.min_moves <= stats.moves_per_hand <= stats.max_moves
    assert stats.cpu_seconds > 0 and stats.seconds_per_hand == pytest.approx(stats.cpu_seconds / stats.hands)
    again = simulation.simulate(rules, 3, 6, "heuristic", 42)
    assert (again.hands, again.moves, again.seat_wins) == (stats.hands, stats.moves, stats.seat_wins)


def test_the_heuristic_bot_beats_random_bots():
    duel = simulation.duel(engine.get_preset("uno-official"), 4, 12, 5)
    assert duel.games == 12 and duel.by_seat_games == [3, 3, 3, 3]
    assert duel.win_rate > 0.5 > duel.fair_share


def test_options_are_checked_with_clear_messages():
    with pytest.raises(simulation.SimulationError, match="the presets are: uno-official"):
        simulation.build_rules("uno-500")
    with pytest.raises(simulation.SimulationError, match="unknown option 'colours'"):
        simulation.build_rules("uno-official", {"colours": 5})
    with pytest.raises(simulation.SimulationError, match="played by 2 to 4 players, not 5"):
        simulation.check_players(engine.get_preset("ocho-plato"), 5)
