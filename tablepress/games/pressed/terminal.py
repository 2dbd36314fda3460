"""Pressed in the terminal: the Flower Bed as columns of coloured codes with row and column numbers, the
last planting, scores with the stack order, picks, your hand and pressed cards, the final breakdown.

Draws only from a seat's view. `card Hydrangea` (or `card HY`) shows a flower's table; `cards` all of them.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...core.names import NameIndex

STYLE = {
    "ZI": "bold white on red3", "SU": "bold black on yellow", "HY": "bold white on blue",
    "PE": "bold black on pink1", "LI": "bold black on orange1", "DA": "bold black on bright_white",
    "AN": "bold white on purple", "AS": "bold white on medium_purple3", "BB": "bold black on grey70",
    "CH": "bold black on gold3", "TU": "bold white on deep_pink3",
}
EFFECT_TEXT = {
    "": "—",
    "swap": "then may swap 2 cards in its row",
    "shortest": "scores only in a shortest column",
    "copy": "copies a card in its row/column; at the end joins a group",
    "choose": "counts a chosen card's flower; at the end another group's size",
}
PHASE_TEXT = {"plant": "plant", "swap": "Anemone swap", "pick": "pick a column", "press": "press 4 cards",
              "over": "game over"}


def card_text(code: str | None, dim: bool = False) -> Text:
    """A flower code in its colour (` HY `); None is an empty space."""
    if code is None:
        return Text("    ")
    return Text(f" {code} ", style="dim" if dim else STYLE.get(code, "bold"))


def codes_text(codes: list[str], dim: bool = False) -> Text:
    """Several codes side by side."""
    text = Text()
    for code in codes:
        text.append_text(card_text(code, dim))
        text.append(" ")
    return text


def counts_label(info: dict[str, Any]) -> str:
    """What a flower's table counts, in words."""
    what = info["counts"]
    return {"distinct": "distinct flowers", "chosen": "a chosen flower", "": "(copies another)"}.get(what, what)


def bed_table(public: dict[str, Any], names: list[str], seat: int | None) -> Table:
    """The Flower Bed: column numbers across, row numbers down; picked columns marked with the picker."""
    bed = public["bed"]
    picks = public["picks"][-1] if public["picks"] else []
    columns: list[list[str]] = []
    owner: list[int | None] = []
    for c, col in enumerate(bed):
        who = public["taken"][c]
        owner.append(who)
        if who is not None and picks and picks[who]:
            columns.append(picks[who]["cards"])
        else:
            columns.append(col)
    depth = max((len(col) for col in columns), default=0)
    planting = public["phase"] == "plant" and public["current"] == seat
    last = public.get("last")
    table = Table(box=None, padding=(0, 1), show_edge=False, title="Flower Bed", title_justify="left")
    table.add_column("", justify="right", style="dim")
    for c in range(len(columns)):
        label = str(c + 1) if owner[c] is None else f"{c + 1}:{names[owner[c]]}"
        table.add_column(label, justify="center")
    for r in range(depth + (1 if planting else 0)):
        cells: list[RenderableType] = [Text(str(r + 1))]
        for c, col in enumerate(columns):
            if r < len(col):
                text = card_text(col[r], dim=owner[c] is not None)
                if last and public["phase"] in ("plant", "swap") and (last["row"], last["column"]) == (r + 1, c + 1):
                    text.stylize("underline")
                cells.append(text)
            elif planting and r == len(col) and owner[c] is None:
                cells.append(Text(" ·· ", style="dim"))
            else:
                cells.append(Text("    "))
        table.add_row(*cells)
    return table


def scores_table(public: dict[str, Any], names: list[str], seat: int | None) -> Table:
    """Scores with each marker's place in the stack, pressed counts and hand sizes."""
    table = Table(box=None, padding=(0, 1), show_edge=False, title="Scores", title_justify="left")
    for column in ("player", "score", "stack", "pressed", "hand"):
        table.add_column(column, justify="right" if column != "player" else "left")
    stack = public["stack"]
    for s, score in enumerate(public["scores"]):
        same = [x for x in stack if public["scores"][x] == score]
        place = f"{same.index(s) + 1} of {len(same)}" if len(same) > 1 else "—"
        mark = (" ◀" if s in public["to_move"] else "") + (" (you)" if s == seat else "")
        first = " ★first" if s == public["first"] and public["phase"] != "over" else ""
        table.add_row(names[s] + first + mark, str(score), place, str(public["pressed_counts"][s]),
                      str(public["hand_sizes"][s]))
    return table


def last_line(public: dict[str, Any], names: list[str]) -> Text | None:
    """The last planting in words."""
    last = public.get("last")
    if not last:
        return None
    text = Text(f"Last: {names[last['seat']]} planted ")
    text.append_text(card_text(last["flower"]))
    extra = ""
    if last["copy"]:
        extra += f" copying {last['copy']}"
    if last["choose"]:
        extra += f" choosing {last['choose']}"
    text.append(f" in row {last['row']}, column {last['column']}{extra} → {last['points']} points")
    return text


