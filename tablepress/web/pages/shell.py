"""The frame every site page shares: head (title, description, share meta), header, footer, scripts."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping

SITE = "Table Press"


def attr(value: object) -> str:
    """A value escaped for an HTML attribute or text."""
    return html.escape(str(value), quote=True)


def page(title: str, body: str, description: str = "", meta: Mapping[str, str] | None = None,
         scripts: Iterable[str] = (), body_class: str = "site") -> str:
    """A whole HTML page: `body` inside the site's header and footer; `meta` are Open Graph / Twitter
    properties (`og:title`, `twitter:card`, ...); `scripts` are /static/ file names, loaded deferred."""
    tags = [f'<meta name="description" content="{attr(description)}">'] if description else []
    for name, content in (meta or {}).items():
        key = "name" if name.startswith("twitter:") else "property"
        tags.append(f'<meta {key}="{attr(name)}" content="{attr(content)}">')
    loads = "".join(f'<script src="/static/{attr(script)}" defer></script>' for script in scripts)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{attr(title)}</title>{''.join(tags)}"
        '<link rel="icon" href="data:,">'
        '<link rel="stylesheet" href="/static/app.css"><link rel="stylesheet" href="/static/site.css">'
        f"{loads}</head>"
        f'<body class="{attr(body_class)}">'
        '<a class="skip" href="#content">Skip to the content</a>'
        '<header class="site-top"><a href="/" class="brand">✿ Table Press</a>'
        '<span class="strap">free print-and-play card games · play · simulate · print · share · make</span>'
        '<nav aria-label="site"><a href="/#catalogue">Games</a><a href="/#games-panel">Tables</a></nav></header>'
        f'<main id="content" tabindex="-1">{body}</main>'
        f'<footer class="site-foot">{SITE} · made with tablepress · every game free to play, '
        "simulate, print and change</footer></body></html>"
    )
