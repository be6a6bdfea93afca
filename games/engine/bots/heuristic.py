"""A bot that plays sensibly from its view alone.

What it does, in order:

* catches any opponent who did not call UNO (never its partner), and calls UNO whenever it may (before
  playing its next-to-last card, or right after if it forgot);
* answers a pending draw total: a Shield when the total is large (never back at its partner), otherwise a
  stacked Draw 2, then a stacked Wild Draw 4, then a Shield, else takes the cards;
* challenges a Wild Draw 4 when the odds favour it (see `_challenge_odds`);
* otherwise scores every playable card: it keeps wild cards (and Shields) for later unless someone is
  close to going out, plays into the colour it holds most, sheds high-value cards when an opponent is down
  to two cards or fewer, hits that opponent with Skips and Draws, never plays a Dead Red it would suffer
  from or a Boo Blue that would land on itself, and never bluffs a Wild Draw 4;
* draws instead of spending a wild when it may (reneging), nobody is close to going out and its hand is
  still small;
* names the colour it holds most when it plays a wild or chooses the first colour.

It only ever returns one of the legal action dicts, so it follows every preset's rules by construction.
"""

from __future__ import annotations

from typing import Any

from .. import cards as C
from .base import Bot, on_turn

_CARD_ID = C.CARD_ID
_COLOUR = C.COLOUR
_KIND = C.KIND
_POINTS = C.POINTS
_IS_WILD = C.IS_WILD
_FACE = C.FACE
_COLOUR_ID = C.COLOUR_ID

# Cards per colour in the UNO deck (the only deck where a Wild Draw 4 can be challenged) and its size.
_UNO_PER_COLOUR = 25
_UNO_DECK = 108
# Of the players who could have bluffed a Wild Draw 4, the share we assume did.
_BLUFF_PRIOR = 0.5
# Draw rather than spend a wild only while the hand is smaller than this: hoarding has to stop somewhere
# (two hoarders would otherwise draw the pile between them for ever).
_HOARD_LIMIT = 8


