"""Planted's printable parts besides the cards: player boards (two a sheet), the two-page nursery board,
and punch-out sheets of resource and growth tokens — all from the card data, so a variant changes them.

The rules give an unlimited supply; the printed counts are what a full table needs at most (see
`resource_tokens_per_seat` and `growth_tokens_per_seat`), with the 4× box holding four of a resource.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ...core.errors import DataError
from ...faces.model import (CARD_HEIGHT, CARD_WIDTH, COMPONENT_HEIGHT, COMPONENT_WIDTH, Circle, Component, Face,
                            Line, Rect, Shape, Text, fit_size, text_block)
from ...faces.style import INK, MUTED, PAPER, symbol
from .cards import LETTERS, PlantedCards
from .engine import PlantedGame
from .faces import NAMES, RESOURCE_STYLE

GREEN = "#2f5d3a"
TINT = "#eef5ee"
CUT = "#9a9a9a"
#: A card space on a board: a card with 0.5 mm to spare each side.
SPACE_W, SPACE_H = CARD_WIDTH + 1, CARD_HEIGHT + 1
BOARD_H = (COMPONENT_HEIGHT - 5) / 2
RESOURCE_TOKEN = 16.0
GROWTH_TOKEN = 10.0  # fits a plant card's 18 × 10 mm growth space
FIVE_TOKEN = 13.0
PITCH_GAP = 1.6
#: Draws one token centred on (cx, cy).
Draw = Callable[[float, float], list[Shape]]
#: Space kept clear inside a part's edge, so no stroke spills past it; INNER is the width inside.
EDGE = 0.5
INNER = COMPONENT_WIDTH - 2 * EDGE


def tint(colour: str, keep: float = 0.3) -> str:
    """`colour` mixed with white, keeping `keep` of it (a light fill that saves ink)."""
    parts = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - part) * keep):02x}" for part in parts)


# ----- counts ---------------------------------------------------------------------------------------
def most_of_one_resource(cards: PlantedCards) -> int:
    """The most of one resource a full hand of resource cards gives (the hand size × the most of one
    letter a card shows): the most a seat is expected to hold at once."""
    return cards.hand_resources * max(max(shows) for shows in cards.shows.values())


def resource_tokens_per_seat(cards: PlantedCards) -> int:
    """Tokens of each resource a seat needs: one per four held (in the 4× box) plus three loose."""
    return most_of_one_resource(cards) // 4 + 3


def growth_spaces_per_seat(cards: PlantedCards) -> int:
    """The most growth tokens a seat can place on plants: its beginner plus the rest of its plants, each
    with the most spaces, but no more than one growth a plant a round."""
    beginner = max(len(cards.plants[i].spaces) for i in cards.beginners)
    deck = max(len(cards.plants[i].spaces) for i in cards.deck_plants)
    return min(beginner + (cards.max_plants - 1) * deck, cards.rounds * cards.max_plants)


def propagation_per_seat(cards: PlantedCards) -> int:
    """The most propagation tokens a seat is expected to make: a full hand's resources each round,
    every `leftovers_per_token` of them one token."""
    total = cards.hand_resources * max(sum(shows) for shows in cards.shows.values())
    return cards.rounds * total // cards.leftovers_per_token


def growth_tokens_per_seat(cards: PlantedCards) -> tuple[int, int]:
    """(1-tokens, 5-tokens) a seat needs: a 1 for every growth space and four more, and 5s that stand
    for five growth tokens in the propagation area."""
    return growth_spaces_per_seat(cards) + 4, math.ceil(propagation_per_seat(cards) / 5)


def token_counts(game: PlantedGame) -> dict[str, int]:
    """Every token the print holds for the largest table: each resource letter, `growth` and `growth5`."""
    seats = game.max_players
    ones, fives = growth_tokens_per_seat(game.cards)
    counts = {letter: seats * resource_tokens_per_seat(game.cards) for letter in LETTERS}
    counts.update(growth=seats * ones, growth5=seats * fives)
    return counts


# ----- tokens ---------------------------------------------------------------------------------------
def resource_token(letter: str, cx: float, cy: float) -> list[Shape]:
    """A punch-out resource token: a circle in a light tint, its shape in its colour, its letter."""
    fill, shape = RESOURCE_STYLE[letter]
    r = RESOURCE_TOKEN / 2
    size = 9.0 if shape == "triangle" else 11.0
    lift = 1.2 if shape == "triangle" else 0.0
    return [Circle(cx, cy, r, tint(fill), INK, 0.3), symbol(shape, cx, cy - 0.6, r * 0.66, fill, INK, 0.3),
            Text(cx, cy - 0.6 + size * 0.125 + lift, letter, size, True, "middle", INK)]


def growth_token(value: int, cx: float, cy: float) -> list[Shape]:
    """A growth token: a green disc with its value (a 5 stands for five in the propagation area)."""
    r = (GROWTH_TOKEN if value == 1 else FIVE_TOKEN) / 2
    shapes: list[Shape] = [Circle(cx, cy, r, tint(GREEN, 0.25), GREEN, 0.4)]
    if value != 1:
        shapes.append(Circle(cx, cy, r - 1.2, None, GREEN, 0.3))
    size = 11.0 if value == 1 else 12.0
    return shapes + [Text(cx, cy + size * 0.13, str(value), size, True, "middle", GREEN)]


def _per_row(diameter: float) -> int:
    return int((INNER + PITCH_GAP) // (diameter + PITCH_GAP))


def _rows_height(counts: list[int], diameters: list[float]) -> float:
    """The height (mm) of token rows: tokens of one size run on from group to group."""
    height, pending, size = 9.0, 0, None
    for count, diameter in [*zip(counts, diameters), (0, None)]:
        if diameter != size and size is not None:
            height += math.ceil(pending / _per_row(size)) * (size + PITCH_GAP) + 2
            pending = 0
        size, pending = diameter, pending + count
    return height - 2


def token_sheet(title: str, note: str, groups: list[tuple[int, float, Draw]]) -> Face:
    """A sheet of punch-out tokens: each group is (how many, diameter, draw(cx, cy)), row after row;
    groups of one size share rows."""
    face = Face(width=COMPONENT_WIDTH, height=COMPONENT_HEIGHT)
    face.add(Text(EDGE, 5, title, 10, True, "start", INK), Text(EDGE + INNER, 5, note, 6.5, False, "end", MUTED))
    y, index, size = 9.0, 0, groups[0][1]
    for count, diameter, draw in groups:
        if diameter != size:
            y += math.ceil(index / _per_row(size)) * (size + PITCH_GAP) + 2
            index, size = 0, diameter
        pitch = diameter + PITCH_GAP
        for _ in range(count):
            column, row = index % _per_row(diameter), index // _per_row(diameter)
            face.add(*draw(EDGE + column * pitch + diameter / 2, y + row * pitch + diameter / 2))
            index += 1
    if _rows_height([g[0] for g in groups], [g[1] for g in groups]) > COMPONENT_HEIGHT - EDGE:
        raise DataError(f"planted: the {title.lower()} do not fit one sheet")
    return face


def sheets_for(counts: list[int], diameters: list[float]) -> tuple[int, list[int]]:
    """The fewest identical sheets holding `counts` tokens, and how many of each go on one sheet."""
    for sheets in range(1, 100):
        per_sheet = [math.ceil(count / sheets) for count in counts]
        if _rows_height(per_sheet, diameters) <= COMPONENT_HEIGHT - EDGE:
            return sheets, per_sheet
    raise DataError("planted: too many tokens to print")


def resource_sheet(game: PlantedGame) -> Component:
    """Punch-out resource tokens for the largest table, one group per resource."""
    counts = token_counts(game)
    sheets, per_sheet = sheets_for([counts[c] for c in LETTERS], [RESOURCE_TOKEN] * len(LETTERS))
    groups = [(n, RESOURCE_TOKEN, lambda cx, cy, c=c: resource_token(c, cx, cy)) for n, c in zip(per_sheet, LETTERS)]
    face = token_sheet("RESOURCE TOKENS", "cut out on the circles · 4 in a 4× box: keep 1 token there, return 3",
                       groups)
    return Component("resource-tokens", "Resource tokens", sheets, face, "tokens")


def growth_sheet(game: PlantedGame) -> Component:
    """Punch-out growth tokens: 1s for plants and the propagation area, 5s for the propagation area."""
    counts = token_counts(game)
    diameters = [GROWTH_TOKEN, FIVE_TOKEN]
    sheets, (ones, fives) = sheets_for([counts["growth"], counts["growth5"]], diameters)
    face = token_sheet("GROWTH TOKENS", "1 point each · a 5 is five growth tokens in a propagation area",
                       [(ones, GROWTH_TOKEN, lambda cx, cy: growth_token(1, cx, cy)),
                        (fives, FIVE_TOKEN, lambda cx, cy: growth_token(5, cx, cy))])
    return Component("growth-tokens", "Growth tokens", sheets, face, "tokens")


# ----- boards ---------------------------------------------------------------------------------------
def card_space(x: float, y: float, label: str, detail: str = "") -> list[Shape]:
    """A card-sized space on a board with its name inside (covered once a card lies on it)."""
    shapes: list[Shape] = [Rect(x, y, SPACE_W, SPACE_H, fill=TINT, stroke=GREEN, width=0.5, radius=3)]
    shapes.append(Text(x + SPACE_W / 2, y + SPACE_H / 2, label, fit_size(label, SPACE_W - 8, 11), True, "middle",
                       GREEN))
    if detail:
        lines, _ = text_block(detail, x + SPACE_W / 2, y + SPACE_H / 2 + 6, SPACE_W - 10, 7.5, anchor="middle",
                              fill=INK)
        shapes += lines
    return shapes


def pass_text(cards: PlantedCards) -> str:
    """Which way hands go each round, from the data: `round 1 left · round 2 right · …`."""
    return " · ".join(f"round {r + 1} {'left' if cards.passes_left(r) else 'right'}" for r in range(cards.rounds))


def player_board(cards: PlantedCards, top: float) -> list[Shape]:
    """One player board, 200 mm wide, with its top edge at `top`."""
    w = COMPONENT_WIDTH
    shapes: list[Shape] = [Rect(EDGE, top, INNER, BOARD_H, fill=PAPER, stroke=GREEN, width=0.6, radius=4),
                           Rect(EDGE, top, INNER, 11, fill=TINT, stroke=GREEN, width=0.6, radius=4),
                           Text(5, top + 7.5, "PLANTED · PLAYER BOARD", 11, True, "start", GREEN),
                           Text(w - 5, top + 7.5, f"▲ your plants above this edge · at most {cards.max_plants}",
                                8, True, "end", GREEN)]
    column = (w - 10) / len(LETTERS)
    for index, letter in enumerate(LETTERS):
        x = 5 + index * column
        fill, _ = RESOURCE_STYLE[letter]
        name = NAMES[letter].upper()
        shapes += [Rect(x + 1, top + 14, column - 2, 60, fill=tint(fill, 0.12), stroke=INK, width=0.35, radius=2.5),
                   *resource_token(letter, x + 10.5, top + 23),
                   Text(x + 20, top + 22, name, fit_size(name, column - 23, 9), True, "start", INK),
                   Text(x + 20, top + 27, f"({letter}) held here", 7, False, "start", MUTED),
                   Rect(x + 4, top + 52, column - 8, 19, fill=PAPER, stroke=INK, width=0.6, radius=2),
                   Text(x + 7, top + 63.5, "4×", 13, True, "start", INK),
                   Text(x + 18.5, top + 60.5, "each token here", 6.5, False, "start", INK),
                   Text(x + 18.5, top + 65, "counts four", 6.5, False, "start", INK)]
    shapes += [Rect(6, top + 77, w - 12, 31, fill=tint(GREEN, 0.06), stroke=GREEN, width=0.5, radius=2.5),
               Text(10, top + 83, "PROPAGATION AREA · 1 point per growth token", 9, True, "start", GREEN)]
    rule = (f"After feeding, every {cards.leftovers_per_token} leftover resources become 1 growth token here "
            f"({cards.thumbs_per_resource} Green Thumbs count as 1 resource); then return every leftover.")
    lines, _ = text_block(rule, 10, top + 87.5, w - 24, 7, fill=MUTED)
    shapes += lines
    feed = (f"Feed: each plant once a round; pay its cost, cover its lowest empty space. "
            f"{cards.thumbs_per_resource} Green Thumbs stand in for one missing resource. "
            f"Pass hands: {pass_text(cards)}.")
    lines, _ = text_block(feed, 6, top + 113, w - 12, 7, fill=INK)
    shapes += lines
    base = top + BOARD_H
    shapes += [Text(6, base - 3, "◄ TOOLS: tuck under here · kept all game, copies stack", 7.5, True, "start", INK),
               Text(w - 6, base - 3, "DECORATIONS: tuck under here · score at the end ►", 7.5, True, "end", INK)]
    return shapes


def board_sheet(game: PlantedGame) -> Component:
    """Player boards, two a sheet (cut along the line), enough for the largest table."""
    face = Face(width=COMPONENT_WIDTH, height=COMPONENT_HEIGHT)
    face.add(*player_board(game.cards, EDGE))
    middle = COMPONENT_HEIGHT / 2
    for x in range(1, int(INNER), 6):
        face.add(Line(x, middle, min(x + 3, INNER), middle, CUT, 0.3))
    face.add(Text(COMPONENT_WIDTH / 2, middle - 0.8, "cut", 6, False, "middle", CUT))
    face.add(*player_board(game.cards, COMPONENT_HEIGHT - BOARD_H - EDGE))
    return Component("player-boards", "Player boards (2 a sheet)", math.ceil(game.max_players / 2), face, "board")


def _grid(count: int, top: float) -> list[tuple[float, float]]:
    """Top-left corners of `count` card spaces, three a row, from `top`."""
    gap = (INNER - 3 * SPACE_W) / 2
    return [(EDGE + (i % 3) * (SPACE_W + gap), top + (i // 3) * (SPACE_H + 5)) for i in range(count)]


def _heading(face: Face, text: str, note: str) -> None:
    face.add(Rect(EDGE, EDGE, INNER, 11, fill=TINT, stroke=GREEN, width=0.6, radius=3),
             Text(5, 7.5, text, 11, True, "start", GREEN), Text(COMPONENT_WIDTH - 5, 7.5, note, 7.5, False, "end", INK))


def nursery_plants(game: PlantedGame) -> Component:
    """Nursery board 1 of 2: the plant deck and the face-up nursery row, and the token supply."""
    cards = game.cards
    spaces = [("PLANT DECK", f"face down: {len(cards.deck_plants)} plants")]
    spaces += [(f"NURSERY {n + 1}", "face up · refill at once") for n in range(cards.row_size)]
    if len(spaces) > 6:
        raise DataError(f"planted: a nursery row of {cards.row_size} does not fit the printed board")
    face = Face(width=COMPONENT_WIDTH, height=COMPONENT_HEIGHT)
    _heading(face, "NURSERY BOARD · 1 of 2", "place beside board 2 · centre of the table")
    for (x, y), (label, detail) in zip(_grid(len(spaces), 15), spaces):
        face.add(*card_space(x, y, label, detail))
    rule = ("Nursery: discard the card you chose instead of using it and take a face-up plant. If several "
            "players call, the lowest card number chooses first. "
            f"A player with {cards.max_plants} plants cannot call Nursery.")
    lines, _ = text_block(rule, EDGE, 15 + 2 * (SPACE_H + 5) + 6, INNER, 9, fill=INK)
    face.add(*lines)
    y = COMPONENT_HEIGHT - 18
    face.add(Text(EDGE, y - 5, "SUPPLY · tokens here", 9, True, "start", GREEN))
    for index, letter in enumerate(LETTERS):
        face.add(*resource_token(letter, 12 + index * 24, y + 8))
    face.add(*growth_token(1, 12 + len(LETTERS) * 24, y + 8), *growth_token(5, 36 + len(LETTERS) * 24, y + 8))
    return Component("nursery-plants", "Nursery board 1: plants", 1, face, "board")


def nursery_decks(game: PlantedGame) -> Component:
    """Nursery board 2 of 2: the resource and item decks with their discards, and the round track."""
    cards = game.cards
    items = len(cards.item_cards)
    spaces = [("RESOURCE DECK", f"face down: {len(cards.resource_cards)} cards"),
              ("RESOURCE DISCARD", "reshuffle it when the deck runs out"),
              ("ROUND", ""),
              ("ITEM DECK", f"face down: {items} tools and decorations"),
              ("ITEM DISCARD", "reshuffle it when the deck runs out"),
              ("PUT AWAY", "beginner plants no one took")]
    face = Face(width=COMPONENT_WIDTH, height=COMPONENT_HEIGHT)
    _heading(face, "NURSERY BOARD · 2 of 2", "place beside board 1")
    corners = _grid(len(spaces), 15)
    for (x, y), (label, detail) in zip(corners, spaces):
        if label != "ROUND":
            face.add(*card_space(x, y, label, detail))
    x, y = corners[2]
    face.add(Rect(x, y, SPACE_W, SPACE_H, fill=PAPER, stroke=GREEN, width=0.5, radius=3),
             Text(x + SPACE_W / 2, y + 8, "ROUND · a token here", 9, True, "middle", GREEN))
    step = (SPACE_H - 14) / cards.rounds
    for r in range(cards.rounds):
        cy = y + 14 + step * (r + 0.5)
        face.add(Circle(x + 12, cy, 6, tint(GREEN, 0.2), GREEN, 0.4),
                 Text(x + 12, cy + 1.6, str(r + 1), 12, True, "middle", GREEN),
                 Text(x + 22, cy + 1.5, f"pass {'◄ left' if cards.passes_left(r) else 'right ►'}", 9, True, "start",
                      INK))
    turns = cards.hand_resources + cards.hand_items
    order = (f"A round: draw {cards.hand_resources} resource and {cards.hand_items} item cards. {turns} times: all "
             "choose a card face down at once (saying in secret whether it is for Nursery), reveal, act, pass the "
             "rest of the hand. Then feed, propagate and return leftover resources. "
             f"After round {cards.rounds}: growth-token points on plants + 1 per propagation token + decorations.")
    lines, _ = text_block(order, EDGE, 15 + 2 * (SPACE_H + 5) + 6, INNER, 9, fill=INK)
    face.add(*lines)
    return Component("nursery-decks", "Nursery board 2: decks", 1, face, "board")


def components(game: PlantedGame) -> list[Component]:
    """Every printed part of Planted besides its cards, for the largest table."""
    return [nursery_plants(game), nursery_decks(game), board_sheet(game), resource_sheet(game), growth_sheet(game)]
