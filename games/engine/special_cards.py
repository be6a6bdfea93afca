"""The effects of Plato's special cards: Dead Red, Boo Blue, X-Ray, and a Shield played as the last card.
(The Shield's ordinary answer to a draw total is part of playing it: `card_play.do_play`.)"""

from __future__ import annotations

from . import cards as C
from .cards import CODE, COLOUR
from .drawing import draw_cards
from .events import TableEvent
from .state import HandState


def dead_red(state: HandState, seat: int, out: bool, events: list[TableEvent]) -> None:
    hit = []
    n = state.seats
    for i in range(1, n + 1):
        o = (seat + state.direction * i) % n
        if o == seat and (out or not state.rules.dead_red_hits_player):
            continue
        if not any(COLOUR[c] == C.RED for c in state.hands[o]):
            hit.append(o)
    events.append(TableEvent("dead_red", {"seat": seat, "hit": hit}))
    for o in hit:
        draw_cards(state, o, 2, "dead_red", events)


def boo_blue(state: HandState, seat: int, out: bool, events: list[TableEvent]) -> None:
    counts = {o: len(h) for o, h in enumerate(state.hands)
              if not (o == seat and (out or not state.rules.boo_blue_counts_player))}
    fewest = min(counts.values())
    hit = [o for o, k in counts.items() if k == fewest]
    events.append(TableEvent("boo_blue", {"seat": seat, "hit": hit}))
    for o in hit:
        draw_cards(state, o, 2, "boo_blue", events)


def shield_back(state: HandState, seat: int, events: list[TableEvent]) -> None:
    """A Shield that was its player's last card: the pending total goes back and is drawn at once (000: "The
    player who last played the Draw 2 or Draw 4 card against you must draw those number of cards")."""
    target, total = state.pending_from, state.pending
    state.pending = 0
    state.pending_from = -1
    state.resume_after = -1
    events.append(TableEvent("shielded", {"seat": seat, "to": target, "total": total}))
    draw_cards(state, target, total, "draw_card", events)


def xray(state: HandState, seat: int, events: list[TableEvent]) -> None:
    shown = []
    n = state.seats
    for i in range(1, n):
        o = (seat + state.direction * i) % n
        if state.rules.partners and o == (seat + 2) % 4:
            continue
        hand = state.hands[o]
        if hand:
            card = hand[state.own_rng().randrange(len(hand))]
            state.reveals.append((seat, o, (card,), "xray"))
            shown.append([o, CODE[card]])
    events.append(TableEvent("xray", {"seat": seat, "of": [o for o, _ in shown]}, {"revealed": shown},
                        frozenset((seat,))))
