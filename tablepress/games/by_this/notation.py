"""By This text notation: actions, Keys, and the position file of `tablepress score by-this` (docs/reference.md).

Actions (stable forms, names as printed on the cards; a Key as typed with `to`):

    place Apple left            place a thing from your hand on the left (or right) end
    place Apple                 ... on an empty shelf
    place Needle right from floor
    samenumber Apple after Ant  Same Number: next to a card with the same number (or `before Ant`)
    bythis A to Z               By This: take that face-up Key, slide; then a `place` follows
    dump                        Dump the Shelf; then a `place` follows
    lock                        Lock the Key; then a `place` follows
    floor Coffee                put a thing from your hand on the Floor (only when you cannot place)
    pass                        no thing in hand and nothing to place
    close / keep                the close decision at the end of your turn

Position file: `key: Small to Large` (`→`, `->` or `to`), then the shelf left to right on one line,
separated by commas; `# Name` lines start a player. Leniencies a person at a table would expect: a
first line that is just a Key (`Small → Large`), `key = ...`, a shelf continued on further lines, a
byte-order mark, plural names (`Ants`).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ...core.errors import PositionError
from .cards import ByThisCards
from .scoring import first_out_of_order

PLACE, SAME, BYTHIS, DUMP, LOCK, FLOOR, PASS, CLOSE, KEEP = (
    "place", "samenumber", "bythis", "dump", "lock", "floor", "pass", "close", "keep")
FROM_FLOOR = " from floor"
KEY_LINE = re.compile(r"^\s*key\s*[:=](.*)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Action:
    """A parsed action: the verb and whatever it names (thing, end, neighbour, Key)."""

    verb: str
    thing: str | None = None
    end: str | None = None  # "left", "right", or None on an empty shelf; "after"/"before" for samenumber
    other: str | None = None  # samenumber's neighbour
    from_floor: bool = False
    key: str | None = None  # bythis: the Key as typed in the action


def format_place(thing: str, end: str | None, from_floor: bool) -> str:
    """`place THING [left|right][ from floor]`."""
    return f"{PLACE} {thing}{' ' + end if end else ''}{FROM_FLOOR if from_floor else ''}"


def format_same(thing: str, side: str, other: str, from_floor: bool) -> str:
    """`samenumber THING after|before OTHER[ from floor]`."""
    return f"{SAME} {thing} {side} {other}{FROM_FLOOR if from_floor else ''}"


def parse_action(text: str) -> Action:
    """Split an action's text into its parts; ValueError if it has none of the forms above."""
    verb, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    if verb in (DUMP, LOCK, PASS, CLOSE, KEEP):
        if rest:
            raise ValueError(f"{verb!r} takes nothing after it")
        return Action(verb)
    if verb == BYTHIS:
        if not rest:
            raise ValueError("write bythis KEY, for example bythis A to Z")
        return Action(verb, key=rest)
    if verb == FLOOR:
        if not rest:
            raise ValueError("write floor THING, for example floor Coffee")
        return Action(verb, thing=rest)
    if verb not in (PLACE, SAME):
        raise ValueError(f"{verb!r} is not a move (moves: place, samenumber, bythis, dump, lock, floor, pass, close, keep)")
    from_floor = rest.endswith(FROM_FLOOR)
    if from_floor:
        rest = rest[: -len(FROM_FLOOR)].rstrip()
    if verb == PLACE:
        name, _, end = rest.rpartition(" ")
        if end in ("left", "right") and name:
            return Action(verb, thing=name, end=end, from_floor=from_floor)
        if not rest:
            raise ValueError("write place THING left|right, for example place Apple left")
        return Action(verb, thing=rest, from_floor=from_floor)
    match = re.fullmatch(r"(.+?) (after|before) (.+)", rest)
    if not match:
        raise ValueError("write samenumber THING after|before CARD, for example samenumber Apple after Ant")
    return Action(verb, thing=match.group(1), end=match.group(2), other=match.group(3), from_floor=from_floor)


