"""Planted card faces: plants (type, tier, cost, growth spaces with points), resource cards (with an
index of what they give that reads in a fanned hand), tools and decorations, each resource and item card
with its number. Resources are tokens with a letter and a shape (L circle, W triangle, F square,
G diamond), so greyscale prints read.
"""

from __future__ import annotations

from ...faces.model import CARD_HEIGHT, CARD_WIDTH, CardFace, Face, Rect, Shape, Text, arrow
from ...faces.style import (CENTRE_X, INK, INSET, MUTED, PANEL_W, PAPER, back, badge, banner, frame, paragraph,
                            symbol)
from .cards import LETTERS, RESOURCE_NAMES, Decoration, Plant, Tool, letters
from .engine import PlantedGame

RESOURCE_STYLE = {"L": ("#f4c542", "circle"), "W": ("#3d8fd6", "triangle"), "F": ("#9a6b3f", "square"),
                  "G": ("#4caf50", "diamond")}
TYPE_STYLE = {"Foliage": ("#2f7d4f", "diamond"), "Flowering": ("#c2528b", "star"),
              "Succulent": ("#7a9a3a", "hexagon"), "Trailing": ("#3f8f8f", "triangle"),
              "Fern": ("#4d7f2f", "square"), "Tree": ("#7a5230", "circle")}
_SPARE_TYPES = (("#556b8d", "circle"), ("#8d5566", "square"))
RESOURCE_CARD = "#6f8f74"
TOOL = "#55677a"
DECORATION = "#a65e3a"
NAMES = dict(zip(LETTERS, RESOURCE_NAMES))


def type_style(kind: str, types: tuple[str, ...]) -> tuple[str, str]:
    """The colour and symbol of a plant type."""
    if kind in TYPE_STYLE:
        return TYPE_STYLE[kind]
    extra = [t for t in types if t not in TYPE_STYLE]
    return _SPARE_TYPES[extra.index(kind) % len(_SPARE_TYPES)] if kind in extra else _SPARE_TYPES[0]


def token(letter: str, cx: float, cy: float, r: float) -> list[Shape]:
    """One resource token: its shape in its colour with its letter on it."""
    fill, shape = RESOURCE_STYLE[letter]
    size = r * (2.3 if shape == "triangle" else 3.2)
    lift = r * 0.4 if shape == "triangle" else 0.0
    return [symbol(shape, cx, cy, r, fill, INK, 0.35),
            Text(cx, cy + size * 0.125 + lift, letter, size, True, "middle", INK)]


def token_row(text: str, cy: float, r: float, gap: float = 1.5, cx: float = CENTRE_X) -> list[Shape]:
    """Tokens for each letter of `text` in a centred row."""
    step = 2 * r + gap
    start = cx - step * (len(text) - 1) / 2
    shapes: list[Shape] = []
    for index, letter in enumerate(text):
        shapes += token(letter, start + index * step, cy, r)
    return shapes


def numbered(face: Face, number: int) -> Face:
    """Put the card's number in a badge at the top-left and bottom-right."""
    face.add(*badge(str(number), INSET + 6, INSET + 6))
    face.add(*badge(str(number), CARD_WIDTH - INSET - 6, CARD_HEIGHT - INSET - 6))
    return face


def resource_index(shows: str, number: int) -> list[Shape]:
    """The top-left index that reads in a fanned hand: a small token for each resource shown, stacked,
    and the card's number under them."""
    cx, step, r = INSET + 5.0, 7.6, 3.3
    shapes: list[Shape] = [Rect(INSET + 0.6, INSET + 0.6, 8.8, step * len(shows) + 6.4, fill=PAPER, stroke=INK,
                                width=0.3, radius=1.5)]
    for index, letter in enumerate(shows):
        shapes += token(letter, cx, INSET + 4.6 + index * step, r)
    shapes.append(Text(cx, INSET + 4.6 + len(shows) * step - 0.6, str(number), 6.5, True, "middle", INK))
    return shapes


