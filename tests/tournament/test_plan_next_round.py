"""Planning and running the second round as a bracket: the services, on the real database."""

import pytest

from tests.tournament.bracket_factories import finish_table, played_first_round, stage_game, stage_tables
from tests.tournament.organizer_factories import make_players
from tests.tournament.participation_factories import played_live_except
from tournament.generators.brackets import CHALLENGE, PARTNERS, BracketError
from tournament.models import AuditEntry, BracketEntry, BracketStage, Game, Player, Round, Seat, TiebreakDraw
from tournament.services import (
    advancing,
    bracket_stages,
    bracket_view,
    format_rules,
    game_status,
    next_round,
    replacements,
    stage_results,
    tiebreaks,
)
from tournament.services import players as player_service
from tournament.services.next_round import NextRoundOptions
from tournament.standings import compute_standings

pytestmark = pytest.mark.django_db


def confirm(event, organizer, **options):
    opts = NextRoundOptions(**{"field": 16, "draw_seed": 11, **options})
    plan = next_round.plan_next_round(event, opts)
    assert plan.confirmable, plan.problems
    return next_round.create_bracket_round(event, opts, plan.field_ids, organizer), plan


def test_proposal_counts_only_players_who_played_a_hand():
    event, organizer, round_one = played_first_round(24)
    # Two more registered players never sat in round 1; one seated player withdraws.
    make_players(event, 2)
    quitter = Seat.objects.filter(table__round=round_one).first().player
    player_service.withdraw(quitter, organizer, "left early")
    options = next_round.default_options(event)
    assert (options.field, options.advance) == (16, [1])  # 23 still in: 16 fill 4 tables, 4 winners → final of 4
    plan = next_round.plan_next_round(event, options)
    assert plan.played == 24 and plan.confirmable
    assert plan.bracket.describe() == ["Stage 1: 16 players, 4 tables of 4, top 1 of each table go on",
                                       "Stage 2: 4 players, 1 table of 4: the winner is champion"]
    ins = [line for line in plan.lines if line.is_in]
    outs = [line for line in plan.lines if not line.is_in]
    assert [line.seed for line in ins] == list(range(1, 17))
    assert all("top 16" in line.reason for line in ins)
    assert next(line for line in outs if line.row.player_id == quitter.pk).reason == "withdrawn"
    assert all("below the cut" in line.reason for line in outs if line.row.player_id != quitter.pk)
    standings = [r.player_id for r in compute_standings(event, round=round_one) if r.player_id != quitter.pk]
    assert plan.field_ids == standings[:16], "seeded by round-one standings"
    # Snake: seeds 1-4 at four different tables.
    table_of = {p: i for i, t in enumerate(plan.stage_one.tables) for p in t}
    assert len({table_of[p] for p in plan.field_ids[:4]}) == 4


def test_top_of_every_table_then_best_by_points():
    event, organizer, round_one = played_first_round(24)  # six tables of 4
    plan = next_round.plan_next_round(event, NextRoundOptions(field=8, method=next_round.TABLES, per_table=1,
                                                              advance=[2]))
    assert plan.confirmable, plan.problems
    winners = {s.player_id for s in Seat.objects.filter(table__round=round_one, number=0)}
    assert winners <= set(plan.field_ids)
    reasons = {line.row.player_id: line.reason for line in plan.lines if line.is_in}
    assert sum("1st at table" in r for r in reasons.values()) == 6
    assert sum("best remaining by points" in r for r in reasons.values()) == 2
    too_many = next_round.plan_next_round(event, NextRoundOptions(field=8, method=next_round.TABLES, per_table=2))
    assert any("more than the field" in p for p in too_many.problems)


