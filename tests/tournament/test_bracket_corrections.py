"""Correcting a stage-1 hand after the final has started: the final follows while nothing there is
played (the seat changes hands, audited; the live table takes the new player), and the correction is
refused, saying what was played, once a hand is scored or a move made there. "Bring the bracket up to
date" reports a final that disagrees with stage 1 instead of calling it up to date."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import LiveGame
from games.services.seats import seat_holders
from tests.tournament.bracket_factories import finish_table, played_first_round, stage_game, stage_tables
from tests.tournament.organizer_factories import PASSWORD, pause_for_paper
from tests.tournament.test_manual_hands_live import play_one_move
from tournament.models import AuditEntry, Game, Hand, HandScore, Player, Seat
from tournament.services import advancing, bracket_stages, bracket_view, next_round, results, stage_results
from tournament.services.next_round import NextRoundOptions

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("live_settings")]


@pytest.fixture
def final_started():
    """Round 2: four tables of 4 in stage 1, all finished (each won by its first seat), and the final
    of the four winners started at its live table."""
    event, organizer, _ = played_first_round(16)
    options = NextRoundOptions(field=16, advance=[1], draw_seed=3)
    plan = next_round.plan_next_round(event, options)
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    tables = stage_tables(round_two, 1)
    for number, members in enumerate(tables, start=1):
        finish_table(stage_game(round_two, 1, number), members, organizer)
    advancing.advance_bracket(round_two)
    bracket_stages.start_stage(round_two, 2, organizer)
    assert sorted(stage_tables(round_two, 2)[0]) == sorted(t[0] for t in tables)
    return event, organizer, round_two, tables


def correct_table_one(round_two, tables, organizer):
    """Hand 1 of stage 1's table 1 corrected: its second seat went out, not its first."""
    first, second, *rest = tables[0]
    return finish_table(stage_game(round_two, 1, 1), [second, first, *rest], organizer, number=1)


def test_an_unplayed_final_takes_the_new_table_winner_in_the_old_ones_seat(final_started):
    event, organizer, round_two, tables = final_started
    old, new = tables[0][0], tables[0][1]
    final = stage_game(round_two, 2, 1)
    seat = Seat.objects.get(table=final.table, player_id=old)
    outcome = correct_table_one(round_two, tables, organizer)
    assert outcome.reseated and Player.objects.get(pk=new).display_name in outcome.reseated[0]
    seat.refresh_from_db()
    assert seat.player_id == new, "the same seat at the same table, the others stay where they are"
    assert sorted(stage_tables(round_two, 2)[0]) == sorted([new, *(t[0] for t in tables[1:])])
    live = LiveGame.objects.get(game=final)
    holders = seat_holders(live)
    assert holders[seat.number].user_id == Player.objects.get(pk=new).user_id
    assert Player.objects.get(pk=old).user_id not in {h.user_id for h in holders}
    entry = AuditEntry.objects.get(event=event, action="bracket.reseat")
    assert entry.changes["moved"] == [{"from": old, "to": new, "table": 1, "seat": seat.number}]
    state = bracket_view.load_bracket(round_two)
    stage_results.stage_advancers(state, state.stages[0])
    goes_on = {s.seat.player_id for t in state.stages[0].tables for s in t.seats if s.advanced}
    assert goes_on == {p for t in stage_tables(round_two, 2) for p in t}, "the page agrees with the final"
    again = advancing.advance_bracket(round_two)
    assert not again.reseated and not again.conflicts and not again.built


def test_a_final_with_a_hand_scored_refuses_the_correction(final_started):
    event, organizer, round_two, tables = final_started
    final = stage_game(round_two, 2, 1)
    pause_for_paper(final, organizer)
    seats = results.game_seats(final)
    results.record_hand(final, 1, seats[0].pk, {s.pk: 0 if i == 0 else 10 for i, s in enumerate(seats)},
                        organizer, "score sheet")
    before = list(HandScore.objects.filter(hand__game__table__round=round_two).values_list("pk", "points_won"))
    with pytest.raises(results.ResultError) as refused:
        correct_table_one(round_two, tables, organizer)
    message = str(refused.value)
    assert "Stage 2 (the final) has been played already (1 hand scored at table 1)" in message
    assert Player.objects.get(pk=tables[0][1]).display_name in message
    assert "Undo what was played in stage 2 first" in message
    assert list(HandScore.objects.filter(hand__game__table__round=round_two).values_list(
        "pk", "points_won")) == before, "nothing of the correction is kept"
    assert Hand.objects.get(game=stage_game(round_two, 1, 1), number=1).winner.player_id == tables[0][0]
    assert not AuditEntry.objects.filter(event=event, action__in=["hand.correct", "bracket.reseat"]).exists()


def test_a_final_with_a_live_move_refuses_the_correction(final_started):
    _, organizer, round_two, tables = final_started
    final = stage_game(round_two, 2, 1)
    play_one_move(LiveGame.objects.get(game=final).pk)
    assert not HandScore.objects.filter(hand__game=final).exists()
    with pytest.raises(results.ResultError, match=r"moves made at the live table of table 1"):
        correct_table_one(round_two, tables, organizer)
    assert Seat.objects.filter(table=final.table, player_id=tables[0][0]).exists()