def final_table(public: dict[str, Any], names: list[str]) -> Table:
    """Each player's pressed groups and total at the end."""
    table = Table(title="Final scoring", title_justify="left")
    for column in ("player", "planting", "pressed groups", "pressed", "total"):
        table.add_column(column, justify="left" if column in ("player", "pressed groups") else "right")
    winners = public.get("winners", [])
    for s, part in enumerate(public["final"]):
        groups = ", ".join(
            f"{g['flower']} {g['cards']}{'+' + str(g['babys_breath']) + 'BB' if g['babys_breath'] else ''}"
            f"{' →' + g['chose'] if g.get('chose') else ''}: {g['points']}"
            for g in part.get("groups", [])
        )
        table.add_row(names[s] + (" ★" if s in winners else ""), str(part["planting"]), groups or "—",
                      str(part["pressed"]), str(part["total"]))
    return table


def render(view: dict[str, Any], seat: int | None, names: list[str]) -> RenderableType:
    """The table as `seat` sees it."""
    public, private = view["public"], view["private"]
    parts: list[RenderableType] = [bed_table(public, names, seat)]
    line = last_line(public, names)
    if line is not None:
        parts.append(line)
    if public["phase"] == "swap":
        parts.append(Text(f"Anemone: {names[public['current']]} may swap two cards in row {public['swap_row']}.",
                          style="bold"))
    if public["pick_order"]:
        order = " → ".join(names[s] for s in public["pick_order"])
        parts.append(Text(f"Pick order (lowest score first): {order}"))
    if public["pressing"]:
        parts.append(Text("Still pressing: " + ", ".join(names[s] for s in public["pressing"]), style="dim"))
    parts.append(scores_table(public, names, seat))
    if private.get("hand"):
        hand = Text("Your hand: ")
        hand.append_text(codes_text(private["hand"]))
        parts.append(hand)
    if private.get("to_press"):
        picked = Text("Picked (press 4): ")
        picked.append_text(codes_text(private["to_press"]))
        parts.append(picked)
    if private.get("pressed") and public["phase"] != "over":
        pressed = Text("Your pressed cards: ")
        pressed.append_text(codes_text(private["pressed"]))
        pressed.append(f" (worth {private.get('pressed_value', 0)} now)", style="dim")
        parts.append(pressed)
    if public["seen_discards"]:
        parts.append(Text("Discarded face up earlier: " + " ".join(public["seen_discards"]), style="dim"))
    if public["phase"] == "over":
        parts.append(final_table(public, names))
    title = f"Pressed — round {public['round']}/{public['rounds']} · {PHASE_TEXT.get(public['phase'], public['phase'])}"
    return Panel(Group(*parts), title=title, expand=False)


def card_table(infos: list[dict[str, Any]]) -> Table:
    """Flowers with what they count, their table (count 1–8) and effect."""
    table = Table(title="Flowers", title_justify="left", padding=(0, 1))
    table.add_column("flower", no_wrap=True)
    table.add_column("counts", no_wrap=True)
    width = max((len(info["table"]) for info in infos), default=0)
    for n in range(1, width + 1):
        table.add_column(f"{n}{'+' if n == width else ''}", justify="right", no_wrap=True)
    table.add_column("copies", justify="right", no_wrap=True)
    table.add_column("effect", min_width=12, overflow="fold")
    for info in infos:
        row = [info["table"][i] if i < len(info["table"]) else "—" for i in range(width)]
        name = Text()
        name.append_text(card_text(info["code"]))
        name.append(" " + info["name"])
        table.add_row(name, counts_label(info), *(str(p) for p in row), str(info["copies"]),
                      EFFECT_TEXT.get(info["effect"], info["effect"]))
    return table


def command(text: str, view: dict[str, Any], console: Console) -> bool:
    """`card NAME` (name, plural or code) shows that flower's table; `cards` shows every flower's."""
    words = text.strip().split(maxsplit=1)
    if not words:
        return False
    infos = view["public"]["cards"]
    if words[0].lower() == "cards" and len(words) == 1:
        console.print(card_table(infos))
        return True
    if words[0].lower() != "card":
        return False
    if len(words) == 1:
        console.print("Write card NAME (like card Hydrangea or card HY), or cards for all.")
        return True
    index = NameIndex([info["name"] for info in infos], {info["code"]: info["name"] for info in infos})
    name = index.get(words[1])
    if name is None:
        console.print(f"[red]No flower {words[1]!r}.[/] Flowers: {', '.join(i['name'] for i in infos)}")
        return True
    console.print(card_table([info for info in infos if info["name"] == name]))
    return True



def legend(view: dict[str, Any]) -> str:
    """How to read the table and write a move (for `help`), with this game's flower codes."""
    codes = ", ".join(f"{info['code']} {info['name']}" for info in view["public"]["cards"])
    return (
        f"Notation: flowers by code — {codes}. The Flower Bed shows column numbers across and row numbers "
        "down, both from 1.\nMoves: plant CODE COLUMN (below the lowest card of that column), pick COLUMN "
        "(take a whole column), press CODE CODE CODE CODE (the 4 cards you keep; any case). card CODE shows a "
        "flower's table; cards shows them all."
    )
