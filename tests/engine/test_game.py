"""Games to a target: scoring per preset, the deal moving on, results to store."""

import json

import pytest

from games.engine import PRESETS, Game, get_preset

from .helpers import play_game


def test_winner_takes_to_500():
    """001: "The first player to score 500 points wins the game." """
    game = play_game(get_preset("uno-official"), 3, 4)
    totals = game.result()["totals"]
    assert max(totals) >= 500 and game.winners == [totals.index(max(totals))]
    for r in game.results:
        assert r.points_won[r.winner] == sum(p for s, p in enumerate(r.points_left) if s != r.winner)


def test_dealer_moves_left():
    game = play_game(get_preset("uno-official"), 4, 2)
    dealers = [r.dealer for r in game.results]
    assert all(b == (a + 1) % 4 for a, b in zip(dealers, dealers[1:], strict=False))


def test_running_total_lowest_wins():
    """001: "keeping a running total of the points each player is caught with ... When one player reaches
    500 points, the player with the lowest points is the winner." """
    game = play_game(get_preset("uno-official").with_overrides(scoring="running_total"), 3, 1)
    totals = game.result()["totals"]
    assert max(totals) >= 500 and game.winners == [s for s in range(3) if totals[s] == min(totals)]


def test_challenge_uno_elimination():
    """001: "As each player reaches a designated amount (500 is suggested), that player is eliminated from the
    game. ... The winner of that final hand is declared the winning player of the game." """
    game = play_game(get_preset("uno-official").with_overrides(scoring="elimination", target=200), 4, 3)
    assert len(game.winners) == 1 and game.winners == game.active
    assert sum(t >= 200 for t in game.totals) == 3
    assert any(r.points_left.count(None) for r in game.results)


def test_partners_team_totals():
    """001: "When either partner goes out, the hand is over. Total all of the points in both opposing
    partners' hands and score for the winning team." """
    game = play_game(get_preset("uno-official").with_overrides(partners=True), 4, 5)
    t = game.totals
    assert t[0] == t[2] and t[1] == t[3]
    assert set(game.winners) in ({0, 2}, {1, 3})


def test_game_round_trip():
    game, _ = Game.start(get_preset("ocho-plato"), 3, 7)
    assert Game.from_dict(json.loads(json.dumps(game.to_dict()))) == game


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_first_legal_action_games_finish(preset):
    rules = PRESETS[preset]
    for seats in range(2, rules.max_players + 1):
        for seed in (3, 4):
            game = play_game(rules, seats, seed)
            assert game.over and len(game.results) >= 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_copy_plays_on_without_changing_the_original(preset):
    """`Game.copy` (the live layer's per-version copies): equal when made, independent afterwards."""
    from games.engine import legal_actions

    game, _ = Game.start(get_preset(preset), 4 if preset != "uno-classroom" else 3, seed=4)
    for _ in range(3):
        game.apply(legal_actions(game.hand, game.hand.turn)[0])
    before = game.to_dict()
    copy = game.copy()
    assert copy == game
    for _ in range(2000):
        if copy.hand.over:
            break
        copy.apply(legal_actions(copy.hand, copy.hand.turn)[0])
    assert copy.hand.over
    copy.next_hand()
    assert game.to_dict() == before and copy != game
    assert Game.from_dict(json.loads(json.dumps(copy.to_dict()))) == copy


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_step_by_position_plays_the_game_apply_plays(preset):
    """`Game.step(i)` (the arena's path) leaves the game `apply(legal_moves(hand)[i], events=False)`
    leaves, move by move, hands scored and games ended the same way; hands dealt without their events
    (`events=False`, as the arena deals) are the hands dealt with them."""
    import random

    from games.engine import IllegalAction, legal_moves

    rules = get_preset(preset).with_overrides(target=150)
    rng = random.Random(preset)
    for seed in (1, 2):
        stepped, quiet = Game.start(rules, 3, seed, events=False)
        applied, loud = Game.start(rules, 3, seed)
        assert stepped == applied and quiet == [] and loud
        while not stepped.over:
            if stepped.hand.over:
                assert stepped.next_hand(events=False) == [] and applied.next_hand()
            moves = legal_moves(stepped.hand)
            i = rng.randrange(len(moves))
            applied.apply(legal_moves(applied.hand)[i], events=False)
            stepped.step(i)
            assert stepped == applied
        assert applied.over and stepped.results == applied.results
        with pytest.raises(IllegalAction):
            stepped.step(0)
