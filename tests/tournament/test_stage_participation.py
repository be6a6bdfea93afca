"""Participation decides every stage: a bracket table ranks who took part above its no-shows, the organizer
decides the places fewer players than go on took part for, a hand recorded by hand keeps a no-show a
no-show unless the organizer says otherwise with a reason, and Replace offers the players out earlier."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournament.bracket_factories import bracket_round, finish_table, stage_game, stage_tables
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players, pause_for_paper
from tests.tournament.participation_factories import played_live_except
from tournament.generators.brackets import PARTNERS, BracketError, StagePlan, short_stage
from tournament.generators.cuts import TableResult, rank_table
from tournament.models import AuditEntry, Game, Hand, OpenPlaceDecision, Seat
from tournament.services import advancing, bracket_stages, participation, results, rounds
from tournament.services.bracket_view import load_bracket, table_results
from tournament.services.open_places import decide_open_place
from tournament.services.round_control import replace_with_reserve, reserves
from tournament.services.rounds import RoundError
from tournament.services.stage_results import stage_advancers
from tournament.standings import compute_standings

pytestmark = pytest.mark.django_db


def finish_stage_one(round_two, organizer, absent_at: dict[int, set[int]]):
    """Every stage-1 table played to its end, the first seat going out first; at table ``n`` the players
    in ``absent_at[n]`` were no-shows (only the timer and the takeover bot played their seats)."""
    for number, members in enumerate(stage_tables(round_two, 1), start=1):
        game = stage_game(round_two, 1, number)
        played_live_except(game, absent_at.get(number, set()))
        finish_table(game, members, organizer)


def test_a_no_show_whose_bot_went_out_first_ranks_last_and_does_not_go_on():
    event, organizer, round_two = bracket_round()
    members = stage_tables(round_two, 1)[0]
    absent = members[0]  # the table's top seed, at seat 1: her bot goes out first and scores every point
    finish_stage_one(round_two, organizer, {1: {absent}})
    table = load_bracket(round_two).stages[0].tables[0]
    order = [r.player_id for group in rank_table(table_results(table)) for r in group]
    assert order == [*members[1:], absent]
    assert next(s for s in table.seats if s.seat.player_id == absent).total > 0
    final = stage_tables(round_two, 2)[0]
    assert members[1] in final and absent not in final
    page = Client().get(reverse("bracket", args=[event.slug, 2])).content.decode()
    assert page.count("(no-show)") == 1
    rows = {r.player_id: r for r in compute_standings(event, round=round_two)}
    assert rows[absent].participation == participation.NO_SHOW
    assert rows[members[1]].participation == participation.PLAYED


def test_fewer_took_part_than_go_on_waits_for_the_organizer_who_sends_on_or_leaves_a_bye():
    event, organizer, round_two = bracket_round()
    first, second = stage_tables(round_two, 1)[:2]
    finish_stage_one(round_two, organizer, {1: set(first), 2: set(second)})
    outcome = advancing.advance_bracket(round_two)
    assert stage_tables(round_two, 2) == []
    assert any("organizer's decision at tables 1, 2" in text for text in outcome.waiting)
    with pytest.raises(BracketError, match="Give a reason"):
        decide_open_place(round_two, 1, 1, first[2], "  ", organizer)
    with pytest.raises(BracketError, match="Only a no-show of that table"):
        decide_open_place(round_two, 1, 1, second[0], "was there", organizer)
    decide_open_place(round_two, 1, 1, first[2], "her phone died; she was at the table", organizer)
    with pytest.raises(BracketError, match="no open place"):
        decide_open_place(round_two, 1, 1, first[3], "and him too", organizer)
    outcome = decide_open_place(round_two, 1, 2, None, "nobody came", organizer)
    assert outcome.built == [2]
    tables = stage_tables(round_two, 1)
    assert sorted(stage_tables(round_two, 2)[0]) == sorted([first[2], tables[2][0], tables[3][0]])  # a bye: 3 play
    assert list(OpenPlaceDecision.objects.filter(round=round_two).values_list("table_number", "player_id")) == [
        (1, first[2]), (2, None)]
    audited = AuditEntry.objects.filter(action="bracket.open_place").order_by("pk")
    assert [e.reason for e in audited] == ["her phone died; she was at the table", "nobody came"]
    state = load_bracket(round_two)
    stage_advancers(state, state.stages[0])
    table = state.stages[0].tables[0]
    assert [s.seat.player_id for s in table.seats if s.advanced] == [first[2]]


def running_first_round(players=8):
    event = make_event(min_table_size=4, max_table_size=4)
    organizer = make_organizer_of(event)
    make_players(event, players)
    round_one = rounds.create_first_round(event, rounds.plan_first_round(event, seed=7, source=rounds.REGISTERED),
                                          organizer)
    rounds.start_round(round_one, organizer)
    game = Game.objects.filter(table__round=round_one).order_by("table__number").first()
    return event, organizer, round_one, game, list(Seat.objects.filter(table_id=game.table_id).order_by("number"))


def test_a_hand_recorded_by_hand_keeps_a_live_no_show_unless_the_organizer_says_with_a_reason():
    event, organizer, round_one, game, seats = running_first_round()
    absent = seats[0]
    played_live_except(game, {absent.player_id})
    pause_for_paper(game, organizer)
    points = {s.pk: (0 if s == absent else 40) for s in seats}
    # The tester's path: a paper hand for the table where the bot played for her.
    results.record_hand(game, 1, absent.pk, points, organizer, "scores from the paper sheet")
    assert absent.player_id not in participation.players_who_took_part(round_one)
    with pytest.raises(results.ResultError, match="did not take part at the live table"):
        results.record_hand(game, 1, absent.pk, points, organizer, "again", did_not_play=set(), played_reasons={})
    with pytest.raises(results.ResultError, match="made moves of their own"):
        results.record_hand(game, 1, absent.pk, points, organizer, "again", did_not_play={absent.pk, seats[1].pk})
    summary = participation.round_participation(round_one)
    assert absent.player_id in {n.player_id for n in summary.no_shows}
    results.record_hand(game, 1, absent.pk, points, organizer, "corrected",
                        did_not_play=set(), played_reasons={absent.pk: "played on a borrowed phone"})
    assert absent.player_id in participation.players_who_took_part(round_one)
    entry = AuditEntry.objects.get(action="seat.attendance")
    assert "played on a borrowed phone" in entry.reason and entry.actor == organizer
    results.record_hand(game, 1, absent.pk, points, organizer, "she was not there after all",
                        did_not_play={absent.pk})
    assert absent.player_id not in participation.players_who_took_part(round_one)


def test_at_a_table_played_on_paper_the_organizer_says_who_played():
    event, organizer, round_one, game, seats = running_first_round()
    pause_for_paper(game, organizer)
    points = {s.pk: (0 if s == seats[0] else 40) for s in seats}
    results.record_hand(game, 1, seats[0].pk, points, organizer, "paper table", did_not_play={seats[3].pk})
    took = participation.players_who_took_part(round_one)
    assert {s.player_id for s in seats[:3]} <= took and seats[3].player_id not in took


def test_the_form_of_a_table_played_on_paper_asks_who_played_and_saves_nothing_until_told(client):
    event, organizer, round_one, game, seats = running_first_round()
    pause_for_paper(game, organizer)
    client.force_login(organizer)
    url = reverse("admin:tournament_game_record_hand", args=[game.pk])
    page = client.get(url).content.decode()
    assert 'id="paper-table"' in page and page.count('type="radio"') == 2 * len(seats) and "checked" not in page
    form = {"number": 1, "winner": seats[0].pk, "reason": "paper sheet",
            **{f"points_{s.pk}": 0 if s == seats[0] else 37 for s in seats},
            **{f"did_not_play_{s.pk}": "played" for s in seats[:2]}}
    audited = AuditEntry.objects.count()
    refused = client.post(url, form)
    assert refused.status_code == 200
    text = refused.content.decode()
    for seat in seats[2:]:
        assert f"Say whether {seat.label} played or did not play." in text
    assert 'value="37"' in text and 'value="played" class="paper-attendance" id="id_did_not_play_' in text
    assert not Hand.objects.filter(game=game).exists() and AuditEntry.objects.count() == audited
    form.update({f"did_not_play_{seats[2].pk}": "played", f"did_not_play_{seats[3].pk}": "did_not_play"})
    assert client.post(url, form).status_code == 302
    took = participation.players_who_took_part(round_one)
    assert {s.player_id for s in seats[:3]} <= took and seats[3].player_id not in took
    said = dict(Seat.objects.filter(table_id=game.table_id).values_list("pk", "organizer_says"))
    assert said == {**{s.pk: "played" for s in seats[:3]}, seats[3].pk: "did_not_play"}
    assert AuditEntry.objects.get(action="seat.attendance").actor == organizer
    again = client.get(url + "?hand=1").content.decode()
    assert again.count("checked") == len(seats)  # what was said is shown again


def test_replace_offers_the_players_out_at_an_earlier_stage_and_is_audited():
    event, organizer, round_two = bracket_round()
    finish_stage_one(round_two, organizer, {})
    bracket_stages.start_stage(round_two, 2, organizer)
    final = stage_tables(round_two, 2)[0]
    out = {p for members in stage_tables(round_two, 1) for p in members} - set(final)
    offered = [p.pk for p in reserves(round_two)]
    assert set(offered) == out and len(offered) == 12
    seat = Seat.objects.get(table__round=round_two, table__stage=2, number=0)
    with pytest.raises(RoundError, match="Say why"):
        replace_with_reserve(seat, reserves(round_two)[0], organizer, "")
    with pytest.raises(RoundError, match="already plays in round 2"):
        replace_with_reserve(seat, seat.table.seats.get(number=1).player, organizer, "swap")
    reserve = reserves(round_two)[0]
    replace_with_reserve(seat, reserve, organizer, "no-show at the final")
    seat.refresh_from_db()
    assert seat.player_id == reserve.pk
    entry = AuditEntry.objects.get(action="seat.replace_with_reserve")
    assert entry.reason == "no-show at the final" and entry.changes["player"] == [final[0], reserve.pk]
    assert reserve.pk not in {p.pk for p in reserves(round_two)}


def test_a_reserve_in_the_final_plays_it_and_its_hands_record_without_a_conflict():
    event, organizer, round_two = bracket_round()
    finish_stage_one(round_two, organizer, {})
    bracket_stages.start_stage(round_two, 2, organizer)
    final_players = stage_tables(round_two, 2)[0]
    seat = Seat.objects.get(table__round=round_two, table__stage=2, number=0)
    reserve = reserves(round_two)[0]
    replace_with_reserve(seat, reserve, organizer, "no-show at the final")
    seat.refresh_from_db()
    assert seat.in_place_of_id == final_players[0]
    # the final is played by hand with the reserve at the table: stage 1's results still seat it
    finish_table(stage_game(round_two, 2, 1), [reserve.pk, *final_players[1:]], organizer)
    assert advancing.advance_bracket(round_two).conflicts == []
    assert stage_game(round_two, 2, 1).status == Game.Status.FINISHED


@pytest.mark.parametrize("game_format", ["standard", "challenge"])
def test_rank_table_puts_who_took_part_above_the_no_shows_whatever_the_points(game_format):
    bot_played = TableResult("absent", points_won=900, hands_won=3, took_part=False)
    best = TableResult("a", points_won=100, hands_won=1, eliminated_at=2)
    second = TableResult("b", points_won=0, points_left=40, eliminated_at=1)
    groups = rank_table([bot_played, second, best], game_format)
    assert [r.player_id for group in groups for r in group][-1] == "absent"


def test_the_bracket_page_asks_for_the_decision_and_takes_it_with_a_reason():
    event, organizer, round_two = bracket_round()
    first = stage_tables(round_two, 1)[0]
    finish_stage_one(round_two, organizer, {1: set(first)})
    client = Client()
    client.force_login(organizer)
    url = reverse("admin:tournament_event_bracket", args=[event.pk, round_two.pk])
    page = client.get(url).content.decode()
    assert "Fewer took part here than go on: 1 place open" in page and "Leave the place empty (a bye)" in page
    refused = client.post(url, {"open_place": "1:1", "sent_on": str(first[1]), "reason": ""}, follow=True)
    assert "Give a reason for the decision" in refused.content.decode()
    bad = client.post(url, {"open_place": "1:x", "sent_on": "bye", "reason": "r"}, follow=True)
    assert bad.status_code == 200 and "is not a number" in bad.content.decode()
    client.post(url, {"open_place": "1:1", "sent_on": str(first[1]), "reason": "he was at the table"})
    assert first[1] in stage_tables(round_two, 2)[0]
    assert AuditEntry.objects.get(action="bracket.open_place").actor == organizer


def test_a_bye_the_format_cannot_seat_says_so():
    final = StagePlan(2, 4, (4,), 0, 1, is_final=True)
    assert short_stage(final, 3, 2).table_sizes == (3,)
    assert short_stage(StagePlan(2, 12, (4, 4, 4), 0, 1), 10, 3).table_sizes == (4, 3, 3)
    with pytest.raises(BracketError, match="needs full tables"):
        short_stage(final, 3, 2, PARTNERS)
    with pytest.raises(BracketError, match="would seat a table of 1"):
        short_stage(final, 1, 2)
