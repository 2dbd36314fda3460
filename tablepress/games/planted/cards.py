"""Planted card data: read from cards.toml (optionally with a designer's overrides) into card tables.

Inside the engine a resource or item card is its printed number (1–102 with the published data) and a
plant is its index in the plant list. Resources are vectors (Light, Water, Plant Food, Green Thumb).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.data import merge_card_data, read_card_data
from ...core.errors import DataError
from ...core.names import NameIndex, fold

DATA_FILE = Path(__file__).with_name("cards.toml")
LETTERS = "LWFG"
L, W, F, G = range(4)
RESOURCE_NAMES = ("Light", "Water", "Plant Food", "Green Thumb")
TOOL_EFFECTS = ("exact", "contains", "buy", "propagate")
DECORATION_SCORES = ("tools", "type", "types", "grown", "propagation")
TIERS = ("beginner", "easy", "medium", "hard")
LIST_SECTIONS = ("resources", "tools", "decorations", "plants")

Vector = tuple[int, int, int, int]


def load_data(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The card data from cards.toml with `overrides` merged in: tables by key, card lists replaced whole."""
    return merge_card_data(read_card_data(DATA_FILE), overrides, "planted", ("tiers",))


def vector(text: str, field: str, allowed: str = LETTERS) -> Vector:
    """Letters such as `LWWF` → counts (L, W, F, G); DataError naming `field` for any other letter."""
    if not isinstance(text, str) or not text:
        raise DataError(f"planted {field}: give resource letters such as \"LWF\", not {text!r}")
    counts = [0, 0, 0, 0]
    for letter in text.upper():
        if letter not in allowed:
            raise DataError(f"planted {field}: {letter!r} is not one of {', '.join(allowed)}")
        counts[LETTERS.index(letter)] += 1
    return counts[0], counts[1], counts[2], counts[3]


def letters(counts: Sequence[int]) -> str:
    """Counts (L, W, F, G) → letters, e.g. (1, 2, 1, 0) → `LWWF`."""
    return "".join(letter * count for letter, count in zip(LETTERS, counts))


@dataclass(frozen=True)
class Tool:
    """A kind of tool and its effect."""

    name: str
    effect: str
    shows: Vector = (0, 0, 0, 0)
    gain: Vector = (0, 0, 0, 0)
    choices: str = ""
    amount: int = 0

    def bonus(self, card: Vector) -> Vector:
        """What one copy adds when its owner plays a resource card showing `card`."""
        if self.effect == "exact" and card == self.shows:
            return self.gain
        if self.effect == "contains" and any(c and s for c, s in zip(card, self.shows)):
            return self.gain
        return (0, 0, 0, 0)


@dataclass(frozen=True)
class Decoration:
    """A kind of decoration and how it scores."""

    name: str
    scores: str
    points: int
    type: str = ""
    per: int = 1


@dataclass(frozen=True)
class Plant:
    """A plant card: type, tier, the cost of each growth and the points of its spaces, bottom first."""

    name: str
    type: str
    tier: str
    cost: Vector
    spaces: tuple[int, ...]

    @property
    def cost_text(self) -> str:
        """The cost as letters (`LWWF`)."""
        return letters(self.cost)


