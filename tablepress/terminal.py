"""Terminal play for any game: human seats at the keyboard (hot-seat), AI seats, undo, help, the move log.

Everything shown comes from the game's `view`; other seats' moves are shown as `public_action` gives
them. Each game draws its table through its package's `TerminalView`: `render(view, seat, names)`,
`legend(view)` (the notation, shown by `help`) and `numbered(view)` (False where the moves are listed
without numbers because the table shows numbers of its own, so a number typed means one thing).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path

from rich.columns import Columns
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from .agents.base import HUMAN, make_agent
from .core.errors import IllegalAction, TablepressError
from .core.game import Game
from .core.match import Match, UndoPoint
from .core.narration import Narration, sentence
from .core.preview import hints
from .core.registry import package_of
from .core.rng import derive_seed

COMMANDS = "help, rules, undo, log, quit"
#: At most this many "did you mean" suggestions for a mistyped move.
SUGGESTIONS = 3


class QuitGame(Exception):
    """The human typed quit (or input ended)."""


def match_input(text: str, legal: list[str], numbered: bool = True) -> str | None:
    """The legal action a person meant: the exact text, its number in the list (when the list is numbered),
    or the one action containing every word typed."""
    text = " ".join(text.split())
    if text in legal:
        return text
    if numbered and text.isdecimal() and 1 <= int(text) <= len(legal):
        return legal[int(text) - 1]
    words = text.lower().split()
    found = [a for a in legal if all(w in a.lower().split() for w in words)]
    return found[0] if len(found) == 1 else None


def did_you_mean(text: str, legal: list[str]) -> list[str]:
    """The legal actions closest to a mistyped one (case aside), the closest first: at most SUGGESTIONS, each
    about as close as the best; none if nothing is close."""
    typed = " ".join(text.lower().split())
    scored = sorted((-difflib.SequenceMatcher(None, typed, action.lower()).ratio(), index)
                    for index, action in enumerate(legal))
    best = -scored[0][0] if scored else 0.0
    return [legal[index] for ratio, index in scored[:SUGGESTIONS] if -ratio >= max(0.6, best - 0.1)]


class TerminalTable:
    """One game at the terminal: drives agents, prompts humans, keeps the log and the undo history."""

    def __init__(self, match: Match, console: Console, read: Callable[[str], str] = input):
        self.match = match
        self.game: Game = match.game
        self.console = console
        self.read = read
        self.renderer = package_of(self.game).terminal
        self.agents = {
            seat: make_agent(spec, derive_seed(match.seed, "agent", seat))
            for seat, spec in enumerate(match.seats)
            if spec != HUMAN
        }
        self.humans = [seat for seat, spec in enumerate(match.seats) if spec == HUMAN]
        self.names = [
            f"P{seat + 1}" + ("" if spec == HUMAN else f" ({spec})") for seat, spec in enumerate(match.seats)
        ]
        self.last_human: int | None = None
        self.narration = Narration(self.game, match.players, match.seed, match.options,
                                   package_of(self.game).narrate)

    def play(self) -> None:
        """Play to the end (or until a human quits)."""
        while not self.match.is_over:
            seat = self.match.next_mover()
            if seat in self.agents:
                self._agent_move(seat)
            else:
                self._human_turn(seat)

    def _agent_move(self, seat: int) -> None:
        self.match.act(seat, self.agents[seat].choose(self.match.seat_info(seat)))
        if self.humans:
            told = self.narration.catch_up(self.match.moves)[-1]
            for line in told.public:
                self.console.print(escape(sentence(line, self.names)), style="cyan" if line.kind == "move" else "bold")

    def _handoff(self, seat: int) -> None:
        if len(self.humans) > 1 and self.last_human not in (None, seat):
            self.console.clear()
            self.read(f"Pass to {self.names[seat]} — press Enter when only they can see the screen. ")
            self.console.clear()
        self.last_human = seat

    def _human_turn(self, seat: int) -> None:
        self._handoff(seat)
        history: list[UndoPoint] = []
        while not self.match.is_over and seat in self.match.to_move():
            legal = self.match.legal(seat)
            view = self.match.view(seat)
            numbered = self.renderer.numbered(view)
            self.console.print(self.renderer.render(view, seat, self.names))
            self._show_actions(legal, numbered, seat)
            try:
                text = self.read(f"{self.names[seat]}> ").strip()
            except EOFError:
                raise QuitGame() from None
            if not text:
                continue
            command = text.lower()
            if command in ("quit", "exit"):
                raise QuitGame()
            if command == "help":
                self.console.print(self.game.rules_text())
                legend = self.renderer.legend(view)
                if legend:
                    self.console.print(legend)
                self.console.print(f"Commands: a move as listed{', its number' if numbered else ''}, {COMMANDS}.")
                continue
            if command == "rules":
                self.console.print(Markdown(package_of(self.game).rules()))
                continue
            if command == "log":
                self._show_log(seat)
                continue
            if command == "undo":
                if not history:
                    self.console.print("[yellow]Nothing to undo: undo works within your turn and never past revealed cards.[/]")
                    continue
                self.match.undo(history.pop())
                continue
            if self.renderer.command(text, self.match.view(seat), self.console):
                continue
            action = match_input(text, legal, numbered)
            if action is None:
                try:
                    action = self.match.check(seat, text)
                except IllegalAction as exc:
                    close = did_you_mean(text, legal)
                    hint = f" Did you mean {' or '.join(repr(a) for a in close)}?" if close else ""
                    self.console.print(f"[red]Not a legal move: {text!r} — {exc}.[/]{hint} Type a move from the "
                                       f"list{', its number' if numbered else ''}, or help.", highlight=False)
                    continue
            before = self.match.undo_point()
            undoable = self.game.undoable(self.match.state, seat, action)
            self.match.act(seat, action)
            history = history + [before] if undoable else []

    def _show_actions(self, legal: list[str], numbered: bool = True, seat: int | None = None) -> None:
        found = {} if seat is None else hints(self.game, self.match.seat_info(seat), package_of(self.game).note)
        shown = [escape(action) + (f" [green]({escape(found[action].as_json()['text'])})[/]" if action in found else "")
                 for action in legal]
        if numbered:
            items = [f"[bold]{i}[/]) {text}" for i, text in enumerate(shown, start=1)]
        else:
            items = [f"· {text}" for text in shown]
        self.console.print(Columns(items, padding=(0, 2)), highlight=False)

    def _show_log(self, seat: int) -> None:
        told = self.narration.catch_up(self.match.moves)[-30:]
        for entry in told:
            for line in entry.for_reader(seat, reveal=self.match.is_over):
                self.console.print(escape(sentence(line, self.names)))

    def show_result(self) -> None:
        """The final scores, winners and each seat's breakdown."""
        self.console.print(self.renderer.render(self.match.view(None), None, self.names))
        self.console.print(result_table(self.game, self.match, self.names))


