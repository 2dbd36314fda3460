"""By This at the terminal: the table drawn from a view, the extra commands, a scripted hot-seat game."""

from __future__ import annotations

import io

from rich.console import Console

from tablepress.core.match import Match
from tablepress.games.by_this import GAME
from tablepress.games.by_this.terminal import command, render
from tablepress.terminal import play_in_terminal

N = GAME.by_name


def text_of(renderable) -> str:
    """What a renderable prints on a wide plain console."""
    console = Console(file=io.StringIO(), width=140, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def test_render_shows_key_shelf_piles_floor_hand_and_close_offer() -> None:
    state = GAME.new(3, 2, {"first": "1"})
    state.key = GAME.key_by_plain["Small to Large"]
    placed = {N[name] for name in ("Ant", "Rice", "Sand", "Needle", "Pearl", "Egg", "Hat")}
    for zone in (*state.hands, state.floor, state.deck):
        zone[:] = [card for card in zone if card not in placed]
    state.shelf = [N["Ant"], N["Rice"], N["Sand"]]
    state.hands[0] = sorted(N[name] for name in ("Needle", "Pearl", "Egg", "Hat"))
    GAME.apply(state, 0, "place Needle right")
    out = text_of(render(GAME.view(state, 0), 0, ["Ana", "Bo", "Cy"]))
    assert "Small → Large (Size ↑)" in out
    assert "Ant" in out and "Needle" in out and "three 1s (+2)" in out
    assert "close the shelf now for 6 points" in out
    assert "Your hand" in out and "Floor" in out
    spectator = text_of(render(GAME.view(state, None), None, ["Ana", "Bo", "Cy"]))
    assert "Your hand" not in spectator


def test_numbers_and_thing_commands() -> None:
    state = GAME.new(2, 3)
    console = Console(file=io.StringIO(), width=140, color_system=None)
    view = GAME.view(state, 0)
    assert command("numbers", view, console)
    assert command("thing mountain", view, console)
    assert command("thing Unicorn", view, console)
    assert not command("place Apple left", view, console)
    out = console.file.getvalue()
    assert "Weight" in out and "Mountain: ABC 5, Size 10, Weight 10, Age 10" in out and "Unicorn" in out


def test_scripted_hot_seat_game_to_the_end() -> None:
    match = Match(GAME, 2, 21, {}, ["human", "human"])
    console = Console(file=io.StringIO(), width=140, color_system=None)
    script = iter(["numbers", "log", "nonsense move"] + ["1"] * 2000)
    play_in_terminal(match, console, None, read=lambda prompt: next(script))
    out = console.file.getvalue()
    assert match.is_over and "Final scores" in out and "Not a legal move" in out


def test_help_is_the_short_summary_and_the_full_rules_are_the_rules_file() -> None:
    from tablepress.games.by_this import PACKAGE

    help_text = GAME.rules_text()
    assert help_text.startswith(GAME.summary) and "thing NAME" in help_text and len(help_text.splitlines()) <= 3
    rules = PACKAGE.rules()
    assert rules == PACKAGE.file("rules.md").read_text(encoding="utf-8")
    for heading in ("## Setup", "## A turn", "## The specials", "## The end", "## Variants and options",
                    "## Writing your moves"):
        assert heading in rules
    for special in ("By This", "Dump the Shelf", "Lock the Key", "Same Number"):
        assert f"**{special}**" in rules
    assert all(name in rules for name in GAME.by_name)