@dataclass(frozen=True)
class PlantedCards:
    """Every table the engine needs, indexed by card number (resources and items) or plant index."""

    rounds: int
    hand_resources: int
    hand_items: int
    row_size: int
    max_plants: int
    thumbs_per_resource: int
    leftovers_per_token: int
    pass_left: frozenset[int]
    resource_cards: tuple[int, ...]
    item_cards: tuple[int, ...]
    shows: dict[int, Vector]
    tools: tuple[Tool, ...]
    decorations: tuple[Decoration, ...]
    tool_of: dict[int, int]
    decoration_of: dict[int, int]
    plants: tuple[Plant, ...]
    types: tuple[str, ...]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "PlantedCards":
        """Build and validate the tables; a broken data file raises DataError naming the field."""
        game = data.get("game", {})
        rounds = _positive(game.get("rounds"), "game.rounds")
        hand_resources = _positive(game.get("hand_resources"), "game.hand_resources", zero=True)
        hand_items = _positive(game.get("hand_items"), "game.hand_items", zero=True)
        if hand_resources + hand_items == 0:
            raise DataError("planted game.hand_resources + game.hand_items: a hand needs at least one card")
        pass_left = game.get("pass_left", [])
        if not isinstance(pass_left, list) or not all(isinstance(r, int) for r in pass_left):
            raise DataError("planted game.pass_left: give a list of round numbers")
        number = 0
        shows: dict[int, Vector] = {}
        resource_cards: list[int] = []
        for index, entry in enumerate(_entries(data, "resources")):
            value = vector(entry.get("shows"), f"resources[{index}].shows")
            for _ in range(_positive(entry.get("copies"), f"resources[{index}].copies")):
                number += 1
                shows[number] = value
                resource_cards.append(number)
        tools: list[Tool] = []
        tool_of: dict[int, int] = {}
        for index, entry in enumerate(_entries(data, "tools")):
            tools.append(_tool(entry, f"tools[{index}]"))
            for _ in range(_positive(entry.get("copies"), f"tools[{index}].copies")):
                number += 1
                tool_of[number] = index
        decorations: list[Decoration] = []
        decoration_of: dict[int, int] = {}
        for index, entry in enumerate(_entries(data, "decorations")):
            decorations.append(_decoration(entry, f"decorations[{index}]"))
            for _ in range(_positive(entry.get("copies"), f"decorations[{index}].copies")):
                number += 1
                decoration_of[number] = index
        tiers = data.get("tiers", {})
        plants = tuple(_plant(entry, f"plants[{i}]", tiers) for i, entry in enumerate(_entries(data, "plants")))
        types = tuple(dict.fromkeys(plant.type for plant in plants))
        for index, deco in enumerate(decorations):
            if deco.scores == "type" and deco.type not in types:
                raise DataError(f"planted decorations[{index}].type: no plant has type {deco.type!r}")
        _unique([t.name for t in tools] + [d.name for d in decorations] + [p.name for p in plants], "names")
        cards = cls(
            rounds=rounds,
            hand_resources=hand_resources,
            hand_items=hand_items,
            row_size=_positive(game.get("nursery_row"), "game.nursery_row"),
            max_plants=_positive(game.get("max_plants"), "game.max_plants"),
            thumbs_per_resource=_positive(game.get("thumbs_per_resource"), "game.thumbs_per_resource"),
            leftovers_per_token=_positive(game.get("leftovers_per_token"), "game.leftovers_per_token"),
            pass_left=frozenset(pass_left),
            resource_cards=tuple(resource_cards),
            item_cards=tuple(sorted(tool_of) + sorted(decoration_of)),
            shows=shows,
            tools=tuple(tools),
            decorations=tuple(decorations),
            tool_of=tool_of,
            decoration_of=decoration_of,
            plants=plants,
            types=types,
        )
        if len(cards.beginners) < 1:
            raise DataError("planted [[plants]]: at least one plant must have tier \"beginner\"")
        return cards

    # ----- derived tables -----------------------------------------------------------------------
    @property
    def beginners(self) -> tuple[int, ...]:
        """Indices of the beginner plants."""
        return tuple(i for i, plant in enumerate(self.plants) if plant.tier == "beginner")

    @property
    def deck_plants(self) -> tuple[int, ...]:
        """Indices of the plants of the plant deck (every plant that is not a beginner)."""
        return tuple(i for i, plant in enumerate(self.plants) if plant.tier != "beginner")

    def is_resource(self, card: int) -> bool:
        """Whether a card number is a resource card (else it is a tool or a decoration)."""
        return card in self.shows

    def label(self, card: int) -> str:
        """What a card shows, for people: `WW`, `Watering Can`, `Workbench`."""
        if card in self.shows:
            return letters(self.shows[card])
        if card in self.tool_of:
            return self.tools[self.tool_of[card]].name
        return self.decorations[self.decoration_of[card]].name

    def kind(self, card: int) -> str:
        """`resource`, `tool` or `decoration`."""
        if card in self.shows:
            return "resource"
        return "tool" if card in self.tool_of else "decoration"

    def passes_left(self, round_index: int) -> bool:
        """Whether hands go left (seat i to seat i+1) in the round with this 0-based index."""
        return round_index + 1 in self.pass_left

    def plant_names(self) -> NameIndex:
        """Looks up plant names as people type them (any case, accents optional) → the canonical name."""
        names = [plant.name for plant in self.plants]
        return NameIndex(names, {name.replace("'", ""): name for name in names if "'" in name})


