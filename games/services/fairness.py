"""Shuffles people can check: commit to each hand's seed before it is played, reveal it afterwards.

Every hand of a live game is shuffled with its own 63-bit seed, derived from the game's secret
`shuffle_key` with HMAC-SHA256 (so revealing one hand's seed tells nothing about the next), together with
a 128-bit salt. When the hand is dealt every viewer gets its commitment, SHA-256 of "<seed>:<salt>"; the
salt makes the seed impossible to guess from the commitment by trying seeds. When the hand is over, the
seed and salt are published (`game.shuffles` in docs/protocol.md), and anyone can check the commitment
and deal the hand again with the engine (`verify_hand`, the /play/verify/ page).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any

from games import engine

SEED_BITS = 63


def new_shuffle_key() -> str:
    return secrets.token_hex(32)


def hand_secret(key: str, number: int) -> tuple[int, str]:
    """(seed, salt) of hand `number` (0-based) of the game with `key`."""
    mac = hmac.new(bytes.fromhex(key), f"hand:{number}".encode(), hashlib.sha256).digest()
    seed = int.from_bytes(mac[:8], "big") >> (64 - SEED_BITS)
    salt = mac[16:32].hex()
    return seed, salt


def commitment(seed: int | str, salt: str) -> str:
    """SHA-256 (hex) of "<seed in decimal>:<salt>"."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def prepare_hand(live, game: engine.Game, number: int) -> tuple[int, str]:
    """(seed, salt) to deal hand `number` of `live` with. A game with a `shuffle_key` (every game created
    without an explicit seed) derives them from it; a game created with an explicit seed (tests, the
    demo: reproducible by design) keeps the engine's `hand_seed` and gets a random salt."""
    if live.shuffle_key:
        return hand_secret(live.shuffle_key, number)
    return game.hand_seed(number), secrets.token_hex(16)


def record_deal(live, number: int, game: engine.Game, version: int, seed: int, salt: str) -> None:
    """Remember hand `number`'s commitment and what its deal needs to be replayed (server side)."""
    setup = game.setup
    record = {"hand": number, "commitment": commitment(seed, salt), "seed": str(seed), "salt": salt,
              "version": version, "seats": setup.seats if setup else len(game.active),
              "dealer": setup.dealer if setup else None}
    live.shuffles = [r for r in (live.shuffles or []) if r.get("hand") != number] + [record]


def is_revealed(number: int, hands_finished: int, game_closed: bool) -> bool:
    return number < hands_finished or game_closed


SHOWN_HANDS = 2  # a message carries the newest hand's record and the one before it (the last reveal)


def public_shuffles(shuffles: list[dict[str, Any]], hands_finished: int, game_closed: bool) -> list[dict[str, Any]]:
    """What every viewer may see: the newest hands' commitments, and the seed and salt of those that are
    over. `hand` is 1-based, like `game.hand_number`. Only the last `SHOWN_HANDS` hands travel with each
    message (a record is ~200 bytes, a game may have dozens of hands): the deal of each hand carries its
    commitment, the update that ends it carries its reveal, and /play/verify/?game=<id> lists them all."""
    out = []
    for r in (shuffles or [])[-SHOWN_HANDS:]:
        shown = is_revealed(r["hand"], hands_finished, game_closed)
        out.append({"hand": r["hand"] + 1, "commitment": r["commitment"],
                    "seed": r["seed"] if shown else None, "salt": r["salt"] if shown else None})
    return out


@dataclass
class Check:
    """The outcome of checking one hand: the commitment, and (with a stored game) the replayed deal."""

    hand: int | None
    commitment: str
    seed: str
    salt: str
    commitment_ok: bool
    deal_ok: bool | None = None  # None: no stored deal to compare with
    dealer: int | None = None
    first_card: str | None = None
    dealt: dict[int, list[str]] = field(default_factory=dict)  # hand seat -> cards dealt
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.deal_ok is not False


def check_commitment(claimed: str, seed: str, salt: str) -> bool:
    return hmac.compare_digest(commitment(seed.strip(), salt.strip()), claimed.strip().lower())


def replay_deal(rules: engine.RuleSet, seats: int, seed: int, dealer: int | None) -> list[engine.TableEvent]:
    """Deal the hand again with the engine: the opening events (dealer draw, cards dealt, first card)."""
    return engine.HandSetup(rules, seats, seed, None, dealer).start()[1]


def describe_deal(events: list[engine.TableEvent], out: Check) -> None:
    for e in events:
        data = e.to_dict()
        private = data.get("private") or {}
        if e.kind == "dealt" and "cards" in private:
            out.dealt[data["data"].get("seat")] = list(private["cards"])
        if "dealer" in data["data"] and out.dealer is None:
            out.dealer = data["data"]["dealer"]
        if e.kind in ("first_card", "turned_up") and out.first_card is None:
            out.first_card = data["data"].get("card")


def check_stored_hand(live, number: int) -> Check | None:
    """Check hand `number` (0-based) of a stored live game, if it is over: the commitment, and the deal
    replayed with the engine equal to the deal stored when it was played. None if not revealed yet."""
    from games.models import LiveMove

    game = engine.Game.from_dict(live.state)
    record = next((r for r in live.shuffles or [] if r["hand"] == number), None)
    closed = live.status == live.Status.FINISHED
    if record is None or not is_revealed(number, len(game.results), closed):
        return None
    out = Check(number, record["commitment"], record["seed"], record["salt"],
                check_commitment(record["commitment"], record["seed"], record["salt"]))
    events = replay_deal(game.rules, record["seats"], int(record["seed"]), record["dealer"])
    describe_deal(events, out)
    stored = LiveMove.objects.filter(live_game=live, version=record["version"]).only("events").first()
    if stored is None:
        out.problems.append("the stored deal is missing")
        out.deal_ok = False
    else:
        out.deal_ok = [e.to_dict() for e in events] == stored.events
        if not out.deal_ok:
            out.problems.append("the replayed deal differs from the deal that was played")
    if not out.commitment_ok:
        out.problems.append("the seed and salt do not match the commitment")
    return out


def revealed_hands(live) -> list[int]:
    game = engine.Game.from_dict(live.state)
    closed = live.status == live.Status.FINISHED
    return [r["hand"] for r in live.shuffles or [] if is_revealed(r["hand"], len(game.results), closed)]
