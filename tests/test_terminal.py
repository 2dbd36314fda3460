"""Terminal play for any game: menu numbers, typed forms through the match, games without a terminal view."""

from __future__ import annotations

import io

from rich.console import Console

from tablepress.core.match import Match
from tablepress.games.flowers.engine import FlowersGame
from tablepress.terminal import play_in_terminal


class DigitsAreDraws(FlowersGame):
    """A game whose short forms turn a bare digit into an action: `1` means `draw 3`, `3` means `draw 1`."""

    def canonical(self, state, seat, action):
        text = " ".join(str(action).split())
        return f"draw {4 - int(text)}" if text in ("1", "2", "3") else text


def _play(game, typed: list[str]) -> tuple[Match, str]:
    match = Match(game, 2, 5, seats=["human", "human"])
    lines = iter(typed)
    out = io.StringIO()
    play_in_terminal(match, Console(file=out, width=120), read=lambda prompt: next(lines))
    return match, out.getvalue()


def test_a_menu_number_is_the_listed_move_before_any_short_form() -> None:
    game = DigitsAreDraws()
    first = game.legal_actions(game.new(2, 5), 0)[0]
    match, _ = _play(game, ["1", "quit"])
    assert match.actions[0] == (0, first) == (0, "draw 1")


def test_a_typed_form_goes_through_the_match_and_is_recorded_canonically() -> None:
    match, out = _play(FlowersGame(), ["draw   2", "quit"])
    assert match.actions == [(0, "draw 2")]
    match, out = _play(FlowersGame(), ["draw 9", "quit"])
    assert match.actions == [] and "Not a legal move" in out


def test_the_rules_command_prints_the_full_rules() -> None:
    _, out = _play(FlowersGame(), ["rules", "quit"])
    assert "Butterfl" in out and "Game left unfinished." in out
