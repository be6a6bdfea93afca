"""The public bracket page: the diagram, the live fragment, projector mode, and a fixed query count."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournament.bracket_factories import finish_table, played_first_round, stage_game, stage_tables
from tournament.brackets import CHALLENGE, PARTNERS_ROTATION
from tournament.services import brackets
from tournament.services.brackets import NextRoundOptions

pytestmark = pytest.mark.django_db


def bracket_round(players=16, **options):
    event, organizer, _ = played_first_round(players)
    opts = NextRoundOptions(**{"field": players, "advance": [1], "draw_seed": 9, **options})
    round_two = brackets.create_bracket_round(event, opts, brackets.plan_next_round(event, opts).field_ids,
                                              organizer)
    brackets.start_stage(round_two, 1, organizer)
    return event, organizer, round_two


def test_the_page_draws_stages_tables_seeds_and_who_went_on(client):
    event, organizer, round_two = bracket_round()
    url = reverse("bracket", args=[event.slug, 2])
    page = client.get(url).content.decode()
    assert page.count('class="bracket-table') == 5  # four tables and the final's placeholder
    assert "Seated when stage 1 ends" in page and "Top 1 of each table go on" in page
    for number, members in enumerate(stage_tables(round_two, 1), start=1):
        finish_table(stage_game(round_two, 1, number), members, organizer)
    page = client.get(url).content.decode()
    assert page.count("✓ on") == 4 and "Seated when stage 1 ends" not in page
    final = stage_tables(round_two, 2)[0]
    brackets.start_stage(round_two, 2, organizer)
    finish_table(stage_game(round_two, 2, 1), final, organizer)
    fragment = client.get(reverse("bracket_fragment", args=[event.slug, 2])).content.decode()
    assert 'id="champion"' in fragment and "<html" not in fragment
    assert "🏆" in fragment
    assert "projector" in client.get(url, {"projector": "1"}).content.decode().split("<main")[1][:300]
    event_page = client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert url in event_page


def test_only_bracket_rounds_of_public_events_have_a_bracket_page(client):
    event, organizer, round_two = bracket_round()
    assert client.get(reverse("bracket", args=[event.slug, 1])).status_code == 404
    assert client.get(reverse("bracket", args=[event.slug, 3])).status_code == 404
    event.status = "draft"
    event.save(update_fields=["status"])
    assert client.get(reverse("bracket", args=[event.slug, 2])).status_code == 404


def test_challenge_eliminations_and_partner_rotations_are_shown(client):
    event, organizer, round_two = bracket_round(formats=[CHALLENGE, PARTNERS_ROTATION])
    game = stage_game(round_two, 1, 1)
    seats = list(game.table.seats.order_by("number"))
    from tournament.models import Hand, HandScore

    # Live play stores Challenge UNO hands (the organizer's form records winner-takes only): seat 3 is
    # caught with 510 points, over the target, and is out.
    hand = Hand.objects.create(game=game, number=1, dealer=0, winner=seats[0])
    HandScore.objects.bulk_create([HandScore(hand=hand, seat=s, points_left=p, points_won=p)
                                   for s, p in zip(seats, [0, 20, 30, 510], strict=True)])
    page = client.get(reverse("bracket", args=[event.slug, 2])).content.decode()
    assert "out at hand 1" in page and 'class=" eliminated"' in page
    assert "Challenge UNO" in page
    for number in range(1, len(stage_tables(round_two, 1)) + 1):
        g = stage_game(round_two, 1, number)
        g.status = "finished"
        g.save(update_fields=["status"])
    brackets.advance_bracket(round_two)
    page = client.get(reverse("bracket", args=[event.slug, 2])).content.decode()
    assert "Partner rotation (3 × 4 hands)" in page and "Hands 1–4 (to come):" in page


def count_queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_query_count_does_not_grow_with_the_bracket(client):
    small_event, organizer, small = bracket_round(16)
    big_event, big_organizer, big = bracket_round(64)
    for number, members in enumerate(stage_tables(big, 1), start=1):
        finish_table(stage_game(big, 1, number), members, big_organizer)
    small_count = count_queries(client, reverse("bracket_fragment", args=[small_event.slug, 2]))
    big_count = count_queries(client, reverse("bracket_fragment", args=[big_event.slug, 2]))
    assert small_count == big_count <= 12
    assert count_queries(client, reverse("bracket", args=[big_event.slug, 2])) == big_count
