"""A live game's replay, rebuilt from its stored log: every hand's deal and moves, step by step.

The engine is deterministic: a hand is its rules, its seed (`LiveGame.shuffles`, published by
`games.services.fairness` once the hand is over), its dealer and its moves (`LiveMove.action`). The replay
starts an engine game with the stored rules, deals each hand again with its seed at the version its deal
was stored at, and applies each stored action in version order (changes that are not engine actions,
such as a bot taking a seat over, change no cards and are skipped).

What a replay shows follows who may see what: once the game is finished every hand's cards are shown
(each seat's `hand` in every frame) and every seed; while it runs a replay is what a spectator sees (card
counts, the discard pile's top, whose turn) and only the seeds of hands that are over.

`frames` is for the replay page (static/js/replay.js steps through them); `download` is the JSON a bot
writer trains on (docs/bots.md, "Ratings and replays").
"""

from __future__ import annotations

from typing import Any

from games import engine
from games.models import LiveGame, LiveMove
from games.services import fairness
from games.services.seats import seat_holders
from games.services.snapshots import numbered_from_one


class ReplayError(Exception):
    """The stored log does not replay (a move the engine refuses): the page says so instead of failing."""


def _checkpoint(live: LiveGame) -> dict[str, Any]:
    if "checkpoint" in live.get_deferred_fields():
        return LiveGame.objects.filter(pk=live.pk).values_list("checkpoint", flat=True).get()
    return live.checkpoint


def _describe(names: list[str], move: LiveMove) -> str:
    action = move.action or {}
    who = names[move.seat] if move.seat is not None and move.seat < len(names) else "?"
    words = [who, action.get("type", "").replace("_", " ")]
    if action.get("card"):
        words.append(action["card"])
    if action.get("colour"):
        words.append(f"({action['colour']})")
    if move.actor in (LiveMove.Actor.TIMER, LiveMove.Actor.BOT) and move.seat is not None:
        words.append("[timer]" if move.actor == LiveMove.Actor.TIMER else "[bot]")
    return " ".join(w for w in words if w)


def _frame(game: engine.Game, version: int, label: str, show_cards: bool) -> dict[str, Any]:
    hand = game.hand
    table = engine.spectator_view(hand)
    if show_cards:
        for player, cards in zip(table["players"], hand.hands, strict=True):
            player["hand"] = [engine.CODE[c] for c in cards]
    return {"version": version, "label": label, "table": table, "totals": list(game.totals)}


def build(live: LiveGame, *, with_frames: bool = True) -> dict[str, Any]:
    """The replay of `live` at its stored version: seats, rules, and per hand its (revealed) seed, its
    moves and, with `with_frames`, the table after the deal and after each move."""
    checkpoint = _checkpoint(live)
    rules = engine.RuleSet.from_dict(checkpoint["rules"])
    game = engine.Game(rules, checkpoint["seats"], checkpoint["seed"])
    finished = live.status == LiveGame.Status.FINISHED
    names = [h.name for h in seat_holders(live)]
    deals = {r["version"]: r for r in live.shuffles or []}
    hands: list[dict[str, Any]] = []
    moves = LiveMove.objects.filter(live_game=live, version__lte=live.version).order_by("version")
    try:
        for move in moves.only("version", "seat", "actor", "action", "hand_number").iterator(chunk_size=500):
            record = deals.get(move.version)
            if record is not None:
                game.next_hand(seed=int(record["seed"]))
                hands.append({"number": record["hand"] + 1, "commitment": record["commitment"],
                              "seed": None, "salt": None, "dealer": record["dealer"],
                              "seats": list(game.hand_seats), "moves": [], "frames": [], "result": None,
                              "_record": record})
                if with_frames:
                    hands[-1]["frames"].append(_frame(game, move.version, "Cards dealt", finished))
            elif move.action is not None and hands:
                results_before = len(game.results)
                game.apply(engine.action_from_dict(move.action), events=False)
                hands[-1]["moves"].append({"version": move.version, "seat": move.seat, "actor": move.actor,
                                           "action": move.action})
                if len(game.results) > results_before:
                    hands[-1]["result"] = numbered_from_one(game.results[-1].to_dict())
                if with_frames:
                    hands[-1]["frames"].append(_frame(game, move.version, _describe(names, move), finished))
    except engine.EngineError as error:
        raise ReplayError(f"the stored log of this game does not replay: {error}") from error
    for hand in hands:
        record = hand.pop("_record")
        if fairness.is_revealed(record["hand"], len(game.results), finished):
            hand["seed"], hand["salt"] = record["seed"], record["salt"]
    return {"game": live.pk, "title": live.title, "preset": live.preset, "rules": rules.to_dict(),
            "finished": finished, "cards_shown": finished, "seats": names, "totals": list(game.totals),
            "winners": list(game.winners), "hands": hands}


def download(live: LiveGame) -> dict[str, Any]:
    """The log as JSON for training bots: the rules, the seats, and per hand its seed (once revealed), its
    dealer and hand seats, and every move's engine action, in order; no frames."""
    replay = build(live, with_frames=False)
    for hand in replay["hands"]:
        del hand["frames"]
    replay["format"] = ("Deal each hand with games.engine.HandSetup(RuleSet.from_dict(rules), len(seats_of_hand), "
                        "int(seed), None, dealer).start(), then apply each move's action in order "
                        "(actions use hand seats; 'seat' is the game seat).")
    return replay
