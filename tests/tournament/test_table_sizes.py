"""Table sizes an event's rules cannot be played with are refused where they are set (the event form and
``Event.clean``, with the rules' seat limits), where tables are planned (round 1, a bracket's stages),
and starting a round at such tables is a message for the organizer, never a server error."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.models import LiveGame
from tests.tournament.bracket_factories import played_first_round
from tests.tournament.organizer_factories import make_event, make_players, make_user
from tournament.models import Event, Round
from tournament.services import next_round, rounds
from tournament.services.next_round import NextRoundOptions

pytestmark = pytest.mark.django_db


def event_form(**changes):
    data = {"name": "Ocho night", "slug": "ocho-night", "status": "draft", "rules_preset": "ocho-plato",
            "rules_overrides": "{}", "target_score": "", "min_table_size": 2, "max_table_size": 6,
            "turn_seconds": 30, "missed_turns_before_bot": 3,
            "arrival_grace_seconds": 300, "eligibility": "open"}
    return {**data, **changes}


@pytest.mark.parametrize(("changes", "message"), [
    ({}, "Tables of 5 or 6 players cannot be played: ocho-plato is played by 2 to 4 players."),
    ({"rules_preset": "uno-official", "rules_overrides": '{"max_players": 3}', "max_table_size": 4},
     "Tables of 4 players cannot be played: uno-official is played by 2 to 3 players."),
    ({"rules_preset": "uno-official", "rules_overrides": '{"partners": true, "scoring": "winner_takes"}',
      "min_table_size": 3, "max_table_size": 4}, "Tables of 3 players cannot be played: partners are played by exactly four players."),
])
def test_the_event_form_refuses_table_sizes_the_rules_cannot_play(organizer_client, changes, message):
    response = organizer_client.post(reverse("admin:tournament_event_add"), event_form(**changes))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Event.objects.filter(slug="ocho-night").exists()
    assert organizer_client.post(reverse("admin:tournament_event_add"), event_form(
        rules_overrides="{}", rules_preset="ocho-plato", min_table_size=2, max_table_size=4)).status_code == 302


def test_model_clean_names_the_table_size_at_fault():
    with pytest.raises(ValidationError) as too_big:
        Event(name="x", slug="x", rules_preset="ocho-plato", min_table_size=3, max_table_size=6).full_clean()
    assert list(too_big.value.message_dict) == ["max_table_size"]
    with pytest.raises(ValidationError) as too_small:
        Event(name="y", slug="y", rules_preset="uno-official", rules_overrides={"min_players": 3},
              min_table_size=2, max_table_size=4).full_clean()
    assert list(too_small.value.message_dict) == ["min_table_size"]
    Event(name="z", slug="z", rules_preset="ocho-plato", min_table_size=2, max_table_size=4).full_clean()


def test_a_first_round_preview_at_unplayable_tables_cannot_be_confirmed():
    event = make_event(rules_preset="ocho-plato", min_table_size=5, max_table_size=6)  # saved without clean
    make_players(event, 11)
    plan = rounds.plan_first_round(event, seed=1)
    assert rounds.plan_problems(event, plan) == [
        "Tables of 5 or 6 players cannot be played: ocho-plato is played by 2 to 4 players. "
        "Change the event's table sizes, then preview again."]
    with pytest.raises(rounds.RoundError, match="cannot be played"):
        rounds.create_first_round(event, plan, make_user())


def test_starting_a_round_its_rules_cannot_play_is_a_message(organizer_client, event):
    make_players(event, 8)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), None)  # tables of 4
    # The organizer then changes the rules to three players at most (tables of 2 to 3: a valid event).
    response = organizer_client.post(reverse("admin:tournament_event_change", args=[event.pk]), event_form(
        name=event.name, slug=event.slug, rules_preset="uno-official", rules_overrides='{"max_players": 3}',
        target_score="100", min_table_size=2, max_table_size=3, organizers=[organizer_client.user.pk]))
    assert response.status_code == 302
    overview = reverse("admin:tournament_round_overview", args=[round_.pk])
    response = organizer_client.post(overview, {"start": "1"}, follow=True)
    assert response.status_code == 200
    assert ("cannot start: Tables of 4 players cannot be played: uno-official is played by 2 to 3 players. "
            "Tables 1, 2.") in response.content.decode()
    round_.refresh_from_db()
    assert round_.status == Round.Status.PLANNED and not LiveGame.objects.exists()


def test_starting_a_bracket_stage_the_engine_refuses_is_a_message(client):
    event, organizer, _ = played_first_round(16)
    options = NextRoundOptions(field=16, advance=[1], draw_seed=3)
    plan = next_round.plan_next_round(event, options)
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    Event.objects.filter(pk=event.pk).update(rules_overrides={"max_players": 3})
    client.force_login(organizer)
    url = reverse("admin:tournament_event_bracket", args=[event.pk, round_two.pk])
    response = client.post(url, {"start_stage": "1"}, follow=True)
    assert response.status_code == 200
    assert "cannot start: uno-official is played by 2 to 3 players, not 4." in response.content.decode()
    round_two.refresh_from_db()
    assert round_two.status == Round.Status.PLANNED
    assert not LiveGame.objects.filter(game__table__round=round_two).exists()


def test_a_bracket_at_tables_its_rules_cannot_play_is_not_planned():
    event, _, _ = played_first_round(16)
    Event.objects.filter(pk=event.pk).update(max_table_size=6)  # uno-official plays 6, but not with:
    Event.objects.filter(pk=event.pk).update(rules_overrides={"max_players": 4})
    event.refresh_from_db()
    plan = next_round.plan_next_round(event, NextRoundOptions(field=16, advance=[2], draw_seed=3))
    assert any(p.startswith("Stage 1: Tables of 5 or 6 players cannot be played: uno-official is played by 2 to 4 "
                                 "players")
               for p in plan.problems), plan.problems
    assert plan.bracket is None
