"""Rule sets: presets, overrides and the errors an organizer reads."""

import json

import pytest

from games.engine import PRESETS, RuleError, RuleSet, get_preset


def test_preset_names():
    assert set(PRESETS) == {"uno-official", "uno-400", "uno-classroom", "ocho-plato", "ocho-cards"}
    with pytest.raises(RuleError, match="unknown preset 'uno'"):
        get_preset("uno")


def test_overrides_by_keyword_or_dict():
    rules = get_preset("uno-official")
    assert rules.with_overrides(target=300).target == 300
    assert rules.with_overrides({"target": 250, "uno_penalty": 2}).uno_penalty == 2
    assert rules.target == 500  # frozen: the preset is unchanged


@pytest.mark.parametrize("changes, message", [
    ({"colour_blind": True}, "unknown option 'colour_blind'"),
    ({"target": "500"}, "must be a whole number"),
    ({"target": 0}, "at least 1"),
    ({"partners": 1}, "true or false"),
    ({"stacking": "yes"}, "must be one of off, draw2, draw2_draw4"),
    ({"hand_size": 11}, "cannot be dealt to 10 players"),
    ({"max_players": 16}, "at most 15 players"),
    ({"deck": "cards"}, "cannot be changed"),
    ({"stacking": "draw2"}, "challenge and stacking"),
    ({"challenge": True, "wd4_restriction": "none"}, "needs a restriction"),
    ({"scoring": "running_total", "partners": True}, "partners score as teams"),
    ({"jokers": 2}, "only playing-card decks have jokers"),
])
def test_nonsense_overrides_are_refused(changes, message):
    with pytest.raises(RuleError, match=message):
        get_preset("uno-official").with_overrides(changes)


def test_stacking_without_the_draw_cards():
    with pytest.raises(RuleError, match="has none"):
        get_preset("ocho-cards").with_overrides(jokers=0, stacking="draw2_draw4")
    get_preset("ocho-cards").with_overrides(jokers=0)


def test_options_are_listed_with_types_and_docs():
    options = {o["name"]: o for o in RuleSet.options()}
    assert "deck" not in options and "preset" not in options
    assert options["target"]["type"] == "int" and options["partners"]["type"] == "bool"
    assert options["stacking"]["choices"] == ["off", "draw2", "draw2_draw4"]
    assert all(o["doc"] for o in options.values())
    json.dumps(RuleSet.options())


def test_to_dict_round_trip():
    for rules in PRESETS.values():
        data = json.loads(json.dumps(rules.to_dict()))
        assert RuleSet.from_dict(data) == rules


def test_blank_cards_option():
    """001: "Blank Card ... you may use the Blank Card as a replacement" (off by default; on: 4 more cards)."""
    rules = get_preset("uno-official")
    assert rules.deck_size == 108
    blank = rules.with_overrides(blank_cards=True, blank_points=30)
    assert blank.deck_size == 112
    from games.engine import CARD_ID

    assert blank.card_points(CARD_ID["RBL"]) == 30


def test_fast_shuffle_is_random_shuffle():
    """Deals for a seed must not change with the faster shuffle: same permutation, same generator state."""
    import random

    from games.engine.shuffle import shuffle

    for seed in range(300):
        a = list(range(seed % 130))
        b = a[:]
        r1, r2 = random.Random(seed), random.Random(seed)
        r1.shuffle(a)
        shuffle(r2, b)
        assert a == b and r1.getstate() == r2.getstate()


def test_generator_is_random_random():
    """A hand's generator is built faster than `random.Random(seed)`, in the same state for every seed."""
    import random

    from games.engine.deal import _generator

    for seed in (0, 1, 7, 2**31, 2**32 - 1, 2**63 - 1, 2**64 + 7, -3, 10**30, "abc", 1.5, True):
        assert _generator(seed).getstate() == random.Random(seed).getstate()
        assert _generator(seed).random() == random.Random(seed).random()


def test_deals_are_those_of_the_standard_library():
    """Stored hands are verified by dealing their seed again: the deal must stay exactly `random.Random(seed)`
    drawing for the dealer (`sample`), then `shuffle` of the canonical deck, hands in blocks from its end."""
    import random

    from games.engine import new_hand, start_hand
    from games.engine.decks import deck_cards

    for preset in ("uno-official", "uno-classroom", "ocho-plato", "ocho-cards"):
        rules = get_preset(preset)
        for seats in (2, 3, 4):
            for seed in range(40):
                rng = random.Random(seed)
                full = list(deck_cards(rules))
                candidates = list(range(seats))
                while True:
                    values = [rules.card_points(c) for c in rng.sample(full, len(candidates))]
                    tied = [s for s, v in zip(candidates, values, strict=True) if v == max(values)]
                    if len(tied) == 1:
                        break
                    candidates = tied
                rng.shuffle(full)
                size = rules.hand_size
                hands = [full[len(full) - size * (s + 1):len(full) - size * s][::-1] for s in range(seats)]
                state = new_hand(rules, seats, seed=seed)
                assert state.dealer == tied[0]
                assert [h[:size] for h in state.hands] == hands
                assert state == start_hand(rules, seats, seed=seed)[0]


def test_dealer_draw_is_random_sample():
    """The dealer draw's inlined `sample` takes the same cards and leaves the same generator state."""
    import random

    from games.engine.deal import _sample

    for n in (5, 21, 22, 108, 116):
        population = tuple(range(100, 100 + n))
        for k in range(1, min(n, 10) + 1):
            for seed in range(30):
                r1, r2 = random.Random(seed), random.Random(seed)
                assert _sample(r2, population, k) == r1.sample(population, k)
                assert r1.getstate() == r2.getstate()


def test_the_rules_doc_table_lists_every_option_with_each_presets_value():
    """docs/rules.md "Options per preset": one row per option, the presets' values in its columns."""
    import re
    from pathlib import Path

    from games.engine import PRESETS

    text = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    text = text[text.index("## Options per preset"):]
    text = text[:text.index("\n## ")]
    header = re.search(r"^\| option \| meaning \|(.*)\|$", text, re.M)
    columns = [c.strip().strip("`") for c in header.group(1).split("|")]
    rows = {m.group(1): [c.strip() for c in m.group(2).split("|")]
            for m in re.finditer(r"^\| `(\w+)` \| [^|]+ \|(.*)\|$", text, re.M)}
    for option in RuleSet.options():
        assert option["name"] in rows, f"docs/rules.md has no row for {option['name']}"
        for preset, shown in zip(columns, rows[option["name"]], strict=True):
            value = getattr(PRESETS[preset], option["name"])
            expected = str(value).lower() if isinstance(value, bool) else str(value)
            assert shown == expected, f"docs/rules.md: {option['name']} in {preset} is {value}, not {shown}"
