"""`apply`: validate an action completely, then mutate the state and return the events.

Every check happens before the first mutation, so an `IllegalAction` leaves the state untouched.
"""

from __future__ import annotations

from collections.abc import Callable

from . import cards as C
from .actions import Accept, Action, CallUno, Catch, Challenge, ChooseColour, Draw, Pass, Play
from .cards import (
    BLANK,
    BOO_BLUE,
    CARD_ID,
    CODE,
    COLOUR,
    COLOUR_CODES,
    COLOUR_ID,
    DEAD_RED,
    DRAW2,
    FACE,
    IS_WILD,
    KIND,
    NUMBER,
    REVERSE,
    SHIELD,
    SKIP,
    WILD,
    WILD_DRAW4,
    XRAY,
)
from .cards import DRAW_AMOUNT as _DRAW_AMOUNT
from .cards import HAS_SUIT as _HAS_SUIT
from .cards import IS_EIGHT as _IS_EIGHT
from .drawing import can_draw, draw_cards
from .errors import IllegalAction
from .events import Event
from .state import AFTER_DRAW, CHALLENGE, CHOOSE_COLOUR, OVER, PLAY, HandState

# ---- shared predicates (also used by legal.py) --------------------------------------------------------


def is_playable(state: HandState, card: int) -> bool:
    """Whether `card` matches the top card in a normal turn (no draw pending)."""
    return IS_WILD[card] or COLOUR[card] == state.colour or FACE[card] == FACE[state.discard[-1]] >= 0


def can_stack(state: HandState, card: int) -> bool:
    """Whether `card` may answer the pending draw total (stack it, or block it with a Shield)."""
    kind = KIND[card]
    if kind == C.SHIELD:
        return True
    if state.resume_after >= 0:  # a Shield sent the pile back: only another Shield answers it
        return False
    stacking = state.rules.stacking
    if kind == C.DRAW2:
        return stacking != "off"
    if kind == C.WILD_DRAW4:
        return stacking == "draw2_draw4"
    return False


def wd4_guilty(state: HandState, hand: list[int], card: int) -> bool:
    """Whether playing this Wild Draw 4 breaks the preset's restriction (holding a matching card)."""
    restriction = state.rules.wd4_restriction
    if restriction == "none":
        return False
    colour = state.colour
    face = FACE[state.discard[-1]] if restriction == "color_or_number" else -2
    for h in hand:
        if h != card and not IS_WILD[h] and (COLOUR[h] == colour or FACE[h] == face):
            return True
    return False


def wd4_enforced(state: HandState) -> bool:
    rules = state.rules
    return rules.wd4_restriction != "none" and not rules.challenge


def has_playable(state: HandState, hand: list[int]) -> bool:
    enforced = wd4_enforced(state)
    for c in hand:
        if is_playable(state, c) and not (enforced and KIND[c] == C.WILD_DRAW4 and wd4_guilty(state, hand, c)):
            return True
    return False


# ---- messages ----------------------------------------------------------------------------------------


def _colour_name(colour: int) -> str:
    return C.COLOUR_NAMES[colour]


def _face_name(card: int) -> str:
    kind = KIND[card]
    if FACE[card] < 0:
        return ""
    if kind == C.NUMBER:
        return CODE[card][1:] if card < CARD_ID["AS"] else CODE[card][:-1]
    if card >= CARD_ID["AS"]:
        return {C.REVERSE: "an Ace", C.DRAW2: "a 2"}.get(kind, CODE[card][:-1])
    return {C.SKIP: "a Skip", C.REVERSE: "a Reverse", C.DRAW2: "a Draw 2", C.BLANK: "a blank card",
            C.DEAD_RED: "a Dead Red", C.BOO_BLUE: "a Boo Blue"}[kind]


def must_match_message(state: HandState) -> str:
    top = state.discard[-1]
    face = _face_name(top)
    if face and KIND[top] == C.NUMBER:
        face = f"a {face}"
    colour = _colour_name(state.colour)
    what = f"a {colour} card" + (f" or {face}" if face else "") + " or a wild"
    if state.rules.deck == "cards":
        what = f"a card of {colour}" + (f" or {face}" if face else "") + " or a wild"
    return f"you must play {what}, or draw"


