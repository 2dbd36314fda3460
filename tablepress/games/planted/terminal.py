"""Planted in the terminal: every board (plants with filled and empty spaces and their costs, resources,
tools, decorations, propagation), the nursery row, your hand with each card's number, the last reveal,
the feeding step with the solver's best, and the final breakdown. Draws only from a seat's view.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...core.names import NameIndex
from .cards import PlantedCards

RESOURCE_STYLE = {"L": "bold black on yellow", "W": "bold white on blue", "F": "bold white on dark_orange3",
                  "G": "bold white on green"}
KIND_STYLE = {"tool": "cyan", "decoration": "magenta", "resource": ""}


def resource_text(letters: str) -> Text:
    """Resource letters as coloured tokens (`LWF` → three coloured squares with letters)."""
    text = Text()
    for letter in letters:
        text.append(f" {letter} ", style=RESOURCE_STYLE.get(letter, ""))
    return text


def spaces_text(spaces: list[int], tokens: int) -> Text:
    """A plant's growth spaces bottom first: covered ones filled (■3), empty ones open (□4)."""
    text = Text()
    for index, points in enumerate(spaces):
        if index < tokens:
            text.append(f"■{points} ", style="bold green")
        else:
            text.append(f"□{points} ", style="dim")
    return text


def plants_table(plants: list[dict[str, Any]], title: str | None = None, growth: bool = True) -> Table:
    """Plants with type, tier, cost and (on a board) their spaces."""
    table = Table(title=title, show_edge=False, box=None, padding=(0, 1), title_justify="left")
    for column in ("plant", "type", "cost", "spaces" if growth else "points"):
        table.add_column(column)
    for plant in plants:
        tokens = plant.get("tokens", 0)
        name = plant["name"] + (" ✓" if growth and tokens >= len(plant["spaces"]) else "")
        table.add_row(name, f"{plant['type']} ({plant['tier']})", resource_text(plant["cost"]),
                      spaces_text(plant["spaces"], tokens))
    return table


def board_panel(board: dict[str, Any], title: str, mine: bool) -> Panel:
    """One player's board; `mine` marks the viewer's own (with the best feeding during the feeding step)."""
    parts: list[RenderableType] = [plants_table(board["plants"])]
    have = Text("Resources: ")
    for letter, count in board["resources"].items():
        have.append_text(resource_text(letter))
        have.append(f"×{count}  ")
    parts.append(have)
    parts.append(Text(f"Tools: {', '.join(board['tools']) or '—'}", style="cyan"))
    parts.append(Text(f"Decorations: {', '.join(board['decorations']) or '—'}", style="magenta"))
    parts.append(Text(f"Propagation: {board['propagation']} token{'s' * (board['propagation'] != 1)}"))
    status = f"Holds {board['hand']['resource']} resource + {board['hand']['item']} item cards"
    if board.get("chosen"):
        status += " (one of them chosen face down)"
    if board.get("feeding"):
        status += f" · {board['feeding']}"
    parts.append(Text(status, style="dim"))
    if board.get("best_feeding") and mine:
        best = board["best_feeding"]
        parts.append(Text(f"Best feeding: {best['action']} (+{best['points']} points, "
                          f"{best['propagation']} propagation, {best['green_thumbs']} Green Thumbs used)",
                          style="bold green" if mine else "green"))
    return Panel(Group(*parts), title=title, title_align="left", border_style="bold" if mine else "dim",
                 expand=False)


def hand_table(cards: list[dict[str, Any]], title: str) -> Table:
    """Cards with their numbers (lower numbers buy first at the nursery)."""
    table = Table(title=title, show_edge=False, box=None, padding=(0, 1), title_justify="left")
    table.add_column("no.", justify="right")
    table.add_column("card")
    for card in cards:
        label = resource_text(card["name"]) if card["kind"] == "resource" else Text(card["name"], style=KIND_STYLE[card["kind"]])
        table.add_row(str(card["number"]), label)
    return table


