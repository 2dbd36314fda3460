"""Pressed's log in words: "planted Hydrangea in column 5 (row 3) for 15", "picked column 2: …", round scores.

Made from views only (see core/narration.py): everyone's lines never name the cards of a secret press.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.game import Game
from ...core.narration import Line, listing, standings


def narrate(game: Game, before: Mapping[str, Any], seat: int, action: str, after: Mapping[str, Any]) -> list[Line]:
    """One move of Pressed as log lines (see the module docstring)."""
    was, now = before["public"], after["public"]
    names = {card["code"]: card["name"] for card in now["cards"]}
    words = action.split()
    verb = words[0] if words else ""
    lines: list[Line]
    if verb == "plant":
        lines = [Line(_planting(words, now.get("last"), names), seat)]
    elif verb == "swap":
        lines = [Line(_swap(words[1:], was["bed"], names), seat)]
    elif verb == "noswap":
        lines = [Line("left the row as it is (no swap)", seat)]
    elif verb == "pick":
        column = int(words[1])
        cards = [names.get(code, code) for code in was["bed"][column - 1]]
        lines = [Line(f"picked column {column}: {listing(cards) or 'no cards'}", seat)]
    elif verb == "press":
        lines = [Line(f"pressed {listing([names.get(code, code) for code in words[1:]])}", seat)]
    else:
        lines = [Line(action, seat)]
    if now.get("final") is not None:
        lines.append(Line("Game over: " + standings([row["total"] for row in now["final"]], now.get("winners")),
                          kind="end"))
    elif now["round"] != was["round"]:
        lines.append(Line(f"Round {was['round']} ends: " + standings(now["scores"]), kind="round"))
    return lines


def _planting(words: list[str], last: Mapping[str, Any] | None, names: Mapping[str, str]) -> str:
    flower = names.get(words[1], words[1])
    text = f"planted {flower} in column {words[2]}"
    if last is not None:
        text += f" (row {last['row']})"
    extras = dict(zip(words[3::2], words[4::2]))
    if "copy" in extras:
        text += f", copying {names.get(extras['copy'], extras['copy'])}"
    if "choose" in extras:
        text += f", choosing {names.get(extras['choose'], extras['choose'])},"
    if last is not None:
        points = last["points"]
        text += f" for {points} point{'' if points == 1 else 's'}"
    return text


def _swap(cells: list[str], bed: list[list[str]], names: Mapping[str, str]) -> str:
    described = []
    for cell in cells:
        row, column = (int(part) for part in cell.split(","))
        code = bed[column - 1][row - 1] if row - 1 < len(bed[column - 1]) else "?"
        described.append(f"the {names.get(code, code)} at row {row}, column {column}")
    return "swapped " + " with ".join(described)
