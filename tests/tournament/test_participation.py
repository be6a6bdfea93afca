"""Who took part in a round: their own moves, or a hand recorded by hand; never the timer's or a bot's."""

import pytest

from tests.tournament.bracket_factories import played_first_round
from tests.tournament.participation_factories import BOT, PLAYER, TIMER, bots_played, move, table_players
from tests.tournament.standings_data import make_event, make_players, seat_round
from tournament.models import Attendance, Game, Hand, Seat
from tournament.services import participation
from tournament.standings import compute_standings

pytestmark = pytest.mark.django_db


def first_round_games(round_one):
    return list(Game.objects.filter(table__round=round_one).order_by("table__number"))


def test_a_table_where_only_the_timer_and_bots_finished_hands_is_all_no_shows():
    event, _organizer, round_one = played_first_round(16)
    game = first_round_games(round_one)[0]
    bots_played(game)
    absent = table_players(game)
    took = participation.players_who_took_part(round_one)
    assert len(took) == 12 and took.isdisjoint(absent)
    summary = participation.round_participation(round_one)
    assert summary.played == 12
    assert sorted(n.player_id for n in summary.no_shows) == sorted(absent)
    rows = {r.player_id: r for r in compute_standings(event, round=round_one)}
    assert all(rows[p].participation == participation.NO_SHOW for p in absent)
    assert rows[absent[0]].points_won > 0, "the points a bot scored for them stay on the scoreboard"


def test_one_move_of_their_own_is_taking_part():
    _event, _organizer, round_one = played_first_round(16)
    game = first_round_games(round_one)[0]
    bots_played(game)
    move(game, 2, PLAYER)
    players = table_players(game)
    took = participation.players_who_took_part(round_one)
    assert players[2] in took
    assert not took & {players[0], players[1], players[3]}


def test_a_hand_recorded_by_hand_where_bots_played_keeps_the_no_shows():
    _event, _organizer, round_one = played_first_round(16)
    game = first_round_games(round_one)[0]
    bots_played(game)
    Hand.objects.filter(game=game, number=1).update(source=Hand.Source.MANUAL)
    assert participation.players_who_took_part(round_one).isdisjoint(table_players(game))


def test_a_table_played_on_paper_counts_its_hands_unless_the_organizer_says_did_not_play():
    _event, _organizer, round_one = played_first_round(16)
    game = first_round_games(round_one)[0]  # recorded by hand, nothing played live
    players = table_players(game)
    assert set(players) <= participation.players_who_took_part(round_one)
    Seat.objects.filter(table_id=game.table_id, number=3).update(organizer_says=Attendance.DID_NOT_PLAY)
    took = participation.players_who_took_part(round_one)
    assert set(players[:3]) <= took and players[3] not in took


def test_a_move_at_another_table_or_by_the_timer_does_not_count():
    _event, _organizer, round_one = played_first_round(16)
    first, second = first_round_games(round_one)[:2]
    bots_played(first)
    bots_played(second)
    move(second, 1, PLAYER)  # seat 1 of table 2 played; seat 1 of table 1 did not
    move(first, 1, TIMER)
    move(first, 1, BOT)
    took = participation.players_who_took_part(round_one)
    assert table_players(second)[1] in took and table_players(first)[1] not in took


def test_partner_rotation_game_seats_are_mapped_through_the_seat_order():
    event = make_event(slug="rotation")
    players = make_players(event, ["Asha", "Ravi", "Meera", "Kabir", "Zoya"])
    round_, tables = seat_round(event, players, table_size=5)
    block = Game.objects.create(table=tables[0].table, number=1, target_score=200, seat_order=[3, 1, 4, 0],
                                status=Game.Status.RUNNING)
    move(block, 0, PLAYER)  # game seat 0 is table seat 3: Kabir
    move(block, 2, BOT)  # game seat 2 is table seat 4: Zoya, played for by a bot
    assert participation.players_who_took_part(round_) == {players[3].pk}
    summary = participation.round_participation(round_)
    assert (summary.played, [n.display_name for n in summary.no_shows]) == (1, ["Asha", "Meera", "Ravi", "Zoya"])


def test_the_event_counts_taking_part_in_any_of_its_rounds():
    event = make_event(slug="two-rounds")
    players = make_players(event, ["Asha", "Ravi"])
    round_one, tables_one = seat_round(event, players, table_size=2)
    round_two, tables_two = seat_round(event, players, table_size=2, number=2)
    game_one = Game.objects.create(table=tables_one[0].table, target_score=200)
    game_two = Game.objects.create(table=tables_two[0].table, target_score=200)
    move(game_one, 0, PLAYER)  # Asha plays round 1
    move(game_two, 1, PLAYER)  # Ravi only round 2
    by_round = {r.display_name: r.participation for r in compute_standings(event, round=round_one)}
    assert by_round == {"Asha": "played", "Ravi": "no_show"}
    assert {r.display_name: r.participation for r in compute_standings(event)} == {"Asha": "played", "Ravi": "played"}
    assert participation.players_who_took_part(round_two) == {players[1].pk}
