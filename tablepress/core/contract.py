"""The shared contract checks of a game package: what `tablepress check GAME` and a game's own tests run.

For a `GamePackage` (installed or not), `contract_checks` lists, in order:

- `checker Np`: the forward-model checker (`core.checker.check_game`) at each check its package declares;
- `fingerprint`: the recorded `Expectations.fingerprint` equals a fresh `core.fingerprint.fingerprint`;
- `asking order Np`: seats choosing at the same time decide the same asked first or last
  (`agents.simultaneous.check_asking_order`) at each declared check;
- `terminal`: the terminal view renders every seat's and a spectator's view at the start, middle and end of
  a random game, and its legend and numbering answer;
- `faces`: the card faces (the package's, or the plain default) are cards with unique keys that draw as SVG;
- `components` (when declared): they produce at least one printable part that draws as SVG;
- `intro`: `intro.toml`, if the folder has one, parses with its required sections and names only real cards;
- `rules`: the rules text is not empty, and `rules.md`, if there is one, is UTF-8 Markdown with a heading.

Each check's `run()` returns a short note, or raises `ContractFailure` with one line saying what is wrong.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .game import Game
from .match import Match
from .package import Check, GamePackage

#: How the asking-order check samples: simultaneous positions per player count.
ORDER_POSITIONS = 3
#: The seed of the random game the terminal view is drawn along.
TERMINAL_SEED = 7


class ContractFailure(Exception):
    """A contract check that does not hold; its message is one line naming what and why."""


@dataclass(frozen=True)
class ContractCheck:
    """One named check of a package: `run()` returns a note or raises ContractFailure."""

    name: str
    action: Callable[[], str]

    @property
    def id(self) -> str:
        """The name as a test id (`checker-2p`)."""
        return self.name.replace(" ", "-")

    def run(self) -> str:
        """Run the check; any error in the game's code becomes a one-line ContractFailure."""
        try:
            return self.action()
        except ContractFailure:
            raise
        except Exception as exc:  # noqa: BLE001 - a game's own error is reported, not a traceback
            raise ContractFailure(one_line(f"{type(exc).__name__}: {exc}")) from None


@dataclass(frozen=True)
class Outcome:
    """What one check gave: its name, and its note (passed) or failure line."""

    name: str
    passed: bool
    text: str


def one_line(text: str) -> str:
    """`text` with every run of whitespace (newlines included) made one space."""
    return " ".join(str(text).split())


def contract_checks(package: GamePackage) -> list[ContractCheck]:
    """Every contract check of `package`, in the order `tablepress check` runs them."""
    checks = package.checks()
    return [
        *(ContractCheck(f"checker {_label(check)}", _bind(_checker, package, check)) for check in checks),
        ContractCheck("fingerprint", lambda: _fingerprint(package)),
        *(ContractCheck(f"asking order {_label(check)}", _bind(_asking_order, package, check)) for check in checks),
        ContractCheck("terminal", lambda: _terminal(package)),
        ContractCheck("faces", lambda: _faces(package)),
        *([ContractCheck("components", lambda: _components(package))] if package.components is not None else []),
        ContractCheck("intro", lambda: _intro(package)),
        ContractCheck("rules", lambda: _rules(package)),
    ]


def run_contract(package: GamePackage, started: Callable[[int, int, str], None] | None = None) -> list[Outcome]:
    """Run every contract check of `package`; `started(index, total, name)` is called before each one."""
    checks = contract_checks(package)
    outcomes = []
    for index, check in enumerate(checks, 1):
        if started is not None:
            started(index, len(checks), check.name)
        try:
            outcomes.append(Outcome(check.name, True, check.run()))
        except ContractFailure as exc:
            outcomes.append(Outcome(check.name, False, str(exc)))
    return outcomes


def _label(check: Check) -> str:
    options = ",".join(f"{key}={value}" for key, value in sorted(check.options.items()))
    return f"{check.players}p" + (f" {options}" if options else "")


def _bind(function: Callable[[GamePackage, Check], str], package: GamePackage, check: Check) -> Callable[[], str]:
    return lambda: function(package, check)


def _checker(package: GamePackage, check: Check) -> str:
    from .checker import CheckFailure, check_game

    try:
        report = check_game(package.game, check.players, check.options, playouts=check.playouts,
                            deep_playouts=check.deep_playouts)
    except CheckFailure as exc:
        raise ContractFailure(one_line(exc)) from None
    return f"{report.playouts} playouts, {report.leak_checks} leak checks, {report.refusals} refusals"


def _fingerprint(package: GamePackage) -> str:
    from .fingerprint import fingerprint

    recorded, now = package.expectations.fingerprint, fingerprint(package.game)
    record = f'record it in the package: expectations=Expectations(fingerprint="{now}")'
    if recorded is None:
        raise ContractFailure(f"no fingerprint recorded; the game's is {now}: {record}")
    if recorded != now:
        raise ContractFailure(f"recorded fingerprint {recorded} but the game's is {now}: seeded playouts changed; "
                              f"if the rules or cards changed on purpose, {record}")
    return now


def _asking_order(package: GamePackage, check: Check) -> str:
    from ..agents.simultaneous import check_asking_order

    report = check_asking_order(package.game, check.players, check.options, positions=ORDER_POSITIONS)
    if report.differences:
        more = len(report.differences) - 1
        raise ContractFailure(one_line(report.differences[0]) + (f" (and {more} more)" if more else ""))
    if not report.positions:
        return "no simultaneous choices"
    return f"{report.positions} positions, {report.decisions} decisions"


