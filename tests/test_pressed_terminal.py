"""Pressed at the terminal: hot-seat play to the end, the pass-to screen, `card NAME`, render from views."""

from __future__ import annotations

import io

from rich.console import Console

from tablepress.core.match import Match
from tablepress.games.pressed import GAME
from tablepress.games.pressed import terminal as pressed_terminal
from tablepress.terminal import play_in_terminal


def test_hot_seat_game_shows_each_hand_only_to_its_owner() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, width=140, color_system=None)
    match = Match(GAME, 2, 21, {}, ["human", "human"])
    codes = GAME.cards.codes
    seen: dict[str, int] = {"pass": 0, "prompts": 0}
    marks = {"start": 0}
    script = iter(["card Hydrangea", "cards", "help"])

    def read(prompt: str) -> str:
        shown = buffer.getvalue()[marks["start"]:]
        marks["start"] = len(buffer.getvalue())
        if prompt.startswith("Pass to"):
            seen["pass"] += 1
            return ""
        seat = int(prompt[1]) - 1
        seen["prompts"] += 1
        state = match.state
        if state.hands[seat] and "Your hand:" in shown:
            hand_line = [line for line in shown.splitlines() if "Your hand:" in line][-1]
            shown_codes = hand_line.split("Your hand:")[1].replace("│", " ").split()
            assert shown_codes == [codes[c] for c in state.hands[seat]]  # exactly this seat's hand
        return next(script, "1")

    play_in_terminal(match, console, read=read)
    out = buffer.getvalue()
    assert match.is_over
    assert seen["pass"] > 10 and seen["prompts"] > 20
    assert "Hydrangea" in out and "Final scoring" in out and "Flower Bed" in out
    assert "Commands:" in out


def test_card_command_and_render_from_a_view() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, width=140, color_system=None)
    state = GAME.new(3, 2)
    view = GAME.view(state, 0)
    assert pressed_terminal.command("card lilies", view, console)
    assert "Daisy" in buffer.getvalue() and "21" in buffer.getvalue()
    assert pressed_terminal.command("card rose", view, console)
    assert "No flower 'rose'" in buffer.getvalue()
    assert not pressed_terminal.command("plant HY 2", view, console)
    console.print(pressed_terminal.render(view, 0, ["Ana", "Bo", "Cy"]))
    text = buffer.getvalue()
    assert "Your hand:" in text and "round 1/3" in text
    spectator = io.StringIO()
    Console(file=spectator, width=140, color_system=None).print(
        pressed_terminal.render(GAME.view(state, None), None, ["Ana", "Bo", "Cy"]))
    assert "Your hand" not in spectator.getvalue()
