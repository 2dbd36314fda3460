"""A game package: one object per game that declares its engine and every optional part.

Every surface (terminal, agents, simulator, printer, web, RL) asks a game's package for the part it
needs; nothing looks modules up by name. A part a game does not ship has a default that works:

| part | what it is | default |
|---|---|---|
| `terminal` | `TerminalView`: draws a view for the terminal, optional extra commands | the cards in their zones (a game with zones), else the view printed as data |
| `heuristics` | `Heuristics`: how agents judge a position | the score |
| `stats` | `Stats`: `figures(game, match) -> {name: value}` for `simulate`, and its optional extras (or just a `figures` function) | no card-level figures |
| `faces` | `card_faces(game) -> [CardFace]` for print and web | a plain face per card (with its declared fields, for a game with zones) |
| `components` | `components(game) -> [Component]`: boards, tracks, token sheets, scorebooks | cards only |
| `folder` files | `intro.toml` (intro), `rules.md` (the full rules), `web.js` (the web table) | made from the game's title and summary; the generic web table |
| `expectations` | `Expectations`: what the shared tests check of this game | every player count, default options |
| `actions` | `actions(game, players, options) -> core.actions.ActionSpace`: one fixed id per action (RL) | action k = the k-th legal action (not fixed) |
| `observation` | `observation(game, players, options) -> core.actions.Observation`: named planes from a view (RL) | the view hashed into a vector |
| `levels` | `Level`s (core/levels.py): the named AI levels (`level:casual`), weakest first; `levels.json` their ratings | none |

A package is registered under the `tablepress.games` entry-point group (see `registry`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .actions import ActionSpaceMaker, ObservationMaker
from .game import Game
from .levels import Level
from .narration import Narrate, plain_narrate
from .preview import Note, no_note

if TYPE_CHECKING:  # pragma: no cover - only for type checkers
    from ..agents.presets import SearchPresets
    from .match import Match

#: A judgement of a full state for one seat, in points-like units.
Evaluate = Callable[[Game, Any, int], float]
#: step_values(game, state, seat, actions) -> the `evaluate` value after each action (see Heuristics).
StepValues = Callable[[Game, Any, int, Sequence[str]], list[float]]
#: turn_goes_on(game, state, seat, action) -> whether `seat` is still to move after `action` (see Heuristics).
TurnGoesOn = Callable[[Game, Any, int, str], bool]
#: guess(game, state, seat, rng) -> the legal action a seat choosing at the same time is assumed to take.
Guess = Callable[[Game, Any, int, random.Random], str]


def random_guess(game: Game, state: Any, seat: int, rng: random.Random) -> str:
    """The default guess at another seat's simultaneous choice: one of its legal actions, uniformly."""
    return rng.choice(game.legal_actions(state, seat))


def cloning_step_values(evaluate: Evaluate) -> StepValues:
    """One-step values the slow way: clone the state, apply each action and `evaluate` the child."""

    def by_cloning(game: Game, state: Any, seat: int, actions: Sequence[str]) -> list[float]:
        values = []
        for action in actions:
            child = game.clone(state)
            game.apply_legal(child, seat, action)
            values.append(evaluate(game, child, seat))
        return values

    return by_cloning


@runtime_checkable
class TerminalView(Protocol):
    """How a game is drawn at the terminal."""

    def render(self, view: dict[str, Any], seat: int | None, names: list[str]) -> Any:
        """A rich renderable of `view` (what `seat` may know; None: a spectator)."""

    def command(self, text: str, view: dict[str, Any], console: Any) -> bool:
        """Handle an extra command typed at the prompt (e.g. `card Hydrangea`); True if it was one."""

    def legend(self, view: dict[str, Any]) -> str:
        """The notation a player reads in `help` (card codes, symbols); empty if there is none."""

    def numbered(self, view: dict[str, Any]) -> bool:
        """Whether the prompt numbers the legal moves now (False where other numbers are on screen)."""


class PlainTerminal:
    """The default terminal view: a view with zones (`core.zoned.ZonedGame`) as its cards in their zones,
    any other view's public and private parts printed as data."""

    def render(self, view: dict[str, Any], seat: int | None, names: list[str]) -> Any:
        """The cards in their zones (`core.zone_terminal`), or the view as pretty-printed data, under a title
        naming the seat."""
        from rich.panel import Panel
        from rich.pretty import Pretty

        from .zone_terminal import has_zones, render_zones

        if has_zones(view):
            return render_zones(view, seat, names)
        who = "spectator" if seat is None else names[seat]
        return Panel(Pretty(view, expand_all=True), title=f"what {who} sees")

    def command(self, text: str, view: dict[str, Any], console: Any) -> bool:
        """No extra commands."""
        return False

    def legend(self, view: dict[str, Any]) -> str:
        """No notation beyond the moves as listed."""
        return ""

    def numbered(self, view: dict[str, Any]) -> bool:
        """The moves are always numbered."""
        return True


