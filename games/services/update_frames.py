"""`update` frames as changes: what moved for one viewer since the version its socket was last sent.

An update carries the events of its change as its viewer may see them and, on the newest update of a
catch-up, only what moved in the viewer's picture: the view's and the game's changed fields
(`games.view_changes`), `hand_seat` and `deadline` (with `now`) when they changed. The diff is taken
between the views of one seat (`engine.view_for` of its hand seat, or the spectator view), never between
views of different seats, so an update shows no card its viewer's whole view would not.

Each distinct frame is built and encoded once per process: the sockets of one viewer (a seat, or every
spectator) that were sent the same picture hear of a change at the same moment and share its text
(cached on the snapshot, under the identity of the picture they were sent).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from games.frame_encoding import encode
from games.services.seats import hand_seat_of
from games.services.snapshots import Snapshot, StoredMove, by_of, events_for, game_info, iso, view_for
from games.view_changes import changed

FRESH_SECONDS = 1.0  # a built frame is shared this long (its `now` is the server's clock when built)


@dataclass(frozen=True)
class Sent:
    """What a socket's client holds after its last `state` or update: the base of its next update. The
    view and game are the shared dicts of a snapshot (never changed)."""

    version: int
    seat: int | None  # the game seat (None: a spectator)
    hand_seat: int | None
    view: dict[str, Any] | None
    game: dict[str, Any]
    deadline: str | None


def sent_in(state: dict[str, Any]) -> Sent:
    """The picture a `state` message gives its client (taken before its game gets the socket's presence)."""
    return Sent(state["version"], state["seat"], state["hand_seat"], state["view"], state["game"],
                state["deadline"])


def update_frames(snap: Snapshot, moves: list[StoredMove], sent: Sent,
                  connected: tuple[int, ...]) -> tuple[Sent, list[str]]:
    """(what the client then holds, the texts of its updates) for a socket that was sent `sent` and whose
    viewer holds the same seat in `snap`: one update per move after `sent.version`, in order, the last
    carrying what moved. `connected`: the seats the socket last heard have a player's socket open (marked
    on the game's seats when they are sent). Raises `NeedsState`."""
    moves = [m for m in moves if m.version > sent.version]
    if not moves:
        return sent, []
    key = ("update", sent.seat, sent.version, id(sent.view), id(sent.game), sent.deadline, connected)
    found = snap.built.get(key)
    clock = time.monotonic()
    if found is not None and clock - found[0] < FRESH_SECONDS:
        return found[1], found[2]
    now, texts = _build(snap, moves, sent, connected)
    # `sent` is kept with the entry: the dicts whose identities make its key live as long as it does
    snap.built[key] = (clock, now, texts, sent)
    return now, texts


def _build(snap: Snapshot, moves: list[StoredMove], sent: Sent,
           connected: tuple[int, ...]) -> tuple[Sent, list[str]]:
    seat = sent.seat
    frames = [{"type": "update", "version": m.version, "by": by_of(m), "events": events_for(m, seat)}
              for m in moves]
    last = frames[-1]
    hand_seat = hand_seat_of(snap.hand_seats, seat)
    if hand_seat != sent.hand_seat:
        last["hand_seat"] = hand_seat
    view = view_for(snap, seat)
    fields = changed(sent.view, view)
    if fields is None or fields:
        last["view"] = fields
    game = game_info(snap)
    fields = _game_changes(snap, sent.game, game)
    if fields:
        if "seats" in fields:  # marked with the presence the socket last heard of
            fields = {**fields, "seats": _with_presence(fields["seats"], connected)}
        last["game"] = fields
    deadline = iso(snap.deadline)
    if deadline != sent.deadline:
        last["deadline"] = deadline
        last["now"] = timezone.now().isoformat()
    now = Sent(moves[-1].version, seat, hand_seat, view, game, deadline)
    return now, [encode(frame) for frame in frames]


def _game_changes(snap: Snapshot, held: dict[str, Any], game: dict[str, Any]) -> dict[str, Any] | None:
    """What moved in the game's public facts since `held`: the same for every viewer that holds `held`
    (after one move, every socket at the table), so worked out once per snapshot and `held`."""
    key = ("game changes", id(held))
    found = snap.built.get(key)
    if found is not None and found[0] is held:
        return found[1]
    fields = changed(held, game)
    snap.built[key] = (held, fields)  # `held` kept with it: its identity makes the key
    return fields


def _with_presence(seats: list | dict, connected: tuple[int, ...]) -> list | dict:
    def mark(seat: dict[str, Any]) -> dict[str, Any]:
        return {**seat, "connected": seat["seat"] in connected}

    if type(seats) is dict:  # the changed seats by index
        return {index: mark(seat) for index, seat in seats.items()}
    return [mark(seat) for seat in seats]
