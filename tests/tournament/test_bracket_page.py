"""The public bracket page: the diagram, the live fragment, projector mode, and a fixed query count."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournament.bracket_factories import (
    bracket_round,
    finish_table,
    played_first_round,
    stage_game,
    stage_tables,
)
from tests.tournament.organizer_factories import pause_for_paper
from tournament.generators.brackets import CHALLENGE, PARTNERS_ROTATION
from tournament.models import Attendance, Seat
from tournament.services import advancing, bracket_stages, next_round
from tournament.services.next_round import NextRoundOptions

pytestmark = pytest.mark.django_db


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
    bracket_stages.start_stage(round_two, 2, organizer)
    finish_table(stage_game(round_two, 2, 1), final, organizer)
    fragment = client.get(reverse("bracket_fragment", args=[event.slug, 2])).content.decode()
    assert 'id="champion"' in fragment and "<html" not in fragment
    assert "🏆" in fragment
    assert "projector" in client.get(url, {"projector": "1"}).content.decode().split("<main")[1][:300]
    projector = client.get(url, {"projector": "1"}).content.decode()
    assert "navbar" not in projector and "/accounts/login/" not in projector and "Log in" not in projector
    client.force_login(organizer)  # a logged-in reader's page is filled with their parts: still no chrome
    projector = client.get(url, {"projector": "1"}).content.decode()
    assert "navbar" not in projector and "Log out" not in projector and "/admin/" not in projector
    client.logout()
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
    # Nobody made a move here: everyone took part only because the organizer says so.
    Seat.objects.filter(table__round=round_two, table__stage=1).update(organizer_says=Attendance.PLAYED)
    advancing.advance_bracket(round_two)
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
    # The page reuses the diagram the fragment loaded (cached per scores version): the version check only.
    assert count_queries(client, reverse("bracket", args=[big_event.slug, 2])) <= big_count


def test_a_rotation_shows_its_schedule_and_the_block_being_played(client):
    from tournament.generators.brackets import PARTNERS_ROTATION_8
    from tournament.services import results

    event, organizer, _ = played_first_round(12, min_size=4, max_size=4)
    options = NextRoundOptions(field=8, advance=[1], formats=[PARTNERS_ROTATION_8], draw_seed=2)
    plan = next_round.plan_next_round(event, options)
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    group = round_two.tables.get()
    names = {s.number: s.player.display_name for s in group.seats.select_related("player")}
    for game in group.games.order_by("number"):  # block 1 at both tables of four
        seats = results.game_seats(game)
        pause_for_paper(game, organizer)
        for number in range(1, 5):
            results.record_hand(game, number, seats[0].pk, {s.pk: 0 if i == 0 else 5 for i, s in enumerate(seats)},
                                organizer, "sheet")
    page = client.get(reverse("bracket", args=[event.slug, 2])).content.decode()
    block_two = group.games.get(number=3).seat_order, group.games.get(number=4).seat_order
    a, b, c, d = (names[n] for n in block_two[0])
    assert "Block 2 of 7 (hands 5–8, playing)" in page
    assert f"Table A: {a} &amp; {c} v {b} &amp; {d}" in page
    assert "Partner rotation (7 × 4 hands)" in page and page.count("(played)") == 1
    table_page = client.get(reverse("table_detail", args=[event.slug, group.pk])).content.decode()
    assert "Partner rotation: 7 blocks of 4 hands" in table_page
    assert f"Table A: {a} &amp; {c} v {b} &amp; {d}" in table_page and "block-playing" in table_page
    assert table_page.count("block-to-come") == 5 and table_page.count("block-played") == 1
