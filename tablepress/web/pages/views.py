"""The site's pages as HTML: the catalogue, a game's page (intro, cards, Play / Simulate / Print / Share /
Make), its full rules, its shareable intro, and the page for a game that does not exist."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ...core.game import Game
from ...core.registry import get_package
from ...faces.catalog import card_faces
from .content import (GameFacts, face_img, face_url, facts_of, intro_of, intro_sections, rules_with_contents,
                      sample_cards, scrolling_tables)
from .learn import learn_button
from .levels import levels_section
from .share_image import HEIGHT as SHARE_HEIGHT
from .share_image import WIDTH as SHARE_WIDTH
from .shell import attr, page

#: The simulate panel's default number of games.
SIMULATE_GAMES = 100


def _path(name: str) -> str:
    """A game's page address."""
    return f"/games/{quote(name, safe='')}"


def _fan(facts: GameFacts, css: str = "fan", variant_id: str | None = None) -> str:
    """The catalogue card's cards, fanned (as a saved variant makes them, given its id)."""
    query = "" if variant_id is None else f"?variant={quote(variant_id, safe='')}"
    images = "".join(f'<img class="face" src="{attr(face_url(facts.name, key) + query)}" alt="" width="126" '
                     f'height="176" loading="lazy">' for key in facts.cover)
    return f'<div class="{css}" aria-hidden="true">{images}</div>'


def catalogue_page(games: list[GameFacts]) -> str:
    """`/`: a card per game, then the tables in progress and finished (filled by lobby.js)."""
    cards = "".join(
        f'<li class="game-card"><a class="game-link" href="{attr(_path(g.name))}">{_fan(g)}'
        f'<h2>{attr(g.title)}</h2><p class="tagline">{attr(g.tagline)}</p>'
        f'<p class="facts">{attr(g.facts)}</p><p class="line">{attr(g.line)}</p></a></li>'
        for g in games)
    body = (
        '<section class="site-hero"><h1>Free print-and-play card games</h1>'
        "<p>Every game here can be <strong>played</strong> in the browser against AI players or friends, "
        "<strong>simulated</strong> thousands of times for a balance report, <strong>printed</strong> as 9-up "
        "sheets, <strong>shared</strong> with a one-page intro and <strong>changed</strong>: design a variant of "
        "its cards and try it.</p></section>"
        f'<section id="catalogue" aria-label="the games"><ul class="catalogue">{cards}</ul></section>'
        + games_panel()
    )
    return page("Table Press — free print-and-play card games", body,
                "Free print-and-play card games: play, simulate, print, share and make variants.",
                scripts=("common.js", "lobby.js", "player.js", "clock.js", "turns.js", "tables.js"),
                body_class="site catalogue-page")


def games_panel() -> str:
    """The list of games on this server, open and finished (lobby.js fills and refreshes it)."""
    return (
        '<section class="panel" id="games-panel"><h2>Tables</h2>'
        '<p class="muted small">Games on this server: watch one, resume your own, or replay a finished game.</p>'
        '<div class="tabs"><button id="tab-open" class="tab active" type="button">In progress</button>'
        '<button id="tab-over" class="tab" type="button">Finished</button></div>'
        '<table id="games"><thead><tr><th>game</th><th>seats</th><th>status</th><th></th></tr></thead>'
        "<tbody></tbody></table>"
        '<p id="games-empty" class="muted" hidden>No games yet.</p></section>'
    )