def _pending_message(state: HandState) -> str:
    n = state.pending
    if state.resume_after >= 0:
        return f"you must draw {n} cards or send them back with a Shield"
    options = []
    if state.rules.stacking != "off":
        options.append("a Draw 2" if state.rules.deck != "cards" else "a 2")
    if state.rules.stacking == "draw2_draw4":
        options.append("a Wild Draw 4")
    if state.rules.deck == "plato":
        options.append("a Shield")
    hint = f", or answer with {' or '.join(options)}" if options else ""
    return f"you must draw {n} cards{hint}"


def _check_turn(state: HandState, seat: int) -> None:
    if seat != state.turn:
        raise IllegalAction("it is not your turn")


def _check_phase(state: HandState, *allowed: int) -> None:
    phase = state.phase
    if phase in allowed:
        return
    if phase == CHOOSE_COLOUR:
        raise IllegalAction("choose the starting colour first")
    if phase == CHALLENGE:
        raise IllegalAction("challenge the Wild Draw 4 or accept it first")
    if phase == AFTER_DRAW:
        if state.rules.pass_after_draw:
            raise IllegalAction(f"you may only play the card you just drew ({CODE[state.drawn]}), or pass")
        raise IllegalAction(f"you must play the card you just drew ({CODE[state.drawn]})")
    raise IllegalAction("you cannot do that now")


def _parse_colour(state: HandState, letter: str | None, card_code: str) -> int:
    col = COLOUR_ID.get(letter) if isinstance(letter, str) else None
    if col is None or col not in state.rules.colours:
        options = ", ".join(COLOUR_CODES[c] for c in state.rules.colours)
        if letter is None:
            raise IllegalAction(f"choose a colour for {card_code}: one of {options}")
        raise IllegalAction(f"{letter!r} is not a colour in this game: choose one of {options}")
    return col


# ---- turn movement -----------------------------------------------------------------------------------


def _advance(state: HandState, seat: int, steps: int, events: list[Event]) -> None:
    """Give the turn to the player `steps` places after `seat`; the ones in between are skipped.

    Nobody skips themselves: skips that would come round past the player stop there (with two players a
    Reverse-as-Skip that is also an identical card skips the opponent once, and its player moves again).
    """
    n = state.seats
    if steps > n:
        steps = n
    d = state.direction
    if not state.quiet:
        for i in range(1, steps):
            events.append(Event("skipped", {"seat": (seat + d * i) % n}))
    state.turn = (seat + d * steps) % n


def _draw_victim(state: HandState, seat: int, skip: int) -> int:
    """Who draws for `seat`'s draw card: the next player, or with an identical card's skip the one after;
    never the player themselves (two players: the skipped opponent also draws)."""
    victim = state.next_seat(seat, 1 + skip)
    return state.next_seat(seat, 1) if victim == seat else victim


def _end_hand(state: HandState, winner: int, events: list[Event], blocked: bool = False) -> None:
    state.phase = OVER
    state.winner = winner
    state.blocked = blocked
    state.uno_window = -1
    state.pending = 0
    rules = state.rules
    points = [sum(rules.card_points(c) for c in h) for h in state.hands]
    data = {"winner": winner, "blocked": blocked, "points_left": points}
    if rules.partners:
        data["team"] = winner % 2
    events.append(Event("hand_over", data))


# ---- card effects ------------------------------------------------------------------------------------


def _dead_red(state: HandState, seat: int, out: bool, events: list[Event]) -> None:
    hit = []
    n = state.seats
    for i in range(1, n + 1):
        o = (seat + state.direction * i) % n
        if o == seat and (out or not state.rules.dead_red_hits_player):
            continue
        if not any(COLOUR[c] == C.RED for c in state.hands[o]):
            hit.append(o)
    events.append(Event("dead_red", {"seat": seat, "hit": hit}))
    for o in hit:
        draw_cards(state, o, 2, "dead_red", events)


