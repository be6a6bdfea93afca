"""The rules summary on the event page: generated from the preset, the overrides and the engine's docs."""

import re

import pytest
from django.urls import reverse

from games import engine
from tests.tournament.standings_data import make_event
from tournament.views.rules_summary import rules_summary

pytestmark = pytest.mark.django_db


def test_summary_lists_every_engine_option_with_its_doc_and_marks_overrides():
    event = make_event(slug="ocho", rules_preset="ocho-plato", rules_overrides={"hand_size": 7}, target_score=300)
    summary = rules_summary(event)
    assert summary.error == ""
    lines = {line.name: line for line in summary.headline + summary.others}
    options = engine.get_preset("ocho-plato").options()
    assert set(lines) == {option["name"] for option in options}
    docs = {option["name"]: option["doc"] for option in options}
    assert all(lines[name].doc == docs[name] for name in lines)
    assert (lines["hand_size"].value, lines["hand_size"].changed) == ("7", True)
    assert (lines["target"].value, lines["target"].changed) == ("300", True)
    assert lines["stacking"].value == "draw2 draw4" and not lines["stacking"].changed
    assert [line.name for line in summary.headline][:2] == ["hand_size", "target"]


def test_event_page_shows_the_rules(client):
    event = make_event(slug="uno", rules_preset="uno-official", rules_overrides={"uno_penalty": 2})
    html = re.sub(r"\s+", " ", client.get(reverse("event_detail", args=[event.slug])).content.decode())
    assert "UNO, official rules" in html
    assert "Hand size: <span class=\"rule-value\">7</span>" in html
    assert "UNO penalty: <span class=\"rule-value\">2</span> <span class=\"badge text-bg-warning\">changed</span>" in html
    assert "Cards drawn by a player caught not calling UNO." in html


def test_unplayable_overrides_are_explained_not_a_crash(client):
    event = make_event(slug="bad", rules_preset="ocho-plato", rules_overrides={"no_such_option": 1})
    summary = rules_summary(event)
    assert "unknown option 'no_such_option'" in summary.error
    assert client.get(reverse("event_detail", args=[event.slug])).status_code == 200