def game_page(name: str, base_url: str) -> str:
    """`/games/{name}`: the game's intro with pictures of its cards, and the Play / Simulate / Print /
    Share / Make buttons with their panels."""
    game = get_package(name).game
    facts = facts_of(name)
    intro = intro_of(game)
    path = _path(name)
    strip = "".join(face_img(name, card, "face") for card in sample_cards(game))
    every = card_faces(game)
    gallery = "".join(f'<figure>{face_img(name, card, "face small")}<figcaption>{attr(card.name)}'
                      f'{f" ×{card.copies}" if card.copies != 1 else ""}</figcaption></figure>' for card in every)
    body = (
        f'<article class="game-page" data-game="{attr(name)}">'
        '<section class="game-hero"><div class="hero-text">'
        f'<p class="crumbs"><a href="/">Games</a> › {attr(facts.title)}</p>'
        f"<h1>{attr(facts.title)}</h1>"
        f'<p class="tagline">{attr(facts.tagline)}</p><p class="facts">{attr(facts.facts)}</p>'
        f'<p class="thesis"><strong>Thesis:</strong> {attr(facts.thesis)}</p>'
        '<nav class="actions" aria-label="what to do with this game">'
        '<a class="button primary" href="#play" data-panel="play">Play</a>'
        f'{learn_button(name)}'
        '<a class="button" href="#simulate" data-panel="simulate">Simulate</a>'
        '<a class="button" href="#print" data-panel="print">Print the 9-up sheet</a>'
        '<a class="button" href="#share" data-panel="share">Share the intro</a>'
        f'<a class="button" href="/make/{attr(quote(name, safe=""))}" id="make-link">Back to Make</a>'
        f'<a class="rules-link" href="{attr(path)}/rules">The full rules →</a>'
        f'<a class="rules-link" href="{attr(path)}/ratings">Players\' ratings →</a></nav></div>'
        f'{_fan(facts, "fan hero-cards")}</section>'
        f'<div class="action-panels">{play_panel(name)}{simulate_panel(game)}{print_panel(name)}'
        f"{share_panel(name, base_url)}</div>"
        '<div class="intro-layout"><div class="intro">'
        f"{intro_sections(game, intro)}"
        f'<p class="more"><a class="button" href="{attr(path)}/rules">Read the full rules</a></p></div>'
        f'<aside class="cards-aside"><h2>The cards</h2><div class="strip">{strip}</div>'
        f'<details class="all-cards"><summary>All {len(every)} different cards</summary>'
        f'<div class="gallery">{gallery}</div></details></aside></div></article>'
    )
    return page(f"{facts.title} — Table Press", body, f"{facts.tagline} {facts.line}".strip(),
                scripts=("common.js", "lobby.js", "site.js"), body_class="site game-site")


def play_panel(name: str) -> str:
    """The new-game form for this game (lobby.js draws players, options and seats from /api/catalog)."""
    return (
        '<section class="panel action-panel" id="play" aria-labelledby="play-h"><h2 id="play-h">Play</h2>'
        '<form id="create-form" autocomplete="off">'
        f'<input type="hidden" id="game" name="game" value="{attr(name)}">'
        '<label>Players <select id="players" name="players"></select></label>'
        '<fieldset id="options"><legend>Options</legend></fieldset>'
        '<fieldset id="seats"><legend>Seats</legend></fieldset>'
        f"{levels_section(name)}"
        '<fieldset id="mode"><legend>Human players</legend>'
        '<label class="inline"><input type="radio" name="mode" value="links" checked> Share a link per seat '
        "(friends on the network)</label>"
        '<label class="inline"><input type="radio" name="mode" value="hotseat"> Hot-seat: pass this screen '
        "around</label></fieldset>"
        '<label>Seed <input id="seed" name="seed" type="number" min="0" placeholder="random"></label>'
        '<details id="variant-box"><summary>Card data variant (advanced)</summary>'
        '<p class="muted small">Changes to the game\'s card data in TOML, shaped like its <code>cards.toml</code>. '
        "The record keeps them.</p>"
        '<textarea id="variant" rows="5" spellcheck="false" placeholder="[section]&#10;key = value"></textarea>'
        "</details>"
        '<button type="submit" id="create" class="primary">Create game</button>'
        '<p id="create-error" class="error" role="alert"></p></form>'
        '<div id="seat-links" hidden><h3>Game created — share the seats</h3>'
        "<p class=\"muted\">Send each friend their link; each link opens one seat and shows only that seat's "
        'cards.</p><ul id="share-links"></ul><a id="open-game" class="button primary" href="#">Open the table</a>'
        "</div></section>"
    )


def simulate_panel(game: Game) -> str:
    """Self-play games as a background job: POST /api/simulations, then its report page."""
    players = "".join(f'<option value="{n}"{" selected" if n == game.default_players else ""}>{n}</option>'
                      for n in range(game.min_players, game.max_players + 1))
    return (
        '<section class="panel action-panel" id="simulate" aria-labelledby="simulate-h">'
        '<h2 id="simulate-h">Simulate</h2>'
        "<p class=\"muted\">AI players play many games against each other; the report shows who wins, by how "
        "much and how often each seat wins, with plots — the balance of the game.</p>"
        f'<form id="simulate-form" data-game="{attr(game.name)}" autocomplete="off">'
        f'<label>Games <input id="sim-games" type="number" min="1" value="{SIMULATE_GAMES}" required></label>'
        f'<label>Players <select id="sim-players">{players}</select></label>'
        '<label>Seats <input id="sim-seats" type="text" value="greedy" spellcheck="false" '
        'aria-describedby="sim-seats-help"></label>'
        '<p id="sim-seats-help" class="muted small">AI players by comma, one a seat: random, greedy, ismcts:200 '
        "(a budget after the colon); fewer than the players repeats the last.</p>"
        '<label>Seed <input id="sim-seed" type="number" min="0" placeholder="random"></label>'
        '<button type="submit" id="sim-start" class="primary">Run the simulation</button>'
        '<p id="sim-error" class="error" role="alert"></p></form></section>'
    )


