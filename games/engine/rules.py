"""The rule set: every option of every preset as one frozen dataclass.

A preset is a `RuleSet` value (see presets.py); an event changes options with `rules.with_overrides(...)`,
which validates the result and raises `RuleError` with a message an organizer can act on.
`RuleSet.options()` lists what may be overridden, with types, choices and docs, for admin forms.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import cards as C
from .errors import RuleError

# Fields fixed by the preset: changing them would make another game, so they are not overridable.
FIXED = ("preset", "deck")


def _opt(default: Any, doc: str, choices: tuple[str, ...] | None = None, minimum: int | None = None) -> Any:
    meta: dict[str, Any] = {"doc": doc}
    if choices is not None:
        meta["choices"] = choices
    if minimum is not None:
        meta["minimum"] = minimum
    return field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True)
class RuleSet:
    preset: str = _opt("custom", "Name of the preset these rules start from.")
    deck: str = _opt("uno", "Card family: 'uno' (108 cards), 'plato' (Ocho's deck), 'cards' (playing cards).",
                     ("uno", "plato", "cards"))
    decks: int = _opt(1, "How many copies of the base deck are shuffled together.", minimum=1)
    jokers: int = _opt(0, "Jokers (Wild Draw Four) per playing-card deck; playing-card decks only.", minimum=0)
    blank_cards: bool = _opt(False, "Add one blank card per colour (codes RBL, YBL, GBL, BBL): a coloured card "
                             "without effect that matches its colour or another blank.")
    blank_points: int = _opt(20, "Points a blank card scores when caught in a hand.", minimum=0)
    hand_size: int = _opt(7, "Cards dealt to each player.", minimum=1)
    min_players: int = _opt(2, "Fewest players at a table.", minimum=2)
    max_players: int = _opt(10, "Most players at a table; the deck must be able to deal them all a hand.",
                            minimum=2)
    target: int = _opt(500, "Points that end a game (see scoring).", minimum=1)
    scoring: str = _opt("winner_takes", "'winner_takes': the player who goes out scores the cards left in the "
                        "other hands, first to the target wins; 'running_total': each player adds the cards "
                        "they are caught holding, when one reaches the target the lowest total wins; "
                        "'elimination' (Challenge UNO): running totals, a player reaching the target is out, "
                        "the last player left wins.", ("winner_takes", "running_total", "elimination"))
    partners: bool = _opt(False, "Four players in two teams, partners opposite (seats 0+2 and 1+3); the hand "
                          "ends when either partner goes out and the team scores the opponents' cards.")
    partners_see_hands: bool = _opt(False, "With partners: each player sees the partner's cards.")
    uno_call: bool = _opt(True, "Players must call UNO when down to one card and may be caught otherwise.")
    uno_penalty: int = _opt(4, "Cards drawn by a player caught not calling UNO.", minimum=0)
    uno_recall: bool = _opt(False, "UNO must be called again every time a player is down to one card, even "
                            "after drawing and playing from one card; off: a call stays good until the "
                            "player holds three or more cards.")
    wd4_restriction: str = _opt("color", "When a Wild Draw 4 may be played: 'color' (holding no card of the "
                                "current colour), 'color_or_number' (nor a card matching the top card's "
                                "number or symbol), 'none' (any time).", ("color", "color_or_number", "none"))
    challenge: bool = _opt(True, "The player hit by a Wild Draw 4 may challenge it; then the restriction is "
                           "not enforced by the engine but checked by the challenge.")
    challenge_guilty_draw: int = _opt(4, "Cards drawn by a player whose Wild Draw 4 is challenged and guilty.",
                                      minimum=0)
    challenge_innocent_draw: int = _opt(6, "Cards drawn by a challenger when the Wild Draw 4 was legal.",
                                        minimum=0)
    reneging: bool = _opt(True, "A player may draw instead of playing a playable card (then only the drawn "
                          "card may be played).")
    pass_after_draw: bool = _opt(True, "A player who drew a playable card may keep it and pass; off: it must "
                                 "be played.")
    draw_until_playable: bool = _opt(False, "A player who draws keeps drawing until a card can be played.")
    stacking: str = _opt("off", "Answering a draw card with another: 'off'; 'draw2' (Draw 2 on Draw 2); "
                         "'draw2_draw4' (Draw 2 and Draw 4 on each other in any order). The totals add up "
                         "and the first player who cannot or will not continue draws them.",
                         ("off", "draw2", "draw2_draw4"))
    wd4_unavoidable: bool = _opt(False, "'The bomb': a Wild Draw 4 cannot be challenged, stacked on or blocked.")
    identical_card_skips: bool = _opt(False, "A card identical to the top card (same rank and suit) also skips "
                                      "the next player.")
    two_player_rules: bool = _opt(True, "With two players a Reverse acts as a Skip (the player plays again).")
    first_card_wild: str = _opt("first_player_chooses", "A Wild (or Ocho/Shield/X-Ray, or a face card) turned "
                                "up first: 'first_player_chooses' the colour, or 'return' it and turn another.",
                                ("first_player_chooses", "return"))
    first_card_wd4: str = _opt("return", "A Wild Draw 4 turned up first: 'return' it to the bottom of the draw "
                               "pile, or 'reshuffle' it into the draw pile; then turn another.",
                               ("return", "reshuffle"))
    first_card_draw2: str = _opt("draw", "A Draw 2 turned up first: the first player 'draw's two and plays, "
                                 "or 'draw_and_skip': draws two and loses the turn.", ("draw", "draw_and_skip"))
    first_card_reverse: str = _opt("dealer_right_first", "A Reverse turned up first: direction reverses and "
                                   "'dealer_right_first' plays first, or 'dealer_first' (then the dealer's "
                                   "right).", ("dealer_right_first", "dealer_first"))
    shield_out_sends_back: bool = _opt(False, "A Shield played as a player's last card still sends the pending "
                                       "draw total back: the player who last played a draw card against them "
                                       "draws it before the hand is scored (and those cards count); off: the "
                                       "hand ends and the total is dropped.")
    dead_red_hits_player: bool = _opt(True, "Dead Red also makes the player who played it draw 2 if they hold "
                                      "no red card.")
    boo_blue_counts_player: bool = _opt(True, "The player of a Boo Blue counts when finding the player(s) "
                                        "with the fewest cards.")
    ocho_announcement: bool = _opt(False, "Playing an 8 announces 'Ocho!' (an event, no effect on play).")

    # ---- construction -------------------------------------------------------------------------------
    def with_overrides(self, changes: Mapping[str, Any] | None = None, /, **more: Any) -> RuleSet:
        """A copy with some options changed; `RuleError` if an option is unknown or the result is unplayable."""
        merged = dict(changes or {})
        merged.update(more)
        known = {f.name: f for f in dataclasses.fields(self)}
        for name, value in merged.items():
            if name in FIXED:
                raise RuleError(f"'{name}' cannot be changed; start from another preset instead")
            f = known.get(name)
            if f is None:
                raise RuleError(f"unknown option '{name}' for {self.preset}; the options are: "
                                f"{', '.join(n for n in known if n not in FIXED)}")
            _check_value(f, value)
        rules = dataclasses.replace(self, **merged)
        rules.validate()
        return rules

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        data = dict(data)
        base = cls(preset=data.pop("preset", "custom"), deck=data.pop("deck", "uno"))
        return base.with_overrides(data)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def options(cls) -> list[dict[str, Any]]:
        """Every overridable option: name, type ('bool', 'int', 'choice'), choices, minimum, default, doc."""
        out = []
        for f in dataclasses.fields(cls):
            if f.name in FIXED:
                continue
            kind = "choice" if "choices" in f.metadata else ("bool" if f.type in ("bool", bool) else "int")
            out.append({"name": f.name, "type": kind, "choices": list(f.metadata.get("choices", ())),
                        "minimum": f.metadata.get("minimum"), "default": f.default, "doc": f.metadata["doc"]})
        return out

    # ---- derived facts ------------------------------------------------------------------------------
    @property
    def colours(self) -> tuple[int, ...]:
        return C.SUIT_COLOURS if self.deck == "cards" else C.UNO_COLOURS

    @property
    def deck_size(self) -> int:
        from .decks import deck_cards

        return len(deck_cards(self))

    def card_points(self, card: int) -> int:
        return self.blank_points if C.KIND[card] == C.BLANK else C.POINTS[card]

    def validate(self) -> None:
        """Raise `RuleError` if the options cannot be played together."""
        from .decks import deck_cards

        if self.deck not in ("uno", "plato", "cards"):
            raise RuleError(f"unknown deck '{self.deck}'")
        if self.decks > 4:
            raise RuleError("at most 4 decks can be shuffled together")
        if self.jokers and self.deck != "cards":
            raise RuleError("only playing-card decks have jokers")
        if self.jokers > 4:
            raise RuleError("at most 4 jokers per deck")
        if self.blank_cards and self.deck != "uno":
            raise RuleError("blank cards exist only in the UNO deck")
        if self.max_players < self.min_players:
            raise RuleError(f"max_players ({self.max_players}) is below min_players ({self.min_players})")
        cards = deck_cards(self)
        size = len(cards)
        if self.hand_size * self.max_players + 1 > size:
            most = (size - 1) // self.hand_size
            raise RuleError(
                f"a hand of {self.hand_size} cards cannot be dealt to {self.max_players} players from this "
                f"deck of {size} cards (one card must be left to turn up); at most {most} players can be dealt "
                f"{self.hand_size} cards, or lower the hand size")
        kinds = {C.KIND[c] for c in cards}
        if self.stacking != "off" and C.DRAW2 not in kinds:
            raise RuleError("stacking needs Draw 2 cards, and this deck has none")
        if self.stacking == "draw2_draw4" and C.WILD_DRAW4 not in kinds:
            raise RuleError("stacking Draw 4s needs Wild Draw 4 cards, and this deck has none "
                            "(add jokers or stack only Draw 2s)")
        if self.challenge:
            if self.wd4_restriction == "none":
                raise RuleError("the Wild Draw 4 challenge needs a restriction to check: set wd4_restriction "
                                "to 'color' or 'color_or_number', or turn the challenge off")
            if self.wd4_unavoidable:
                raise RuleError("an unavoidable Wild Draw 4 ('the bomb') cannot be challenged")
            if self.stacking != "off":
                raise RuleError("the Wild Draw 4 challenge and stacking cannot both be on")
        if self.partners:
            if self.max_players < 4 or self.min_players > 4:
                raise RuleError("partners need tables of exactly four players; allow four players")
            if self.scoring != "winner_takes":
                raise RuleError("partners score as teams: use scoring 'winner_takes'")
        if self.partners_see_hands and not self.partners:
            raise RuleError("partners_see_hands needs the partners option on")

    def check_seats(self, seats: int) -> None:
        if not self.min_players <= seats <= self.max_players:
            raise RuleError(f"{self.preset} is played by {self.min_players} to {self.max_players} players, "
                            f"not {seats}")
        if self.partners and seats != 4:
            raise RuleError(f"partners are played by exactly four players, not {seats}")


def _check_value(f: dataclasses.Field, value: Any) -> None:
    name = f.name
    if "choices" in f.metadata:
        if value not in f.metadata["choices"]:
            raise RuleError(f"option '{name}' must be one of {', '.join(f.metadata['choices'])}, not {value!r}")
    elif f.type in ("bool", bool):
        if not isinstance(value, bool):
            raise RuleError(f"option '{name}' must be true or false, not {value!r}")
    else:
        if not isinstance(value, int) or isinstance(value, bool):
            raise RuleError(f"option '{name}' must be a whole number, not {value!r}")
        minimum = f.metadata.get("minimum")
        if minimum is not None and value < minimum:
            raise RuleError(f"option '{name}' must be at least {minimum}, not {value}")