class ModuleTerminal(PlainTerminal):
    """A terminal view from a module with `render` and, optionally, `command`, `legend` and `numbered`
    functions (each missing one behaves as in `PlainTerminal`)."""

    def __init__(self, module: Any):
        self._render = module.render
        for hook in ("command", "legend", "numbered"):
            function = getattr(module, hook, None)
            if function is not None:
                setattr(self, hook, function)

    def render(self, view: dict[str, Any], seat: int | None, names: list[str]) -> Any:
        """The module's `render`."""
        return self._render(view, seat, names)


def score_value(game: Game, state: Any, seat: int) -> float:
    """The default seat value: the seat's score now."""
    return float(game.scores(state)[seat])


@dataclass(frozen=True)
class Margin:
    """An evaluation that is `seat_value` minus the best other seat's (the value itself in solo games).

    A type of its own, so that search can tell the default `Heuristics.evaluate` from a game's own."""

    seat_value: Evaluate

    def __call__(self, game: Game, state: Any, seat: int) -> float:
        """`seat`'s value minus the best other seat's."""
        seat_value = self.seat_value
        mine = seat_value(game, state, seat)
        others = [seat_value(game, state, s) for s in range(len(game.scores(state))) if s != seat]
        return mine - max(others) if others else mine


def margin(seat_value: Evaluate) -> Evaluate:
    """An evaluation that is `seat_value` minus the best other seat's (the value itself in solo games)."""
    return Margin(seat_value)


@dataclass(frozen=True)
class Heuristics:
    """How agents judge a position.

    `seat_value` is a seat's own standing (absolute, points-like); search takes margins of it over the
    best rival at a cut-off. `evaluate` is what the greedy player maximises for the seat; by default
    the margin of `seat_value`. `search` is the game's ismcts presets (agents/presets.py: a `TreeSearch` or
    `RolloutImprovement`, a table of them by player count, or a function of players; None: the defaults).
    `step_values`, if given, is a fast path for one-step lookahead: `step_values(game, state, seat, actions)` is the `evaluate` value for `seat` of the state
    after each of `actions` (all legal for `seat` now), computed from the change each action makes
    rather than by cloning and re-scoring; `state` is not changed. It must equal evaluating each child.
    `turn_goes_on`, if given, says without applying it whether `seat` is still to move after a legal
    action (a Flowers draw: yes; a placement: no), so lookahead need not clone a child whose turn is over.
    `guess` is what a seat judging its part of a simultaneous choice assumes of the others choosing with
    it (in its own determinization, before its own choice, so every one of its actions meets the same
    guesses): by default a random legal action each.
    """

    seat_value: Evaluate = score_value
    evaluate: Evaluate | None = None
    search: SearchPresets | None = None
    step_values: StepValues | None = None
    turn_goes_on: TurnGoesOn | None = None
    guess: Guess = random_guess

    def __post_init__(self) -> None:
        if self.evaluate is None:
            object.__setattr__(self, "evaluate", margin(self.seat_value))


Figures = Callable[[Game, "Match"], Mapping[str, float]]
FaceMaker = Callable[[Game], Sequence[Any]]
ComponentMaker = Callable[[Game], Sequence[Any]]


def no_figures(game: Game, match: "Match") -> dict[str, float]:
    """The default: a game without card-level figures."""
    return {}


@dataclass(frozen=True)
class Stats:
    """What `simulate` asks of a game beyond who won, every part optional: `figures(game, match)` per finished
    game ({name: value}); `cards(game, match)` per-seat counts by measure, a verb such as `plant`
    ({measure: {card: [per seat]}}); `samples(game, match)` per-game value lists (every close's length);
    `left_out(game, players, options)` what the game leaves out of play (Pressed's flowers not in the deck);
    `families` how findings read a figure family; `bots` what the agents decide and their measured strength;
    `game_findings(summary)` findings only the game's own figures show. Called, it gives `figures`."""

    figures: Figures = no_figures
    cards: Callable[[Game, "Match"], Mapping[str, Mapping[str, Sequence[float]]]] | None = None
    samples: Callable[[Game, "Match"], Mapping[str, Sequence[float]]] | None = None
    left_out: Callable[[Game, int, Any], Sequence[str]] | None = None
    families: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    bots: Mapping[str, Any] = field(default_factory=dict)
    game_findings: Callable[[dict[str, Any]], list[dict[str, Any]]] | None = None

    def __call__(self, game: Game, match: "Match") -> Mapping[str, float]:
        """The figures of one finished game."""
        return self.figures(game, match)