def print_panel(name: str) -> str:
    """The print choices; the form downloads /games/{name}/print.pdf (no script needed)."""
    return (
        '<section class="panel action-panel" id="print" aria-labelledby="print-h"><h2 id="print-h">Print</h2>'
        "<p class=\"muted\">Every card in its printed quantity, 9 to a sheet with crop marks, then the boards "
        "and score pads. Print at 100 % and cut.</p>"
        f'<form id="print-form" method="get" action="{attr(_path(name))}/print.pdf" data-game="{attr(name)}">'
        '<label>Paper <select name="paper" id="print-paper"><option value="a4">A4</option>'
        '<option value="letter">US Letter</option></select></label>'
        '<label class="inline"><input type="checkbox" name="backs" value="1" id="print-backs"> Backs: a back page '
        "after each sheet</label>"
        '<label>Duplex <select name="duplex" id="print-duplex"><option value="long">flip on the long edge</option>'
        '<option value="short">flip on the short edge</option></select></label>'
        '<label>Bleed <input type="number" name="bleed" id="print-bleed" min="0" max="5" step="0.5" value="0"> mm '
        '<span class="muted small">(0–5; 3 is typical for a print shop)</span></label>'
        '<label class="inline"><input type="checkbox" name="ink_saver" value="1" id="print-ink"> Ink-saver: light '
        "backs and frames</label>"
        '<p><button type="submit" class="primary" id="print-download">Download the PDF</button></p>'
        f'<p class="muted small">The same file as <code id="print-command">tablepress print {attr(name)} '
        f"-o {attr(name)}.pdf</code></p></form></section>"
    )


def share_panel(name: str, base_url: str) -> str:
    """The stable intro address, a copy button and its QR code."""
    url = f"{base_url.rstrip('/')}{_path(name)}/intro"
    return (
        '<section class="panel action-panel" id="share" aria-labelledby="share-h">'
        '<h2 id="share-h">Share the intro</h2><div class="share-grid"><div>'
        "<p class=\"muted\">A one-page introduction anyone can open — and print. Links show the game's title, "
        "thesis and a card when pasted in a chat.</p>"
        f'<label>Intro link <input id="share-url" type="text" readonly value="{attr(url)}"></label>'
        '<p><button type="button" id="copy-link" class="primary">Copy link</button> '
        f'<a class="button" href="{attr(_path(name))}/intro">Open the intro</a> '
        '<span id="copy-done" class="muted" role="status" aria-live="polite"></span></p></div>'
        f'<img class="qr" src="{attr(_path(name))}/qr.svg" alt="QR code of the intro link" width="160" '
        'height="160"></div></section>'
    )


def rules_page(name: str) -> str:
    """`/games/{name}/rules`: the game's full rules (its rules.md) with a table of contents."""
    package = get_package(name)
    facts = facts_of(name)
    rules, contents = rules_with_contents(package.rules())
    rules = scrolling_tables(rules)
    toc = (f'<nav class="toc" aria-label="contents"><h2>Contents</h2>{contents_list(contents)}</nav>'
           if contents else "")
    path = _path(name)
    body = (
        '<article class="rules-page">'
        f'<p class="crumbs"><a href="/">Games</a> › <a href="{attr(path)}">{attr(facts.title)}</a> › Rules</p>'
        f'<div class="rules-layout">{toc}<div class="rules-text">{rules}'
        f'<div class="more actions"><a class="button primary" href="{attr(path)}#play">Play {attr(facts.title)}</a> '
        f'{learn_button(name)}'
        f'<a class="button" href="{attr(path)}#print">Print it</a></div></div></div></article>'
    )
    return page(f"{facts.title} — the rules — Table Press", body, f"The full rules of {facts.title}.",
                body_class="site rules-site")