def _terminal(package: GamePackage) -> str:
    from rich.console import Console

    game, view = package.game, package.terminal
    players = game.default_players
    names = [f"Player {seat + 1}" for seat in range(players)]
    console = Console(file=io.StringIO(), width=100, color_system=None)
    drawn = 0
    for moment, match in _moments(game, players):
        for seat in [*range(players), None]:
            shown = match.view(seat)
            try:
                console.print(view.render(shown, seat, names))
                view.legend(shown)
                view.numbered(shown)
            except Exception as exc:  # noqa: BLE001 - named with where it happened
                who = "a spectator" if seat is None else f"seat {seat}"
                raise ContractFailure(one_line(f"drawing {who}'s view at the {moment} of a {players}-player game: "
                                               f"{type(exc).__name__}: {exc}")) from None
            drawn += 1
    if not console.file.getvalue().strip():
        raise ContractFailure("the terminal view draws nothing")
    return f"{drawn} views drawn"


def _moments(game: Game, players: int) -> Iterator[tuple[str, Match]]:
    """A random game at its start, halfway and at its end (the same Match, played on between them)."""
    from .match import random_playout

    rng = random.Random(TERMINAL_SEED)
    match = Match(game, players, TERMINAL_SEED)
    yield "start", match
    whole = Match(game, players, TERMINAL_SEED)
    random_playout(whole, random.Random(TERMINAL_SEED))
    length = len(whole.actions)
    for _ in range(length // 2):
        if game.is_over(match.state):
            break
        seat = match.to_move()[0]
        match.act(seat, rng.choice(match.legal(seat)))
    yield "middle", match
    random_playout(match, rng)
    yield "end", match


def _faces(package: GamePackage) -> str:
    from ..faces.model import CardFace
    from ..faces.plain import plain_faces
    from ..faces.svg import face_svg

    maker = package.faces or plain_faces
    faces = list(maker(package.game))
    if not faces:
        raise ContractFailure("the faces maker gives no cards")
    wrong = [face for face in faces if not isinstance(face, CardFace)]
    if wrong:
        raise ContractFailure(f"the faces maker gives {type(wrong[0]).__name__}, not CardFace")
    keys = [face.key for face in faces]
    twice = sorted({key for key in keys if keys.count(key) > 1})
    if twice:
        raise ContractFailure(f"card key {twice[0]!r} names more than one face")
    for face in faces:
        if face.copies < 0:
            raise ContractFailure(f"card {face.key!r} has {face.copies} copies")
        _draws(face_svg, face.front, f"the front of {face.key!r}")
        _draws(face_svg, face.back, f"the back of {face.key!r}")
    return f"{len(faces)} cards, {sum(face.copies for face in faces)} printed"


def _components(package: GamePackage) -> str:
    from ..faces.model import Component
    from ..faces.svg import face_svg

    parts = list(package.components(package.game)) if package.components else []
    if not parts:
        raise ContractFailure("components are declared but the maker gives none")
    for part in parts:
        if not isinstance(part, Component):
            raise ContractFailure(f"the components maker gives {type(part).__name__}, not Component")
        _draws(face_svg, part.face, f"component {part.key!r}")
    return f"{len(parts)} components"


def _draws(face_svg: Callable[..., str], face: Any, what: str) -> None:
    try:
        svg = face_svg(face)
    except Exception as exc:  # noqa: BLE001 - named with the card
        raise ContractFailure(one_line(f"{what} does not draw: {type(exc).__name__}: {exc}")) from None
    if "<svg" not in svg:
        raise ContractFailure(f"{what} does not draw as SVG")


def _intro(package: GamePackage) -> str:
    from ..core.errors import TablepressError
    from ..core.names import fold
    from ..printing.intro import read_intro

    path = package.file("intro.toml")
    if path is None:
        return "none: the intro is made from the rules"
    try:
        intro = read_intro(path)
    except TablepressError as exc:
        raise ContractFailure(one_line(exc)) from None
    rows = [key for section in intro.sections for row in section.cards for key in row if key != "."]
    if rows:
        from ..faces.plain import plain_faces

        faces = list((package.faces or plain_faces)(package.game))
        known = {fold(face.key) for face in faces} | {fold(face.name) for face in faces}
        unknown = [key for key in rows if fold(key) not in known]
        if unknown:
            raise ContractFailure(f"{path.name} shows card {unknown[0]!r}, which no card face has")
    return f"{len(intro.sections)} sections"


def _rules(package: GamePackage) -> str:
    from markdown_it import MarkdownIt

    path = package.file("rules.md")
    if path is None:
        if not package.game.rules_text().strip():
            raise ContractFailure("the game has no rules.md and its summary is empty")
        return "none: the rules are the game's summary"
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ContractFailure(f"{path.name} is not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    if not text.strip():
        raise ContractFailure(f"{path.name} is empty")
    headings = [token for token in MarkdownIt("commonmark").enable("table").parse(text) if token.type == "heading_open"]
    if not headings:
        raise ContractFailure(f"{path.name} has no heading (the rules page's contents are made from them)")
    return f"{len(headings)} headings"


def failures(outcomes: Sequence[Outcome]) -> list[Outcome]:
    """The outcomes that failed."""
    return [outcome for outcome in outcomes if not outcome.passed]