# ----- position files ----------------------------------------------------------------------------
@dataclass
class ShelfPosition:
    """One player's shelf from a position file: name, Key and things (card ids) left to right."""

    name: str | None
    key: int
    things: list[int]


def parse_position(text: str, cards: ByThisCards, source: str = "position") -> list[ShelfPosition]:
    """Shelves from a position file (`# Name`, `key: ...`, then the shelf line); errors name the line."""
    index = cards.thing_index()
    sections: list[dict] = []
    current: dict | None = None
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            current = {"name": stripped.lstrip("#").strip() or None, "line": number, "key": None, "shelf": None}
            sections.append(current)
            continue
        if current is None:
            current = {"name": None, "line": number, "key": None, "shelf": None}
            sections.append(current)
        match = KEY_LINE.match(stripped)
        if match is None and current["key"] is None and cards.find_key(stripped) is not None:
            match = KEY_LINE.match(f"key: {stripped}")  # the Key written without `key:`
        if match:
            if current["key"] is not None:
                raise PositionError(f"{source}: line {number}: a second key line for {_who(current)}")
            key = cards.find_key(match.group(1))
            if key is None:
                raise PositionError(f"{source}: line {number}: unknown Key {match.group(1).strip()!r} "
                                    f"(Keys: {', '.join(k.name for k in cards.keys)})")
            current["key"] = (key, number)
            continue
        if current["key"] is None:
            raise PositionError(f"{source}: line {number}: expected the Key first, like `key: Small to Large`")
        if current["shelf"] is None:
            current["shelf"] = ([], [])
        things, lines = current["shelf"]  # a shelf continued on more lines still reads left to right
        for card in _shelf_line(stripped, cards, index, f"{source}: line {number}"):
            if card in things:
                name = cards.names[card]
                raise PositionError(f"{source}: line {number}: {name} is on the shelf twice (there is one {name})")
            things.append(card)
            lines.append(number)
    if not sections:
        raise PositionError(f"{source}: empty file (write `key: Small to Large`, then the shelf on the next line)")
    shelves = []
    for section in sections:
        if section["key"] is None:
            raise PositionError(f"{source}: line {section['line']}: {_who(section)} has no `key:` line")
        if section["shelf"] is None:
            raise PositionError(f"{source}: line {section['key'][1]}: {_who(section)} has a Key but no shelf "
                                f"line (write the things left to right, separated by commas)")
        key, _ = section["key"]
        things, lines = section["shelf"]
        keycard = cards.keys[key]
        numbers = [cards.numbers[keycard.word_index][t] for t in things]
        bad = first_out_of_order(numbers, keycard.ascending)
        if bad is not None:
            word = keycard.word
            raise PositionError(
                f"{source}: line {lines[bad]}: the shelf is out of order under {keycard.name}: "
                f"{cards.names[things[bad]]} ({word} {numbers[bad]}) cannot stand right of "
                f"{cards.names[things[bad - 1]]} ({word} {numbers[bad - 1]})"
            )
        shelves.append(ShelfPosition(section["name"], key, things))
    return shelves


def _who(section: dict) -> str:
    return section["name"] or "the shelf"


def _shelf_line(line: str, cards: ByThisCards, index, where: str) -> list[int]:
    things: list[int] = []
    for item in (part.strip() for part in line.split(",")):
        if not item:
            continue
        whole = index.get(item)
        names = [whole] if whole else [index.get(word) or _unknown(word, cards, where) for word in item.split()]
        for name in names:
            card = cards.thing_id(name)
            if card in things:
                raise PositionError(f"{where}: {name} is on the shelf twice (there is one {name})")
            things.append(card)
    return things


def _unknown(word: str, cards: ByThisCards, where: str) -> str:
    if cards.find_key(word) is not None or word.lower().startswith("key:"):
        raise PositionError(f"{where}: the Key goes on its own line first, like `key: Small to Large`")
    close = difflib.get_close_matches(word, cards.names[: cards.thing_count], n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise PositionError(f"{where}: unknown thing {word!r}{hint}")