def test_a_correction_leaving_a_stage_one_table_unfinished_is_refused(final_started):
    _, organizer, round_two, tables = final_started
    game = stage_game(round_two, 1, 1)
    seats = results.game_seats(game)
    # Nobody reaches the target any more: the game would be running again under a started final.
    with pytest.raises(results.ResultError, match="has no complete result now"):
        results.record_hand(game, 1, seats[0].pk, {s.pk: 0 if i == 0 else 1 for i, s in enumerate(seats)},
                            organizer, "misread")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_correction_that_keeps_the_winner_changes_nothing_later(final_started):
    _, organizer, round_two, tables = final_started
    final = stage_game(round_two, 2, 1)
    pause_for_paper(final, organizer)
    seats = results.game_seats(final)
    results.record_hand(final, 1, seats[0].pk, {s.pk: 0 if i == 0 else 10 for i, s in enumerate(seats)},
                        organizer, "score sheet")
    outcome = finish_table(stage_game(round_two, 1, 1), tables[0], organizer, left=[0, 700, 710, 720], number=1)
    assert outcome.reseated == []
    assert AuditEntry.objects.filter(action="hand.correct").count() == 1


def test_bring_the_bracket_up_to_date_reports_a_final_that_disagrees(client, final_started):
    event, organizer, round_two, tables = final_started
    final = stage_game(round_two, 2, 1)
    pause_for_paper(final, organizer)
    seats = results.game_seats(final)
    results.record_hand(final, 1, seats[0].pk, {s.pk: 0 if i == 0 else 10 for i, s in enumerate(seats)},
                        organizer, "score sheet")
    # Stage 1's table 1 disagrees with the final (as data kept from before corrections were checked).
    hand = Hand.objects.get(game=stage_game(round_two, 1, 1), number=1)
    second = Seat.objects.get(table__round=round_two, table__stage=1, player_id=tables[0][1])
    first = Seat.objects.get(table__round=round_two, table__stage=1, player_id=tables[0][0])
    HandScore.objects.filter(hand=hand, seat=first).update(points_won=0, points_left=900)
    HandScore.objects.filter(hand=hand, seat=second).update(points_won=2000, points_left=0)
    Hand.objects.filter(pk=hand.pk).update(winner=second)
    Game.objects.filter(pk=hand.game_id).update(winner=second)
    assert client.login(username=organizer.username, password=PASSWORD)
    url = reverse("admin:tournament_event_bracket", args=[event.pk, round_two.pk])
    page = client.post(url, {"advance": "1"}, follow=True).content.decode()
    assert "The bracket is up to date." not in page
    assert "Not up to date: Stage 2 (the final) has been played already (1 hand scored at table 1)" in page
    assert 'class="errornote conflict"' in client.get(url).content.decode()


def test_the_organizer_sees_the_refusal_on_the_record_hand_page(client, final_started):
    _, organizer, round_two, tables = final_started
    final = stage_game(round_two, 2, 1)
    pause_for_paper(final, organizer)
    final_seats = results.game_seats(final)
    results.record_hand(final, 1, final_seats[0].pk, {s.pk: 0 if i == 0 else 10 for i, s in
                                                       enumerate(final_seats)}, organizer, "score sheet")
    game = stage_game(round_two, 1, 1)
    seats = results.game_seats(game)
    assert client.login(username=organizer.username, password=PASSWORD)
    url = reverse("admin:tournament_game_record_hand", args=[game.pk]) + "?hand=1"
    data = {"number": 1, "winner": seats[1].pk, "reason": "the sheet was misread",
            **{f"points_{s.pk}": 0 if i == 1 else 500 for i, s in enumerate(seats)},
            **{f"did_not_play_{s.pk}": "played" for s in seats}}
    response = client.post(url, data)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Refused: Stage 2 (the final) has been played already (1 hand scored at table 1)" in page
    assert Hand.objects.get(game=game, number=1).winner_id == seats[0].pk


def test_the_organizer_sees_the_final_follow_on_the_record_hand_page(client, final_started):
    _, organizer, round_two, tables = final_started
    game = stage_game(round_two, 1, 1)
    seats = results.game_seats(game)
    assert client.login(username=organizer.username, password=PASSWORD)
    url = reverse("admin:tournament_game_record_hand", args=[game.pk]) + "?hand=1"
    data = {"number": 1, "winner": seats[1].pk, "reason": "the sheet was misread",
            **{f"points_{s.pk}": 0 if i == 1 else 500 for i, s in enumerate(seats)},
            **{f"did_not_play_{s.pk}": "played" for s in seats}}
    page = client.post(url, data, follow=True).content.decode()
    new = Player.objects.get(pk=tables[0][1]).display_name
    old = Player.objects.get(pk=tables[0][0]).display_name
    assert f"The next stage follows the correction: Stage 2 (the final): {new} takes {old}" in page
    assert tables[0][1] in stage_tables(round_two, 2)[0]
