"""The eligibility policy on its own (no database): reading it, refusing bad ones, applying it to rows."""

import pytest

from tournament.csv_formats import normalize_programme
from tournament.eligibility_policy import PolicyError, parse_policy, with_values

FIRST_CUSTOMER = [
    {"column": "programme", "one_of": ["UG"]},
    {"column": "Department", "one_of": ["Chemical  Engineering"]},
    {"column": "year", "from": 1, "to": 4},
]
ASHA = {"roll_number": "CHE2201", "programme": "UG", "department": "chemical engineering", "year": 2}


def test_a_row_inside_every_condition_is_inside():
    policy = parse_policy(FIRST_CUSTOMER)
    assert policy.problems(ASHA) == [] and policy.reason(ASHA) == ""


def test_each_condition_gives_its_own_reason():
    policy = parse_policy(FIRST_CUSTOMER)
    postgraduate = {**ASHA, "programme": "PG", "department": "Physics", "year": 5}
    assert policy.problems(postgraduate) == [
        "programme is PG (must be UG)",
        "department is Physics (must be Chemical Engineering)",
        "year is 5 (must be from 1 to 4)",
    ]


def test_empty_or_missing_cells_are_outside():
    policy = parse_policy(FIRST_CUSTOMER)
    assert policy.reason({**ASHA, "year": None}) == "year is empty (must be from 1 to 4)"
    assert policy.reason({"programme": "UG", "year": 1}) == "department is empty (must be Chemical Engineering)"


def test_any_column_of_the_list_can_be_named():
    policy = parse_policy([{"column": "hostel", "not_one_of": ["Off campus"]},
                           {"column": "section", "one_of": ["A", "B"]}])
    assert policy.reason({"hostel": "H4", "section": "b"}) == ""
    assert policy.reason({"hostel": "off CAMPUS", "section": "C"}) == (
        "hostel is off CAMPUS (must be none of: Off campus); section is C (must be one of: A, B)")


def test_ranges_with_one_end_and_cells_that_are_not_numbers():
    policy = parse_policy([{"column": "year", "from": 2}])
    assert policy.reason({"year": "3"}) == ""
    assert policy.reason({"year": 1}) == "year is 1 (must be at least 2)"
    assert policy.reason({"year": "second"}) == "year is second, not a whole number (must be at least 2)"
    assert parse_policy([{"column": "year", "to": 4}]).reason({"year": 7}) == "year is 7 (must be at most 4)"


def test_no_policy_means_everyone_on_the_list():
    for empty in (None, "", [], {}):
        policy = parse_policy(empty)
        assert not policy and policy.reason({"programme": "PhD"}) == ""
        assert policy.describe() == "everyone on the list"


def test_describe_and_round_trip():
    policy = parse_policy(FIRST_CUSTOMER)
    assert policy.describe() == (
        "programme is one of: UG; department is one of: Chemical Engineering; year is from 1 to 4")
    assert policy.to_json() == [
        {"column": "programme", "one_of": ["UG"]},
        {"column": "department", "one_of": ["Chemical Engineering"]},
        {"column": "year", "from": 1, "to": 4},
    ]
    assert parse_policy(policy.to_json()) == policy


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"column": "programme"}, "must be a list of conditions"),
        (["programme=UG"], "Condition 1 must be an object"),
        ([{"one_of": ["UG"]}], 'Condition 1 needs "column"'),
        ([{"column": "  ", "one_of": ["UG"]}], 'Condition 1 needs "column"'),
        ([{"column": "programme", "in": ["UG"]}], "Condition 1 has unknown keys: in"),
        ([{"column": "programme"}], "Condition 1 (programme) needs exactly one of"),
        ([{"column": "year", "one_of": ["1"], "from": 1}], "needs exactly one of"),
        ([{"column": "programme", "one_of": []}], "one_of must be a non-empty list"),
        ([{"column": "programme", "one_of": "UG"}], "one_of must be a non-empty list"),
        ([{"column": "programme", "one_of": ["UG", None]}], "holds None"),
        ([{"column": "programme", "one_of": [" "]}], "holds ' '"),
        ([{"column": "year", "from": "1"}], "from must be a whole number"),
        ([{"column": "year", "from": True}], "from must be a whole number"),
        ([{"column": "year", "from": None, "to": None}], 'give "from", "to" or both'),
        ([{"column": "year", "from": 4, "to": 1}], "Condition 1 (year): from (4) is larger than to (1)"),
        ([{"column": "year", "from": 1}] * 21, "at most 20"),
    ],
)
def test_bad_policies_are_refused_with_what_to_fix(data, message):
    with pytest.raises(PolicyError) as refused:
        parse_policy(data)
    assert message in str(refused.value)


def test_programme_values_are_read_as_the_lists_codes():
    policy = with_values(parse_policy([{"column": "programme", "one_of": ["B.Tech", "ug", "undergraduate"]}]),
                         "programme", normalize_programme)
    assert policy.to_json() == [{"column": "programme", "one_of": ["UG"]}]
    with pytest.raises(PolicyError, match="'Diploma' is not a known programme"):
        with_values(parse_policy([{"column": "programme", "one_of": ["Diploma"]}]), "programme",
                    normalize_programme)
