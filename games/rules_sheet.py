"""The table's "special cards" sheet: what each card that does something does under a rule set, written
from the `RuleSet` itself (the cards of its deck, its options), so every preset and every event's
overrides get a true sheet without a page per preset. Pure: no Django."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import RuleSet, preset_label
from games.engine import cards as C
from games.engine.decks import deck_cards


@dataclass(frozen=True)
class SheetCard:
    kind: str  # the engine's kind name (cards.KIND_NAMES)
    code: str  # a card of that kind in this deck, drawn on the sheet
    name: str
    text: str


@dataclass(frozen=True)
class Sheet:
    preset: str
    summary: str
    cards: tuple[SheetCard, ...]

    @property
    def preset_label(self) -> str:
        """The rules' name as people read it (the sheet's title)."""
        return preset_label(self.preset)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _draw2(rules: RuleSet, kinds: set[int]) -> str:
    text = "The next player draws 2 and loses the turn"
    answers = []
    if rules.stacking in ("draw2", "draw2_draw4"):
        answers.append("a Draw 2" + (" or Wild Draw 4" if rules.stacking == "draw2_draw4" else ""))
    if C.SHIELD in kinds:
        answers.append("a Shield")
    if answers:
        text += f", unless they answer with {' or '.join(answers)}"
        if rules.stacking != "off":
            text += "; totals add up until someone draws them all"
    return text + "."


def _wd4(rules: RuleSet, kinds: set[int]) -> str:
    text = "Wild; the next player draws 4 and loses the turn."
    if rules.wd4_unavoidable:
        return text + " “The bomb”: it cannot be challenged, stacked on or blocked."
    when = {"color": " Only when you hold no card of the current colour.",
            "color_or_number": " Only when you hold no card of the current colour nor of the top card's "
                               "number or symbol.",
            "none": " Any time."}[rules.wd4_restriction]
    if rules.challenge:
        text += (f"{when} It may be challenged: if you broke that rule you draw "
                 f"{rules.challenge_guilty_draw}, otherwise the challenger draws {rules.challenge_innocent_draw}.")
    else:
        text += when
    if rules.stacking == "draw2_draw4":
        text += " Stacks with Draw 2s."
    if C.SHIELD in kinds:
        text += " A Shield sends it back."
    return text


def _card_text(kind: int, code: str, rules: RuleSet, kinds: set[int]) -> tuple[str, str]:
    """(name, what it does) of a card kind under `rules`."""
    if kind == C.SKIP:
        return "Skip", "The next player loses the turn."
    if kind == C.REVERSE:
        name = "Ace (Reverse)" if rules.deck == "cards" else "Reverse"
        two = " With two players it acts as a Skip." if rules.two_player_rules else ""
        return name, f"Play goes the other way round.{two}"
    if kind == C.DRAW2:
        return ("2 (Draw Two)" if rules.deck == "cards" else "Draw 2"), _draw2(rules, kinds)
    if kind == C.WILD:
        if code == "O8":
            return "Ocho wild (the 8)", "Play it on anything, any time; choose the colour."
        if rules.deck == "cards":
            return "J, Q, K (wild)", "Play on anything; choose the suit."
        return "Wild", "Play it on anything; choose the colour."
    if kind == C.WILD_DRAW4:
        return ("Joker (Wild Draw 4)" if rules.deck == "cards" else "Wild Draw 4"), _wd4(rules, kinds)
    if kind == C.SHIELD:
        return "Shield", ("Wild. Sends a Draw 2 or Draw 4 total coming at you back to whoever played the "
                          "last draw card; they may only Shield it back or draw.")
    if kind == C.XRAY:
        whose = "every opponent (not your partner)" if rules.partners else "every opponent"
        return "X-Ray", (f"Wild. Shows you alone one random card of {whose}, at the top of your table "
                         "until the hand ends.")
    if kind == C.DEAD_RED:
        own = ", you included" if rules.dead_red_hits_player else " (not you)"
        return "Dead Red", f"Red. Every player holding no red card draws 2{own}. No Shield blocks it."
    if kind == C.BOO_BLUE:
        own = ", you included" if rules.boo_blue_counts_player else " (not counting you)"
        return "Boo Blue", (f"Blue. The player with the fewest cards draws 2 (all tied{own}). No Shield "
                            "blocks it.")
    if kind == C.BLANK:
        return "Blank", f"A coloured card without effect, worth {rules.blank_points} points if caught in a hand."
    raise ValueError(f"no words for card kind {kind}")


SHEET_ORDER = (C.SHIELD, C.XRAY, C.DEAD_RED, C.BOO_BLUE, C.WILD, C.WILD_DRAW4, C.DRAW2, C.SKIP, C.REVERSE,
               C.BLANK)


def _summary(rules: RuleSet) -> str:
    scoring = {"winner_takes": "the player who goes out scores the cards left in the other hands",
               "running_total": "each player scores the cards they are caught holding; the lowest total wins",
               "elimination": "each player scores the cards they are caught holding; reaching the target puts "
                              "a player out"}[rules.scoring]
    parts = [f"{_plural(rules.hand_size, 'card')} each; {scoring}; the game ends at {rules.target} points."]
    if rules.uno_call:
        parts.append(f"Call UNO when you are down to one card, or draw {rules.uno_penalty} if caught.")
    if rules.identical_card_skips:
        parts.append("A card identical to the top card (same rank and suit) also skips the next player.")
    if rules.draw_until_playable:
        parts.append("With nothing to play you draw until you can, and must play that card.")
    return " ".join(parts)


def special_cards(rules: RuleSet) -> Sheet:
    """The sheet for `rules`: the special cards of its deck, most unusual first, each with one card of
    that kind to show (Ocho's own wild for the plato deck) and what it does under these options."""
    cards = deck_cards(rules)
    kinds = {C.KIND[c] for c in cards}
    shown: list[SheetCard] = []
    for kind in SHEET_ORDER:
        if kind not in kinds:
            continue
        of_kind = [C.CODE[c] for c in cards if C.KIND[c] == kind]
        if kind == C.WILD and "O8" in of_kind:
            code = "O8"
        elif kind == C.WILD and rules.deck == "cards":
            code = next(c for c in of_kind if c.startswith("Q"))
        else:
            code = of_kind[0]
        name, text = _card_text(kind, code, rules, kinds)
        shown.append(SheetCard(C.KIND_NAMES[kind], code, name, text))
    return Sheet(rules.preset, _summary(rules), tuple(shown))
