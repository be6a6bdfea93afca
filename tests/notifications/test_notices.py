"""What each student is told, end to end through the services that make the change (mail is the channel
here: these students have no push subscription): a bracket's field (through, or out with their place so
far), a later stage starting, a game paused and resumed, and a turn clock running while they are away
(once per game, and never while their socket is at the table)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from games.models import LiveConnection, LiveGame
from games.services import timers
from notifications import background
from tests.games.factories import make_tournament_game
from tests.tournament.bracket_factories import finish_table, played_first_round, stage_game, stage_tables
from tournament.models import Player
from tournament.services import bracket_stages, game_status, next_round
from tournament.services.email_verification import mark_verified
from tournament.services.live_tables import start_live_games
from tournament.services.next_round import NextRoundOptions
from tournament.standings import compute_standings

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def mail_every_time(settings):
    settings.NOTIFICATION_MAIL_INTERVAL = 0


def with_mail(users) -> None:
    for user in users:
        user.email = f"{user.username}@students.example"
        user.save(update_fields=["email"])
        mark_verified(user)


def told(player: Player) -> list[tuple[str, str]]:
    return [(m.subject, m.body.splitlines()[2]) for m in mail.outbox if m.to == [player.user.email]]


def test_a_bracket_tells_who_is_through_who_is_out_and_when_a_stage_starts():
    event, organizer, _ = played_first_round(16)
    background.flush()  # round 1's notices went to nobody: no address yet
    players = list(Player.objects.filter(event=event))
    with_mail([p.user for p in players])
    places = {row.player_id: row.rank for row in compute_standings(event)}
    mail.outbox.clear()

    options = NextRoundOptions(field=8, advance=[2], draw_seed=9)
    round_two = next_round.create_bracket_round(event, options, next_round.plan_next_round(event, options).field_ids,
                                                organizer)
    background.flush()
    field = {p for table in stage_tables(round_two, 1) for p in table}
    assert len(field) == 8
    for player in players:
        if player.pk in field:
            assert told(player) == [("You are through to round 2", f"{event.name}: your page shows where you "
                                     f"play next. Your place so far: {places[player.pk]}.")]
        else:
            assert told(player) == [("You did not go on to round 2",
                                     f"{event.name}: thank you for playing. Your place so far: {places[player.pk]}.")]

    mail.outbox.clear()
    bracket_stages.start_stage(round_two, 1, organizer)
    tables = stage_tables(round_two, 1)
    for table in tables:
        finish_table(stage_game(round_two, 1, tables.index(table) + 1), table, organizer)
    background.flush()
    final = {p for table in stage_tables(round_two, 2) for p in table}
    assert final == {p for table in tables for p in table[:2]}, "the top two of each table"
    first = next(p for p in players if p.pk == tables[0][0])
    last = next(p for p in players if p.pk == tables[0][-1])
    paper = "Your game is paused"  # the organizer paused each table to record its hand by hand
    assert [s for s, _ in told(first) if s != paper] == ["Your table is ready", "You are through to stage 2 of round 2"]
    assert [s for s, _ in told(last) if s != paper] == ["Your table is ready", "You did not go on to stage 2 of round 2"]
    places = {row.player_id: row.rank for row in compute_standings(event)}
    assert told(first)[-1][1] == (f"{event.name}: your page shows where you play next. "
                                  f"Your place so far: {places[first.pk]}.")

    mail.outbox.clear()
    bracket_stages.start_stage(round_two, 2, organizer)
    background.flush()
    assert len(mail.outbox) == len(final)
    assert told(first)[0][0] == "Stage 2 starts: your table is ready"
    assert "round 2, stage 2: table 1, seat" in told(first)[0][1]


def test_a_paused_and_resumed_game_is_told_to_its_players():
    game, users = make_tournament_game(3)
    with_mail(users)
    start_live_games(game.table.round)
    game_status.change_game_status(game, "pause", None)
    game_status.change_game_status(game, "resume", None)
    background.flush()
    player = Player.objects.get(user=users[1])
    assert [subject for subject, _ in told(player)] == ["Your game is paused", "Your game goes on"]
    assert told(player)[0][1].endswith("table 1, seat 2: the organizer paused it; wait at your table.")


def expire_and_sweep(live: LiveGame) -> None:
    LiveGame.objects.filter(pk=live.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    timers.sweep_once(timezone.now())


def test_a_turn_clock_running_while_away_is_told_once_per_game(live_settings):
    game, users = make_tournament_game(3, turn_seconds=30)
    with_mail(users)
    [live] = start_live_games(game.table.round)
    expire_and_sweep(live)
    background.flush()
    away = [m for m in mail.outbox if m.subject == "Your turn clock is running"]
    assert len(away) == 1, "only the seat whose time ran out"
    user = get_user_model().objects.get(email=away[0].to[0])
    assert f"/play/games/{game.pk}/" in away[0].body

    for _ in range(3):  # more turns run out: nothing more for this game
        expire_and_sweep(live)
    background.flush()
    assert [m.to for m in mail.outbox if m.subject == "Your turn clock is running"].count([user.email]) == 1


def test_no_turn_clock_notice_while_the_player_is_at_the_table(live_settings):
    game, users = make_tournament_game(3, turn_seconds=30)
    with_mail(users)
    [live] = start_live_games(game.table.round)
    for seat in range(3):
        LiveConnection.objects.create(live_game=live, seat=seat, channel_name=f"test-{seat}",
                                      last_seen=timezone.now())
    expire_and_sweep(live)
    background.flush()
    assert [m for m in mail.outbox if m.subject == "Your turn clock is running"] == []