class HeuristicBot(Bot):
    name = "heuristic"

    def act(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal = view["legal_actions"]
        if not legal:
            return None
        partner = view.get("partner")
        for a in legal:  # first: the chance to catch closes as soon as the next player begins
            if a["type"] == "catch" and a["target"] != partner:
                return a
        for a in legal:
            if a["type"] == "call_uno":
                return a
        if not on_turn(view):
            return None
        phase = view["phase"]
        if phase == "choose_colour":
            best = self._best_colour(view["hand"], None)
            for a in legal:
                if a["type"] == "choose_colour" and _COLOUR_ID[a["colour"]] == best:
                    return a
            return _first(legal, "choose_colour") or legal[0]
        if phase == "challenge":
            if self.should_challenge(view):
                return _first(legal, "challenge") or legal[0]
            return _first(legal, "accept") or legal[0]
        plays = [a for a in legal if a["type"] == "play"]
        if view["pending"]:
            return self._answer_pending(view, plays) or _first(legal, "draw") or legal[0]
        if phase == "after_draw":
            return self._after_draw(view, plays, legal)
        return self._choose_play(view, plays, legal)

    # ---- situations -----------------------------------------------------------------------------------
    def _answer_pending(self, view: dict[str, Any], plays: list[dict]) -> dict[str, Any] | None:
        partner = view.get("partner")
        hand = view["hand"]
        by_kind: dict[int, list[dict]] = {}
        for a in plays:
            by_kind.setdefault(_KIND[_CARD_ID[a["card"]]], []).append(a)
        shields = by_kind.get(C.SHIELD, [])
        shield_ok = bool(shields) and view["pending_from"] != partner
        if shield_ok and view["pending"] >= 4:
            return self._pick_colour(shields, hand)
        if C.DRAW2 in by_kind:
            # Spend the Draw 2 of the colour we hold least of: the others stay useful.
            counts = self._colour_counts(hand)
            return min(by_kind[C.DRAW2], key=lambda a: counts.get(_COLOUR[_CARD_ID[a["card"]]], 0))
        if C.WILD_DRAW4 in by_kind:
            return self._pick_colour(by_kind[C.WILD_DRAW4], hand)
        if shield_ok:
            return self._pick_colour(shields, hand)
        return None

    def _after_draw(self, view: dict[str, Any], plays: list[dict], legal: list[dict]) -> dict[str, Any]:
        passing = _first(legal, "pass")
        if not plays:
            return passing or legal[0]
        card = plays[0]["card"]
        keep = _IS_WILD[_CARD_ID[card]] and passing is not None and not self._urgent(view) \
            and len(view["hand"]) < _HOARD_LIMIT
        if keep and passing is not None:
            return passing
        return self._pick_colour(plays, view["hand"]) if _IS_WILD[_CARD_ID[card]] else plays[0]

    def _choose_play(self, view: dict[str, Any], plays: list[dict], legal: list[dict]) -> dict[str, Any]:
        draw = _first(legal, "draw")
        if not plays:
            return draw or legal[0]
        hand = view["hand"]
        counts = self._colour_counts(hand)
        best_colour = max(counts, key=counts.__getitem__) if counts else None
        seen: set[str] = set()
        best_action, best_score = None, float("-inf")
        for a in plays:
            card = a["card"]
            if _IS_WILD[_CARD_ID[card]]:
                if card in seen:
                    continue
                seen.add(card)
                a = self._pick_colour([p for p in plays if p["card"] == card], hand)
            score = self._score(view, card, counts, best_colour)
            if score > best_score:
                best_action, best_score = a, score
        assert best_action is not None
        if draw is not None and _IS_WILD[_CARD_ID[best_action["card"]]] and 2 < len(hand) < _HOARD_LIMIT \
                and not self._urgent(view):
            return draw  # keep the wild for later: draw instead (reneging)
        return best_action

    # ---- scoring ------------------------------------------------------------------------------------
    def _score(self, view: dict[str, Any], code: str, counts: dict[int, int], best_colour: int | None) -> float:
        card = _CARD_ID[code]
        hand = view["hand"]
        if len(hand) == 1:
            return 1e6
        kind = _KIND[card]
        colour = _COLOUR[card]
        urgent = self._urgent(view)
        danger = self._danger(view)
        nxt = self._next_seat(view)
        next_cards = view["players"][nxt]["cards"]
        next_is_foe = nxt != view.get("partner")
        score = 0.0
        if _IS_WILD[card]:
            if not urgent:
                score -= 25
            if kind == C.SHIELD and not urgent:
                score -= 25  # a Shield is the only defence against a draw total: keep it
            score += 3 * (counts.get(best_colour, 0) if best_colour is not None else 0)
        else:
            score += 3 * (counts.get(colour, 0) - 1)
        score += _POINTS[card] * (1.0 if danger <= 2 else 0.1)
        hurts_next = kind in (C.SKIP, C.DRAW2, C.WILD_DRAW4) or (kind == C.REVERSE and len(view["players"]) == 2)
        if hurts_next and next_is_foe:
            score += 10 + (40 if next_cards <= 2 else 0)
        if kind == C.REVERSE and len(view["players"]) > 2 and next_cards <= 2 and next_is_foe:
            score += 20
        if kind == C.WILD_DRAW4 and self._would_bluff(view, code):
            score -= 200
        if kind == C.DEAD_RED:
            reds = sum(1 for h in hand if _COLOUR[_CARD_ID[h]] == C.RED)
            score += -60 if reds <= 1 else 10
        if kind == C.BOO_BLUE:
            others = [p["cards"] for p in view["players"] if p["seat"] != view["seat"]]
            score += -60 if len(hand) - 1 <= min(others) else 15
        return score

    def _would_bluff(self, view: dict[str, Any], code: str) -> bool:
        """Whether holding this hand makes the Wild Draw 4 challengeable (colour, or number where it counts)."""
        colour = _COLOUR_ID.get(view["colour"]) if view["colour"] else None
        top_face = _FACE[_CARD_ID[view["top"]]]
        for h in view["hand"]:
            c = _CARD_ID[h]
            if h != code and not _IS_WILD[c] and (_COLOUR[c] == colour or (top_face >= 0 and _FACE[c] == top_face)):
                return True
        return False

    # ---- the challenge ------------------------------------------------------------------------------
    def should_challenge(self, view: dict[str, Any]) -> bool:
        return self._challenge_odds(view) > 0.2

    def _challenge_odds(self, view: dict[str, Any]) -> float:
        """Estimated chance that the Wild Draw 4 was played illegally.

        Accepting costs 4 cards and the turn; challenging costs 6 cards if it was legal but gives the player
        4 and keeps our turn if not: relative to accepting, +8 against -2, so challenging pays when the
        chance of guilt is above 0.2. The colour before the Wild Draw 4 is not in the view, so we take the
        average colour: its share `p` of the cards we cannot see (an UNO deck less our own cards), and the
        chance that the player's `k` cards held at least one is 1 - (1 - p)^k, times the share of players
        who would bluff at all.
        """
        accused = view["challengeable_from"]
        if accused is None:
            return 0.0
        k = view["players"][accused]["cards"]
        hand = view["hand"]
        unseen = max(1, _UNO_DECK - len(hand) - 1)
        counts = self._colour_counts(hand)
        shares = [max(0, _UNO_PER_COLOUR - counts.get(c, 0)) / unseen for c in C.UNO_COLOURS]
        p = sum(shares) / len(shares)
        return _BLUFF_PRIOR * (1 - (1 - p) ** k)

    # ---- helpers ------------------------------------------------------------------------------------
    @staticmethod
    def _colour_counts(hand: list[str]) -> dict[int, int]:
        counts: dict[int, int] = {}
        for h in hand:
            c = _COLOUR[_CARD_ID[h]]
            if c >= 0:
                counts[c] = counts.get(c, 0) + 1
        return counts

    def _best_colour(self, hand: list[str], playing: str | None) -> int | None:
        """The colour we hold most of (not counting the card being played), ties to the higher points."""
        totals: dict[int, tuple[int, int]] = {}
        skipped = False
        for h in hand:
            if h == playing and not skipped:
                skipped = True
                continue
            c = _CARD_ID[h]
            col = _COLOUR[c]
            if col >= 0:
                n, pts = totals.get(col, (0, 0))
                totals[col] = (n + 1, pts + _POINTS[c])
        if not totals:
            return None
        return max(totals, key=lambda col: (totals[col], -col))

    def _pick_colour(self, options: list[dict], hand: list[str]) -> dict[str, Any]:
        """Among plays of one wild card in each colour, the one naming the colour we hold most."""
        best = self._best_colour(hand, options[0]["card"])
        if best is not None:
            for a in options:
                if a.get("colour") is not None and _COLOUR_ID[a["colour"]] == best:
                    return a
        return options[0]

    @staticmethod
    def _next_seat(view: dict[str, Any]) -> int:
        step = 1 if view["direction"] == "left" else -1
        return (view["seat"] + step) % len(view["players"])

    @staticmethod
    def _danger(view: dict[str, Any]) -> int:
        """Fewest cards held by an opponent (partners are not opponents)."""
        seat, partner = view["seat"], view.get("partner")
        return min((p["cards"] for p in view["players"] if p["seat"] not in (seat, partner)), default=99)

    def _urgent(self, view: dict[str, Any]) -> bool:
        return self._danger(view) <= 2 or len(view["hand"]) <= 2


def _first(legal: list[dict], kind: str) -> dict[str, Any] | None:
    for a in legal:
        if a["type"] == kind:
            return a
    return None
