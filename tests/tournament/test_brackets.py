"""Brackets of tables (pure, no database): plans keep their promises for every field and table size."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.generators.brackets import (
    CHALLENGE,
    PARTNERS,
    PARTNERS_ROTATION_8,
    STANDARD,
    BracketError,
    plan_stages,
    propose_field,
    seat_stage,
    stage_bounds,
)
from tournament.generators.cuts import (
    TableResult,
    Tie,
    cut,
    draw_order,
    next_stage_seeds,
    rank_table,
    result_key,
    stage_outcome,
)


@st.composite
def bracket_case(draw):
    min_size = draw(st.integers(2, 10))
    max_size = draw(st.integers(min_size, 10))
    field = draw(st.integers(2, 1000))
    return field, min_size, max_size


def run_bracket(plan, rng, game_format=STANDARD, spread=3):
    """Play the whole bracket with random totals (small spread: many ties), ties drawn; returns stages seen."""
    seeds = list(range(1000, 1000 + plan.field))
    seed_of = {p: i for i, p in enumerate(seeds)}
    stages_played = 0
    for stage in plan.stages:
        assert len(seeds) == stage.field
        seating = seat_stage(seeds, stage)
        placed = seating.byes + [p for table in seating.tables for p in table]
        assert sorted(placed) == sorted(seeds), "every player placed exactly once"
        sizes = [len(t) for t in seating.tables]
        assert min(sizes) >= plan.min_size and max(sizes) <= plan.max_size
        assert max(sizes) - min(sizes) <= 1
        results = [[TableResult(p, points_won=rng.randrange(spread), hands_won=rng.randrange(2),
                                seed=seed_of[p]) for p in table] for table in seating.tables]
        outcome = stage_outcome(stage, results, game_format,
                                lambda _i, tie: draw_order(tie.players, rng.randrange(10**6)))
        assert outcome.complete
        stages_played += 1
        if stage.is_final:
            assert len(outcome.advancers) == 1 and len(outcome.advancers[0]) == 1
            return stages_played
        for table, chosen in zip(seating.tables, outcome.advancers, strict=True):
            assert len(chosen) == stage.advance_per_table and set(chosen) <= set(table)
        seeds = next_stage_seeds(seating.byes, outcome.advancers, seed_of)
        assert len(seeds) == stage.advancing
    raise AssertionError("the plan ended without a final")


@settings(max_examples=400, deadline=None)
@given(bracket_case(), st.integers(0, 2**32))
def test_default_plans_place_everyone_once_and_end_in_one_final(case, seed):
    field, min_size, max_size = case
    if field < min_size:
        with pytest.raises(BracketError):
            plan_stages(field, min_size, max_size)
        return
    plan = plan_stages(field, min_size, max_size)
    assert plan.stages[-1].is_final and plan.stages[-1].tables == 1
    assert all(not s.is_final for s in plan.stages[:-1])
    assert run_bracket(plan, random.Random(seed)) == len(plan.stages), "as many stages as promised"


@settings(max_examples=300, deadline=None)
@given(bracket_case(), st.lists(st.integers(1, 9), min_size=1, max_size=4), st.integers(0, 2**32))
def test_organizer_numbers_either_plan_or_say_why(case, advance, seed):
    field, min_size, max_size = case
    try:
        plan = plan_stages(field, min_size, max_size, advance)
    except BracketError as error:
        assert str(error)
        return
    assert run_bracket(plan, random.Random(seed), spread=2) == len(plan.stages)


@settings(max_examples=300, deadline=None)
@given(bracket_case())
def test_top_seeds_never_meet_in_the_first_stage_while_there_are_tables(case):
    field, min_size, max_size = case
    if field < min_size:
        return
    stage = plan_stages(field, min_size, max_size).stages[0]
    seating = seat_stage(list(range(field)), stage)
    table_of = {p: i for i, t in enumerate(seating.tables) for p in t}
    assert seating.byes == list(range(stage.byes)), "byes go to the highest seeds"
    top = list(range(stage.byes, stage.byes + stage.tables))
    assert len({table_of[p] for p in top}) == len(top)


def test_byes_only_where_nothing_else_works():
    plan = plan_stages(5, 4, 4)
    assert plan.stages[0].byes == 1 and plan.stages[0].table_sizes == (4,)
    assert plan_stages(9, 3, 4).stages[0].byes == 0  # 9 = 3 + 3 + 3 (or 5 with byes: never)
    assert plan_stages(14, 3, 4).stages[0].table_sizes == (4, 4, 3, 3)


def test_uneven_fields_get_tables_one_larger_or_smaller():
    plan = plan_stages(18, 3, 5, [2])
    assert sorted(plan.stages[0].table_sizes) == [4, 4, 5, 5]
    assert plan.stages[1].field == 8


def test_organizer_errors_say_what_to_change():
    with pytest.raises(BracketError, match="at most 2 can go on"):
        plan_stages(16, 3, 4, [3])  # 16 → tables of 4; 3 would be 12 → 4 tables of 3; then 3 from 3
    with pytest.raises(BracketError, match="the final"):
        plan_stages(8, 4, 4, [1])
    with pytest.raises(BracketError, match="too few"):
        plan_stages(2, 3, 4)
    with pytest.raises(BracketError, match="smallest table"):
        plan_stages(10, 5, 4)


def test_proposal_fills_every_table_to_one_final():
    proposal = propose_field(24, 3, 4)
    assert (proposal.field, proposal.advance_per_table, proposal.stages) == (16, 1, 2)
    plan = plan_stages(proposal.field, 3, 4, [proposal.advance_per_table])
    assert [s.table_sizes for s in plan.stages] == [(4, 4, 4, 4), (4,)]
    assert propose_field(40, 3, 4).field == 32
    assert propose_field(4, 3, 4).field == 4
    with pytest.raises(BracketError):
        propose_field(2, 3, 4)


@settings(max_examples=200, deadline=None)
@given(bracket_case())
def test_proposals_always_plan(case):
    played, min_size, max_size = case
    if played < min_size:
        return
    proposal = propose_field(played, min_size, max_size)
    assert min_size <= proposal.field <= played
    plan = plan_stages(proposal.field, min_size, max_size, [proposal.advance_per_table])
    assert len(plan.stages) == proposal.stages
    assert all(size == max_size for s in plan.stages[:-1] for size in s.table_sizes), "full tables"


def test_ranking_follows_the_documented_tiebreaks():
    a = TableResult("a", points_won=100, games_won=1, hands_won=2, points_left=0)
    b = TableResult("b", points_won=100, games_won=0, hands_won=5, points_left=0)
    c = TableResult("c", points_won=100, games_won=0, hands_won=5, points_left=10)
    d = TableResult("d", points_won=100, games_won=0, hands_won=5, points_left=10)
    assert [sorted(r.player_id for r in g) for g in rank_table([d, c, b, a])] == [["a"], ["b"], ["c", "d"]]


def test_challenge_uno_ranks_the_last_one_standing_then_late_eliminations():
    results = [TableResult("out-early", points_won=510, eliminated_at=3),
               TableResult("winner", points_won=480),
               TableResult("out-late", points_won=505, eliminated_at=9)]
    groups = rank_table(results, CHALLENGE)
    assert [g[0].player_id for g in groups] == ["winner", "out-late", "out-early"]


def test_cut_waits_for_an_unresolved_tie_and_takes_a_resolved_one():
    groups = [["a"], ["b", "c"], ["d"]]
    waiting = cut(groups, 2, lambda tie: None)
    assert not waiting.complete and waiting.chosen == ["a"] and waiting.tie.places == 1
    resolved = cut(groups, 2, lambda tie: ["c", "b"])
    assert resolved.complete and resolved.chosen == ["a", "c"] and resolved.rest == ["b", "d"]
    assert cut(groups, 3, lambda tie: pytest.fail("no tie at this cut")).chosen == ["a", "b", "c"]


def test_draws_replay_from_their_seed():
    players = list(range(10))
    assert draw_order(players, 7) == draw_order(list(reversed(players)), 7)
    assert draw_order(players, 7) != draw_order(players, 8)
    assert Tie([3, 1, 2], 1).key == "1,2,3"


def test_partner_tables_put_best_and_worst_together():
    stage = plan_stages(8, 4, 4, [2]).stages[0]
    seating = seat_stage(list(range(8)), stage, PARTNERS)
    assert seating.tables == [[0, 3, 7, 4], [1, 2, 6, 5]]  # seats 0+2 partners: 0 with 7 against 3 with 4
    with pytest.raises(BracketError, match="exactly 4"):
        seat_stage(list(range(9)), plan_stages(9, 3, 3).stages[0], PARTNERS)


def test_next_stage_seeds_byes_first_then_winners_then_seconds():
    seed_of = {p: i for i, p in enumerate("abcdefgh")}
    assert next_stage_seeds(["a"], [["e", "c"], ["b", "h"]], seed_of) == ["a", "b", "e", "c", "h"]


# ---- every way a stage can end ----------------------------------------------------------------------

ENDINGS = ("finished", "playing", "tie_drawn", "tie_waiting_for_hand")


@st.composite
def stage_ending(draw):
    """A planned stage and, per table, how it ended: finished, still playing, or finished with ties at the
    cut that a draw resolves or that wait for a tiebreak hand; in a standard or Challenge UNO game."""
    field, min_size, max_size = draw(bracket_case())
    if field < min_size:
        field = min_size
    advance = draw(st.lists(st.integers(1, 9), max_size=2))
    try:
        plan = plan_stages(field, min_size, max_size, advance)
    except BracketError:
        plan = plan_stages(field, min_size, max_size)
    stage = plan.stages[draw(st.integers(0, len(plan.stages) - 1))]
    game_format = draw(st.sampled_from([STANDARD, CHALLENGE]))
    endings = draw(st.lists(st.sampled_from(ENDINGS), min_size=stage.tables, max_size=stage.tables))
    return stage, game_format, endings, draw(st.integers(0, 2**32))


@settings(max_examples=300, deadline=None)
@given(stage_ending())
def test_advancing_works_for_every_way_a_stage_can_end(case):
    stage, game_format, endings, seed = case
    rng = random.Random(seed)
    seeds = list(range(stage.field))
    seating = seat_stage(seeds, stage)
    places = 1 if stage.is_final else stage.advance_per_table
    results: list = []
    for table, ending in zip(seating.tables, endings, strict=True):
        if ending == "playing":
            results.append(None)
            continue
        tied = ending != "finished"
        rows = []
        for p in table:
            if game_format == CHALLENGE:
                out = None if (tied or p == table[0]) else rng.randrange(1, 20)
                rows.append(TableResult(p, points_won=0 if tied else rng.randrange(500), eliminated_at=out, seed=p))
            else:
                rows.append(TableResult(p, points_won=0 if tied else rng.randrange(3) * 10,
                                        hands_won=0 if tied else rng.randrange(2), seed=p))
        results.append(rows)
    asked: list[int] = []

    def resolve(index, tie):
        asked.append(index)
        if endings[index] == "tie_waiting_for_hand":
            return None  # the organizer has not recorded the tiebreak hand yet
        return draw_order(tie.players, seed)

    outcome = stage_outcome(stage, results, game_format, resolve)
    waiting = {i for i, e in enumerate(endings) if e == "playing"} | {
        i for i in asked if endings[i] == "tie_waiting_for_hand"}
    assert outcome.complete == (not waiting)
    for index, (table, chosen, rows) in enumerate(zip(seating.tables, outcome.advancers, results, strict=True)):
        assert len(set(chosen)) == len(chosen) and set(chosen) <= set(table)
        if rows is None:
            assert chosen == []
        elif index in waiting:
            assert len(chosen) < places and outcome.ties[index] is not None
        else:
            assert len(chosen) == min(places, len(table))
            # nobody left out has a strictly better result than somebody chosen
            key = {r.player_id: result_key(r, game_format) for r in rows}
            left_out = [p for p in table if p not in chosen]
            assert all(key[c] <= key[o] for c in chosen for o in left_out)
    if outcome.complete and not stage.is_final:
        following = next_stage_seeds(seating.byes, outcome.advancers, {p: p for p in seeds})
        assert len(following) == stage.advancing and len(set(following)) == len(following)


@settings(max_examples=200, deadline=None)
@given(st.integers(8, 1000), bracket_case())
def test_eight_player_rotation_stages_are_groups_of_eight(field, case):
    _, min_size, max_size = case
    bounds = {1: stage_bounds(PARTNERS_ROTATION_8, min_size, max_size)}
    try:
        plan = plan_stages(field, min_size, max_size, [4],
                           bounds_for=lambda n: bounds.get(n, (min_size, max_size)))
    except BracketError as error:
        assert str(error)  # later stages cannot be seated at these table sizes: said, not crashed
        return
    first = plan.stages[0]
    assert set(first.table_sizes) == {8} and first.byes == (0 if first.is_final else field % 8)
    seating = seat_stage(list(range(field)), first, PARTNERS_ROTATION_8)
    assert sorted(seating.byes + [p for t in seating.tables for p in t]) == list(range(field))
    assert seating.byes == list(range(first.byes)), "byes go to the highest seeds"
    for stage in plan.stages[1:]:
        assert min_size <= min(stage.table_sizes) and max(stage.table_sizes) <= max_size
    with pytest.raises(BracketError, match="groups of exactly 8"):
        seat_stage(list(range(8)), plan_stages(8, 4, 4).stages[0], PARTNERS_ROTATION_8)
