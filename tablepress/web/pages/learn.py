"""The "Learn: guided first game" button of a game's pages: a plain form posting to `/games/{name}/learn`
(web/guides.py), so it works without scripts; empty for a game without a guide."""

from __future__ import annotations

from urllib.parse import quote

from ..guides import has_guide
from .shell import attr

LABEL = "Learn: guided first game"


def learn_button(name: str, css: str = "button") -> str:
    """The form with its one button (class `css`), or "" when the game ships no guide."""
    if not has_guide(name):
        return ""
    action = f"/games/{quote(name, safe='')}/learn"
    return (f'<form class="learn-form" method="post" action="{attr(action)}">'
            f'<button type="submit" class="{attr(css)}" title="a fixed deal against the Beginner AI, every step '
            f'explained, the rules linked where they apply">{LABEL}</button></form>')