def resource_front(shows: str, number: int) -> Face:
    """A resource card: a fanned-hand index, large tokens for what it gives, their names, and its number."""
    face = Face().add(*frame(RESOURCE_CARD), *banner("RESOURCES", RESOURCE_CARD, size=11, text_width=PANEL_W - 24))
    radius = 8.0 if len(shows) <= 2 else 7.0
    face.add(*token_row(shows, 45, radius, 2.5))
    counts = {letter: shows.count(letter) for letter in dict.fromkeys(shows)}
    label = " + ".join(f"{count} {NAMES[letter]}" for letter, count in counts.items())
    lines, below = paragraph(label, 61, 9, True)
    face.add(*lines)
    face.add(Text(CENTRE_X, below + 1.5, "take these, then discard this card —", 6.5, False, "middle", MUTED))
    face.add(Text(CENTRE_X, below + 5.5, "or discard it to call Nursery", 6.5, False, "middle", MUTED))
    face.add(*resource_index(shows, number))
    face.add(*badge(str(number), CARD_WIDTH - INSET - 6, CARD_HEIGHT - INSET - 6))
    return face


def tool_text(tool: Tool) -> str:
    """What a tool does, in words, from its data."""
    if tool.effect == "exact":
        gain = letters(tool.gain)
        return (f"When you play a card showing exactly {letters(tool.shows)}, take "
                f"{_amount(gain)} extra.")
    if tool.effect == "contains":
        return (f"When you play a card showing at least one {'/'.join(letters(tool.shows))}, take "
                f"{_amount(letters(tool.gain))} extra.")
    if tool.effect == "buy":
        choices = " or ".join(NAMES[c] for c in tool.choices)
        return f"When you buy a plant from the nursery, take {tool.amount} {choices} (your choice)."
    return f"In a round where you propagate at least one growth token, take {tool.amount} more."


def _amount(text: str) -> str:
    counts = {letter: text.count(letter) for letter in dict.fromkeys(text)}
    return " and ".join(f"{count} {NAMES[letter]}" for letter, count in counts.items())


def tool_front(tool: Tool, number: int) -> Face:
    """A tool: its name, a picture of the trigger and the gain where it has one, and its effect."""
    face = Face().add(*frame(TOOL), *banner(tool.name, TOOL, size=12, text_width=PANEL_W - 24))
    face.add(Text(CENTRE_X, 23, "TOOL · keep it all game · copies stack", 6.5, True, "middle", MUTED))
    if tool.effect in ("exact", "contains"):
        shown, gained = letters(tool.shows), letters(tool.gain)
        face.add(*token_row(shown, 36, 5.0, 1.2, CENTRE_X - 12))
        face.add(*arrow(CENTRE_X - 12 + 5.5 * len(shown) + 1, 36, CENTRE_X + 9, 36, INK, 0.8))
        face.add(Text(CENTRE_X + 12, 38, "+", 14, True, "middle", INK))
        face.add(*token_row(gained, 36, 5.0, 1.2, CENTRE_X + 20))
    elif tool.effect == "buy":
        face.add(Text(CENTRE_X - 17, 38, "buy", 11, True, "middle", INK))
        face.add(*arrow(CENTRE_X - 10, 36, CENTRE_X - 2, 36, INK, 0.8))
        face.add(*token_row(tool.choices, 36, 4.0, 0.8, CENTRE_X + 10))
    else:
        face.add(Text(CENTRE_X, 38, f"propagate → +{tool.amount}", 11, True, "middle", INK))
    lines, _ = paragraph(tool_text(tool), 52, 8.5)
    face.add(*lines)
    return numbered(face, number)


def decoration_text(deco: Decoration) -> tuple[str, str]:
    """A decoration's scoring as a short headline and a sentence."""
    unit = "point" if deco.points == 1 else "points"
    if deco.scores == "tools":
        return f"{deco.points} per tool", f"{deco.points} {unit} per tool card you own."
    if deco.scores == "type":
        return (f"{deco.points} per {deco.type}", f"{deco.points} {unit} per {deco.type} plant you own.")
    if deco.scores == "types":
        return f"{deco.points} per type", f"{deco.points} {unit} per different plant type you own."
    if deco.scores == "grown":
        return f"{deco.points} per grown plant", f"{deco.points} {unit} per fully grown plant you own."
    return (f"{deco.points} per {deco.per} tokens",
            f"{deco.points} {unit} per {deco.per} growth tokens in your propagation area.")


