"""Card identities: every distinct card is a small int with precomputed lookup tables.

Identical copies of a card share one id, so a hand is a list of ids and `hand.count(id)` says how many
copies a player holds. Codes are short stable strings used in actions, events and views:

* UNO colours R, Y, G, B: numbers `R0`..`B9`, skip `RS`, reverse `RR`, draw two `RD2`, blank `RBL`;
  wild `W`, wild draw four `WD4`.
* Ocho (Plato) adds: `O8` Ocho wild, `SH` shield, `XR` x-ray, `DR` dead red, `BB` boo blue.
* Playing cards, suits S, H, D, C used as colours: rank then suit, `AS`, `2H`, `10D`, `QC`; joker `JK`.
"""

from typing import Final

NUMBER: Final = 0
SKIP: Final = 1
REVERSE: Final = 2
DRAW2: Final = 3
WILD: Final = 4
WILD_DRAW4: Final = 5
SHIELD: Final = 6
XRAY: Final = 7
DEAD_RED: Final = 8
BOO_BLUE: Final = 9
BLANK: Final = 10
KIND_NAMES: Final = (
    "number", "skip", "reverse", "draw2", "wild", "wild_draw4", "shield", "xray", "dead_red", "boo_blue",
    "blank",
)

# Colours 0-3 are UNO's, 4-7 are the suits of playing cards; -1 means "no colour" (a wild card).
COLOUR_CODES: Final = ("R", "Y", "G", "B", "S", "H", "D", "C")
COLOUR_NAMES: Final = ("red", "yellow", "green", "blue", "spades", "hearts", "diamonds", "clubs")
UNO_COLOURS: Final = (0, 1, 2, 3)
SUIT_COLOURS: Final = (4, 5, 6, 7)
RED: Final = 0
BLUE: Final = 3
COLOUR_ID: Final = {code: i for i, code in enumerate(COLOUR_CODES)}

CODE: Final[list[str]] = []
COLOUR: Final[list[int]] = []
KIND: Final[list[int]] = []
FACE: Final[list[int]] = []  # what "matching number or symbol" compares; -1 for wild cards, which match anything
POINTS: Final[list[int]] = []  # scoring value; blank cards take theirs from the rule set
DRAW_AMOUNT: Final[list[int]] = []
IS_WILD: Final[list[bool]] = []
IS_EIGHT: Final[list[bool]] = []  # a playing-card 8, for the "Ocho!" announcement
CARD_ID: Final[dict[str, int]] = {}


def _add(code: str, colour: int, kind: int, face: int, points: int, eight: bool = False) -> None:
    CARD_ID[code] = len(CODE)
    CODE.append(code)
    COLOUR.append(colour)
    KIND.append(kind)
    FACE.append(face)
    POINTS.append(points)
    DRAW_AMOUNT.append({DRAW2: 2, WILD_DRAW4: 4}.get(kind, 0))
    IS_WILD.append(colour < 0)
    IS_EIGHT.append(eight)


for _c in UNO_COLOURS:
    _l = COLOUR_CODES[_c]
    for _n in range(10):
        _add(f"{_l}{_n}", _c, NUMBER, _n, _n)
    _add(f"{_l}S", _c, SKIP, 10, 20)
    _add(f"{_l}R", _c, REVERSE, 11, 20)
    _add(f"{_l}D2", _c, DRAW2, 12, 20)
    _add(f"{_l}BL", _c, BLANK, 13, 0)
_add("W", -1, WILD, -1, 50)
_add("WD4", -1, WILD_DRAW4, -1, 50)
_add("O8", -1, WILD, -1, 50)
_add("SH", -1, SHIELD, -1, 50)
_add("XR", -1, XRAY, -1, 50)
_add("DR", RED, DEAD_RED, 14, 20)
_add("BB", BLUE, BOO_BLUE, 15, 20)

RANK_CODES: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
for _c in SUIT_COLOURS:
    _s = COLOUR_CODES[_c]
    for _r, _rc in enumerate(RANK_CODES, start=1):
        if _rc == "A":
            _add(f"A{_s}", _c, REVERSE, 20 + _r, 20)
        elif _rc == "2":
            _add(f"2{_s}", _c, DRAW2, 20 + _r, 20)
        elif _rc in ("J", "Q", "K"):
            # Face cards are wild but keep their suit for "identical card" purposes (see IDENTITY_SUIT).
            _add(f"{_rc}{_s}", -1, WILD, -1, 50)
        else:
            _add(f"{_rc}{_s}", _c, NUMBER, 20 + _r, _r, eight=_rc == "8")
_add("JK", -1, WILD_DRAW4, -1, 50)

CARD_COUNT: Final = len(CODE)
# A card counts as "identical" to the one below it (ocho-cards' skip) only if it has a suit; the joker has none.
HAS_SUIT: Final = [i >= CARD_ID["AS"] and code != "JK" for i, code in enumerate(CODE)]


def card_id(code: str) -> int:
    """The id of a card code; KeyError for an unknown code."""
    return CARD_ID[code]


def card_code(card: int) -> str:
    return CODE[card]
