"""The changes an `update` frame carries, and merging them (docs/protocol.md, "Updates are changes").

`changed` gives the top-level fields of a view (or of the game's public facts) whose values differ from
the ones a client holds. A changed field comes whole, except a list of the same length in which at most
half the items changed (the players' counts after a move: one of four): that comes as `{"index": item}`,
the items to replace. `merge` is what every client does with an update; the tests and the load harness
use it, and the example bots hold a copy. Plain Python (no Django): the harness imports it first.

Written here rather than taken from a library: JSON Merge Patch (RFC 7386) deletes a field whose patch
value is null, and views hold nulls as values (`colour`, `winner`); JSON Patch (RFC 6902) spells every
change as an operation with a path, larger than the values it carries.
"""

from __future__ import annotations

from typing import Any


class NeedsState(Exception):
    """The picture cannot be reached by merging fields (a field went away: a player out of the game sees
    the spectator's view): the socket is sent a whole `state`."""


def changed(before: dict[str, Any] | None, after: dict[str, Any] | None) -> dict[str, Any] | None:
    """The fields of `after` whose values differ from `before`'s ({}: none); None when `after` is None
    (and `before` was not); `after` whole when there was nothing before."""
    if after is before:
        return {}
    if after is None:
        return None
    if before is None:
        return after
    if not before.keys() <= after.keys():
        raise NeedsState
    out = {key: value for key, value in after.items() if before.get(key, _ABSENT) != value}
    for key, value in out.items():  # replacing values only: the dict's size stays
        if type(value) is list:
            old = before.get(key)
            if type(old) is list:
                out[key] = _items_changed(old, value)
    return out


_ABSENT = object()


def _items_changed(before: list, after: list) -> list | dict[str, Any]:
    """A changed list: whole, or `{"index": item}` for the items that changed when the length is the same
    and at most half of them did."""
    if len(before) != len(after):
        return after
    items = {str(i): item for i, (old, item) in enumerate(zip(before, after, strict=True)) if old != item}
    return items if 2 * len(items) <= len(after) else after


def merge(picture: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """A client's picture (a `state` message, or what merging gave) with `update` merged in: what every
    client does (docs/protocol.md). Returns a new dict; `picture` is left as it was."""
    out = {**picture, "version": update["version"], "by": update["by"], "events": update["events"]}
    for key in ("hand_seat", "deadline", "now"):
        if key in update:
            out[key] = update[key]
    for key in ("view", "game"):
        if key in update:
            fields = update[key]
            out[key] = None if fields is None else merge_fields(picture.get(key) or {}, fields)
    return out


def merge_fields(held: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """`held` with the changed `fields` of an update: each replaces the field of its name, except an object
    for a field that holds a list, whose entries replace the list's items at those indexes."""
    out = {**held, **fields}
    for key, value in fields.items():
        old = held.get(key)
        if type(value) is dict and type(old) is list:
            items = list(old)
            for index, item in value.items():
                items[int(index)] = item
            out[key] = items
    return out
