"""The special cards sheet (games/rules_sheet.py) is written from the rule set: the cards of its deck and
its options decide what it says; every table page carries the sheet of the rules it plays."""

import re

import pytest
from django.urls import reverse

from games import engine
from games.rules_sheet import special_cards
from games.services.lifecycle import create_demo_bot_table, start_practice_game
from tests.tournament.organizer_factories import make_user


def names(rules) -> list[str]:
    return [card.name for card in special_cards(rules).cards]


def texts(rules) -> dict[str, str]:
    return {card.kind: card.text for card in special_cards(rules).cards}


def test_ocho_plato_lists_its_own_cards_first():
    sheet = special_cards(engine.get_preset("ocho-plato"))
    assert [c.name for c in sheet.cards][:4] == ["Shield", "X-Ray", "Dead Red", "Boo Blue"]
    assert [c.code for c in sheet.cards][:5] == ["SH", "XR", "DR", "BB", "O8"]
    assert "Ocho wild (the 8)" in names(engine.get_preset("ocho-plato"))
    assert "Wild" not in names(engine.get_preset("ocho-plato"))  # Ocho's deck has no plain Wild
    assert sheet.summary.startswith("8 cards each")
    assert "UNO" not in sheet.summary  # no UNO call in ocho-plato


@pytest.mark.parametrize("preset", ["uno-official", "uno-400", "uno-classroom", "ocho-cards"])
def test_other_presets_have_no_ocho_cards(preset):
    found = names(engine.get_preset(preset))
    assert not {"Shield", "X-Ray", "Dead Red", "Boo Blue"} & set(found)
    assert found  # every preset has special cards of its own


def test_every_card_kind_of_every_deck_is_explained_once():
    for rules in engine.PRESETS.values():
        deck_kinds = {engine.cards.KIND_NAMES[engine.cards.KIND[engine.card_id(c)]] for c in engine.deck_codes(rules)}
        sheet_kinds = [card.kind for card in special_cards(rules).cards]
        assert len(sheet_kinds) == len(set(sheet_kinds))
        assert set(sheet_kinds) == deck_kinds - {"number"}, rules.preset


def test_the_options_change_the_words():
    plato = engine.get_preset("ocho-plato")
    assert "you included" in texts(plato)["dead_red"]
    assert "(not you)" in texts(plato.with_overrides(dead_red_hits_player=False))["dead_red"]
    assert "you included" in texts(plato)["boo_blue"]
    assert "not counting you" in texts(plato.with_overrides(boo_blue_counts_player=False))["boo_blue"]
    assert "Wild Draw 4 or a Shield" in texts(plato)["draw2"]
    assert "not your partner" in texts(plato.with_overrides(partners=True))["xray"]
    official = engine.get_preset("uno-official")
    assert texts(official)["draw2"] == "The next player draws 2 and loses the turn."
    assert "unless they answer with a Draw 2;" in texts(official.with_overrides(stacking="draw2", challenge=False))["draw2"]
    assert "challenger draws 6" in texts(official)["wild_draw4"]
    assert "nor of the top card" in texts(official.with_overrides(wd4_restriction="color_or_number"))["wild_draw4"]
    assert "nor of the top card" not in texts(engine.get_preset("uno-400"))["wild_draw4"]  # document 003: colour only
    assert "The bomb" in texts(engine.get_preset("ocho-cards"))["wild_draw4"]
    assert "acts as a Skip" not in texts(engine.get_preset("uno-classroom"))["reverse"]
    blanks = official.with_overrides(blank_cards=True, blank_points=30)
    assert "worth 30 points" in texts(blanks)["blank"]
    assert "game ends at 250 points" in special_cards(official.with_overrides(target=250)).summary


@pytest.mark.django_db
@pytest.mark.parametrize("preset, expected, absent", [
    ("ocho-plato", ["Shield", "X-Ray", "Dead Red", "Boo Blue", "Ocho wild (the 8)"], ["Wild"]),
    ("uno-official", ["Wild Draw 4", "Skip"], ["Shield", "X-Ray", "Dead Red", "Boo Blue"]),
])
def test_the_table_page_carries_the_sheet_of_its_rules(client, preset, expected, absent):
    user = make_user()
    live = start_practice_game(user, preset, 2, "heuristic", seed=3)
    client.force_login(user)
    html = client.get(reverse("games:table", args=[live.pk])).content.decode()
    sheet = re.search(r'<dialog id="cards-sheet".*?</dialog>', html, re.S).group(0)
    shown = re.findall(r"<dt>(.*?)</dt>", sheet)
    for name in expected:
        assert name in shown
    for name in absent:
        assert name not in shown
    assert 'id="cards-sheet-open"' in html


@pytest.mark.django_db
def test_spectators_get_the_sheet_too(client):
    live = create_demo_bot_table(seats=3, preset="ocho-plato")
    html = client.get(reverse("games:table", args=[live.pk])).content.decode()
    assert 'data-preset="ocho-plato"' in html and "<dt>X-Ray</dt>" in html
