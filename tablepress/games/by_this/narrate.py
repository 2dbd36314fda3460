"""By This's log in words: "placed Tent on the right end", "played By This: A to Z; Needle slid to the Floor".

Made from views only (see core/narration.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...core.game import Game
from ...core.narration import Line, listing, seat_mark, standings


def narrate(game: Game, before: Mapping[str, Any], seat: int, action: str, after: Mapping[str, Any]) -> list[Line]:
    """One move of By This as log lines (see the module docstring)."""
    was, now = before["public"], after["public"]
    words = action.split()
    verb = words[0] if words else ""
    rest = " ".join(words[1:])
    text = {
        "place": lambda: _place(rest),
        "floor": lambda: f"could not place and put {rest} on the Floor",
        "samenumber": lambda: f"played Same Number: {_same(rest)}",
        "bythis": lambda: f"played By This: the Key is now {now['key']['name']}",
        "dump": lambda: (f"played Dump the Shelf: {_count(len(was['shelf']))} went to the Floor" if was["shelf"]
                         else "played Dump the Shelf on an empty shelf"),
        "lock": lambda: f"played Lock the Key: {now['key']['name']} stays",
        "pass": lambda: "passed",
        "close": lambda: _close(was, now, seat),
        "keep": lambda: f"kept the shelf open ({_count(len(now['shelf']))}, worth {now['close_score']} if closed)",
    }.get(verb, lambda: action)()
    if verb in ("place", "samenumber") and now["shelf"]:
        text += f"; the shelf holds {_count(len(now['shelf']))}, worth {now['close_score']}"
    fell = fell_to_floor(was, now) if verb in ("place", "samenumber", "bythis") else []
    if fell:
        text += f"; {listing(fell)} slid to the Floor"
    lines = [Line(text, seat)]
    if now["forced_closes"] > was["forced_closes"]:
        lines.append(Line(_forced(was, now), kind="round"))
    if now["over"]:
        lines.append(Line("Game over: " + standings(now["scores"], now.get("winners")), kind="end"))
    return lines


def _count(things: int) -> str:
    return f"{things} thing{'' if things == 1 else 's'}"


def _place(rest: str) -> str:
    words = rest.split()
    from_floor = rest.endswith(" from floor")
    if from_floor:
        words = words[:-2]
    side = words[-1] if words and words[-1] in ("left", "right") else None
    thing = " ".join(words[:-1] if side else words)
    where = f" on the {side} end" if side else " on the shelf"
    return f"placed {thing}{' from the Floor' if from_floor else ''}{where}"


def _same(rest: str) -> str:
    from_floor = rest.endswith(" from floor")
    if from_floor:
        rest = rest[: -len(" from floor")]
    return rest + (" (from the Floor)" if from_floor else "")


def _close(was: Mapping[str, Any], now: Mapping[str, Any], seat: int) -> str:
    gained = now["scores"][seat] - was["scores"][seat]
    return (f"closed the shelf of {_count(len(was['shelf']))} for {gained} point{'' if gained == 1 else 's'} "
            f"(close {now['total_closes']} of {now['closes_to_end']})")


def _forced(was: Mapping[str, Any], now: Mapping[str, Any]) -> str:
    gains = [f"{seat_mark(s)} +{new - old}" for s, (old, new) in enumerate(zip(was["scores"], now["scores"]))
             if new != old]
    text = "A whole round without a placement: the shelf is closed by force"
    return text + (f" ({', '.join(gains)})" if gains else "")


def fell_to_floor(was: Mapping[str, Any], now: Mapping[str, Any]) -> list[str]:
    """The things that reached the Floor during the move (out of order after a slide or a new Key)."""
    added = Counter(entry["card"] for entry in now["floor"]) - Counter(entry["card"] for entry in was["floor"])
    return sorted(added.elements())
