"""Planted's log in words: who chose what once the cards are revealed, what was bought and fed, the rounds.

Made from views only (see core/narration.py): a choice stays "chose a card" for the others until the
reveal, which everyone reads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...core.game import Game
from ...core.narration import Line, listing, seat_mark, standings

RESOURCES = {"L": "Light", "W": "Water", "F": "Plant Food", "G": "Green Thumb"}


def narrate(game: Game, before: Mapping[str, Any], seat: int, action: str, after: Mapping[str, Any]) -> list[Line]:
    """One move of Planted as log lines (see the module docstring)."""
    was, now = before["public"], after["public"]
    words = action.split()
    verb = words[0] if words else ""
    if verb in ("play", "nursery"):
        card = _card_named(before, int(words[1]))
        call = " and called Nursery" if verb == "nursery" else ""
        text = f"chose {card}{call}" if card else f"chose a card{call}"
    elif verb == "buy":
        text = _buy(" ".join(words[1:]), was, now, seat)
    elif verb == "feed":
        text = _feed(" ".join(words[1:]), was, now, seat)
    else:
        text = action
    lines = [Line(text, seat)]
    if now["revealed"] and now["revealed"] != was["revealed"]:
        shown = [f"{seat_mark(entry['seat'])} {_card_text(entry)}" + (" (Nursery)" if entry["nursery"] else "")
                 for entry in now["revealed"]]
        lines.append(Line("Revealed: " + "; ".join(shown), kind="reveal"))
    if now["over"]:
        lines.append(Line("Game over: " + standings(now["scores"], now.get("winners")), kind="end"))
    elif now["round"] != was["round"]:
        lines.append(Line(f"Round {was['round']} ends: " + standings(now["scores"]), kind="round"))
    return lines


def _card_text(card: Mapping[str, Any]) -> str:
    """A card as people say it: resource letters spelt out (`2 Light and Green Thumb`), others by name."""
    if card.get("kind") == "resource" and set(card["name"]) <= set(RESOURCES):
        counts = Counter(card["name"])
        return listing([f"{counts[letter]} {RESOURCES[letter]}" if counts[letter] > 1 else RESOURCES[letter]
                        for letter in RESOURCES if counts[letter]])
    return card["name"]


def _card_named(view: Mapping[str, Any], number: int) -> str | None:
    """The card numbered `number` in the reader's own hand (None for a reader who cannot see it)."""
    for card in view.get("private", {}).get("hand", []):
        if card["number"] == number:
            return f"{_card_text(card)} (no. {number})"
    return None


def _buy(rest: str, was: Mapping[str, Any], now: Mapping[str, Any], seat: int) -> str:
    plant, _, extra = rest.partition(" +")
    text = f"bought {plant}"
    if extra:
        text += f", adding {RESOURCES.get(extra, extra)} with the Trowel"
    return text


def _feed(rest: str, was: Mapping[str, Any], now: Mapping[str, Any], seat: int) -> str:
    if rest == "none":
        return "fed nothing"
    gained = now["boards"][seat]["score"] - was["boards"][seat]["score"]
    plants = listing(rest.split("+"))
    return f"fed {plants}: {'+' if gained >= 0 else ''}{gained} point{'' if abs(gained) == 1 else 's'}"
