"""`manage.py simulate`: thin over games.simulation; no database is touched (pytest-django would refuse)."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def simulate(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("simulate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_prints_the_statistics_and_a_progress_bar():
    out, err = simulate("--rules", "uno-official", "--players", "3", "--games", "6", "--bot", "heuristic",
                      "--seed", "4")
    assert out.startswith("uno-official: 3 players, bot heuristic in every seat, seed 4, target 500")
    assert re.search(r"^games +6$", out, re.M)
    hands = int(re.search(r"^hands +(\d+) \(", out, re.M).group(1))
    assert hands >= 6
    assert re.search(r"^moves per hand +\d+\.\d on average \(fewest \d+, most \d+\)", out, re.M)
    assert re.search(r"^average hand +\d+\.\d moves, \d+\.\d\d ms of CPU", out, re.M)
    wins = [float(w) for w in re.findall(r"seat \d: ([\d.]+) \(", out.split("wins by seat")[1].splitlines()[0])]
    assert len(wins) == 3 and sum(wins) == pytest.approx(6)
    assert re.search(r"heuristic vs random: 6 games, .* wins \d+\.\d% \(a fair share is 33\.3%\)", out)
    bar = err
    assert "\r" in bar and "6/6" in bar and "heuristic [" in bar and "duel [" in bar


def test_same_seed_same_numbers():
    args = ("--rules", "ocho-plato", "--players", "2", "--games", "3", "--seed", "9", "--no-progress")
    first, second = simulate(*args)[0], simulate(*args)[0]
    drop_times = re.compile(r"\d+\.\d\d ms")
    assert drop_times.sub("", first) == drop_times.sub("", second)


def test_rule_options_and_random_bots():
    out, _ = simulate("--rules", "uno-official", "--players", "4", "--games", "2", "--bot", "random",
                      "--set", "target=100", "--set", "partners=true", "--duel-games", "0", "--no-progress")
    assert out.startswith("uno-official (partners=True, target=100): 4 players, bot random")
    assert "heuristic vs random" not in out


@pytest.mark.parametrize("args,message", [
    (["--rules", "uno-500"], "unknown preset 'uno-500'; the presets are: uno-official, uno-400, uno-classroom, "
                             "ocho-plato, ocho-cards"),
    (["--rules", "ocho-plato", "--players", "6"], "ocho-plato is played by 2 to 4 players, not 6"),
    (["--players", "1"], "uno-official is played by 2 to 10 players, not 1"),
    (["--bot", "clever"], "unknown bot 'clever'; the bots are: random, heuristic"),
    (["--games", "0"], "--games must be at least 1, not 0"),
    (["--set", "target"], "--set takes NAME=VALUE"),
    (["--set", "target=-5"], "option 'target' must be at least 1, not -5"),
])
def test_bad_options_get_clear_errors(args, message):
    with pytest.raises(CommandError) as error:
        simulate(*args, *([] if "--games" in args else ["--games", "1"]), "--no-progress")
    assert message in str(error.value)