def contents_list(contents: list[tuple[int, str, str]]) -> str:
    """The table of contents: a list of the level 2 headings, each with its level 3 headings under it."""
    items: list[str] = []
    subs: list[str] = []

    def close() -> None:
        if subs and items:
            items[-1] = items[-1][:-len("</li>")] + f"<ul>{''.join(subs)}</ul></li>"
        elif subs:
            items.extend(subs)
        subs.clear()

    for level, anchor, text in contents:
        entry = f'<li><a href="#{attr(anchor)}">{attr(text)}</a></li>'
        if level == 3:
            subs.append(entry)
        else:
            close()
            items.append(entry)
    close()
    return f"<ol>{''.join(items)}</ol>"


def intro_page(name: str, base_url: str, variant: dict[str, Any] | None = None) -> str:
    """`/games/{name}/intro`: the shareable one-page intro, with Open Graph and Twitter meta. With a saved
    `variant` ({"id", "name", "changes"}) it is that variant's intro: "variant: NAME" in its title, its
    changes listed, its cards drawn, and Play / Print going to the variant."""
    game = get_package(name).game
    facts = facts_of(name)
    intro = intro_of(game)
    base = base_url.rstrip("/")
    path = _path(name)
    title = facts.title if variant is None else f"{facts.title} — variant: {variant['name']}"
    description = " ".join(part for part in (facts.tagline, facts.facts + "." if facts.facts else "", facts.line)
                           if part)
    if variant is not None:
        changed = "; ".join(c["text"] for c in variant["changes"][:6])
        description = f"Variant {variant['name']}: {changed}. {description}"
    chosen = "" if variant is None else f"?variant={quote(variant['id'], safe='')}"
    here, image = f"{base}{path}/intro{chosen}", f"{base}{path}/share.png{chosen}"
    meta = {"og:type": "website", "og:site_name": "Table Press", "og:title": title,
            "og:description": description, "og:url": here,
            "twitter:card": "summary_large_image", "twitter:title": title, "twitter:description": description,
            "og:image": image, "og:image:type": "image/png",
            "og:image:width": str(SHARE_WIDTH), "og:image:height": str(SHARE_HEIGHT),
            "og:image:alt": f"{title}: {facts.tagline}", "twitter:image": image}
    if variant is None:
        play, sheet, note = f"{path}#play", f"{path}#print", ""
    else:
        vid = quote(variant["id"], safe="")
        play, sheet = f"/make/{quote(name, safe='')}?variant={vid}", f"{path}/print.pdf?variant={vid}"
        changes = "".join(f"<li>{attr(c['text'])}</li>" for c in variant["changes"])
        note = (f'<section class="variant-note" aria-label="the variant"><h2>variant: {attr(variant["name"])}</h2>'
                f"<p>These cards differ from the published game:</p><ul>{changes}</ul></section>")
    body = (
        f'<article class="intro-page"><div class="intro-head"><div><h1>{attr(title)}</h1>'
        f'<p class="tagline">{attr(facts.tagline)}</p><p class="facts">{attr(facts.facts)}</p></div>'
        f"{_fan(facts, variant_id=None if variant is None else variant['id'])}</div>{note}"
        f'<p class="thesis"><strong>Thesis:</strong> {attr(facts.thesis)}</p>'
        f'<nav class="actions no-print" aria-label="what to do with this game">'
        f'<a class="button primary" href="{attr(play)}">Play / simulate</a>'
        f'<a class="button" href="{attr(sheet)}">Print the 9-up sheet</a>'
        f'<a class="button" href="{attr(path)}/rules">The full rules</a>'
        f'{"" if variant is not None else learn_button(name)}'
        '<button type="button" class="button" onclick="window.print()">Print this page</button></nav>'
        f'<div class="intro">{intro_sections(game, intro)}</div></article>'
    )
    return page(f"{title} — Table Press", body, description, meta, body_class="site intro-site")


def not_found_page(name: str, games: list[GameFacts]) -> str:
    """The 404 page of an unknown game, naming (and linking) every game there is."""
    links = "".join(f'<li><a href="{attr(_path(g.name))}">{attr(g.title)}</a> <span class="muted">({attr(g.name)})'
                    "</span></li>" for g in games)
    body = (f'<section class="panel not-found"><h1>No game called “{attr(name)}”</h1>'
            f'<p>The games here are:</p><ul class="known-games">{links}</ul>'
            '<p><a class="button" href="/">All games</a></p></section>')
    return page("No such game — Table Press", body, body_class="site")
