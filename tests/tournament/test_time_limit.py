"""A round's time limit (docs/rules.md, "Time limit"): past it no hand is dealt, a hand in play is played
to its end and then the highest total wins; games between two hands are finished by the sweeper's tick
(the `games.signals.sweep` receiver); a tie has no winner, as when an organizer finishes a game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.models import LiveGame
from games.services import timers
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players
from tests.tournament.test_manual_hands_live import play_one_move
from tests.tournament.test_rotation_live import play_live
from tournament.models import AuditEntry, Game, Hand, Round
from tournament.services import rounds
from tournament.services.round_control import set_time_limit
from tournament.services.rounds import seat_totals

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("live_settings")]


@pytest.fixture(autouse=True)
def sweep_every_tick(settings):
    settings.TOURNAMENT_TIME_LIMIT_SWEEP_SECONDS = 0  # the test drives the sweeper's ticks itself


@pytest.fixture
def running():
    event = make_event(min_table_size=3, max_table_size=3, target_score=5000, turn_seconds=0)
    organizer = make_organizer_of(event)
    make_players(event, 3)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=4), organizer)
    rounds.start_round(round_, organizer)
    game = Game.objects.get(table__round=round_)
    return round_, game, LiveGame.objects.get(game=game), organizer


def limit_passed(round_: Round) -> None:
    Round.objects.filter(pk=round_.pk).update(time_limit_at=timezone.now() - timedelta(seconds=1))


def test_the_limit_passing_mid_hand_lets_the_hand_finish_then_the_highest_total_wins(running):
    round_, game, live, _ = running
    play_live(live.pk, 1)  # one hand played: somebody leads
    play_one_move(live.pk)  # the second hand is dealt and under way
    limit_passed(round_)
    timers.sweep_once(timezone.now())  # the tick: a hand is in play, so the game goes on
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    finished = play_live(live.pk)  # the hand in play is played to its end ... and the table closes
    assert finished.status == LiveGame.Status.FINISHED
    assert Hand.objects.filter(game=game).count() == 2, "no hand dealt after the limit"
    game.refresh_from_db()
    totals = seat_totals([game.pk])[game.pk]
    best = max(totals.values())
    assert game.status == Game.Status.FINISHED and not engine.Game.from_dict(finished.state).over
    leaders = [seat for seat, total in totals.items() if total == best]
    # The deal is random: two seats can finish level, and a tie has no winner.
    assert game.winner_id == (leaders[0] if len(leaders) == 1 else None), totals
    entry = AuditEntry.objects.get(action="game.time_limit")
    assert "time limit" in entry.reason
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED


def test_a_game_between_two_hands_is_finished_by_the_sweepers_tick(running):
    round_, game, live, _ = running
    play_live(live.pk, 1)  # the hand is over; the next is not dealt yet
    live.refresh_from_db()
    assert live.next_hand_at is not None
    limit_passed(round_)
    timers.sweep_once(timezone.now() + timedelta(minutes=5))  # the next deal is due too: the limit wins
    game.refresh_from_db()
    live.refresh_from_db()
    assert game.status == Game.Status.FINISHED and live.status == LiveGame.Status.FINISHED
    assert Hand.objects.filter(game=game).count() == 1
    assert game.winner is not None and game.winner == Hand.objects.get(game=game).winner
    assert AuditEntry.objects.filter(action="game.finish", reason__icontains="time limit").exists()


def test_before_the_limit_nothing_is_finished(running):
    round_, game, live, organizer = running
    set_time_limit(round_, timezone.now() + timedelta(minutes=30), organizer)
    play_live(live.pk, 1)
    timers.sweep_once(timezone.now())
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert AuditEntry.objects.filter(action="round.time_limit", actor=organizer).exists()


def test_the_organizer_sets_and_clears_the_limit_from_the_live_view(running):
    round_, game, live, organizer = running
    client = Client()
    client.force_login(organizer)
    url = reverse("admin:tournament_round_live", args=[round_.pk])
    before = timezone.now()
    client.post(url, {"action": "time_limit", "minutes": "20"})
    round_.refresh_from_db()
    assert before + timedelta(minutes=19) < round_.time_limit_at <= timezone.now() + timedelta(minutes=20)
    for bad in ("0", "-5", "abc", "99999"):
        response = client.post(url, {"action": "time_limit", "minutes": bad}, follow=True)
        assert "whole number of minutes" in response.content.decode()
    client.post(url, {"action": "time_limit", "minutes": ""})
    round_.refresh_from_db()
    assert round_.time_limit_at is None
