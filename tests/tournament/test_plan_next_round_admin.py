"""Plan next round and the bracket's organizer page through the test client, with permissions."""

import pytest
from django.urls import reverse

from tests.tournament.bracket_factories import finish_table, played_first_round, stage_game, stage_tables
from tests.tournament.organizer_factories import PASSWORD, make_user
from tests.tournament.participation_factories import played_live_except
from tournament.models import Event, Player, Round, TiebreakDraw

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    event, organizer, round_one = played_first_round(16)
    return event, organizer


def login(client, user):
    assert client.login(username=user.username, password=PASSWORD)
    return client


def plan_url(event):
    return reverse("admin:tournament_event_plan_next_round", args=[event.pk])


def test_preview_proposes_a_field_and_shows_who_is_in_and_why(client, played):
    event, organizer = played
    login(client, organizer)
    page = client.get(plan_url(event)).content.decode()
    assert 'name="field" value="16"' in page and 'name="advance" value="1"' in page
    response = client.get(plan_url(event), {"field": 12, "method": "top", "advance": "", "per_table": 1,
                                            "format_first": "standard", "format_later": "standard",
                                            "tie_method": "draw"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Stage 1: 12 players, 3 tables of 4" in page
    assert page.count('class="in"') == 12 and page.count('class="out"') == 4
    assert "rank 13: below the cut" in page and "(top 12)" in page
    assert 'name="confirm"' in page and "disabled" not in page.split('name="confirm"')[1].split(">")[0]


def test_bad_numbers_are_explained_and_cannot_be_confirmed(client, played):
    event, organizer = played
    login(client, organizer)
    data = {"field": 16, "method": "top", "advance": "4", "per_table": 1, "format_first": "standard",
            "format_later": "standard", "tie_method": "draw"}
    page = client.get(plan_url(event), data).content.decode()
    assert "Stage 1 has tables of 4: at most 3 can go on from each (you asked for 4)" in page
    assert 'disabled' in page.split('name="confirm"')[1].split(">")[0]
    page = client.get(plan_url(event), {**data, "advance": "x"}).content.decode()
    assert "whole numbers separated by commas" in page
    page = client.get(plan_url(event), {**data, "advance": "1", "field": 40}).content.decode()
    assert "only 16 played" in page
    assert not Round.objects.filter(event=event, number=2).exists()


def test_confirm_creates_the_bracket_and_the_organizer_runs_it(client, played):
    event, organizer = played
    login(client, organizer)
    data = {"field": 16, "method": "top", "advance": "1", "per_table": 1, "format_first": "standard",
            "format_later": "standard", "tie_method": "draw"}
    page = client.get(plan_url(event), data).content.decode()
    seed = page.split('name="draw_seed" value="')[1].split('"')[0]
    expected = page.split('name="expected_field" value="')[1].split('"')[0]
    response = client.post(plan_url(event), {**data, "draw_seed": seed, "expected_field": expected,
                                             "confirm": "1"})
    round_two = Round.objects.get(event=event, number=2)
    bracket_url = reverse("admin:tournament_event_bracket", args=[event.pk, round_two.pk])
    assert response.status_code == 302 and response.url == bracket_url
    page = client.get(bracket_url).content.decode()
    assert "Start stage 1" in page and "Built when the stage before it ends" in page
    client.post(bracket_url, {"start_stage": "1"})
    for number, members in enumerate(stage_tables(round_two, 1), start=1):
        finish_table(stage_game(round_two, 1, number), members, organizer)
    page = client.get(bracket_url).content.decode()
    assert "Start stage 2" in page and "goes on" in page
    # A withdrawn finalist is replaced by the next of their table before the final starts.
    finalist = Player.objects.get(pk=stage_tables(round_two, 1)[0][0])
    Player.objects.filter(pk=finalist.pk).update(status=Player.Status.WITHDRAWN)
    client.post(bracket_url, {"replace": finalist.pk, "reason": "went home"})
    assert stage_tables(round_two, 1)[0][1] in stage_tables(round_two, 2)[0]
    client.post(bracket_url, {"start_stage": "2"})
    assert stage_game(round_two, 2, 1).status == "running"


def test_tiebreak_hand_through_the_bracket_page(client, played):
    event, organizer = played
    login(client, organizer)
    from tournament.services import bracket_stages, game_status, next_round
    from tournament.services.next_round import NextRoundOptions

    options = NextRoundOptions(field=16, advance=[1], tie_method="hand", draw_seed=3)
    plan = next_round.plan_next_round(event, options)
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    tables = stage_tables(round_two, 1)
    for number in (2, 3, 4):
        finish_table(stage_game(round_two, 1, number), tables[number - 1], organizer)
    played_live_except(stage_game(round_two, 1, 1), set())  # all four took part at the live table
    game_status.change_game_status(stage_game(round_two, 1, 1), "finish", organizer, reason="time")
    url = reverse("admin:tournament_event_bracket", args=[event.pk, round_two.pk])
    page = client.get(url).content.decode()
    assert "Record tiebreak hand" in page
    places = {f"tie_place_{pid}": str(i + 1) for i, pid in enumerate(reversed(tables[0]))}
    client.post(url, {"tiebreak": "1:1", **places})
    assert TiebreakDraw.objects.get(round=round_two, stage=1).method == "hand"
    assert tables[0][-1] in stage_tables(round_two, 2)[0]


def test_organizer_of_another_event_is_refused(client, played):
    event, organizer = played
    other_event, other_organizer = Event.objects.create(name="Other", slug="other-cup"), None
    from tests.tournament.organizer_factories import make_organizer_of

    other_organizer = make_organizer_of(other_event)
    from tournament.services import next_round
    from tournament.services.next_round import NextRoundOptions

    options = NextRoundOptions(field=16, advance=[1], draw_seed=3)
    round_two = next_round.create_bracket_round(event, options, next_round.plan_next_round(event, options).field_ids,
                                                organizer)
    login(client, other_organizer)
    assert client.get(plan_url(event)).status_code == 404
    bracket_url = reverse("admin:tournament_event_bracket", args=[event.pk, round_two.pk])
    assert client.get(bracket_url).status_code == 404
    assert client.post(bracket_url, {"start_stage": "1"}).status_code == 404
    assert client.post(plan_url(event), {"field": 16, "confirm": "1"}).status_code == 404
    round_two.refresh_from_db()
    assert round_two.status == Round.Status.PLANNED
    # Students (not staff) never reach it; visitors are sent to log in.
    client.logout()
    assert client.get(plan_url(event)).status_code == 302
    student = make_user()
    login(client, student)
    assert client.get(plan_url(event)).status_code == 302


def test_the_event_page_links_plan_next_round(client, played):
    event, organizer = played
    login(client, organizer)
    page = client.get(reverse("admin:tournament_event_changelist")).content.decode()
    assert plan_url(event) in page


def test_advancing_from_the_bracket_page_says_what_it_waits_for(client, played):
    event, organizer = played
    login(client, organizer)
    from tournament.services import bracket_stages, next_round
    from tournament.services.next_round import NextRoundOptions

    options = NextRoundOptions(field=16, advance=[1], draw_seed=3)
    plan = next_round.plan_next_round(event, options)
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    tables = stage_tables(round_two, 1)
    finish_table(stage_game(round_two, 1, 2), tables[1], organizer)
    bracket_url = reverse("admin:tournament_event_bracket", args=[event.pk, round_two.pk])
    page = client.get(bracket_url).content.decode()
    assert "Waiting:</b> Stage 1: tables 1, 3, 4 still playing." in page
    page = client.post(bracket_url, {"advance": "1"}, follow=True).content.decode()
    assert "The bracket is up to date." in page and "Waiting: Stage 1: tables 1, 3, 4 still playing." in page
    for number in (1, 3, 4):
        finish_table(stage_game(round_two, 1, number), tables[number - 1], organizer)
    page = client.post(bracket_url, {"advance": "1"}, follow=True).content.decode()
    assert "Waiting: Stage 2: not started yet." in page and "Start stage 2" in page


def test_a_partner_rotation_is_chosen_in_the_admin_and_its_schedule_shown(client, played):
    event, organizer = played
    login(client, organizer)
    data = {"field": 16, "method": "top", "advance": "1", "per_table": 1, "format_first": "partners_rotation",
            "format_later": "partners_rotation", "tie_method": "draw"}
    page = client.get(plan_url(event), data).content.decode()
    assert 'value="partners_rotation_8"' in page, "the 28-hand format can be chosen"
    eight = client.get(plan_url(event), {**data, "format_first": "partners_rotation_8", "format_later": "standard",
                                         "advance": "4, 2"}).content.decode()
    assert ("Stage 1: 16 players, 2 groups of 8 (each at two tables of 4), top 4 of each group go on · "
            "Partner rotation for eight") in eight
    seed = page.split('name="draw_seed" value="')[1].split('"')[0]
    expected = page.split('name="expected_field" value="')[1].split('"')[0]
    client.post(plan_url(event), {**data, "draw_seed": seed, "expected_field": expected, "confirm": "1"})
    round_two = Round.objects.get(event=event, number=2)
    bracket_url = reverse("admin:tournament_event_bracket", args=[event.pk, round_two.pk])
    client.post(bracket_url, {"start_stage": "1"})
    page = client.get(bracket_url).content.decode()
    assert page.count("Hands 1–4 (playing)") == 4 and page.count("Hands 9–12 (to come)") == 4
    assert "block 1 (hands 1–4) playing" in page and "Record / correct game 1" in page