def result_table(game: Game, match: Match, names: list[str]) -> Table:
    """Final scores with every scalar part of each seat's breakdown."""
    parts = game.breakdown(match.state)
    winners = game.winners(match.state)
    keys = [k for k, v in parts[0].items() if k != "total" and isinstance(v, (int, float))]
    table = Table(title="Final scores")
    table.add_column("seat")
    for key in keys:
        table.add_column(key.replace("_", " "), justify="right")
    table.add_column("total", justify="right", style="bold")
    for seat, part in enumerate(parts):
        mark = " ★" if seat in winners else ""
        table.add_row(names[seat] + mark, *(str(part[k]) for k in keys), str(part["total"]))
    return table


def play_in_terminal(match: Match, console: Console, record: Path | None = None,
                     read: Callable[[str], str] = input) -> None:
    """Play a match at the terminal and print the result; write the record if asked (also on quit, and on
    Ctrl-C, which is then raised again)."""
    table = TerminalTable(match, console, read)
    interrupted = False
    try:
        table.play()
    except QuitGame:
        console.print("Game left unfinished.")
    except KeyboardInterrupt:
        interrupted = True
        console.print("\nGame left unfinished.")
    if record is not None:
        try:
            match.save(record)
        except OSError as exc:
            raise TablepressError(f"--record {record}: cannot write the record ({exc.strerror or exc})") from None
        console.print(f"Record written to {record}")
    if interrupted:
        raise KeyboardInterrupt
    if match.is_over:
        table.show_result()
