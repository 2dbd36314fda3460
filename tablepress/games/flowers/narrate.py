"""Flowers' log in words: "drew a yellow 3 from stack 1", "placed it at 1,0, on a red 2: 14 points (+3)".

Made from views only (see core/narration.py): the drawn card is public once drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.game import Game
from ...core.narration import Line, standings


def card_text(game: Game, code: str) -> str:
    """A card code as words: `Y4g` → `yellow 4 with a green butterfly`, `V` → `violet start card`."""
    colours = {letter: name.lower() for letter, name in game.cards.colour_names.items()}
    if code[:1] not in colours:
        return "violet start card" if code.startswith("V") else code
    text = f"{colours[code[0]]} {code[1:2]}"
    butterfly = code[2:3].upper()
    if butterfly in colours:
        text += f" with a {colours[butterfly]} butterfly"
    return text


def narrate(game: Game, before: Mapping[str, Any], seat: int, action: str, after: Mapping[str, Any]) -> list[Line]:
    """One move of Flowers as log lines (see the module docstring)."""
    was, now = before["public"], after["public"]
    words = action.split()
    if words[:1] == ["draw"]:
        drawn = now.get("drawn") or after.get("private", {}).get("drawn")
        card = f"a {card_text(game, drawn)}" if drawn else "a card"
        lines = [Line(f"drew {card} from stack {words[1]}", seat)]
    elif words[:1] == ["place"] and len(words) == 3:
        lines = [Line(_placing(game, words[1], words[2], was, now, seat), seat)]
    else:
        lines = [Line(action, seat)]
    if now["over"]:
        lines.append(Line("Game over: " + standings(now["scores"], now.get("winners")), kind="end"))
    return lines


def _placing(game: Game, code: str, cell: str, was: Mapping[str, Any], now: Mapping[str, Any], seat: int) -> str:
    x, y = (int(part) for part in cell.split(","))
    under = next((entry["cards"][-1] for entry in was["areas"][seat] if (entry["x"], entry["y"]) == (x, y)), None)
    text = f"placed the {card_text(game, code)} at {cell}"
    if under:
        text += f", covering a {card_text(game, under)}"
    old, new = was["scores"][seat], now["scores"][seat]
    change = new - old
    return text + f": {new} point{'' if abs(new) == 1 else 's'} ({change:+d})"