def test_confirm_builds_stage_one_and_regenerates_until_it_starts():
    event, organizer, round_one = played_first_round(16)
    round_two, plan = confirm(event, organizer)
    assert (round_two.number, round_two.kind, round_two.status) == (2, Round.Kind.BRACKET, Round.Status.PLANNED)
    assert list(BracketStage.objects.filter(round=round_two).values_list("number", "planned_tables", "is_final")) == [
        (1, 4, False), (2, 1, True)]
    assert stage_tables(round_two, 1) == plan.stage_one.tables
    assert BracketEntry.objects.filter(round=round_two).count() == 16
    assert Game.objects.filter(table__round=round_two, status=Game.Status.PENDING).count() == 4
    assert AuditEntry.objects.filter(event=event, action="bracket.create").count() == 1
    # Regenerate with other numbers: the planned round is replaced, not added.
    again, _ = confirm(event, organizer, field=12, advance=[2])
    assert Round.objects.filter(event=event).count() == 2 and not Round.objects.filter(pk=round_two.pk).exists()
    assert len(stage_tables(again, 1)) == 3
    bracket_stages.start_stage(again, 1, organizer)
    with pytest.raises(BracketError, match="Round 2 is running"):
        next_round.plan_next_round(event, NextRoundOptions(field=16))
    # A stale preview is refused.
    with pytest.raises(BracketError):
        next_round.create_bracket_round(event, NextRoundOptions(field=16, draw_seed=1), plan.field_ids, organizer)


def test_plan_refuses_until_round_one_ends_and_explains_bad_numbers():
    event, organizer, round_one = played_first_round(16)
    Round.objects.filter(pk=round_one.pk).update(status=Round.Status.RUNNING)
    with pytest.raises(BracketError, match="once every game"):
        next_round.plan_next_round(event, NextRoundOptions(field=16))
    Round.objects.filter(pk=round_one.pk).update(status=Round.Status.FINISHED)
    assert "only 16 played" in next_round.plan_next_round(event, NextRoundOptions(field=20)).problems[0]
    assert "at most 3 can go on" in next_round.plan_next_round(
        event, NextRoundOptions(field=16, advance=[4])).problems[0]
    with pytest.raises(BracketError, match="Unknown game format"):
        next_round.plan_next_round(event, NextRoundOptions(field=16, formats=["poker"]))


def play_stage(round_, stage, organizer, orders=None):
    for number, members in enumerate(stage_tables(round_, stage), start=1):
        order = (orders or {}).get(number, members)
        finish_table(stage_game(round_, stage, number), order, organizer)


