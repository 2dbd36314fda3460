"""The game page's AI levels: each level's name, what plays it, and its measured rating with its games."""

from __future__ import annotations

from typing import Any

from ...agents.level_ratings import level_facts
from ...core.registry import get_package
from .shell import attr


def levels_section(name: str) -> str:
    """A table of the game's AI levels with their ratings (empty for a game that declares none)."""
    facts = level_facts(get_package(name))
    if not facts:
        return ""
    rows = "".join(
        f"<tr><th scope=\"row\">{attr(f['title'])}</th><td><code>{attr(_plays(f))}</code></td>"
        f"<td>{_rating(f)}</td><td>{f['games']}</td></tr>"
        for f in facts)
    players = next((f["players"] for f in facts if f["players"]), None)
    note = (f"Rated by {players}-player games of every level against every other and against random play "
            "(held at 1000); the range is a 95% interval." if players else "Not rated yet.")
    return (
        '<section id="levels" class="levels" aria-labelledby="levels-h"><h3 id="levels-h">AI levels</h3>'
        '<table class="levels-table"><thead><tr><th scope="col">level</th><th scope="col">plays</th>'
        '<th scope="col">rating</th><th scope="col">games</th></tr></thead>'
        f'<tbody>{rows}</tbody></table><p class="muted small">{attr(note)} Pick one as a seat: '
        "<code>level:casual</code>.</p></section>"
    )


def _plays(facts: dict[str, Any]) -> str:
    share = facts["random_moves"]
    return facts["agent"] + (f", {share:.0%} of moves at random" if share else "")


def _rating(facts: dict[str, Any]) -> str:
    if facts["rating"] is None:
        return "not rated"
    low_high = facts["interval"]
    return f"{facts['rating']}" + (f' <span class="muted small">({low_high[0]}–{low_high[1]})</span>' if low_high else "")
