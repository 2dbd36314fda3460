"""By This card faces: things with their four numbers, Keys with word and arrow, specials, table cards.

Every number is printed next to its word (and the word's symbol), so the cards read in greyscale; a
small turned-over strip at the foot of each thing lets players across the shelf read it too.
"""

from __future__ import annotations

from collections import Counter

from ...faces.model import CARD_HEIGHT, CARD_WIDTH, CardFace, Face, Rect, Text, arrow, fit_size
from ...faces.style import CENTRE_X, INK, INSET, MUTED, PANEL_W, PAPER, back, banner, frame, on, paragraph, symbol
from .engine import ByThisGame

#: Colour and symbol per Key word; words a variant adds get the spare ones in turn.
WORD_STYLE = {
    "ABC": ("#3b6db3", "square"),
    "Size": ("#e3923a", "triangle"),
    "Weight": ("#5f5f5f", "hexagon"),
    "Age": ("#8c5bb0", "circle"),
}
_SPARE = (("#2f8f6a", "diamond"), ("#c0474f", "star"))
THING = "#8a5a3b"
SPECIAL = "#b23a48"
TABLE = "#3e6650"
ABC_BANDS = ("A–B", "C–D", "E–G", "H–K", "L–M", "N–O", "P–Q", "R–S", "T–U", "V–Z")


def word_style(word: str, words: tuple[str, ...]) -> tuple[str, str]:
    """The colour and symbol of a Key word."""
    if word in WORD_STYLE:
        return WORD_STYLE[word]
    extra = [w for w in words if w not in WORD_STYLE]
    return _SPARE[extra.index(word) % len(_SPARE)]


def thing_front(game: ByThisGame, card: int) -> Face:
    """A thing: its name, then one box per word with the word, its symbol and the number, large."""
    cards = game.cards
    name = cards.names[card]
    numbers = cards.all_numbers(card)
    face = Face().add(*frame(THING), *banner(name, THING, size=16))
    columns = 2
    gap = 2.5
    box_w = (PANEL_W - 6 - gap) / columns
    rows = -(-len(numbers) // columns)
    box_h = min(26.0, (CARD_HEIGHT - 2 * INSET - 28 - gap * (rows - 1)) / rows)
    top = INSET + 15
    for index, (word, value) in enumerate(numbers.items()):
        colour, shape = word_style(word, cards.words)
        row, column = divmod(index, columns)
        x = INSET + 3 + column * (box_w + gap)
        y = top + row * (box_h + gap)
        face.add(Rect(x, y, box_w, box_h, fill=PAPER, stroke=colour, width=0.9, radius=1.8))
        face.add(Rect(x, y, box_w, 6, fill=colour, radius=1.8), Rect(x, y + 3, box_w, 3, fill=colour))
        face.add(symbol(shape, x + 3.6, y + 3, 1.7, PAPER, on(colour), 0.3))
        face.add(Text(x + box_w / 2 + 2, y + 4.6, word.upper(), fit_size(word.upper(), box_w - 9, 7.5), True, "middle",
                      on(colour)))
        face.add(Text(x + box_w / 2, y + box_h - 4.5, str(value), 30, True, "middle", INK))
        if word == "ABC" and 1 <= value <= len(ABC_BANDS):
            face.add(Text(x + box_w - 1.5, y + box_h - 1.5, ABC_BANDS[value - 1], 5.5, False, "end", MUTED))
    strip = " · ".join(f"{word} {value}" for word, value in numbers.items())
    face.add(Text(CENTRE_X, CARD_HEIGHT - INSET - 8, f"{name}: {strip}", fit_size(f"{name}: {strip}", PANEL_W - 5, 7,
                                                                                      False), False, "middle", MUTED,
                  180))
    return face


def key_front(game: ByThisGame, index: int) -> Face:
    """A Key: the word in large letters, an arrow from the left end's label to the right end's."""
    key = game.cards.keys[index]
    colour, shape = word_style(key.word, game.cards.words)
    face = Face().add(*frame(colour), *banner("KEY", colour, size=12))
    face.add(symbol(shape, CENTRE_X, 27, 6.5, colour, INK, 0.5))
    face.add(Text(CENTRE_X, 44, key.word.upper(), fit_size(key.word.upper(), PANEL_W - 8, 24), True, "middle", INK))
    face.add(Text(CENTRE_X, 51, "read only this word", 7, False, "middle", MUTED))
    face.add(*arrow(INSET + 8, 60, CARD_WIDTH - INSET - 8, 60, INK, 1.4))
    face.add(Text(INSET + 4, 69, key.left, fit_size(key.left, PANEL_W / 2 - 4, 11), True, "start", INK))
    face.add(Text(CARD_WIDTH - INSET - 4, 69, key.right, fit_size(key.right, PANEL_W / 2 - 4, 11), True, "end", INK))
    rising = "numbers rise left to right" if key.ascending else "numbers fall left to right"
    face.add(Text(CENTRE_X, 76, rising, 7, False, "middle", MUTED))
    face.add(Text(CENTRE_X, CARD_HEIGHT - INSET - 2.5, key.name, 7, True, "middle", INK))
    return face


def text_front(name: str, text: str, colour: str, label: str) -> Face:
    """A card that is its words: a banner with its name, a label, and its text."""
    face = Face().add(*frame(colour), *banner(name, colour, size=15))
    face.add(Text(CENTRE_X, INSET + 18, label, 7, True, "middle", MUTED))
    size = 9.0
    lines, bottom = paragraph(text, INSET + 25, size)
    while bottom > CARD_HEIGHT - INSET - 4 and size > 5.5:
        size -= 0.5
        lines, bottom = paragraph(text, INSET + 25, size)
    face.add(*lines)
    return face


def card_faces(game: ByThisGame) -> list[CardFace]:
    """Every By This card with its printed quantity: things, Keys, specials, then the table cards."""
    cards = game.cards
    deck_back = back(game.title or "By This", THING, "same things · new key",
                     tuple((word_style(w, cards.words)[1], word_style(w, cards.words)[0]) for w in cards.words))
    key_back = back("Key", "#2d3e57", "By This · Key deck",
                    tuple((word_style(w, cards.words)[1], word_style(w, cards.words)[0]) for w in cards.words))
    table_back = back(game.title or "By This", TABLE, "table card")
    faces = [CardFace(cards.names[card], cards.names[card], 1, thing_front(game, card), deck_back, "thing")
             for card in range(cards.thing_count)]
    faces += [CardFace(key.name, f"Key {key.arrow}", 1, key_front(game, index), key_back, "Key")
              for index, key in enumerate(cards.keys)]
    copies = Counter(cards.names[cards.thing_count:])
    for name, text in cards.special_text.items():
        faces.append(CardFace(name, name, copies[name], text_front(name, text, SPECIAL, "SPECIAL"), deck_back,
                              "special"))
    for name, text in cards.table_cards:
        faces.append(CardFace(name, f"{name} card", 1, text_front(name.upper(), text, TABLE, "TABLE CARD"),
                              table_back, "table card"))
    return faces
