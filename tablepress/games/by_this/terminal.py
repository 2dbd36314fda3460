"""By This in the terminal: the Key in play with its arrow, the face-up Keys, the shelf with each thing's
number under the Key (piles of same numbers marked), the Floor and your hand with their legal ends, the
close offer with its score. Draws only from a seat's view.

Extra commands: `numbers` (all four numbers of everything in sight) and `thing NAME`.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...core.names import fold
from .cards import ByThisCards, load_data

PILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"
PILE_STYLES = ("bold black on yellow", "bold black on cyan", "bold black on green", "bold black on magenta")
SPECIAL_STYLE = "bold white on dark_red"


def key_text(key: dict[str, Any], style: str = "bold") -> Text:
    """A Key as printed with its word and arrow: `Small → Large (Size ↑)`, `A to Z (ABC ↑)`."""
    arrow = "↑" if key["ascending"] else "↓"
    text = Text(key["name"], style=style)
    text.append(f" ({key['word']} {arrow})", style="dim")
    return text


def shelf_table(public: dict[str, Any], all_numbers: bool = False) -> Table | Text:
    """The shelf left to right: names, the number under the Key, pile marks (and all four numbers on request)."""
    shelf = public["shelf"]
    if not shelf:
        return Text("  (empty — any thing may start it)", style="dim")
    table = Table(box=None, show_header=True, padding=(0, 1), pad_edge=False)
    table.add_column("", style="dim", justify="right")
    for entry in shelf:
        table.add_column(entry["card"], justify="center")
    word = public["key"]["word"]
    numbers = []
    marks = []
    for entry in shelf:
        pile = entry.get("pile")
        style = PILE_STYLES[pile % len(PILE_STYLES)] if pile is not None else "bold"
        numbers.append(Text(f" {entry['number']} ", style=style))
        marks.append(Text(f"[{PILE_LETTERS[pile]}]", style=style) if pile is not None else Text(""))
    table.add_row(word, *numbers)
    if any(m.plain for m in marks):
        table.add_row("", *marks)
    if all_numbers:
        for other in shelf[0]["numbers"]:
            if other != word:
                table.add_row(other, *(str(e["numbers"][other]) for e in shelf))
    return table


def card_line(entry: dict[str, Any], word: str) -> Text:
    """One thing (with its number and legal ends) or special (with its text) for a hand or the Floor."""
    if entry["special"]:
        text = Text(f" {entry['card']} ", style=SPECIAL_STYLE)
        text.append(f" {entry['text'].split('. ')[0].rstrip('.')}.", style="dim")
        return text
    text = Text(f"{entry['card']} ", style="bold")
    text.append(f"{word} {entry['number']}")
    ends = entry.get("ends", [])
    text.append("  → " + ("/".join(ends) if ends else "no end"), style="green" if ends else "dim")
    return text


def render(view: dict[str, Any], seat: int | None, names: list[str]) -> RenderableType:
    """The table as `seat` sees it."""
    public, private = view["public"], view["private"]
    word = public["key"]["word"]
    parts: list[RenderableType] = []
    line = Text("Key in play: ")
    line.append_text(key_text(public["key"], "bold yellow"))
    if public["locked"]:
        line.append("  LOCKED until the next close", style="bold red")
    elif not public["bythis_allowed"]:
        line.append("  (Young table: no By This before the first close)", style="dim")
    parts.append(line)
    keys = Text("Face-up Keys: ")
    for index, key in enumerate(public["face_up_keys"]):
        if index:
            keys.append("  ·  ")
        keys.append_text(key_text(key))
    keys.append(f"    Key deck: {public['key_deck']}", style="dim")
    if public["key_deck_known_under"]:
        keys.append(f" (under it: {', '.join(public['key_deck_known_under'])})", style="dim")
    parts.append(keys)
    length = len(public["shelf"])
    head = Text(f"Shelf ({length} thing{'s' if length != 1 else ''}; close at {public['close_min']}+", style="bold")
    head.append(f"; closing scores {public['close_score']})" if length else ")")
    parts += [head, shelf_table(public)]
    if public["piles"]:
        counts = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
        described = [f"[{PILE_LETTERS[i]}] {counts.get(len(p['cards']), len(p['cards']))} {p['number']}s "
                     f"(+{len(p['cards']) - 1})" for i, p in enumerate(public["piles"])]
        parts.append(Text("  Piles of same numbers: " + ", ".join(described), style="dim"))
    floor = Text("Floor: ", style="bold")
    if not public["floor"]:
        floor.append("empty", style="dim")
    parts.append(floor)
    parts += [Text("  ").append_text(card_line(entry, word)) for entry in public["floor"]]
    if seat is not None and "hand" in private:
        hand = Text("Your hand: ", style="bold")
        if not private["hand"]:
            hand.append("empty", style="dim")
        parts.append(hand)
        parts += [Text("  ").append_text(card_line(entry, word)) for entry in private["hand"]]
    parts.append(_scores(public, names))
    if public["spent"]:
        parts.append(Text(f"Specials played: {', '.join(public['spent'])}", style="dim"))
    current = public["current"]
    if current is not None:
        who = names[current]
        if public["phase"] == "close":
            offer = Text(f"{who} may close the shelf now for {public['close_score']} points: close or keep.",
                         style="bold magenta")
            parts.append(offer)
        elif public["phase"] == "place":
            parts.append(Text(f"{who} played a special and now places a thing.", style="bold"))
    status = "game over" if public["over"] else f"turn {public['turn'] + 1} · {names[current]} to play"
    return Panel(Group(*parts), title=f"By This — {status}", expand=False)


def _scores(public: dict[str, Any], names: list[str]) -> Text:
    text = Text("Scores: ", style="bold")
    for seat, (score, closes) in enumerate(zip(public["scores"], public["closes"])):
        if seat:
            text.append("  ·  ")
        text.append(f"{names[seat]} {score}", style="bold" if seat == public["current"] else "")
        text.append(f" ({closes} close{'s' if closes != 1 else ''}, {public['hand_sizes'][seat]} in hand)", style="dim")
    text.append(
        f"\nCloses {public['total_closes']}/{public['closes_to_end']} ({public['forced_closes']} forced) · "
        f"deck {public['deck']} · turns without a place or special: {public['idle_turns']}/{public['players']}",
        style="dim",
    )
    return text


def numbers_table(view: dict[str, Any]) -> Table:
    """All four numbers of every thing in sight: shelf, Floor and (if any) the hand."""
    public, private = view["public"], view["private"]
    rows = [("shelf", e) for e in public["shelf"]] + [("Floor", e) for e in public["floor"]]
    rows += [("hand", e) for e in private.get("hand", []) if not e["special"]]
    words = list(rows[0][1]["numbers"]) if rows else []
    table = Table(title=f"All numbers (Key in play reads {public['key']['word']})")
    table.add_column("where")
    table.add_column("thing", style="bold")
    for word in words:
        table.add_column(word, justify="right", style="bold yellow" if word == public["key"]["word"] else "")
    for where, entry in rows:
        table.add_row(where, entry["card"], *(str(entry["numbers"][w]) for w in words))
    return table


def command(text: str, view: dict[str, Any], console: Console) -> bool:
    """`numbers` (or `all`): every visible thing's four numbers; `thing NAME`: one thing's. True if handled."""
    words = text.strip().split(maxsplit=1)
    if not words:
        return False
    verb = words[0].lower()
    if verb in ("numbers", "all"):
        console.print(numbers_table(view))
        console.print(shelf_table(view["public"], all_numbers=True))
        return True
    if verb == "thing" and len(words) == 2:
        wanted = fold(words[1])
        entries = view["public"]["shelf"] + view["public"]["floor"] + view["private"].get("hand", [])
        for entry in entries:
            if fold(entry["card"]) == wanted and not entry["special"]:
                console.print(f"{entry['card']}: " + ", ".join(f"{w} {n}" for w, n in entry["numbers"].items()))
                return True
        cards = ByThisCards.from_data(load_data())
        name = cards.thing_index().get(words[1])
        if name is None:
            console.print(f"[red]There is no thing called {words[1]!r}.[/]")
        else:
            console.print(f"{name}: " + ", ".join(f"{w} {n}" for w, n in cards.all_numbers(cards.thing_id(name)).items()))
        return True
    return False


def legend(view: dict[str, Any]) -> str:
    """How to read the table and write a move (for `help`)."""
    return (
        "Notation: each thing has four numbers, one per Key (ABC, Size, Weight, Age); the Key in play, such as "
        "Small → Large, says which number orders the shelf, read left to right.\nMoves: place NAME (file a "
        "thing on the shelf), floor NAME (put it on the Floor), close or keep (when the shelf may close); the "
        "specials samenumber ..., bythis KEY, dump and lock; pass. "
        "numbers shows every number in view; thing NAME one thing's numbers."
    )
