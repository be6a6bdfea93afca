"""Where a partner rotation goes on after a block: the service (a player's own next table of four, a
spectator's every table, "waiting" until the block has ended everywhere, "over" after the last) and the
table page's JSON endpoint (a player sees only their own table; bad ids get a 404 with a JSON error)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from games.models import LiveGame
from games.services.lifecycle import start_practice_game
from tests.tournament.bracket_factories import played_first_round
from tests.tournament.organizer_factories import make_user, pause_for_paper
from tournament.generators.brackets import PARTNERS_ROTATION, PARTNERS_ROTATION_8
from tournament.models import Game, Seat
from tournament.services import bracket_stages, next_round, results
from tournament.services.next_round import NextRoundOptions
from tournament.services.rotations import next_block_for

pytestmark = pytest.mark.django_db


def rotation_final(players: int, field: int, game_format: str):
    event, organizer, _ = played_first_round(players, min_size=4, max_size=4)
    options = NextRoundOptions(field=field, advance=[1], formats=[game_format], draw_seed=3)
    plan = next_round.plan_next_round(event, options)
    assert plan.confirmable, plan.problems
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    return round_two.tables.get(), organizer


def finish_block_game(game: Game, organizer) -> None:
    """The block's four hands recorded by hand (its live table paused first)."""
    pause_for_paper(game, organizer)
    seats = results.game_seats(game)
    for number in range(1, 5):
        left = {s.pk: 0 if i == number % 4 else 6 for i, s in enumerate(seats)}
        results.record_hand(game, number, seats[number % 4].pk, left, organizer, "score sheet")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def user_at(table, seat_number: int):
    return Seat.objects.select_related("player__user").get(table=table, number=seat_number).player.user


def label_of(table, seat_number: int) -> str:
    return Seat.objects.select_related("player").get(table=table, number=seat_number).label


# ---- the service --------------------------------------------------------------------------------------

def test_a_player_of_four_gets_the_next_blocks_table_with_their_new_partner():
    table, organizer = rotation_final(8, 4, PARTNERS_ROTATION)
    first = Game.objects.get(table=table, number=1)
    player = user_at(table, first.seat_order[0])
    assert next_block_for(first, player).status == "none", "the block is still being played"
    finish_block_game(first, organizer)
    second = Game.objects.get(table=table, number=2)
    found = next_block_for(first, player)
    assert (found.status, found.block, found.blocks, found.mine) == ("ready", 2, 3, True)
    (where,) = found.tables
    me = first.seat_order[0]
    order = second.seat_order
    assert where.game_id == second.pk and where.live_game_id == LiveGame.objects.get(game=second).pk
    assert where.label == f"table {table.number}"
    assert where.partner == label_of(table, order[(order.index(me) + 2) % 4])
    assert where.partner != label_of(table, first.seat_order[2]), "every block changes partners"


def test_a_spectator_gets_every_table_of_the_next_block_and_no_partner():
    table, organizer = rotation_final(12, 8, PARTNERS_ROTATION_8)
    a, b = Game.objects.filter(table=table, number__in=(1, 2)).order_by("number")
    finish_block_game(a, organizer)
    for viewer in (AnonymousUser(), make_user("onlooker")):
        assert next_block_for(a, viewer).status == "waiting", "table B of block 1 is still playing"
    finish_block_game(b, organizer)
    found = next_block_for(a, AnonymousUser())
    assert (found.status, found.block, found.mine) == ("ready", 2, False)
    assert [t.label for t in found.tables] == [f"table {table.number} (A)", f"table {table.number} (B)"]
    assert [t.game_id for t in found.tables] == list(
        Game.objects.filter(table=table, number__in=(3, 4)).order_by("number").values_list("pk", flat=True))
    assert {t.partner for t in found.tables} == {""}


def test_with_eight_a_player_gets_only_their_own_table_of_four_of_the_next_block():
    table, organizer = rotation_final(12, 8, PARTNERS_ROTATION_8)
    a, b = Game.objects.filter(table=table, number__in=(1, 2)).order_by("number")
    finish_block_game(a, organizer)
    player = user_at(table, a.seat_order[1])
    waiting = next_block_for(a, player)
    assert (waiting.status, waiting.block, waiting.mine, waiting.tables) == ("waiting", 2, True, ())
    finish_block_game(b, organizer)
    (where,) = next_block_for(a, player).tables
    assert a.seat_order[1] in Game.objects.get(pk=where.game_id).seat_order
    # a player of the group looking at the other table of four's finished game: still their own table
    (from_b,) = next_block_for(b, player).tables
    assert from_b == where