def _boo_blue(state: HandState, seat: int, out: bool, events: list[Event]) -> None:
    counts = {o: len(h) for o, h in enumerate(state.hands)
              if not (o == seat and (out or not state.rules.boo_blue_counts_player))}
    fewest = min(counts.values())
    hit = [o for o, k in counts.items() if k == fewest]
    events.append(Event("boo_blue", {"seat": seat, "hit": hit}))
    for o in hit:
        draw_cards(state, o, 2, "boo_blue", events)


def _shield_back(state: HandState, seat: int, events: list[Event]) -> None:
    """A Shield that was its player's last card: the pending total goes back and is drawn at once (000: "The
    player who last played the Draw 2 or Draw 4 card against you must draw those number of cards")."""
    target, total = state.pending_from, state.pending
    state.pending = 0
    state.pending_from = -1
    state.resume_after = -1
    events.append(Event("shielded", {"seat": seat, "to": target, "total": total}))
    draw_cards(state, target, total, "draw_card", events)


def _xray(state: HandState, seat: int, events: list[Event]) -> None:
    shown = []
    n = state.seats
    for i in range(1, n):
        o = (seat + state.direction * i) % n
        if state.rules.partners and o == (seat + 2) % 4:
            continue
        hand = state.hands[o]
        if hand:
            card = hand[state.rng.randrange(len(hand))]
            state.reveals.append((seat, o, (card,), "xray"))
            shown.append([o, CODE[card]])
    events.append(Event("xray", {"seat": seat, "of": [o for o, _ in shown]}, {"revealed": shown},
                        frozenset((seat,))))


# ---- handlers ----------------------------------------------------------------------------------------


def _play(state: HandState, action: Play) -> list[Event]:
    seat = action.seat
    card = CARD_ID.get(action.card) if isinstance(action.card, str) else None
    if card is None:
        raise IllegalAction(f"there is no card {action.card!r}")
    _check_turn(state, seat)
    _check_phase(state, PLAY, AFTER_DRAW)
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction(f"you do not hold {action.card}")
    if state.phase == AFTER_DRAW and card != state.drawn:
        _check_phase(state, PLAY)  # raises the "only the card you just drew" message
    rules = state.rules
    kind = KIND[card]
    if state.pending:
        if not can_stack(state, card):
            raise IllegalAction(_pending_message(state))
    elif not is_playable(state, card):
        raise IllegalAction(must_match_message(state))
    if IS_WILD[card]:
        colour = _parse_colour(state, action.colour, action.card)
    else:
        if action.colour is not None:
            raise IllegalAction(f"{action.card} is not a wild card: play it without choosing a colour")
        colour = COLOUR[card]
    guilty = False
    if kind == C.WILD_DRAW4:
        guilty = wd4_guilty(state, hand, card)
        if guilty and not rules.challenge:
            what = "a card of the colour in play" if rules.wd4_restriction == "color" else \
                "a card matching the colour or the number of the top card"
            raise IllegalAction(f"you may play a Wild Draw 4 only when you hold no {what[2:]}")

    return _do_play(state, seat, card, colour, guilty, action.card)


def _trusted_play(state: HandState, action: Play) -> list[Event]:
    """A play `legal_actions` listed for this exact state: only work out what `_play` would have checked."""
    card = CARD_ID[action.card]
    if IS_WILD[card]:
        colour = COLOUR_ID[action.colour]
        guilty = KIND[card] == C.WILD_DRAW4 and wd4_guilty(state, state.hands[action.seat], card)
    else:
        colour = COLOUR[card]
        guilty = False
    return _do_play(state, action.seat, card, colour, guilty, action.card)


def _quiet(handler: Callable[[HandState, Action], list[Event]], state: HandState, action: Action) -> None:
    state.quiet = True
    try:
        handler(state, action)
    finally:
        state.quiet = False


