"""The event's places (``tournament.services.final_places``): from the bracket once there is one, the
standings' order before."""

from pathlib import Path

import pytest

from tests.tournament.bracket_factories import finish_table, stage_game
from tests.tournament.places_factories import bracket_started, finish_stage_one, finished_event
from tests.tournament.test_services_imports import import_chain, import_graph, imports_inside_functions
from tournament.services.final_places import event_places, places, with_places
from tournament.standings import StandingRow, compute_standings

pytestmark = pytest.mark.django_db


def test_places_come_from_the_bracket_after_the_final():
    done = finished_event()
    rows = event_places(done.event)
    order = [r.player_id for r in rows]
    label = {r.player_id: r.place for r in rows}
    champion, *rest_of_final = done.final
    assert order[:4] == done.final and [label[p] for p in done.final] == ["1", "2", "3", "4"]
    seconds, thirds, fourths = ([table[i] for table in done.stage_one] for i in (1, 2, 3))
    # Out at stage 1: by their place at the table, then by their points there; tables 1 and 2's seconds
    # are equal on everything and share a place.
    assert set(order[4:6]) == set(seconds[:2]) and order[6:8] == seconds[2:]
    assert [label[p] for p in order[4:8]] == ["5-6", "5-6", "7", "8"]
    assert order[8:12] == thirds and order[12:16] == fourths
    assert [label[p] for p in order[8:16]] == [str(n) for n in range(9, 17)]
    # Then round one's participants outside the bracket by points, the no-shows, the one never seated.
    assert set(order[16:20]) == set(done.outside)
    points_order = [r.player_id for r in compute_standings(done.event) if r.player_id in set(done.outside)]
    assert order[16:20] == points_order
    assert set(order[20:24]) == set(done.no_shows)
    assert all(r.participation == "no_show" for r in rows[20:24])
    assert order[24:] == [done.late.pk] and rows[-1].participation == "not_seated"
    assert [r.rank for r in rows[:8]] == [1, 2, 3, 4, 5, 5, 7, 8]
    # The round-two leaderboard: the bracket's sixteen, with the event's places.
    in_round = places(done.event, done.bracket)
    assert [(r.player_id, r.place) for r in in_round] == [(r.player_id, r.place) for r in rows[:16]]


def test_a_player_out_at_stage_one_has_a_place_while_the_bracket_runs():
    event, organizer, _round_one, bracket, _no_shows = bracket_started()
    assert {r.place for r in event_places(event)[:16]} == {"1-16"}, "all still in: one shared place"
    first = stage_game(bracket, 1, 1)
    members = list(first.table.seats.order_by("number").values_list("player_id", flat=True))
    finish_table(first, members, organizer, left=[0, 500, 540, 580])
    rows = {r.player_id: r for r in event_places(event)}
    # Through to the final: first so far; the twelve still playing share 2-13; the three out follow.
    assert rows[members[0]].place == "1"
    playing = [r for r in rows.values() if r.place == "2-13"]
    assert len(playing) == 12 and not set(members) & {r.player_id for r in playing}
    assert [rows[p].place for p in members[1:]] == ["14", "15", "16"]


def test_before_a_bracket_the_standings_order_stays_and_shared_places_read_shared():
    event, organizer, round_one, bracket, _ = bracket_started()
    bracket.delete()
    rows = event_places(event)
    assert [r.player_id for r in rows] == [r.player_id for r in compute_standings(event)]
    assert [r.rank for r in rows] == [r.rank for r in compute_standings(event)]
    shared = with_places([(1, StandingRow(1, "A")), (2, StandingRow(2, "B")), (2, StandingRow(3, "C")),
                          (3, StandingRow(4, "D"))])
    assert [(r.rank, r.place_label) for r in shared] == [(1, "1"), (2, "2-3"), (2, "2-3"), (4, "4")]


def test_stage_one_finished_everywhere_puts_the_finalists_first():
    event, organizer, _round_one, bracket, _ = bracket_started()
    tables = finish_stage_one(bracket, organizer)
    rows = event_places(event)
    assert {r.player_id for r in rows[:4]} == {t[0] for t in tables}
    assert {r.place for r in rows[:4]} == {"1-4"}
    assert rows[4].place == "5-6"


def test_standings_and_participation_no_longer_import_each_other():
    root = Path(__file__).resolve().parents[2] / "tournament"
    assert imports_inside_functions((root / "standings.py").read_text()) == []
    # Participation must not reach the standings through any chain of imports in the package, at module
    # level or inside a function: the standings build on participation, never the reverse.
    graph = import_graph(root, "tournament")
    assert "tournament.services.participation" in import_chain(graph, "tournament.standings",
                                                               "tournament.services.participation")
    assert import_chain(graph, "tournament.services.participation", "tournament.standings") is None