@dataclass(frozen=True)
class Check:
    """One forward-model check the shared tests run: a player count, options and how many playouts."""

    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    playouts: int = 200
    deep_playouts: int = 8


@dataclass(frozen=True)
class Expectations:
    """What the shared tests check of a game, kept with the game.

    `checks`: the checker runs (default: every player count, default options). `fingerprint`: the hash
    of seeded random playouts (`tablepress.core.fingerprint`); a deliberate rule or card-data change
    alters it, and the game's author records the new one. `printed_cards`: how many cards the
    print-and-play deck holds, as the rulebook counts them (the print tests compare the sheets with it).
    """

    checks: tuple[Check, ...] = ()
    fingerprint: str | None = None
    printed_cards: int | None = None


@dataclass(frozen=True)
class GamePackage:
    """Everything about one game: its engine and its optional parts (see the module docstring)."""

    game: Game
    folder: Path
    terminal: TerminalView = field(default_factory=PlainTerminal)
    heuristics: Heuristics = field(default_factory=Heuristics)
    stats: Stats = field(default_factory=Stats)
    faces: FaceMaker | None = None
    components: ComponentMaker | None = None
    expectations: Expectations = field(default_factory=Expectations)
    #: The fixed action space for learning agents (None: `tablepress.rl` uses the legal-index space).
    actions: ActionSpaceMaker | None = None
    #: The observation planes for learning agents (None: `tablepress.rl` hashes the view).
    observation: ObservationMaker | None = None
    #: Narrates a move for the log from views only (core/narration.py); default: the action as written.
    narrate: Narrate = plain_narrate
    #: A note on what each legal action would do (core/preview.py); default: points only.
    note: Note = no_note
    #: The AI levels a player picks from, weakest first (core/levels.py); default: none.
    levels: tuple[Level, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "stats", as_stats(self.stats))  # a plain figures function is taken too

    @property
    def name(self) -> str:
        """The game's name on every surface (`flowers`, `by-this`)."""
        return self.game.name

    def file(self, name: str) -> Path | None:
        """A file of the game's folder (`intro.toml`, `rules.md`, `web.js`), or None if it has none."""
        path = self.folder / name
        return path if path.is_file() else None

    def rules(self) -> str:
        """The full rules a player needs (`rules.md` in the folder), or the game's summary."""
        path = self.file("rules.md")
        return path.read_text(encoding="utf-8") if path else self.game.rules_text()

    def checks(self) -> tuple[Check, ...]:
        """The forward-model checks to run: the expectations' own, or every player count."""
        if self.expectations.checks:
            return self.expectations.checks
        game = self.game
        return tuple(Check(players) for players in range(game.min_players, game.max_players + 1))


def as_stats(stats: Stats | Figures | None) -> Stats:
    """A `stats` part as given (a `Stats`, a figures function, or nothing) as a `Stats`."""
    if stats is None:
        return Stats()
    return stats if isinstance(stats, Stats) else Stats(figures=stats)


def package(game: Game, module_file: str, *, terminal: Any = None, heuristics: Heuristics | None = None,
            stats: Stats | Figures | None = None, faces: FaceMaker | None = None,
            components: ComponentMaker | None = None, actions: ActionSpaceMaker | None = None,
            observation: ObservationMaker | None = None,
            expectations: Expectations | None = None, narrate: Narrate | None = None,
            note: Note | None = None, levels: Sequence[Level] = ()) -> GamePackage:
    """A game's package from its `__init__.py` (`module_file` is that file's `__file__`).

    `terminal` may be a `TerminalView` or a module with `render` (and `command`, `legend`, `numbered`);
    `stats` a `Stats` or just its `figures` function.
    """
    view: TerminalView
    if terminal is None:
        view = PlainTerminal()
    elif isinstance(terminal, ModuleType):
        view = ModuleTerminal(terminal)
    else:
        view = terminal
    return GamePackage(
        game=game, folder=Path(module_file).resolve().parent, terminal=view,
        heuristics=heuristics or Heuristics(), stats=as_stats(stats), faces=faces, components=components,
        expectations=expectations or Expectations(), actions=actions, observation=observation,
        narrate=narrate or plain_narrate, note=note or no_note, levels=tuple(levels),
    )