def render(view: dict[str, Any], seat: int | None, names: list[str]) -> RenderableType:
    """The table as `seat` sees it (None: everything public, e.g. at the end)."""
    public, private = view["public"], view["private"]
    parts: list[RenderableType] = []
    if public["over"]:
        head = Text("Game over.", style="bold")
    else:
        head = Text(f"Round {public['round']}/{public['rounds']} · passing {public['direction']} · ")
        head.append({"choose": f"turn {public['step']}: choose a card",
                     "buy": "Nursery calls", "feed": "feeding"}[public["phase"]], style="bold")
    head.append(f"   decks: {public['resource_deck']} resource, {public['item_deck']} item, "
                f"{public['plant_deck']} plants", style="dim")
    parts.append(head)
    if public["revealed"]:
        line = Text("Revealed: ")
        for item in public["revealed"]:
            line.append(f"{names[item['seat']]} {item['number']} {item['name']}"
                        f"{' — NURSERY!' if item['nursery'] else ''};  ")
        parts.append(line)
    if public["bought"]:
        parts.append(Text("Bought: " + "; ".join(f"{names[b['seat']]} {b['plant']}" for b in public["bought"])))
    if public["calls"]:
        parts.append(Text("Nursery calls waiting: " + ", ".join(
            f"{names[c['seat']]} (card {c['card']})" for c in public["calls"]), style="yellow"))
    parts.append(plants_table(public["row"], title="Nursery row", growth=False) if public["row"]
                 else Text("Nursery row: empty", style="dim"))
    for index, board in enumerate(public["boards"]):
        mine = index == seat
        title = f"{names[index]} — {board['score']} points" + ("  (you)" if mine else "")
        parts.append(board_panel(board, title, mine))
    if public["over"]:
        parts.append(breakdown_table(public["boards"], names))
    if seat is not None and private.get("hand") is not None and not public["over"]:
        if private["hand"]:
            parts.append(hand_table(private["hand"], "Your hand"))
        if private.get("chosen"):
            chosen = private["chosen"]
            parts.append(Text(f"You chose {chosen['number']} {chosen['name']}"
                              f"{' to call Nursery' if chosen['nursery'] else ''}.", style="bold"))
        if private.get("feedings"):
            parts.append(feedings_table(private["feedings"]))
        for known in private.get("known_hands", []):
            cards = ", ".join(f"{c['number']} {c['name']}" for c in known["cards"])
            extra = " (one of them chosen)" if known["one_chosen"] else ""
            parts.append(Text(f"You passed on: {names[known['seat']]} holds {cards}{extra}", style="dim"))
    return Panel(Group(*parts), title="Planted", expand=False)


def feedings_table(options: list[dict[str, Any]], limit: int = 8) -> Table:
    """Your feeding options with what each brings this round, the best first (the rest by the engine's order)."""
    table = Table(title="Your feedings (best first; type another to change it)", show_edge=False, box=None,
                  padding=(0, 1), title_justify="left")
    for column in ("feeding", "points", "spaces", "propagation", "Green Thumbs"):
        table.add_column(column, justify="left" if column == "feeding" else "right")
    ranked = options[:1] + sorted(options[1:], key=lambda o: -o["points"])
    for index, option in enumerate(ranked[:limit]):
        style = "bold green" if index == 0 else ""
        table.add_row(option["action"], f"+{option['points']}", str(option["covered"]), str(option["propagation"]),
                      str(option["green_thumbs"]), style=style)
    if len(options) > limit:
        table.add_row(Text(f"… {len(options) - limit} more in the list below", style="dim"))
    return table


def breakdown_table(boards: list[dict[str, Any]], names: list[str]) -> Table:
    """Final points by plants, propagation and each decoration."""
    table = Table(title="Breakdown")
    table.add_column("player")
    table.add_column("plants", justify="right")
    table.add_column("propagation", justify="right")
    table.add_column("decorations")
    table.add_column("total", justify="right", style="bold")
    for index, board in enumerate(boards):
        points = board["points"]
        decos = ", ".join(f"{d['decoration']} {d['points']}" for d in points["each_decoration"])
        table.add_row(names[index], str(points["plants"]), str(points["propagation"]), decos or "—",
                      str(board["score"]))
    return table


