"""The offline arena (`python -m games.arena`), run as a student runs it: a separate process, no Django
settings, a bot module written to a file."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from games.arena.results import wilson
from games.simulation import game_seed

ROOT = Path(__file__).resolve().parents[1]

# A student's bot: random plays through Python's `random` (so only the arena's seeding makes it
# repeatable), and it checks that its view survives JSON as the live socket's does.
STUDENT_BOT = '''
import json
import random

def act(view):
    assert json.loads(json.dumps(view)) == view, "the view is not what a socket would carry"
    legal = view["legal_actions"]
    for action in legal:
        if action["type"] in ("call_uno", "catch"):
            return action
    plays = [a for a in legal if a["type"] == "play"]
    if plays:
        return random.choice(plays)
    return legal[0] if legal else None
'''

# A bot that gets things wrong on some of its turns: it raises, answers garbage, or a card not in its hand.
FAULTY_BOT = '''
turns = 0

def act(view):
    global turns
    legal = view["legal_actions"]
    if view["turn"] == view["seat"] and view["phase"] == "play":
        turns += 1
        if turns % 10 == 3:
            return {"type": "play"}["card"]
        if turns % 10 == 6:
            return "draw please"
        if turns % 10 == 9:
            return {"type": "play", "card": "R1" if "R1" not in view["hand"] else "G2"}
    return legal[0] if legal else None
'''


def arena(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}  # no DJANGO_SETTINGS_MODULE: none needed
    done = subprocess.run([sys.executable, "-m", "games.arena", *args], cwd=cwd, env=env, capture_output=True,
                          timeout=300)
    # bytes decoded by hand: text mode would turn the progress bar's carriage returns into newlines
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


@pytest.fixture
def bot_file(tmp_path):
    def write(source: str, name: str = "mybot.py") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(source))
        return path
    return write


def parse(out: str, preset: str) -> dict[str, float]:
    block = out.split(f"{preset}: ", 1)[1]
    games, hands = (int(x) for x in re.match(r"(\d+) games, (\d+) hands", block).groups())
    rate, low, high, fair = (float(x) for x in re.search(
        r"win rate +([\d.]+)% \(95% CI ([\d.]+)% to ([\d.]+)%; a fair share is ([\d.]+)%\)", block).groups())
    points, theirs = (float(x) for x in re.search(r"points per game +([\d.]+) \(an opponent: ([\d.]+)\)",
                                                   block).groups())
    per_s, hands_s = (float(x.replace(",", "")) for x in re.search(
        r"speed +([\d,.]+) games/s, ([\d,]+) hands/s", block).groups())
    return {"games": games, "hands": hands, "rate": rate, "low": low, "high": high, "fair": fair,
            "points": points, "theirs": theirs, "games_s": per_s, "hands_s": hands_s}


def test_a_students_module_plays_and_the_same_seeds_give_the_same_numbers(bot_file):
    bot = bot_file(STUDENT_BOT)
    args = (str(bot), "--against", "heuristic", "random", "--players", "3", "--games", "12", "--seed", "5")
    first = arena(*args, "--progress")
    assert first.returncode == 0, first.stderr
    out = first.stdout
    assert out.startswith("arena: mybot against heuristic, random; 3 players, its seat rotated; 12 games per "
                          "preset, seed 5")
    r = parse(out, "uno-official")
    assert r["games"] == 12 and r["hands"] >= 12
    wins = r["rate"] / 100 * r["games"]
    low, high = wilson(wins, r["games"])
    assert (r["low"], r["high"]) == pytest.approx((low * 100, high * 100), abs=0.06)
    assert r["low"] <= r["rate"] <= r["high"] and r["fair"] == pytest.approx(33.3)
    assert r["points"] + r["theirs"] > 0 and r["games_s"] > 0 and r["hands_s"] > 0
    assert re.search(r"faults +none", out), out  # the view passed JSON's round trip at every move
    assert "\r" in first.stderr and "uno-official [" in first.stderr and "12/12" in first.stderr

    again = arena(*args, "--no-progress")
    assert again.stderr == ""
    speed = re.compile(r"\d+\.\d s of CPU$|speed .*$", re.M)
    assert speed.sub("", again.stdout) == speed.sub("", out)
    other = arena(*args[:-1], "6", "--no-progress")
    assert speed.sub("", other.stdout).split("\n", 1)[1] != speed.sub("", out).split("\n", 1)[1]


def test_a_bot_that_raises_or_answers_nonsense_is_reported_and_counted(bot_file):
    bot = bot_file(FAULTY_BOT, "faulty.py")
    done = arena(str(bot), "--against", "heuristic", "--players", "2", "--games", "3", "--seed", "2",
                 "--show-faults", "3", "--no-progress")
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr, done.stderr
    out = done.stdout
    assert parse(out, "uno-official")["games"] == 3  # every game was played to its end
    faults = re.findall(r"^fault: faulty \(your bot\) (.+?) in game (\d+) \(seed (\d+)\), hand (\d+), seat (\d): "
                        r"(.*); its seat made the silent seat's move$", out, re.M)
    assert len(faults) == 3, out
    kind, game, seed, _, seat, detail = faults[0]
    assert kind == "raised" and detail.startswith("KeyError: 'card' (") and "faulty.py line 10)" in detail
    assert int(seed) == game_seed(2, int(game))
    view = json.loads(re.search(r"^  view: (.*)$", out, re.M).group(1))
    assert view["turn"] == view["seat"] == int(seat) and view["phase"] == "play" and view["legal_actions"]
    kinds = {f[0] for f in faults}
    assert kinds <= {"raised", "not an action", "illegal action"}
    assert '  answer: "draw please"' in out or "  answer: {" in out
    counts = dict(re.findall(r"faulty (raised|not an action|illegal action): (\d+)", out))
    assert set(counts) == {"raised", "not an action", "illegal action"}, out
    total = int(re.search(r"faults +(\d+) \(", out).group(1))
    assert total == sum(int(n) for n in counts.values()) and re.search(rf"; {total} by faulty$", out, re.M)


def test_a_bot_that_fails_off_its_turn_is_reported_as_it_would_fail_live(bot_file):
    # live, a bot sees every change: off its turn `legal_actions` is usually empty
    bot = bot_file("import random\n\ndef act(view):\n    return random.choice(view['legal_actions'])\n", "naive.py")
    done = arena(str(bot), "--players", "3", "--games", "2", "--no-progress")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    first = re.search(r"^fault: naive \(your bot\) raised in game 1 \(seed \d+\), hand 1, seat (\d): "
                      r"IndexError: Cannot choose from an empty sequence \(.*random\.py line \d+, called from "
                      r".*naive\.py line 4\); off its turn: nothing was done$", done.stdout, re.M)
    assert first, done.stdout
    view = json.loads(re.search(r"^  view: (.*)$", done.stdout, re.M).group(1))
    assert view["legal_actions"] == [] and view["turn"] != view["seat"] == int(first.group(1))
    assert parse(done.stdout, "uno-official")["games"] == 2


def test_the_example_bot_plays_every_preset_against_other_modules(bot_file):
    other = bot_file(STUDENT_BOT, "rival.py")
    # the example bot by module name this time (a package of the student's on the path works the same)
    done = arena("examples.bot", "--against", str(other), "random", "--rules", "all", "--games", "2",
                 "--set", "target=200", "--no-progress")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("arena: examples.bot against rival, random; 4 players")
    for preset in ("uno-official", "uno-400", "uno-classroom", "ocho-plato", "ocho-cards"):
        assert parse(done.stdout, preset)["games"] == 2
    assert done.stdout.count("faults           none") == 5
    assert re.search(r"^all presets:\n(  \S+ +win rate .*\n){5}", done.stdout, re.M)


@pytest.mark.parametrize("source,args,message", [
    ("def act(view)\n    return None\n", [], r"mybot\.py failed to load \(.*mybot\.py line 1\): SyntaxError"),
    ("import no_such_library\n", [], r"failed to load \(.*mybot\.py line 1\): ModuleNotFoundError: No module "
                                     r"named 'no_such_library'"),
    ("def choose(view):\n    return None\n", [], r"mybot\.py has no function act\(view\)"),
    ("import sys\nsys.exit('give a token')\n", [], r"mybot\.py exited while loading: does it run its live loop"),
    ("def act(view):\n    return None\n", ["--against", "nobody"], r"no bot 'nobody': not a built-in bot"),
    ("def act(view):\n    return None\n", ["--rules", "ocho-plato", "--players", "5"],
     r"ocho-plato is played by 2 to 4 players, not 5"),
    ("def act(view):\n    return None\n", ["--games", "0"], r"--games must be at least 1, not 0"),
    ("def act(view):\n    return None\n", ["--rules", "uno-500"], r"unknown preset 'uno-500'; the presets are"),
    ("def act(view):\n    return None\n", ["--set", "target"], r"--set takes NAME=VALUE"),
    ("def act(view):\n    return None\n", ["--set", "bogus=1"], r"unknown option 'bogus' for uno-official"),
])
def test_bad_bots_and_options_get_one_line_errors(bot_file, source, args, message):
    done = arena(str(bot_file(source)), *args)
    assert done.returncode == 2 and done.stdout == ""
    assert "Traceback" not in done.stderr and re.search(message, done.stderr.splitlines()[-1]), done.stderr


def test_wilson_interval():
    # the textbook case: 5 successes in 10, 95%
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10)[0] == 0 and wilson(10, 10)[1] == pytest.approx(1)


@pytest.mark.parametrize("preset,players", [("uno-official", 3), ("ocho-plato", 4)])
def test_every_view_the_arena_gives_is_the_live_view_and_its_moves_are_applys(preset, players):
    """Played in-process, a module beside built-in bots (the random player, which reads no view, and the
    heuristic bot, which does): every view a seat gets equals `engine.view_for` of a copy of the game that
    replays every move through the checked `Game.apply` (the live path), decision by decision; the random
    player's moves were picked among the checked `legal_actions` of its seat; the arena's own faster path
    (moves by position) reaches the same states and results."""
    import copy

    from examples.bot import act as example_act
    from games import engine
    from games.arena import matches
    from games.arena.entrants import Entrant

    asked = []

    def recording(inner):
        def act(view):
            before = copy.deepcopy(view)
            answer = inner(view)
            asked.append(("view", before, copy.deepcopy(answer)))
            return answer
        return act

    def picking(inner):
        def pick(moves):
            i = inner(moves)
            asked.append(("pick", list(moves), moves[i]))
            return i
        return pick

    subject = Entrant("example", act=example_act)
    opponents = [Entrant("random", builtin="random"), Entrant("heuristic", builtin="heuristic")]
    rules = engine.get_preset(preset).with_overrides(target=200)
    for number in (1, 2):
        seed = game_seed(11, number)
        seats = matches.table_for(subject, opponents, players, number, seed)
        assert sum(s.act is None for s in seats) == len(range(0, players - 1, 2))  # the random seats
        seats = [matches.Seat(recording(s.act), s.name, s.subject) if s.act else
                 matches.Seat(None, s.name, s.subject, picking(s.pick)) for s in seats]
        asked.clear()
        played = matches.play_game(rules, seats, seed, lambda fault: pytest.fail(str(fault)))
        replayed, _ = engine.Game.start(rules, players, seed)
        views = picks = 0
        for kind, seen, answer in asked:
            if replayed.hand.over:
                replayed.next_hand()
            hand = replayed.hand
            if kind == "view":
                views += 1
                assert seen == engine.view_for(hand, seen["seat"])
                if answer is not None:
                    replayed.apply(engine.action_from_dict(answer))
            else:
                picks += 1
                assert seen == engine.legal_actions(hand, hand.turn)
                replayed.apply(answer)
        assert views > 50 and picks > 20 and replayed == played and replayed.over


@pytest.mark.parametrize("preset,players", [("uno-official", 2), ("uno-official", 4), ("ocho-plato", 3)])
def test_the_random_bot_plays_the_games_checked_apply_plays(preset, players):
    """A table of the arena's random players (no view anywhere: the engine benchmark's loop) plays the
    games that the same players, seeded the same, play through the checked `Game.apply` with its events
    and its own loop; whole games, every hand scored, the seats rotated."""
    from games import engine
    from games.arena import matches
    from games.arena.entrants import Entrant
    from games.arena.random_player import RandomPlayer
    from games.engine.state import OVER

    bot = Entrant("random", builtin="random")
    rules = engine.get_preset(preset).with_overrides(target=200)
    hands = 0
    for number in (1, 2, 3):
        seed = game_seed(9, number)
        seats = matches.table_for(bot, [bot], players, number, seed)
        assert all(s.act is None and s.pick for s in seats)
        assert [s.subject for s in seats].index(True) == number % players
        played = matches.play_game(rules, seats, seed, lambda fault: pytest.fail(str(fault)))
        bots = [RandomPlayer((seed * 31 + s) % (2**63)) for s in range(players)]
        game, _ = engine.Game.start(rules, players, seed)
        while not game.over:
            if game.hand.phase == OVER:
                game.next_hand()
            hand = game.hand
            legal = engine.legal_actions(hand, hand.turn)
            events = game.apply(legal[bots[game.active[hand.turn]].pick(legal)])
            assert events
        assert game == played and len(played.results) > 1
        hands += len(played.results)
    assert hands >= 6


def test_the_random_bots_games_are_the_same_for_the_same_seed(capsys):
    from games import engine
    from games.arena import matches
    from games.arena.__main__ import main
    from games.arena.entrants import Entrant

    bot = Entrant("random", builtin="random")
    rules = engine.get_preset("uno-official")

    def numbers(seed):
        r = matches.run(rules, bot, [bot], 3, 4, seed)
        return r.games, r.wins, r.points, r.opponent_points, r.hands, dict(r.faults)

    first = numbers(4)
    assert first == numbers(4) and first != numbers(5) and first[0] == 4 and not first[-1]
    # and through the command, random bots all round
    assert main(["random", "--against", "random", "--players", "2", "--games", "3", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("arena: random against random; 2 players") and parse(out, "uno-official")["games"] == 3


def test_a_hand_that_passes_its_guard_stops_the_game():
    from games import engine
    from games.arena import matches

    moves = []

    def drawer(view):  # draws and passes for ever when it may
        for kind in ("draw", "pass"):
            for action in view["legal_actions"]:
                if action["type"] == kind:
                    moves.append(kind)
                    return action
        return view["legal_actions"][0] if view["legal_actions"] else None

    seats = [matches.Seat(drawer, "drawer", s == 0) for s in range(2)]
    with pytest.raises(matches.GameStuck, match="^hand 1 passed 5 moves without ending$"):
        matches.play_game(engine.get_preset("uno-official"), seats, 3, lambda fault: pytest.fail(str(fault)),
                          max_moves_per_hand=5)
    assert len(moves) == 5