def _entries(data: Mapping[str, Any], section: str) -> list[Mapping[str, Any]]:
    entries = data.get(section)
    if not isinstance(entries, list) or not entries:
        raise DataError(f"planted [[{section}]]: no cards given")
    for index, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            raise DataError(f"planted {section}[{index}]: each card must be a table")
    return entries


def _tool(entry: Mapping[str, Any], field: str) -> Tool:
    name = _name(entry, field)
    effect = entry.get("effect")
    if effect not in TOOL_EFFECTS:
        raise DataError(f"planted {field}.effect: one of {', '.join(TOOL_EFFECTS)}, not {effect!r}")
    if effect in ("exact", "contains"):
        return Tool(name, effect, shows=vector(entry.get("shows"), f"{field}.shows"),
                    gain=vector(entry.get("gain"), f"{field}.gain"))
    amount = _positive(entry.get("amount"), f"{field}.amount")
    if effect == "buy":
        choices = entry.get("choices")
        vector(choices, f"{field}.choices")
        return Tool(name, effect, choices="".join(dict.fromkeys(choices.upper())), amount=amount)
    return Tool(name, effect, amount=amount)


def _decoration(entry: Mapping[str, Any], field: str) -> Decoration:
    name = _name(entry, field)
    scores = entry.get("scores")
    if scores not in DECORATION_SCORES:
        raise DataError(f"planted {field}.scores: one of {', '.join(DECORATION_SCORES)}, not {scores!r}")
    points = entry.get("points")
    if not isinstance(points, int):
        raise DataError(f"planted {field}.points: must be a whole number, not {points!r}")
    kind = entry.get("type", "")
    if scores == "type" and not (isinstance(kind, str) and kind):
        raise DataError(f"planted {field}.type: a type decoration names the plant type it scores")
    per = _positive(entry.get("per", 1), f"{field}.per")
    return Decoration(name, scores, points, type=kind if scores == "type" else "", per=per)


def _plant(entry: Mapping[str, Any], field: str, tiers: Mapping[str, Any]) -> Plant:
    name = _name(entry, field)
    kind = entry.get("type")
    if not isinstance(kind, str) or not kind.strip():
        raise DataError(f"planted {field}.type: {name} needs a plant type")
    tier = entry.get("tier")
    if tier not in TIERS:
        raise DataError(f"planted {field}.tier: one of {', '.join(TIERS)}, not {tier!r}")
    cost = vector(entry.get("cost"), f"{field}.cost", allowed="LWF")
    spaces = entry.get("spaces", tiers.get(tier))
    if not isinstance(spaces, list) or not spaces or not all(isinstance(p, int) and p >= 0 for p in spaces):
        raise DataError(f"planted {field}.spaces: {name} needs a list of points (from [tiers] or its own)")
    return Plant(name, kind.strip(), tier, cost, tuple(spaces))


def _name(entry: Mapping[str, Any], field: str) -> str:
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip() or "+" in name or "," in name:
        raise DataError(f"planted {field}.name: give a name without '+' or ',', not {name!r}")
    return name.strip()


def _unique(names: list[str], field: str) -> None:
    seen: set[str] = set()
    for name in names:
        key = fold(name)
        if key in seen:
            raise DataError(f"planted {field}: {name!r} is used twice")
        seen.add(key)


def _positive(value: Any, field: str, zero: bool = False) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < (0 if zero else 1):
        raise DataError(f"planted {field}: must be a whole number ≥ {0 if zero else 1}, not {value!r}")
    return value
