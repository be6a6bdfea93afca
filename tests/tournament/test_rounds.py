"""First round: plan (pure seating), confirm, start; pause/resume/finish games."""

import pytest

from tests.tournament.organizer_factories import make_event, make_players, make_user
from tournament.generators.seating import BOT, SeatingError
from tournament.models import AuditEntry, Event, Game, Player, Round, Seat
from tournament.services import game_status, rounds
from tournament.services.rounds import RoundError

pytestmark = pytest.mark.django_db


def test_plan_uses_checked_in_players_when_there_are_any():
    event = make_event(min_table_size=2, max_table_size=4)
    checked = make_players(event, 5, status=Player.Status.CHECKED_IN)
    make_players(event, 3)
    plan = rounds.plan_first_round(event, seed=11)
    assert plan.source == rounds.CHECKED_IN
    assert sorted(plan.player_ids) == sorted(p.pk for p in checked)
    everyone = rounds.plan_first_round(event, seed=11, source=rounds.REGISTERED)
    assert len(everyone.player_ids) == 8 and [len(t) for t in everyone.tables] == [4, 4]


def test_withdrawn_players_are_never_seated():
    event = make_event(min_table_size=2, max_table_size=4)
    make_players(event, 4)
    make_players(event, 2, status=Player.Status.WITHDRAWN)
    assert len(rounds.plan_first_round(event, seed=1).player_ids) == 4


def test_too_few_players_is_a_seating_error_unless_bots_fill():
    event = make_event(min_table_size=3, max_table_size=4)
    make_players(event, 2)
    with pytest.raises(SeatingError, match="2 players cannot be seated"):
        rounds.plan_first_round(event, seed=1)
    plan = rounds.plan_first_round(event, seed=1, fill_with_bots=True)
    assert plan.tables[0].count(BOT) == 1


def test_same_seed_same_plan():
    event = make_event(min_table_size=4, max_table_size=4)
    make_players(event, 12)
    assert rounds.plan_first_round(event, seed=42).tables == rounds.plan_first_round(event, seed=42).tables


def test_confirm_creates_round_tables_seats_games_and_audit():
    event = make_event(min_table_size=3, max_table_size=4, target_score=300)
    make_players(event, 10)
    organizer = make_user()
    plan = rounds.plan_first_round(event, seed=7)
    round_ = rounds.create_first_round(event, plan, organizer)
    assert (round_.number, round_.kind, round_.seed, round_.status) == (1, "tables", 7, "planned")
    tables = list(round_.tables.order_by("number"))
    assert [t.seats.count() for t in tables] == [len(t) for t in plan.tables]
    assert sorted(len(t) for t in plan.tables) == [3, 3, 4]
    assert Seat.objects.filter(table__round=round_, player__isnull=False).count() == 10
    assert [g.target_score for g in Game.objects.filter(table__round=round_)] == [300, 300, 300]
    entry = AuditEntry.objects.get(event=event, action="round.create")
    assert entry.actor == organizer and entry.changes["seed"] == 7


def test_target_comes_from_the_preset_when_the_event_sets_none():
    event = make_event(rules_preset="uno-400", target_score=None, min_table_size=2, max_table_size=4)
    make_players(event, 4)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), make_user())
    assert Game.objects.get(table__round=round_).target_score == 400


def test_a_plan_with_tables_outside_the_bounds_is_refused():
    event = make_event(min_table_size=3, max_table_size=5)
    players = [p.pk for p in make_players(event, 8)]
    squeezed = rounds.SeatingPlan(3, rounds.REGISTERED, False, False, [players[:2] + [BOT], players[2:]])
    assert rounds.plan_problems(event, squeezed) == ["Table 2 has 6 seats; tables must have 3 to 5."]
    with pytest.raises(RoundError, match="Table 2 has 6 seats"):
        rounds.create_first_round(event, squeezed, make_user())
    assert not Round.objects.filter(event=event).exists()


def test_a_stale_plan_is_refused():
    event = make_event(min_table_size=2, max_table_size=4)
    players = make_players(event, 6)
    plan = rounds.plan_first_round(event, seed=3)
    Player.objects.filter(pk=players[0].pk).update(status=Player.Status.WITHDRAWN)
    with pytest.raises(RoundError, match="changed since the preview"):
        rounds.create_first_round(event, plan, make_user())
    assert not Round.objects.filter(event=event).exists()


def test_regenerate_until_the_round_starts():
    event = make_event(min_table_size=2, max_table_size=4)
    make_players(event, 8)
    organizer = make_user()
    rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), organizer)
    second = rounds.create_first_round(event, rounds.plan_first_round(event, seed=2), organizer)
    assert list(Round.objects.filter(event=event)) == [second] and second.seed == 2
    rounds.start_round(second, organizer)
    with pytest.raises(RoundError, match="already started"):
        rounds.create_first_round(event, rounds.plan_first_round(event, seed=3), organizer)


def test_start_round_starts_games_and_event():
    event = make_event(min_table_size=2, max_table_size=4, status=Event.Status.REGISTRATION)
    make_players(event, 6)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), make_user())
    rounds.start_round(round_, make_user())
    round_.refresh_from_db()
    event.refresh_from_db()
    assert round_.status == "running" and round_.started_at
    assert event.status == "running"
    assert set(Game.objects.filter(table__round=round_).values_list("status", flat=True)) == {"running"}
    with pytest.raises(RoundError, match="not planned"):
        rounds.start_round(round_, None)


def test_pause_resume_finish_a_game():
    event = make_event(min_table_size=2, max_table_size=2)
    make_players(event, 2)
    organizer = make_user()
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), organizer)
    rounds.start_round(round_, organizer)
    game = Game.objects.get(table__round=round_)
    assert game_status.change_game_status(game, "pause", organizer).status == "paused"
    with pytest.raises(RoundError, match="cannot be paused"):
        game_status.change_game_status(game, "pause", organizer)
    assert game_status.change_game_status(game, "resume", organizer).status == "running"
    with pytest.raises(RoundError, match="Say why"):
        game_status.change_game_status(game, "finish", organizer)
    finished = game_status.change_game_status(game, "finish", organizer, reason="Hall closes at six")
    assert finished.status == "finished" and finished.winner is None  # no hands: no leader
    round_.refresh_from_db()
    assert round_.status == "finished", "the round ends with its last game"
    assert AuditEntry.objects.get(action="game.finish").reason == "Hall closes at six"


def test_round_overview_in_constant_queries(django_assert_max_num_queries):
    event = make_event(min_table_size=4, max_table_size=4)
    make_players(event, 40)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), make_user())
    with django_assert_max_num_queries(5):
        lines = rounds.round_overview(round_)
    assert len(lines) == 10 and all(len(line.seats) == 4 for line in lines)
    assert all(line.seats[0].seat.label for line in lines)  # players were loaded with the seats
