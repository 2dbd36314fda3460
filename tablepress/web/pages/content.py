"""What the site shows of a game, from its package: the intro (intro.toml, the same source as the PDF
intro), the rules (rules.md) with a table of contents, and pictures of its real cards."""

from __future__ import annotations

import html
import logging
import re
from dataclasses import dataclass
from urllib.parse import quote

from markdown_it import MarkdownIt

from ...core.errors import TablepressError
from ...core.game import Game
from ...core.registry import get_package
from ...faces.catalog import card_faces, find_card
from ...faces.model import CardFace
from ...printing.intro import Intro, Section, default_intro, load_intro, section_body_html

log = logging.getLogger("tablepress.web")

#: Card pictures in a game page's strip, and on a catalogue card.
STRIP_CARDS = 8
COVER_CARDS = 3
#: The longest one-line thesis on a catalogue card.
MAX_LINE = 220


@dataclass(frozen=True)
class GameFacts:
    """A game as the catalogue and the page headers show it."""

    name: str
    title: str
    tagline: str
    facts: str
    thesis: str
    #: The first sentence of the thesis (the catalogue's one line).
    line: str
    min_players: int
    max_players: int
    #: Card keys to picture on the game's catalogue card.
    cover: tuple[str, ...]


def intro_of(game: Game) -> Intro:
    """The game's intro; a broken intro.toml is logged and the default intro (from its rules) shown."""
    try:
        return load_intro(game)
    except TablepressError as exc:
        log.error("%s: %s; showing the intro made from its rules", game.name, exc)
        return default_intro(game)


def facts_of(name: str) -> GameFacts:
    """The catalogue's facts of the registered game `name`."""
    game = get_package(name).game
    intro = intro_of(game)
    first = re.split(r"(?<=[.!?])\s", intro.thesis.strip(), maxsplit=1)[0]
    line = first if len(first) <= MAX_LINE else first[:MAX_LINE - 1].rstrip() + "…"
    return GameFacts(game.name, intro.title, intro.tagline, intro.facts, intro.thesis, line,
                     game.min_players, game.max_players, cover_cards(game, intro))


def face_url(game_name: str, key: str, back: bool = False) -> str:
    """The address of one card's face (or back) as SVG (the app's `/faces/` route)."""
    return f"/faces/{quote(game_name, safe='')}/{quote(key, safe='')}.svg" + ("?back=1" if back else "")


def face_img(game_name: str, card: CardFace, css: str = "face", lazy: bool = True) -> str:
    """An <img> of a card's front, named by its alt text."""
    loading = ' loading="lazy"' if lazy else ""
    return (f'<img class="{css}" src="{html.escape(face_url(game_name, card.key))}" alt="{html.escape(card.name)}" '
            f'title="{html.escape(card.name)}" width="126" height="176"{loading}>')


def cover_cards(game: Game, intro: Intro) -> tuple[str, ...]:
    """A few cards: the intro's example cards first, then the main deck's (the kind with most copies)."""
    cards = card_faces(game)
    if not cards:
        return ()
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.kind] = counts.get(card.kind, 0) + card.copies
    main = max(counts, key=lambda kind: counts[kind])
    deck = [card for card in cards if card.kind == main]
    shown: list[CardFace] = []
    for section in intro.sections:
        for row in section.cards:
            for key in row:
                card = _find(game, key)
                if card is not None and card not in shown:
                    shown.append(card)
    shown.extend(card for card in deck if card not in shown)
    return tuple(card.key for card in shown[:COVER_CARDS])


def sample_cards(game: Game, count: int = STRIP_CARDS) -> list[CardFace]:
    """Up to `count` distinct cards, taken in turn from each kind so every kind of card is pictured."""
    by_kind: dict[str, list[CardFace]] = {}
    for card in card_faces(game):
        by_kind.setdefault(card.kind, []).append(card)
    piles = [list(reversed(pile)) for pile in by_kind.values()]
    picked: list[CardFace] = []
    while len(picked) < count and any(piles):
        for pile in piles:
            if pile and len(picked) < count:
                picked.append(pile.pop())
    return picked


def _find(game: Game, key: str) -> CardFace | None:
    """The card a key or name means, or None."""
    try:
        return find_card(game, key)
    except TablepressError:
        return None




def section_html(game: Game, section: Section) -> str:
    """One intro section as HTML: its heading, paragraphs and bullets, and its example cards as pictures."""
    parts = [f'<section class="intro-part" id="{html.escape(section.id)}">'
             f"<h2>{html.escape(section.heading)}</h2>", section_body_html(game, section)]
    if section.cards:
        parts.append(card_rows(game, section))
    parts.append("</section>")
    return "".join(parts)


def card_rows(game: Game, section: Section) -> str:
    """A section's example cards as rows of pictures ("." an empty space; an unknown card is left out)."""
    rows = []
    for row in section.cards:
        cells = []
        for key in row:
            card = None if key == "." else _find(game, key)
            cells.append(face_img(game.name, card, "face small") if card else '<span class="gap"></span>')
        rows.append(f'<div class="card-row">{"".join(cells)}</div>')
    return (f'<div class="example-cards" role="region" tabindex="0" aria-label="{html.escape(section.heading)}: '
            f'example cards">{"".join(rows)}</div>')


def intro_sections(game: Game, intro: Intro) -> str:
    """Every section of the intro as HTML."""
    return "".join(section_html(game, section) for section in intro.sections)


# ----- rules ----------------------------------------------------------------------------------------
def slug(text: str, taken: set[str]) -> str:
    """An id for a heading: lowercase words joined by hyphens, unique among `taken`."""
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "part"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    taken.add(candidate)
    return candidate


def rules_with_contents(text: str) -> tuple[str, list[tuple[int, str, str]]]:
    """A rules text (Markdown; raw HTML escaped) as HTML whose headings have ids, and the table of
    contents: (level, id, heading) of every level 2 and 3 heading."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    contents: list[tuple[int, str, str]] = []
    taken: set[str] = set()
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        heading = tokens[index + 1].content if index + 1 < len(tokens) else ""
        plain = re.sub(r"[*_`]", "", heading)
        anchor = slug(plain, taken)
        token.attrSet("id", anchor)
        level = int(token.tag[1])
        if level in (2, 3):
            contents.append((level, anchor, plain))
    return md.renderer.render(tokens, md.options, {}), contents


def scrolling_tables(rendered: str) -> str:
    """Each table in its own box that scrolls sideways on a narrow screen (and takes the keyboard focus to)."""
    return (rendered.replace("<table>", '<div class="table-scroll" role="region" tabindex="0" aria-label="table">'
                                         "<table>").replace("</table>", "</table></div>"))