def decoration_front(deco: Decoration, number: int, types: tuple[str, ...]) -> Face:
    """A decoration: its name, what it scores (large), and the rule in words."""
    face = Face().add(*frame(DECORATION), *banner(deco.name, DECORATION, size=12, text_width=PANEL_W - 24))
    face.add(Text(CENTRE_X, 23, "DECORATION · scores at the end", 6.5, True, "middle", MUTED))
    if deco.scores == "type":
        fill, shape = type_style(deco.type, types)
        face.add(symbol(shape, CENTRE_X, 35, 6, fill, INK, 0.5))
    else:
        face.add(symbol("star", CENTRE_X, 35, 6.5, DECORATION, INK, 0.5))
    headline, sentence = decoration_text(deco)
    lines, below = paragraph(headline, 52, 13, True)
    face.add(*lines)
    lines, _ = paragraph(sentence, below + 3, 8.5)
    face.add(*lines)
    return numbered(face, number)


def plant_front(plant: Plant, types: tuple[str, ...]) -> Face:
    """A plant: name, type and tier, the cost of each growth as tokens, and its growth spaces bottom first."""
    fill, shape = type_style(plant.type, types)
    face = Face().add(*frame(fill), *banner(plant.name, fill, size=13))
    face.add(symbol(shape, INSET + 6, 22, 2.6, fill, INK, 0.4))
    face.add(Text(INSET + 10.5, 23.3, f"{plant.type.upper()} · {plant.tier}", 8, True, "start", INK))
    face.add(Text(INSET + 14, 31, "EACH GROWTH", 6.5, True, "middle", MUTED))
    cost = plant.cost_text
    for index, letter in enumerate(cost):
        face.add(*token(letter, INSET + 14, 39 + index * 10.5, 4.5))
    box_w, box_h, gap = 18.0, 10.0, 1.6
    x = CARD_WIDTH - INSET - 4 - box_w
    bottom = CARD_HEIGHT - INSET - 12
    face.add(Text(x + box_w / 2, 31, "GROWTH", 6.5, True, "middle", MUTED))
    for index, points in enumerate(plant.spaces):
        y = bottom - (index + 1) * box_h - index * gap
        face.add(Rect(x, y, box_w, box_h, fill=PAPER, stroke=fill, width=0.8, radius=1.5))
        face.add(Text(x + box_w / 2, y + box_h / 2 + 2.3, str(points), 17, True, "middle", INK))
    face.add(Text(x + box_w / 2, bottom + 4, "↑ fill from here", 6.5, False, "middle", MUTED))
    face.add(Text(CENTRE_X, CARD_HEIGHT - INSET - 2.5,
                  f"cost {cost} · fully grown {sum(plant.spaces)} points", 6.5, False, "middle", MUTED))
    return face


def card_faces(game: PlantedGame) -> list[CardFace]:
    """Every Planted card: resource cards, tools and decorations by number, then beginner and deck plants."""
    cards = game.cards
    resource_back = back("Planted", RESOURCE_CARD, "resource card",
                         tuple((RESOURCE_STYLE[c][1], RESOURCE_STYLE[c][0]) for c in LETTERS))
    item_back = back("Planted", "#4a4f63", "tool or decoration", (("hexagon", TOOL), ("star", DECORATION)))
    plant_back = back("Planted", "#2f5d3a", "plant deck",
                      tuple((type_style(t, cards.types)[1], type_style(t, cards.types)[0]) for t in cards.types))
    beginner_back = back("Planted", "#6b5a2f", "beginner plant",
                         tuple((type_style(t, cards.types)[1], type_style(t, cards.types)[0]) for t in cards.types))
    faces: list[CardFace] = []
    for number in cards.resource_cards:
        shows = letters(cards.shows[number])
        faces.append(CardFace(str(number), f"{shows} #{number}", 1, resource_front(shows, number), resource_back,
                              "resource"))
    for number in sorted(cards.tool_of):
        tool = cards.tools[cards.tool_of[number]]
        faces.append(CardFace(str(number), f"{tool.name} #{number}", 1, tool_front(tool, number), item_back, "tool"))
    for number in sorted(cards.decoration_of):
        deco = cards.decorations[cards.decoration_of[number]]
        faces.append(CardFace(str(number), f"{deco.name} #{number}", 1, decoration_front(deco, number, cards.types),
                              item_back, "decoration"))
    for index in cards.beginners + cards.deck_plants:
        plant = cards.plants[index]
        faces.append(CardFace(plant.name, plant.name, 1, plant_front(plant, cards.types),
                              beginner_back if plant.tier == "beginner" else plant_back, "plant"))
    return faces
