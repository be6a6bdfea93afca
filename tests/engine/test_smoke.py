"""Every preset plays whole games to the target with a first-legal-action loop, 2..max players."""

import pytest

from games.engine import PRESETS

from .helpers import play_game


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_games_finish_for_every_player_count(preset):
    rules = PRESETS[preset]
    for seats in range(2, rules.max_players + 1):
        for seed in (1, 2):
            game = play_game(rules, seats, seed)
            result = game.result()
            assert result["winners"]
            assert len(result["totals"]) == seats
