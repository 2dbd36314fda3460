"""Flowers in the terminal: areas as coloured grids with coordinates, the three stacks, live scores.

Draws only from a seat's view.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

STYLE = {"Y": "bold black on yellow", "R": "bold white on red", "B": "bold white on blue",
         "G": "bold white on green", "V": "bold white on magenta"}


def card_text(code: str | None, covered: int = 0) -> Text:
    """A card code in its colour; `+N` marks N covered cards under it."""
    if code is None:
        return Text(" ?? ", style="bold white on grey23")
    text = Text(f" {code:<3}", style=STYLE.get(code[0], ""))
    text.append(f"+{covered}" if covered else "  ", style="dim")
    return text


def area_table(cells: list[dict[str, Any]], title: str, show_free: bool) -> Table:
    """One area as a grid with x across the top and y down the side; free cells shown when placing."""
    grid = {(c["x"], c["y"]): c["cards"] for c in cells}
    xs = [x for x, _ in grid]
    ys = [y for _, y in grid]
    pad = 1 if show_free else 0
    x_range = range(min(xs) - pad, max(xs) + pad + 1)
    table = Table(title=title, show_edge=False, box=None, padding=(0, 0), pad_edge=False)
    table.add_column("y\\x", justify="right", style="dim")
    for x in x_range:
        table.add_column(str(x), justify="center", style="dim", min_width=6)
    for y in range(min(ys) - pad, max(ys) + pad + 1):
        row: list[RenderableType] = [Text(f"{y} ")]
        for x in x_range:
            stack = grid.get((x, y))
            if stack:
                row.append(card_text(stack[-1], len(stack) - 1))
            elif show_free and any((x + dx, y + dy) in grid for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                row.append(Text("  ·   ", style="dim"))
            else:
                row.append(Text("      "))
        table.add_row(*row)
    return table


def render(view: dict[str, Any], seat: int | None, names: list[str]) -> RenderableType:
    """The table as `seat` sees it: stacks, the drawn card, every area, scores."""
    public, private = view["public"], view["private"]
    stacks = Text("Stacks: ")
    for stack in public["stacks"]:
        stacks.append(f" {stack['stack']}: ")
        if stack["cards"] == 0:
            stacks.append("empty", style="dim")
            continue
        if stack["top"] is not None:
            stacks.append_text(card_text(stack["top"]))
        elif stack["face_up"]:
            stacks.append(" (turns up next turn) ", style="dim")
        else:
            stacks.append_text(card_text(None))
        stacks.append(f" ({stack['cards']} left)", style="dim")
    parts: list[RenderableType] = [stacks]
    drawn = private.get("drawn") or public.get("drawn")
    if public["step"] == "place" and public["current"] is not None:
        who = names[public["current"]]
        line = Text(f"{who} drew from stack {public['drawn_from']}: ")
        line.append_text(card_text(drawn) if drawn else Text("a face-down card", style="dim"))
        parts.append(line)
    if public["removed"]:
        parts.append(Text(f"Removed by the timer: {len(public['removed'])} (last {public['removed'][-1]})", style="dim"))
    for index, cells in enumerate(public["areas"]):
        mine = index == seat
        title = f"{names[index]} — {public['scores'][index]} points" + ("  (your area)" if mine else "")
        free = mine and public["step"] == "place" and public["current"] == seat
        parts.append(area_table(cells, title, free))
    return Panel(Group(*parts), title=f"Flowers — turn {public['turn'] + 1}", expand=False)


def legend(view: dict[str, Any]) -> str:
    """How to read the table and write a move (for `help`)."""
    return (
        "Notation: a card is its colour and value — R red, Y yellow, B blue, G green, then 1–4 (R2: a red 2); "
        "a lower-case letter after a 4 is its butterfly's colour (Y4g: a yellow 4 with a green butterfly); "
        "V is a violet start card (Summer). +N after a card: N cards covered under it. ?? is a face-down card; "
        "· a free cell you may place on. Cells are x,y: x across the top, y down the side, your first card "
        "at 0,0.\nMoves: draw N (take the top card of stack N), then place CODE x,y (on an empty cell "
        "beside one of your cards — up, down, left or right — or on top of one of your cards)."
    )
