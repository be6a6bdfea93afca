"""Who on an event's eligibility list may register: the event's policy, read and applied. Pure (no Django).

A policy is a list of conditions on the list's own columns (the fixed ones, such as ``programme``,
``department`` and ``year``, or any other column the uploaded CSV had). A row is inside the policy when
every condition holds. Stored as JSON on the event, for example::

    [{"column": "programme", "one_of": ["UG"]},
     {"column": "department", "one_of": ["Chemical Engineering"]},
     {"column": "year", "from": 1, "to": 4}]

Kinds of condition: ``one_of`` (the cell is one of the values), ``not_one_of`` (it is none of them), and
``from`` / ``to`` (the cell is a whole number in the range; either end may be left out). Text is compared
ignoring letter case and repeated spaces. An empty cell is outside every condition on its column.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_CONDITIONS = 20
MAX_VALUES = 200
_COLUMN = re.compile(r"^[^\s].{0,99}$")


class PolicyError(ValueError):
    """The policy as written cannot be used; the message says what to fix."""


@dataclass(frozen=True)
class Condition:
    column: str
    one_of: tuple[str, ...] = ()
    not_one_of: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None

    def describe(self) -> str:
        if self.one_of:
            return f"{self.column} is one of: {', '.join(self.one_of)}"
        if self.not_one_of:
            return f"{self.column} is none of: {', '.join(self.not_one_of)}"
        return f"{self.column} is {_range_words(self.low, self.high)}"

    def problem(self, row: Mapping[str, Any]) -> str:
        """Why ``row`` is outside this condition, or "" when it holds."""
        text = _text(row.get(self.column))
        if not text:
            return f"{self.column} is empty (must be {self._wanted()})"
        if self.one_of and _fold(text) not in {_fold(v) for v in self.one_of}:
            return f"{self.column} is {text} (must be {self._wanted()})"
        if self.not_one_of and _fold(text) in {_fold(v) for v in self.not_one_of}:
            return f"{self.column} is {text} (must be {self._wanted()})"
        if self.low is not None or self.high is not None:
            number = _integer(text)
            if number is None:
                return f"{self.column} is {text}, not a whole number (must be {self._wanted()})"
            if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
                return f"{self.column} is {number} (must be {self._wanted()})"
        return ""

    def _wanted(self) -> str:
        if self.one_of:
            return ("one of: " if len(self.one_of) > 1 else "") + ", ".join(self.one_of)
        if self.not_one_of:
            return "none of: " + ", ".join(self.not_one_of)
        return _range_words(self.low, self.high)


@dataclass(frozen=True)
class Policy:
    conditions: tuple[Condition, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.conditions)

    def problems(self, row: Mapping[str, Any]) -> list[str]:
        """Every reason ``row`` is outside the policy (empty when it is inside)."""
        return [reason for condition in self.conditions if (reason := condition.problem(row))]

    def reason(self, row: Mapping[str, Any]) -> str:
        """All reasons in one sentence, or "" when ``row`` is inside the policy."""
        return "; ".join(self.problems(row))

    def describe(self) -> str:
        return "; ".join(c.describe() for c in self.conditions) if self.conditions else "everyone on the list"

    @property
    def columns(self) -> list[str]:
        return [c.column for c in self.conditions]

    def to_json(self) -> list[dict]:
        """The JSON form ``parse_policy`` reads back."""
        out = []
        for c in self.conditions:
            if c.one_of or c.not_one_of:
                kind = "one_of" if c.one_of else "not_one_of"
                out.append({"column": c.column, kind: list(getattr(c, kind))})
            else:
                bounds = {key: value for key, value in (("from", c.low), ("to", c.high)) if value is not None}
                out.append({"column": c.column, **bounds})
        return out


def parse_policy(data: Any) -> Policy:
    """The policy from its JSON form; raise ``PolicyError`` naming the condition and what is wrong."""
    if data in (None, "", [], {}):
        return Policy()
    if not isinstance(data, list):
        raise PolicyError('The policy must be a list of conditions, e.g. [{"column": "programme", "one_of": ["UG"]}].')
    if len(data) > MAX_CONDITIONS:
        raise PolicyError(f"The policy has {len(data)} conditions; at most {MAX_CONDITIONS} are allowed.")
    return Policy(tuple(_condition(item, number) for number, item in enumerate(data, start=1)))


def _condition(item: Any, number: int) -> Condition:
    where = f"Condition {number}"
    if not isinstance(item, dict):
        raise PolicyError(f'{where} must be an object such as {{"column": "year", "from": 1, "to": 4}}.')
    unknown = sorted(set(item) - {"column", "one_of", "not_one_of", "from", "to"})
    if unknown:
        raise PolicyError(f"{where} has unknown keys: {', '.join(unknown)} (use column, one_of, not_one_of, from, to).")
    column = item.get("column")
    if not isinstance(column, str) or not _COLUMN.match(column.strip() or " "):
        raise PolicyError(f'{where} needs "column": the name of a column of the list (text, up to 100 characters).')
    column = column.strip().lower()
    where = f"{where} ({column})"
    kinds = [k for k in ("one_of", "not_one_of") if k in item] + (["from/to"] if {"from", "to"} & set(item) else [])
    if len(kinds) != 1:
        raise PolicyError(f"{where} needs exactly one of one_of, not_one_of, or from/to.")
    if kinds[0] == "from/to":
        low, high = (_bound(item.get(key), where, key) for key in ("from", "to"))
        if low is None and high is None:
            raise PolicyError(f'{where}: give "from", "to" or both as whole numbers.')
        if low is not None and high is not None and low > high:
            raise PolicyError(f"{where}: from ({low}) is larger than to ({high}).")
        return Condition(column, low=low, high=high)
    values = item[kinds[0]]
    if not isinstance(values, list) or not values:
        raise PolicyError(f"{where}: {kinds[0]} must be a non-empty list of values.")
    if len(values) > MAX_VALUES:
        raise PolicyError(f"{where}: {kinds[0]} has more than {MAX_VALUES} values.")
    texts = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (str, int)) or not _text(value):
            raise PolicyError(f"{where}: {kinds[0]} holds {value!r}; each value must be non-empty text or a number.")
        texts.append(_text(value))
    return Condition(column, **{kinds[0]: tuple(texts)})


def _bound(value: Any, where: str, key: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise PolicyError(f"{where}: {key} must be a whole number, not {value!r}.")
    return value


def with_values(policy: Policy, column: str, normalize) -> Policy:
    """The policy with the values of ``column``'s one_of / not_one_of passed through ``normalize``
    (which returns ``None`` for a value it does not know: then ``PolicyError``)."""
    conditions = []
    for condition in policy.conditions:
        if condition.column == column and (condition.one_of or condition.not_one_of):
            kind = "one_of" if condition.one_of else "not_one_of"
            normalized = []
            for value in getattr(condition, kind):
                if (known := normalize(value)) is None:
                    raise PolicyError(f"Condition on {column}: {value!r} is not a known {column}.")
                normalized.append(known)
            condition = Condition(column, **{kind: tuple(dict.fromkeys(normalized))})
        conditions.append(condition)
    return Policy(tuple(conditions))


def _text(value: Any) -> str:
    return "" if value is None else " ".join(str(value).split())


def _fold(text: str) -> str:
    return text.casefold()


def _integer(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _range_words(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"from {low} to {high}" if low != high else f"{low}"
    return f"at least {low}" if low is not None else f"at most {high}"