def _do_play(state: HandState, seat: int, card: int, colour: int, guilty: bool, code: str) -> list[Event]:
    """Play a card already known to be legal: mutate the state and return the events."""
    rules = state.rules
    kind = KIND[card]
    hand = state.hands[seat]
    events: list[Event] = []
    discard = state.discard
    identical = rules.identical_card_skips and card == discard[-1] and _HAS_SUIT[card]
    state.uno_window = -1
    hand.remove(card)
    discard.append(card)
    state.colour = colour
    state.drawn = -1
    state.phase = PLAY
    state.stalled = 0
    if not state.quiet:
        events.append(Event("played", {"seat": seat, "card": code, "colour": COLOUR_CODES[colour]}))
    if rules.ocho_announcement and _IS_EIGHT[card]:
        events.append(Event("ocho", {"seat": seat}))
    left = len(hand)
    if left == 1 and rules.uno_call and not state.uno[seat]:
        state.uno_window = seat
    skip = 1 if identical else 0
    if identical:
        events.append(Event("identical", {"seat": seat, "card": code}))

    if left == 0:
        # The last card's draws still land (and count when scoring); nobody can answer them any more.
        amount = _DRAW_AMOUNT[card]
        if amount:
            victim = _draw_victim(state, seat, skip)
            total = state.pending + amount
            state.pending = 0
            draw_cards(state, victim, total, "draw_card", events)
        elif kind == SHIELD and state.pending and rules.shield_out_sends_back:
            _shield_back(state, seat, events)
        elif kind == DEAD_RED:
            _dead_red(state, seat, True, events)
        elif kind == BOO_BLUE:
            _boo_blue(state, seat, True, events)
        _end_hand(state, seat, events)
        return events

    if kind == NUMBER or kind == WILD or kind == BLANK:
        if skip:
            _advance(state, seat, 2, events)
        else:
            state.turn = (seat + state.direction) % state.seats
    elif kind == SKIP:
        _advance(state, seat, 2 + skip, events)
    elif kind == REVERSE:
        if state.seats == 2 and rules.two_player_rules:
            _advance(state, seat, 2 + skip, events)
        else:
            state.direction = -state.direction
            events.append(Event("reversed", {"seat": seat, "direction": "left" if state.direction > 0 else "right"}))
            _advance(state, seat, 1 + skip, events)
    elif kind == DRAW2 or kind == WILD_DRAW4:
        amount = _DRAW_AMOUNT[card]
        if kind == WILD_DRAW4 and rules.wd4_unavoidable:
            victim = state.next_seat(seat)
            total = state.pending + amount
            state.pending = 0
            state.pending_from = -1
            draw_cards(state, victim, total, "draw_card", events)
            _advance(state, seat, 2, events)
        elif kind == WILD_DRAW4 and rules.challenge:
            victim = state.next_seat(seat)
            state.phase = CHALLENGE
            state.pending = amount
            state.wd4_from = seat
            state.wd4_guilty = guilty
            state.turn = victim
        elif rules.stacking != "off" and not (skip and state.seats == 2):
            state.pending += amount
            state.pending_from = seat
            state.resume_after = -1
            _advance(state, seat, 1 + skip, events)
            events.append(Event("stacked", {"seat": seat, "total": state.pending, "to": state.turn}))
        else:
            # No stacking, or (two players) an identical 2 whose skip already took the opponent's turn, so
            # nobody is left to continue the stack: the opponent draws the whole total and its player
            # moves again (docs/rules.md, ocho-cards).
            victim = _draw_victim(state, seat, skip)
            total = state.pending + amount
            state.pending = 0
            state.pending_from = -1
            state.resume_after = -1
            draw_cards(state, victim, total, "draw_card", events)
            _advance(state, seat, 2 + skip, events)
    elif kind == SHIELD:
        if state.pending:
            target = state.pending_from
            if state.resume_after < 0:
                state.resume_after = seat
            state.pending_from = seat
            state.turn = target
            events.append(Event("shielded", {"seat": seat, "to": target, "total": state.pending}))
        else:
            _advance(state, seat, 1 + skip, events)
    elif kind == XRAY:
        _xray(state, seat, events)
        _advance(state, seat, 1, events)
    elif kind == DEAD_RED:
        _dead_red(state, seat, False, events)
        _advance(state, seat, 1 + skip, events)
    elif kind == BOO_BLUE:
        _boo_blue(state, seat, False, events)
        _advance(state, seat, 1 + skip, events)
    return events


