"""A lobby table's AI seats: `"ai": {"SEAT": "LEVEL"}` read as the game's named AI levels, and their names.

A seat's value is one of the game's levels, by name (`casual`, `Casual`, or `level:casual`), stored as the
seat spec `level:NAME`; an agent spec (`random`, `greedy:8`) is still taken as given. Anything else is
refused (HTTP 422) naming the field and the game's levels. The lobby and the table call a level's seat by
the level's title ("Casual AI"), never by its agent spec.
"""

from __future__ import annotations

from typing import Any

from ..agents.base import HUMAN
from ..agents.levels import LEVEL, level_name, levels_of
from ..core.errors import TablepressError
from .requests import BadRequest, parse_web_spec, text_field


def parse_ai(value: Any, players: int, game: str) -> dict[int, str]:
    """The AI seats {seat: spec} of a table's `"ai"` for `game` at `players` seats (seat 0 is the creator's);
    BadRequest naming the field (`ai.SEAT`) otherwise."""
    if not isinstance(value, dict):
        raise BadRequest("ai: must be an object {\"SEAT\": LEVEL}, e.g. {\"1\": \"casual\"}")
    seats: dict[int, str] = {}
    for key, spec in value.items():
        if not (isinstance(key, str) and key.isdecimal() and 1 <= int(key) < players):
            raise BadRequest(f"ai: seats are numbered 1 to {players - 1} (seat 0 is yours), not {str(key)[:20]!r}")
        where = f"ai.{key}"
        text_field(spec, where)
        seats[int(key)] = ai_spec(spec, game, where)
    return seats


def ai_spec(given: str, game: str, where: str) -> str:
    """The seat spec of one AI seat: `level:NAME` for one of the game's levels, an agent spec as given;
    BadRequest naming `where` and the game's levels for anything else."""
    text = given.strip().lower()
    wanted = level_name(text) if level_name(text) is not None else text
    levels = levels_of(game)
    if any(level.name == wanted for level in levels):
        return f"{LEVEL}:{wanted}"
    known = ", ".join(level.name for level in levels) or "none"
    shown = given.strip() if len(given.strip()) <= 24 else given.strip()[:24] + "..."
    if level_name(text) is None:
        try:
            agent = parse_web_spec(text, where)
        except BadRequest:
            if ":" in text:  # an agent with a budget: its own error says what is wrong
                raise
        else:
            if agent == HUMAN:
                raise BadRequest(f"{where}: name an AI level ({known}); people take seats by joining")
            return text
    raise BadRequest(f"{where}: unknown level {shown!r} for {game} (levels: {known})")


def ai_name(game: str, spec: str) -> str:
    """What the lobby and the table call an AI seat: "Casual AI" for a level, "AI (random)" for an agent."""
    name = level_name(spec)
    if name is not None:
        try:
            return f"{next(level for level in levels_of(game) if level.name == name).title} AI"
        except (StopIteration, TablepressError):
            pass
    return f"AI ({spec})"


def seat_names(game: str, specs: list[str], people: dict[int, str]) -> list[str]:
    """Every seat's name for a table's game: the seated players' names, AI seats by `ai_name` (numbered by
    seat where two would read the same)."""
    names = [people.get(seat) or ai_name(game, spec) for seat, spec in enumerate(specs)]
    return [f"{name} {seat + 1}" if seat not in people and names.count(name) > 1 else name
            for seat, name in enumerate(names)]
