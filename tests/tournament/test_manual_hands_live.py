"""Hands recorded by hand for a game that has a live table: refused while the table plays (new hands and
corrections alike, nothing saved), taken once the organizer has paused the game, numbered after the
hands played live; a hand played live after the resume takes the next free number; a hand recorded by
hand that ends the game (a rotation block's fourth) closes the live table and the next block starts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.models import LiveGame
from games.services import timers
from games.services.moves import submit_move
from games.services.seats import seat_holders, turn_game_seat
from tests.tournament.bracket_factories import played_first_round
from tests.tournament.organizer_factories import PASSWORD, make_event, make_organizer_of, make_players
from tests.tournament.test_rotation_live import play_live
from tournament.generators.brackets import PARTNERS_ROTATION
from tournament.models import AuditEntry, Game, Hand
from tournament.services import bracket_stages, game_status, next_round, results, rounds
from tournament.services.next_round import NextRoundOptions
from tournament.services.results import ResultError, record_hand

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("live_settings")]



def play_live_until(live_id: int, hands: int) -> LiveGame:
    """Play live until the tournament game has `hands` hands or the live table closes."""
    return play_live(live_id, hands)


def play_one_move(live_id: int) -> None:
    """One move of the next hand (dealt first if it is not yet), so a hand is under way at the table."""
    live = LiveGame.objects.select_related("game").get(pk=live_id)
    game = engine.Game.from_dict(live.state)
    seat = turn_game_seat(game, live.hand_seats)
    if seat is None:
        assert timers.sweep_game(live.pk, timezone.now() + timedelta(minutes=5))
        live = LiveGame.objects.select_related("game").get(pk=live_id)
        game = engine.Game.from_dict(live.state)
        seat = turn_game_seat(game, live.hand_seats)
    action = engine.legal_actions(game.hand, live.hand_seats.index(seat))[0].to_dict()
    action.pop("seat", None)
    user = get_user_model().objects.get(pk=seat_holders(live)[seat].user_id)
    submit_move(live.pk, user, live.version, action)


def paper_hand(game: Game, number: int, winner: int = 0):
    """Hand ``number`` recorded by hand: game seat ``winner`` went out, the others hold 7 points each."""
    seats = results.game_seats(game)
    left = {s.pk: 0 if i == winner else 7 for i, s in enumerate(seats)}
    return record_hand(game, number, seats[winner].pk, left, None, "score sheet")


@pytest.fixture
def live_round():
    """A started round of one table of three students (its live table open), a target out of reach."""
    event = make_event(min_table_size=3, max_table_size=3, target_score=5000, turn_seconds=0)
    organizer = make_organizer_of(event)
    make_players(event, 3)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=4), organizer)
    rounds.start_round(round_, organizer)
    game = Game.objects.get(table__round=round_)
    return game, LiveGame.objects.get(game=game), organizer


def test_a_game_played_live_refuses_hands_by_hand_and_saves_nothing(live_round):
    game, live, organizer = live_round
    play_live_until(live.pk, 1)
    with pytest.raises(ResultError, match=r"being played live at its table: pause the game first"):
        paper_hand(game, 2)
    with pytest.raises(ResultError, match="pause the game first"):  # a correction too
        paper_hand(game, 1)
    assert list(Hand.objects.filter(game=game).values_list("number", "source")) == [(1, "live")]
    assert not AuditEntry.objects.filter(action__startswith="hand.").exists()


def test_paused_game_takes_the_next_number_and_live_play_goes_on_after_it(live_round):
    game, live, organizer = live_round
    play_live_until(live.pk, 2)
    play_one_move(live.pk)  # hand 3 is under way at the table when the organizer pauses
    game_status.change_game_status(game, "pause", organizer)
    assert paper_hand(game, 3).hand.number == 3
    with pytest.raises(ResultError, match="next hand of this game is hand 4"):
        paper_hand(game, 3 + 2)
    game_status.change_game_status(game, "resume", organizer)
    with pytest.raises(ResultError, match="pause the game first"):
        paper_hand(game, 4)
    # the hand that was under way is finished at the table: it is hand 4, not a second hand 3
    play_live_until(live.pk, 4)
    assert list(Hand.objects.filter(game=game).order_by("number").values_list("number", "source")) == [
        (1, "live"), (2, "live"), (3, "manual"), (4, "live")]
    live.refresh_from_db()
    assert live.status == LiveGame.Status.RUNNING


def test_the_record_hand_page_says_why_and_pauses_when_asked(client, live_round):
    game, live, organizer = live_round
    client.login(username=organizer.username, password=PASSWORD)
    url = reverse("admin:tournament_game_record_hand", args=[game.pk])
    page = client.get(url).content.decode()
    assert 'id="played-live"' in page and 'name="pause_live"' in page
    seats = results.game_seats(game)
    form = {"number": 1, "winner": seats[0].pk, "reason": "paper",
            **{f"points_{s.pk}": 0 if i == 0 else 5 for i, s in enumerate(seats)},
            **{f"did_not_play_{s.pk}": "played" for s in seats}}
    refused = client.post(url, form).content.decode()
    assert "being played live at its table: pause the game first" in refused
    assert not Hand.objects.filter(game=game).exists()
    assert client.post(url, {**form, "pause_live": "on"}).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED and Hand.objects.get(game=game).source == "manual"
    assert AuditEntry.objects.filter(action="game.pause", reason="to record a hand by hand").exists()
    assert 'name="pause_live"' not in client.get(url).content.decode()  # paused: nothing to offer


@pytest.fixture
def rotation_block():
    """A four-player partner rotation final, started: block 1's game and its open live table."""
    event, organizer, _ = played_first_round(8, min_size=4, max_size=4)
    options = NextRoundOptions(field=4, advance=[1], formats=[PARTNERS_ROTATION], draw_seed=3)
    plan = next_round.plan_next_round(event, options)
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    game = Game.objects.get(table__round=round_two, number=1)
    return game, LiveGame.objects.get(game=game), organizer


def test_a_rotation_block_finished_by_hand_closes_its_live_table_and_the_next_block_starts(rotation_block):
    game, live, organizer = rotation_block
    play_live_until(live.pk, 2)
    with pytest.raises(ResultError, match="pause the game first"):
        paper_hand(game, 3)
    game_status.change_game_status(game, "pause", organizer)
    paper_hand(game, 3)
    outcome = paper_hand(game, 4, winner=1)
    assert outcome.game_finished
    game.refresh_from_db()
    live.refresh_from_db()
    assert game.status == Game.Status.FINISHED and live.status == LiveGame.Status.FINISHED
    assert [h.number for h in game.hands.order_by("number")] == [1, 2, 3, 4]
    following = Game.objects.get(table=game.table, number=2)
    assert following.status == Game.Status.RUNNING
    assert LiveGame.objects.get(game=following).status == LiveGame.Status.RUNNING


def test_a_rotation_block_resumed_after_a_hand_by_hand_ends_at_its_fourth_hand(rotation_block):
    game, live, organizer = rotation_block
    play_live_until(live.pk, 2)
    game_status.change_game_status(game, "pause", organizer)
    paper_hand(game, 3)
    game_status.change_game_status(game, "resume", organizer)
    live = play_live_until(live.pk, 99)  # until the table closes
    game.refresh_from_db()
    assert live.status == LiveGame.Status.FINISHED and game.status == Game.Status.FINISHED
    assert list(game.hands.order_by("number").values_list("number", "source")) == [
        (1, "live"), (2, "live"), (3, "manual"), (4, "live")]
    assert Game.objects.get(table=game.table, number=2).status == Game.Status.RUNNING