def _draw(state: HandState, action: Draw) -> list[Event]:
    seat = action.seat
    _check_turn(state, seat)
    _check_phase(state, PLAY)
    rules = state.rules
    hand = state.hands[seat]
    events: list[Event] = []
    if state.pending:
        state.uno_window = -1
        total = state.pending
        resume = state.resume_after if state.resume_after >= 0 else seat
        state.pending = 0
        state.pending_from = -1
        state.resume_after = -1
        draw_cards(state, seat, total, "draw_card", events)
        _advance(state, resume, 1, events)
        return events
    drawable = can_draw(state)
    if not rules.reneging or not drawable:
        if has_playable(state, hand):
            if not drawable:
                raise IllegalAction("there is nothing left to draw: you must play a card")
            raise IllegalAction("you hold a card you can play, so you must play it")
    return _do_draw(state, seat, drawable)


def _trusted_draw(state: HandState, action: Draw) -> list[Event]:
    seat = action.seat
    if state.pending:
        return _draw(state, action)
    return _do_draw(state, seat, can_draw(state))


def _do_draw(state: HandState, seat: int, drawable: bool) -> list[Event]:
    """A normal draw (no draw total pending) already known to be legal."""
    rules = state.rules
    hand = state.hands[seat]
    events: list[Event] = []
    state.uno_window = -1
    if not drawable:
        state.stalled += 1
        events.append(Event("passed", {"seat": seat, "reason": "nothing_to_draw"}))
        if state.stalled >= state.seats:
            _end_blocked(state, events)
        else:
            _advance(state, seat, 1, events)
        return events
    state.stalled = 0
    while True:
        got = draw_cards(state, seat, 1, "draw", events)
        if not got:
            break
        last = got[0]
        if is_playable(state, last) and not (
                KIND[last] == C.WILD_DRAW4 and wd4_enforced(state) and wd4_guilty(state, hand, last)):
            state.phase = AFTER_DRAW
            state.drawn = last
            return events
        if not rules.draw_until_playable or not can_draw(state):
            break
    if not state.quiet:
        events.append(Event("passed", {"seat": seat, "reason": "no_play"}))
    _advance(state, seat, 1, events)
    return events


def _end_blocked(state: HandState, events: list[Event]) -> None:
    """Nobody can play or draw: the hand ends; the lowest count of points in hand wins it."""
    rules = state.rules
    points = [sum(rules.card_points(c) for c in h) for h in state.hands]
    winner = min(range(state.seats), key=lambda s: (points[s], s))
    _end_hand(state, winner, events, blocked=True)


def _pass(state: HandState, action: Pass) -> list[Event]:
    seat = action.seat
    _check_turn(state, seat)
    if state.phase != AFTER_DRAW:
        if state.phase == PLAY:
            raise IllegalAction("you may pass only after drawing a card")
        _check_phase(state)
    if not state.rules.pass_after_draw:
        raise IllegalAction(f"you must play the card you just drew ({CODE[state.drawn]})")
    state.phase = PLAY
    state.drawn = -1
    events = [Event("passed", {"seat": seat, "reason": "kept"})]
    _advance(state, seat, 1, events)
    return events


def _call_uno(state: HandState, action: CallUno) -> list[Event]:
    seat = action.seat
    rules = state.rules
    if not rules.uno_call:
        raise IllegalAction("there is no UNO call in this game")
    hand = state.hands[seat]
    if state.uno_window == seat:
        state.uno_window = -1
        state.uno[seat] = True
        return [Event("uno", {"seat": seat, "self_catch": True})]
    if state.uno[seat]:
        raise IllegalAction("you have already called UNO")
    if seat == state.turn and len(hand) == 2 and state.phase in (PLAY, AFTER_DRAW):
        state.uno[seat] = True
        return [Event("uno", {"seat": seat, "self_catch": False})]
    raise IllegalAction("you may call UNO only on your turn before playing your next-to-last card, "
                        "or right after it")


def _catch(state: HandState, action: Catch) -> list[Event]:
    seat, target = action.seat, action.target
    rules = state.rules
    if not rules.uno_call:
        raise IllegalAction("there is no UNO call in this game")
    if target == seat:
        raise IllegalAction("you cannot catch yourself: call UNO instead")
    if not (isinstance(target, int) and 0 <= target < state.seats):
        raise IllegalAction(f"there is no seat {target} at this table")
    if state.uno_window != target:
        raise IllegalAction(f"seat {target} cannot be caught now")
    state.uno_window = -1
    events = [Event("caught", {"seat": seat, "target": target, "penalty": rules.uno_penalty})]
    draw_cards(state, target, rules.uno_penalty, "uno_penalty", events)
    return events


