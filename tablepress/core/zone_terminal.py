"""The default terminal drawing of a view with zones (`core.zoned.ZonedGame`): the cards in their zones.

Each zone is a row: its name (and whose it is), then its cards as the seat may see them — a card it may
see by name, the ones it may not as a count face down. The zones the seat sees more of (its hand) come
from its private view. The rest of the view (whose turn, the scores) is one line of facts above them.
"""

from __future__ import annotations

from typing import Any

#: At most this many face-down cards are drawn one by one; more are counted.
BACKS_DRAWN = 6


def has_zones(view: dict[str, Any]) -> bool:
    """Whether a view carries its cards in zones (a list of zone entries in its public part)."""
    public = view.get("public")
    return isinstance(public, dict) and isinstance(public.get("zones"), list)


def merged_zones(view: dict[str, Any]) -> list[tuple[dict[str, Any], bool]]:
    """Every zone entry of the view, each pile as the seat sees it, with whether that is more than the public
    view shows (its private part); in the public order."""
    private = {_place(entry): entry for entry in (view.get("private") or {}).get("zones", [])}
    return [(private.get(_place(entry), entry), _place(entry) in private) for entry in view["public"]["zones"]]


def _place(entry: dict[str, Any]) -> tuple:
    return entry.get("zone"), entry.get("seat"), entry.get("pile")


def zone_title(entry: dict[str, Any], names: list[str]) -> str:
    """A zone's row title: `Hand · Ana`, `Stack 2`, `Trick`."""
    title = str(entry.get("zone", "")).capitalize()
    seat = entry.get("seat")
    if isinstance(seat, int):
        title += f" · {names[seat] if 0 <= seat < len(names) else f'seat {seat}'}"
    if entry.get("pile") is not None:
        title += f" {entry['pile']}"
    return title


def cards_text(cards: list[Any]) -> str:
    """A pile as text: each card seen by name in brackets, the unseen ones drawn as backs or counted."""
    seen = [f"[{card}]" for card in cards if card is not None]
    hidden = sum(1 for card in cards if card is None)
    backs = "" if not hidden else "▒ " * hidden if hidden <= BACKS_DRAWN else f"{hidden} face down"
    text = " ".join(seen + ([backs.strip()] if backs else []))
    return text or "—"


def facts_text(facts: dict[str, Any]) -> str:
    """The view's other facts on one line: `turn 4 · current 1 · scores 1, 0, 0`."""
    parts = []
    for key, value in facts.items():
        if isinstance(value, bool):
            value = "yes" if value else "no"
        elif isinstance(value, (list, tuple)):
            value = ", ".join("—" if item is None else str(item) for item in value) or "—"
        elif isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items()) or "—"
        parts.append(f"{key.replace('_', ' ')} {'—' if value is None else value}")
    return " · ".join(parts)


def render_zones(view: dict[str, Any], seat: int | None, names: list[str]) -> Any:
    """A rich renderable of a view with zones: the facts, then one row per pile, the seat's own marked."""
    from rich.console import Group
    from rich.markup import escape
    from rich.panel import Panel
    from rich.table import Table

    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    for entry, mine in merged_zones(view):
        text = escape(cards_text(entry.get("cards", [])))
        table.add_row(escape(zone_title(entry, names)), f"[green]{text}[/] (yours)" if mine else text)
    facts = {key: value for key, value in view["public"].items() if key != "zones"}
    extra = {key: value for key, value in (view.get("private") or {}).items() if key != "zones"}
    parts: list[Any] = [escape(facts_text(facts))] if facts else []
    parts.append(table)
    if extra:
        parts.append(escape("yours: " + facts_text(extra)))
    who = "spectator" if seat is None else names[seat]
    return Panel(Group(*parts), title=f"what {who} sees")