def test_after_the_last_block_the_rotation_is_over():
    table, organizer = rotation_final(8, 4, PARTNERS_ROTATION)
    for number in (1, 2, 3):
        finish_block_game(Game.objects.get(table=table, number=number), organizer)
    last = Game.objects.get(table=table, number=3)
    found = next_block_for(last, user_at(table, 0))
    assert (found.status, found.tables) == ("over", ()) and found.message == "That was the rotation's last block."
    assert next_block_for(Game.objects.get(table=table, number=1), user_at(table, 0)).status == "ready"


# ---- the endpoint -------------------------------------------------------------------------------------

def next_url(live_id) -> str:
    return reverse("next_block", args=[str(live_id)])


def test_the_endpoint_gives_a_player_their_table_and_a_spectator_every_table(client):
    table, organizer = rotation_final(12, 8, PARTNERS_ROTATION_8)
    a, b = Game.objects.filter(table=table, number__in=(1, 2)).order_by("number")
    live_a = LiveGame.objects.get(game=a)
    player = user_at(table, a.seat_order[0])
    client.force_login(player)
    html = client.get(reverse("games:table", args=[live_a.pk])).content.decode()
    assert f'data-next-url="{next_url(live_a.pk)}"' in html and 'id="next-block"' in html
    assert client.get(next_url(live_a.pk)).json()["status"] == "none"
    finish_block_game(a, organizer)
    waiting = client.get(next_url(live_a.pk))
    assert waiting.json()["status"] == "waiting" and waiting["Cache-Control"] == "no-store"
    assert "starts when every table of four of this block has finished" in waiting.json()["message"]
    finish_block_game(b, organizer)
    data = client.get(next_url(live_a.pk)).json()
    (mine,) = data["tables"]
    own = next(g for g in Game.objects.filter(table=table, number__in=(3, 4)) if a.seat_order[0] in g.seat_order)
    assert data["status"] == "ready" and data["mine"] is True
    assert mine["url"] == reverse("games:table", args=[LiveGame.objects.get(game=own).pk])
    assert mine["partner"] and mine["label"].startswith(f"table {table.number} (")
    client.logout()
    data = client.get(next_url(live_a.pk)).json()
    assert data["mine"] is False and len(data["tables"]) == 2 and {t["partner"] for t in data["tables"]} == {""}


def test_the_last_block_points_to_the_rotations_scores(client):
    table, organizer = rotation_final(8, 4, PARTNERS_ROTATION)
    for number in (1, 2, 3):
        finish_block_game(Game.objects.get(table=table, number=number), organizer)
    live = LiveGame.objects.get(game__table=table, game__number=3)
    data = client.get(next_url(live.pk)).json()
    assert data["status"] == "over" and data["tables"] == []
    assert data["results_url"] == reverse("table_detail", args=[table.round.event.slug, table.pk])


@pytest.mark.parametrize("bad", ["abc", "0", "999999", "1" * 40, "-1", "1.5"])
def test_bad_ids_get_a_404_with_a_json_error(client, bad):
    response = client.get(f"/play/tables/{bad}/next/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json()["error"].startswith("No such table")


def test_someone_elses_practice_game_is_not_found_and_a_game_without_blocks_has_none(client):
    owner = make_user("owner")
    live = start_practice_game(owner, "uno-official", 2, "heuristic", seed=3)
    client.force_login(make_user("nosy"))
    assert client.get(next_url(live.pk)).status_code == 404
    client.force_login(owner)
    assert client.get(next_url(live.pk)).json() == {
        "status": "none", "block": None, "blocks": None, "mine": False, "message": "", "tables": []}
    html = client.get(reverse("games:table", args=[live.pk])).content.decode()
    assert "data-next-url" not in html and 'id="next-block"' not in html


def test_only_get_is_answered(client):
    table, _ = rotation_final(8, 4, PARTNERS_ROTATION)
    live = LiveGame.objects.get(game__table=table, game__number=1)
    response = client.post(next_url(live.pk))
    assert response.status_code == 405 and response.json() == {"error": "Use GET."}