def test_stages_advance_as_games_end_until_a_champion():
    event, organizer, _ = played_first_round(16)
    round_two, plan = confirm(event, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    tables = stage_tables(round_two, 1)
    # Three tables end: no stage 2 yet.
    for number in (1, 2, 3):
        finish_table(stage_game(round_two, 1, number), list(reversed(tables[number - 1])), organizer)
    assert stage_tables(round_two, 2) == []
    finish_table(stage_game(round_two, 1, 4), tables[3], organizer)
    final = stage_tables(round_two, 2)
    winners = [tables[0][-1], tables[1][-1], tables[2][-1], tables[3][0]]
    assert sorted(final[0]) == sorted(winners)
    round_two.refresh_from_db()
    assert round_two.status == Round.Status.RUNNING, "not finished while the final remains"
    assert advancing.advance_bracket(round_two).built == [], "idempotent"
    with pytest.raises(BracketError):
        bracket_stages.start_stage(round_two, 1, organizer)
    bracket_stages.start_stage(round_two, 2, organizer)
    finish_table(stage_game(round_two, 2, 1), final[0], organizer)
    round_two.refresh_from_db()
    assert round_two.status == Round.Status.FINISHED
    assert advancing.advance_bracket(round_two).champion == final[0][0]


def test_a_corrected_result_moves_the_bracket_while_the_next_stage_has_not_started():
    event, organizer, _ = played_first_round(16)
    round_two, _ = confirm(event, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    tables = stage_tables(round_two, 1)
    for number, members in enumerate(tables, start=1):
        finish_table(stage_game(round_two, 1, number), members, organizer)
    assert tables[0][0] in stage_tables(round_two, 2)[0]
    # Correct hand 1 at table 1: another player went out.
    finish_table(stage_game(round_two, 1, 1), [tables[0][2], tables[0][0], tables[0][1], tables[0][3]],
                 organizer, number=1)
    final = stage_tables(round_two, 2)[0]
    assert tables[0][2] in final and tables[0][0] not in final
    # A correction that reopens a game removes the unstarted final.
    game = stage_game(round_two, 1, 2)
    seats = list(Seat.objects.filter(table=game.table).order_by("number"))
    from tournament.services import results
    results.record_hand(game, 1, seats[0].pk, {s.pk: (0 if i == 0 else 10) for i, s in enumerate(seats)},
                        organizer, "wrong count")
    assert stage_tables(round_two, 2) == []


def test_ties_at_a_table_are_drawn_with_a_recorded_seed():
    event, organizer, _ = played_first_round(16)
    round_two, _ = confirm(event, organizer, advance=[2], field=16)  # top 2 of 4 → 8 → 2 tables → 4 final
    bracket_stages.start_stage(round_two, 1, organizer)
    tables = stage_tables(round_two, 1)
    # Table 1: 2nd and 3rd are equal on every tiebreak (same points left).
    finish_table(stage_game(round_two, 1, 1), tables[0], organizer, left=[0, 500, 500, 600])
    for number in (2, 3, 4):
        finish_table(stage_game(round_two, 1, number), tables[number - 1], organizer)
    draw = TiebreakDraw.objects.get(round=round_two, stage=1, table_number=1)
    assert draw.method == "draw" and draw.seed and sorted(draw.order) == sorted(tables[0][1:3])
    stage_two = {p for t in stage_tables(round_two, 2) for p in t}
    assert draw.order[0] in stage_two and draw.order[1] not in stage_two
    advancing.advance_bracket(round_two)
    assert TiebreakDraw.objects.filter(round=round_two).count() == 1, "the draw is made once"


def test_a_tiebreak_hand_waits_for_the_organizer():
    event, organizer, _ = played_first_round(16)
    round_two, _ = confirm(event, organizer, tie_method="hand")
    bracket_stages.start_stage(round_two, 1, organizer)
    tables = stage_tables(round_two, 1)
    # Table 2: nobody reaches... the organizer ends it early with two equal leaders.
    for number in (1, 3, 4):
        finish_table(stage_game(round_two, 1, number), tables[number - 1], organizer)
    game = stage_game(round_two, 1, 2)
    played_live_except(game, set())  # all four took part at the live table
    game_status.change_game_status(game, "finish", organizer, reason="time is up")
    assert stage_tables(round_two, 2) == [], "all four are tied at 0: waits for a tiebreak hand"
    state = bracket_view.load_bracket(round_two)
    stage_results.stage_advancers(state, state.stages[0])
    assert state.stages[0].tables[1].waiting_for_tiebreak
    with pytest.raises(BracketError):
        tiebreaks.record_tiebreak_hand(round_two, 1, 2, tables[1][:2], organizer)
    tiebreaks.record_tiebreak_hand(round_two, 1, 2, list(reversed(tables[1])), organizer)
    assert tables[1][-1] in stage_tables(round_two, 2)[0]


def tie_round_one(event, organizer, round_one):
    """Correct tables 1 and 2 so their six non-winners are equal on every tiebreak (and below the four
    winners and the six non-winners of tables 3 and 4, who kept fewer points)."""
    for number in (1, 2):
        game = Game.objects.get(table__round=round_one, table__number=number)
        members = [s.player_id for s in Seat.objects.filter(table=game.table).order_by("number")]
        finish_table(game, members, organizer, left=[0, 600, 600, 600], number=1)


def test_field_cut_ties_are_drawn_with_a_recorded_seed():
    event, organizer, round_one = played_first_round(16)
    tie_round_one(event, organizer, round_one)
    options = NextRoundOptions(field=12, draw_seed=5)
    plan = next_round.plan_next_round(event, options)
    assert plan.confirmable, plan.problems
    (tie, table_number), = plan.ties
    assert len(tie.players) == 6 and tie.places == 2 and table_number is None
    assert all("random draw (seed 5)" in line.tiebreak for line in plan.lines if line.row.player_id in tie.players)
    assert plan.field_ids[10:] == tie.order[:2], "the draw orders the tied seeds too"
    again = next_round.plan_next_round(event, NextRoundOptions(field=12, draw_seed=5))
    assert again.field_ids == plan.field_ids, "the same seed replays the same draw"
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    draw = TiebreakDraw.objects.get(round=round_two, stage=0)
    assert (draw.seed, draw.order, draw.places) == (5, tie.order, 2)


def test_field_cut_ties_wait_for_a_tiebreak_hand_when_chosen():
    event, organizer, round_one = played_first_round(16)
    tie_round_one(event, organizer, round_one)
    options = NextRoundOptions(field=12, tie_method="hand")
    plan = next_round.plan_next_round(event, options)
    assert not plan.confirmable and "play a tiebreak hand" in plan.problems[0]
    (tie, _), = plan.ties
    options.tie_orders = {tie.key: sorted(tie.players, reverse=True)}
    plan = next_round.plan_next_round(event, options)
    assert plan.confirmable
    assert plan.field_ids[10:] == sorted(tie.players, reverse=True)[:2]


def test_replacing_a_withdrawn_player_with_the_next_ranked():
    event, organizer, round_one = played_first_round(20)
    round_two, plan = confirm(event, organizer)
    leaving = Player.objects.get(pk=plan.field_ids[5])
    Player.objects.filter(pk=leaving.pk).update(status=Player.Status.WITHDRAWN)
    with pytest.raises(BracketError, match="Say why"):
        replacements.replace_player(round_two, leaving, organizer, "")
    replacement = replacements.replace_player(round_two, leaving, organizer, "withdrew before stage 1")
    assert replacement.pk == next(line.row.player_id for line in plan.lines if not line.is_in)
    assert Seat.objects.filter(table__round=round_two, player=replacement).exists()
    entry = BracketEntry.objects.get(round=round_two, player=replacement)
    assert entry.seed == 6 and entry.replaced_id == leaving.pk
    assert AuditEntry.objects.filter(event=event, action="bracket.replace").exists()
    active = Player.objects.get(pk=plan.field_ids[0])
    with pytest.raises(BracketError, match="still in the event"):
        replacements.replace_player(round_two, active, organizer, "x")


def test_a_withdrawal_before_a_later_stage_sends_the_next_of_that_table():
    event, organizer, _ = played_first_round(16)
    round_two, _ = confirm(event, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    tables = stage_tables(round_two, 1)
    play_stage(round_two, 1, organizer)
    winner = tables[0][0]
    Player.objects.filter(pk=winner).update(status=Player.Status.WITHDRAWN)
    replacements.replace_player(round_two, Player.objects.get(pk=winner), organizer, "ill")
    final = stage_tables(round_two, 2)[0]
    assert winner not in final and tables[0][1] in final


def test_challenge_uno_eliminations_rank_the_table():
    event, organizer, _ = played_first_round(16)
    round_two, _ = confirm(event, organizer, formats=[CHALLENGE, "standard"])
    assert BracketStage.objects.get(round=round_two, number=1).game_format == CHALLENGE
    bracket_stages.start_stage(round_two, 1, organizer)
    state = bracket_view.load_bracket(round_two)
    assert all(not s.eliminated_at for t in state.stages[0].tables for s in t.seats)
    assert format_rules.rules_for_format(event, CHALLENGE).scoring == "elimination"
    assert format_rules.rules_for_format(event, PARTNERS).partners is True


def test_partner_formats_need_tables_of_four():
    event, organizer, _ = played_first_round(16, min_size=3, max_size=4)
    plan = next_round.plan_next_round(event, NextRoundOptions(field=15, advance=[1], formats=[PARTNERS]))
    assert any("exactly 4" in p for p in plan.problems)
    ok = next_round.plan_next_round(event, NextRoundOptions(field=16, advance=[1], formats=[PARTNERS]))
    assert ok.confirmable
    table = ok.stage_one.tables[0]
    seeds = {pid: i for i, pid in enumerate(ok.field_ids)}
    assert seeds[table[0]] + seeds[table[2]] == seeds[table[1]] + seeds[table[3]], "balanced teams"