def _challenge(state: HandState, action: Challenge) -> list[Event]:
    seat = action.seat
    _check_turn(state, seat)
    if state.phase != CHALLENGE:
        raise IllegalAction("there is no Wild Draw 4 to challenge")
    rules = state.rules
    accused = state.wd4_from
    guilty = state.wd4_guilty
    shown = tuple(state.hands[accused])
    state.uno_window = -1
    state.reveals.append((seat, accused, shown, "challenge"))
    events = [Event("challenged", {"seat": seat, "of": accused, "guilty": guilty},
                    {"hand": [CODE[c] for c in shown]}, frozenset((seat,)))]
    state.phase = PLAY
    state.pending = 0
    state.wd4_from = -1
    state.wd4_guilty = False
    if guilty:
        draw_cards(state, accused, rules.challenge_guilty_draw, "challenge_guilty", events)
        state.turn = seat  # the challenger is not hit and plays on the chosen colour
    else:
        draw_cards(state, seat, rules.challenge_innocent_draw, "challenge_lost", events)
        _advance(state, seat, 1, events)
    return events


def _accept(state: HandState, action: Accept) -> list[Event]:
    seat = action.seat
    _check_turn(state, seat)
    if state.phase != CHALLENGE:
        raise IllegalAction("there is no Wild Draw 4 to accept")
    state.uno_window = -1
    total = state.pending
    state.phase = PLAY
    state.pending = 0
    state.wd4_from = -1
    state.wd4_guilty = False
    events: list[Event] = []
    draw_cards(state, seat, total, "draw_card", events)
    _advance(state, seat, 1, events)
    return events


def _choose_colour(state: HandState, action: ChooseColour) -> list[Event]:
    seat = action.seat
    _check_turn(state, seat)
    if state.phase != CHOOSE_COLOUR:
        raise IllegalAction("the colour is already set")
    colour = _parse_colour(state, action.colour, CODE[state.discard[-1]])
    state.colour = colour
    state.phase = PLAY
    return [Event("colour_chosen", {"seat": seat, "colour": COLOUR_CODES[colour]})]


_HANDLERS: dict[type, Callable[[HandState, Action], list[Event]]] = {
    Play: _play, Draw: _draw, Pass: _pass, CallUno: _call_uno, Catch: _catch, Challenge: _challenge,
    Accept: _accept, ChooseColour: _choose_colour,
}


_TRUSTED: dict[type, Callable[[HandState, Action], list[Event]]] = {**_HANDLERS, Play: _trusted_play, Draw: _trusted_draw}


def apply(state: HandState, action: Action, events: bool = True) -> list[Event]:
    """Apply `action` to `state` in place and return what happened.

    Raises `IllegalAction` (state unchanged) if the rules do not allow it now. An action object that
    `legal_actions` just listed for this very state is known to be legal and is not checked again.
    `events=False` (simulations, benchmarks) makes the same move without building the commonest events
    (played, drew, skipped, passed) and returns an empty list; the state is the same either way.
    """
    offered = state.offered
    if offered is not None:
        for legal in offered:
            if legal is action:
                state.offered = None
                handler = _TRUSTED[type(action)]
                if events:
                    return handler(state, action)
                state.quiet = True
                try:
                    handler(state, action)
                finally:
                    state.quiet = False
                return []
    if not events:
        state.quiet = True
        try:
            _checked_apply(state, action)
        finally:
            state.quiet = False
        return []
    return _checked_apply(state, action)


def _checked_apply(state: HandState, action: Action) -> list[Event]:
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"{action!r} is not an action")
    seat = action.seat
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise IllegalAction(f"there is no seat {seat!r} at this table")
    if state.phase == OVER:
        raise IllegalAction("the hand is over")
    events = handler(state, action)
    state.offered = None
    return events

