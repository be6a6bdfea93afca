"""Display names: one spelling per name, nothing invisible in it, and none that looks like another's.

Within an event names are unique ignoring case, so two students at a table can be told apart. A name is
stored NFKC-normalized (full-width and styled letters become plain ones) with its runs of spaces
collapsed. Control and format characters (zero-width spaces and joiners, direction overrides and
isolates) are refused: they make a copy of a name that looks the same. So is a name that reads like one
already in the event through look-alike letters (a Cyrillic "а" for a Latin "a", "0" for "O"): the
look-alikes come from Unicode's confusables table through confusable-homoglyphs, each letter standing for
the smallest code point among its look-alikes, compared without case.

The database enforces exact uniqueness ignoring case (``unique_display_name_per_event``); these checks
give the refusal in words.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import confusables

from tournament.models import Event, Player

# Unicode general categories no name needs: controls, format characters (U+200B, U+200D, U+2066, U+202E...),
# surrogates, private use, unassigned, line and paragraph separators.
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def normalized(display_name: str) -> str:
    """The name as stored: NFKC, inner runs of spaces collapsed, ends trimmed."""
    return " ".join(unicodedata.normalize("NFKC", display_name or "").split())


def invisible_characters(display_name: str) -> list[str]:
    """The control and format characters of a name, as ``U+200B`` codes (empty when there is none)."""
    return [f"U+{ord(c):04X}" for c in display_name if unicodedata.category(c) in REFUSED_CATEGORIES]


def _look_alikes(character: str) -> set[str]:
    found = confusables.is_confusable(character, greedy=True, preferred_aliases=[]) or []
    return {glyph["c"] for entry in found for glyph in entry["homoglyphs"]}


@functools.lru_cache(maxsize=4096)
def _stand_in(character: str) -> str:
    """One character for a whole group of look-alikes. The table lists a letter's look-alikes around one
    prototype ("I" lists only "l", "l" lists "1", "I", "|"...): the group is the look-alikes of the
    character and of each of its look-alikes."""
    group = {character, *_look_alikes(character)}
    for other in list(group):
        if len(other) == 1:
            group |= _look_alikes(other)
    return min(c for c in group if len(c) == 1)


def skeletons(display_name: str) -> set[str]:
    """What a name looks like, case aside: two names that read the same share one. Look-alikes are read
    before and after folding case, since both sides matter ("I" looks like "l", "i" does not)."""
    name = normalized(display_name)
    return {"".join(_stand_in(c) for c in name).casefold(),
            "".join(_stand_in(c) for c in name.casefold()).casefold()}


def display_name_problem(event: Event, display_name: str, except_player: Player | None = None) -> str:
    """Why ``display_name`` cannot be a name in ``event`` ("" when it can). Give it ``normalized``."""
    name = normalized(display_name)
    if invisible := invisible_characters(name):
        return (f"The name contains invisible or control characters ({', '.join(dict.fromkeys(invisible))}); "
                "type it again with letters, digits, spaces and punctuation only.")
    others = Player.objects.filter(event=event)
    if except_player is not None:
        others = others.exclude(pk=except_player.pk)
    if others.filter(display_name__iexact=name).exists():
        return taken_message(event, name)
    looks = skeletons(name)
    for other in others.values_list("display_name", flat=True).iterator():
        if looks & skeletons(other):
            return (f'"{name}" looks the same as "{other}", already in {event.name}: choose a name that reads '
                    f'differently, e.g. "{normalized(name)} K."')
    return ""


def display_name_taken(event: Event, display_name: str, except_player: Player | None = None) -> bool:
    return bool(display_name_problem(event, display_name, except_player))


def taken_message(event: Event, display_name: str) -> str:
    name = normalized(display_name)
    return (
        f'Someone in {event.name} already shows as "{name}". Add an initial or a surname to tell you '
        f'apart, e.g. "{name} K."'
    )