def card_command(cards: PlantedCards, text: str, console: Console) -> bool:
    """`card NAME`: what a plant, tool or decoration of `cards` does. Returns whether the text was such a command."""
    verb, _, rest = text.strip().partition(" ")
    if verb.lower() != "card" or not rest.strip():
        return False
    plant = NameIndex(p.name for p in cards.plants).get(rest)
    if plant is not None:
        p = next(p for p in cards.plants if p.name == plant)
        console.print(Text(f"{p.name}: {p.type}, {p.tier}; each growth costs ") + resource_text(p.cost_text)
                      + Text(f"; spaces (bottom first): {', '.join(map(str, p.spaces))}"))
        return True
    tool = NameIndex(t.name for t in cards.tools).get(rest)
    if tool is not None:
        console.print(f"{tool}: {TOOL_HELP.get(tool, 'a tool')}")
        return True
    deco = NameIndex(d.name for d in cards.decorations).get(rest)
    if deco is not None:
        d = next(d for d in cards.decorations if d.name == deco)
        console.print(f"{deco}: {_deco_help(d)}")
        return True
    console.print(f"[red]No plant, tool or decoration called {rest.strip()!r}.[/]")
    return True


def _deco_help(deco: Any) -> str:
    if deco.scores == "tools":
        return f"{deco.points} point(s) per tool card you own"
    if deco.scores == "type":
        return f"{deco.points} points per {deco.type} plant you own"
    if deco.scores == "types":
        return f"{deco.points} points per different plant type you own"
    if deco.scores == "grown":
        return f"{deco.points} points per fully grown plant you own"
    return f"{deco.points} point(s) per {deco.per} growth tokens in your propagation area"


TOOL_HELP = {
    "Watering Can": "when you play a card showing exactly WW, take 1 extra Water",
    "Grow Lamp": "when you play a card showing exactly LL, take 1 extra Light",
    "Feed Scoop": "when you play a card showing exactly FF, take 1 extra Plant Food",
    "Gardening Gloves": "when you play a card showing at least one G, take 1 extra Green Thumb",
    "Trowel": "when you buy a plant from the nursery, take 1 Light, Water or Plant Food (your choice)",
    "Seed Tray": "in a round where you propagate at least one growth token, take 1 more",
}


def numbered(view: dict[str, Any]) -> bool:
    """Whether the moves are listed with numbers: not while choosing a card, where the numbers on screen are the
    cards' own (`no.` in your hand) and a number typed must mean one of those, never a place in the list."""
    return view["public"]["phase"] != "choose"


def legend(view: dict[str, Any]) -> str:
    """How to read the table and write a move (for `help`)."""
    return (
        "Notation: resources are L Light, W Water, F Plant Food, G Green Thumb (a card LF shows one Light and "
        "one Plant Food; two G stand in for one missing resource when feeding). A plant's spaces read bottom first: ■3 covered, □4 empty (3 and "
        "4 are the points of the space); its cost is what each growth token costs. no. is a card's number: "
        "at the nursery the lowest number buys first.\nMoves: play N (take card no. N's resources, tool or "
        "decoration) or nursery N (call Nursery with card no. N) — N is the card's number, not a place in the "
        "list; buy NAME (+L, +W or +F with a Trowel); feed NAME+NAME or feed none. card NAME tells what a "
        "plant, tool or decoration does."
    )


class PlantedTerminal:
    """Planted's `TerminalView`: this module's table, legend and numbering, and `card NAME` answered from the
    cards it is given (the game's)."""

    def __init__(self, cards: PlantedCards):
        self.cards = cards

    def render(self, view: dict[str, Any], seat: int | None, names: list[str]) -> RenderableType:
        """The whole table as `seat` sees it (`render`)."""
        return render(view, seat, names)

    def command(self, text: str, view: dict[str, Any], console: Any) -> bool:
        """`card NAME` (`card_command`); True if the text was one."""
        return card_command(self.cards, text, console)

    def legend(self, view: dict[str, Any]) -> str:
        """How to read the table and write a move (`legend`)."""
        return legend(view)

    def numbered(self, view: dict[str, Any]) -> bool:
        """Whether the moves are numbered now (`numbered`)."""
        return numbered(view)
