"""`tablepress print`: card sheets or the intro, for a game (optionally changed by a variant file)."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from ..core.errors import TablepressError
from ..core.game import Game
from ..core.registry import get_game
from ..core.variants import load_variant


def game_with_variant(name: str, variant: str | Path | None) -> Game:
    """The game called `name`, with its card data changed by the TOML variant file if one is given."""
    game = get_game(name)
    return game if variant is None else load_variant(variant, game)


def print_command(game: str, out: Path, paper: str, backs: bool, bleed: float, duplex: str,
                  variant: Path | None, intro: bool, ink_saver: bool = False, parts: str = "all") -> str:
    """Write the sheets (or the intro: PDF, or HTML for a .html file) and return a one-line summary.

    The file's suffix must name what is written (.pdf; with `intro` also .html), so a wrong one is refused
    before anything is drawn.
    """
    check_out(out, intro)
    chosen = game_with_variant(game, variant)
    if intro:
        from .intro import intro_html, render_intro_pdf

        if backs or bleed or ink_saver or parts != "all":
            raise TablepressError("--intro prints one page: --backs, --bleed, --ink-saver and --parts are for "
                                  "the sheets")
        html = out.suffix.lower() in (".html", ".htm")
        data = intro_html(chosen).encode("utf-8") if html else render_intro_pdf(chosen, paper)
        _write(out, data)
        return f"{out}: the {chosen.title} intro ({'HTML' if html else f'1 page, {paper.lower()}'})"
    from .layout import PER_PAGE
    from .sheets import render_sheets

    label = None if variant is None else Path(variant).stem
    data, summary = render_sheets(chosen, paper, backs, bleed, duplex, ink_saver, parts, label)
    _write(out, data)
    printed = []
    if summary.cards:
        fewer = (f" ({summary.per_sheet} a sheet: 9 do not fit with {bleed:g} mm bleed)"
                 if summary.per_sheet < PER_PAGE else "")
        printed.append(f"{summary.cards} {chosen.title} cards{fewer}")
    if summary.components:
        blanks = " with blank backs" if backs else ""
        printed.append(f"{summary.components} component page{'s' if summary.components != 1 else ''}{blanks}")
    extra = "".join((f", backs for {duplex}-edge duplex" if backs else "",
                     f", {bleed:g} mm bleed" if bleed else "", ", ink-saver" if ink_saver else ""))
    return f"{out}: {' and '.join(printed)} on {summary.pages} {paper.lower()} pages{extra} — print at 100 %"


def check_out(out: Path, intro: bool) -> None:
    """Refuse an output file whose suffix is not what would be written, or whose folder does not exist."""
    allowed = (".pdf", ".html", ".htm") if intro else (".pdf",)
    if out.suffix.lower() not in allowed:
        what = "a .pdf, or a .html page" if intro else "a .pdf (the intro can also be .html: --intro)"
        raise TablepressError(f"{out}: print writes {what}, not {out.suffix or 'a file without a suffix'}")
    if out.is_dir():
        raise TablepressError(f"{out}: is a folder; give a file such as {out / 'cards.pdf'}")


def card_table(game: str, variant: str | Path | None = None) -> Table:
    """Every card of the game (or its variant) with its printed quantity, as a table, with the total."""
    chosen = game_with_variant(game, variant)
    from ..faces.catalog import card_faces
    from .layout import PER_PAGE

    cards = card_faces(chosen)
    total = sum(card.copies for card in cards)
    table = Table(title=f"{chosen.title} — {total} cards, {-(-total // PER_PAGE)} sheets of 9")
    for column, justify in (("card", "left"), ("name", "left"), ("kind", "left"), ("copies", "right")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for card in cards:
        table.add_row(card.key, card.name, card.kind, str(card.copies))
    table.add_row("", "", "total", str(total), style="bold")
    return table


def _write(out: Path, data: bytes) -> None:
    try:
        out.write_bytes(data)
    except OSError as exc:
        raise TablepressError(f"{out}: cannot write the file ({exc.strerror or exc})") from None
