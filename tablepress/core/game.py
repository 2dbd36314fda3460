"""The game protocol: what every game implements and everything else (agents, simulator, web, printer) uses.

A game is a stateless object with methods over a plain-data state. Nothing leaves the engine except
through `view(state, seat)`; search players reach hidden information only through `determinize`. A game
that declares its cards and zones (`core.zones`) subclasses `core.zoned.ZonedGame`, which derives `view`,
`determinize`, `hidden_zones` and `card_counts` from them.

Simultaneous choices are part of the protocol: `to_move` may name several seats at once. Each of them
applies its action in any order; the game keeps each choice hidden (out of every other seat's view)
until all have chosen, then resolves them together.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from . import plain
from .errors import IllegalAction, OptionError, TablepressError

State = TypeVar("State")

TRUE_WORDS = {"1", "true", "yes", "on", "y"}
FALSE_WORDS = {"0", "false", "no", "off", "n"}


@dataclass(frozen=True)
class Option:
    """A game option (`--option NAME=VALUE`): its kind, default and meaning.

    kind is one of "bool", "int", "choice" (one of `choices`) or "set" (a comma-separated subset of
    `choices` with exactly `size` members, when size is given).
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    size: int | None = None

    def parse(self, value: Any) -> Any:
        """Convert a value (a string from the command line, or JSON) to this option's type, or raise OptionError."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            word = str(value).strip().lower()
            if word in TRUE_WORDS:
                return True
            if word in FALSE_WORDS:
                return False
            raise OptionError(f"option {self.name} takes true or false, not {value!r}")
        if self.kind == "int":
            try:
                return int(value)
            except (TypeError, ValueError):
                raise OptionError(f"option {self.name} takes a whole number, not {value!r}") from None
        if self.kind == "choice":
            match = _match_choice(self, value)
            return match
        if self.kind == "set":
            items = value if isinstance(value, (list, tuple)) else str(value).split(",")
            chosen = tuple(sorted({_match_choice(self, item) for item in items if str(item).strip()}))
            if self.size is not None and len(chosen) != self.size:
                raise OptionError(
                    f"option {self.name} takes exactly {self.size} different names from "
                    f"{', '.join(self.choices)}; got {len(chosen)}"
                )
            return chosen
        raise OptionError(f"option {self.name} has an unknown kind {self.kind!r}")


def _match_choice(option: Option, value: Any) -> str:
    from .names import fold

    wanted = fold(str(value))
    for choice in option.choices:
        if fold(choice) == wanted:
            return choice
    raise OptionError(f"option {option.name} takes one of {', '.join(option.choices)}; not {value!r}")


class Game(ABC, Generic[State]):
    """The protocol every game implements. Subclasses set the class attributes and the abstract methods."""

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 4
    options: tuple[Option, ...] = ()
    #: One paragraph a player reads first: the game's thesis and goal.
    summary: str = ""

    # ----- setup -----------------------------------------------------------------------------
    def normalise_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill in defaults and convert values; an unknown option or bad value raises OptionError."""
        known = {opt.name: opt for opt in self.options}
        given = dict(options or {})
        unknown = sorted(set(given) - set(known))
        if unknown:
            names = ", ".join(known) or "none"
            raise OptionError(f"{self.name} has no option {unknown[0]!r} (its options: {names})")
        return {name: opt.parse(given[name]) if name in given else opt.default for name, opt in known.items()}

    def check_players(self, players: int) -> None:
        """Raise OptionError unless this game can be played by that many players."""
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.name} is for {self.min_players}–{self.max_players} players, not {players}"
            )

    @abstractmethod
    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game. All chance comes from `seed` through `core.rng.chance` (later draws through
        `core.rng.next_rng`): the same seed and actions always give the same game."""

    # ----- flow ------------------------------------------------------------------------------
    @abstractmethod
    def to_move(self, state: State) -> tuple[int, ...]:
        """The seats that must act now (empty when the game is over; several during a simultaneous choice)."""

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[str]:
        """Every legal action of `seat` now, in a stable order, as text (empty if the seat need not act)."""

    @abstractmethod
    def apply_legal(self, state: State, seat: int, action: str) -> None:
        """Apply an action known to be legal, in place. The fast path used by search after `legal_actions`."""

    def canonical(self, state: State, seat: int, action: str) -> str:
        """The legal action's exact text that a typed `action` means (games may accept short forms).

        Records, logs and the API always hold the canonical text. Default: spaces normalised.
        """
        return " ".join(str(action).split())

    def checked(self, state: State, seat: int, action: str, legal: list[str] | None = None) -> str:
        """The canonical text of `action` if `seat` may take it in `state`; else IllegalAction saying why.

        `legal` is `legal_actions(state, seat)` if the caller has it already. Nothing changes either way.
        """
        movers = self.to_move(state)
        if seat not in movers:  # nobody is to move once the game is over (the checker holds games to it)
            if self.is_over(state):
                raise IllegalAction("the game is over")
            raise IllegalAction(f"it is not seat {seat}'s turn (to move: {_seats(movers)})")
        if legal is None:
            legal = self.legal_actions(state, seat)
        if action in legal:  # legal actions are canonical already
            return action
        try:
            text = self.canonical(state, seat, action)
        except Exception:  # noqa: BLE001 - a hostile text must not become an engine error
            text = " ".join(str(action).split())
        if text not in legal:
            try:
                reason = self.explain_illegal(state, seat, text)
            except Exception:  # noqa: BLE001 - explaining must never fail louder than the action
                reason = f"{text!r} is not a legal action now"
            raise IllegalAction(reason)
        return text

    def apply(self, state: State, seat: int, action: str) -> None:
        """Apply a typed action in place once `checked`, or raise IllegalAction and change nothing.

        For tests and scripts; play goes through `core.match.Match`, which also keeps the log and record.
        """
        self.apply_legal(state, seat, self.checked(state, seat, action))

    def explain_illegal(self, state: State, seat: int, action: str) -> str:
        """Why `action` is not legal for `seat` now. Games override this to say more."""
        return f"{action!r} is not a legal action now"

    #: Whether every action's text may be shown to every seat. Games with secret choices say False and
    #: override `public_action`.
    public_actions: bool = False

    def public_action(self, state: State, seat: int, action: str) -> str:
        """What every other seat may see of `seat` taking `action` in `state` (before it is applied).

        Logs show it after the actor's name, so it does not name the seat.
        """
        return action if self.public_actions else "acted"

    def undoable(self, state: State, seat: int, action: str) -> bool:
        """Whether a player may take `action` back: only if it revealed nothing to anyone. Default: no."""
        return False

    # ----- information -----------------------------------------------------------------------
    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` may know, as JSON-ready data: {"public": ..., "private": ...}.

        `public` is the same for every seat at a given moment; `private` holds only what this seat
        may know. `seat=None` is a spectator: its private part is empty.
        """

    @abstractmethod
    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A full state that agrees with everything `seat` knows, with everything else resampled.

        It must depend only on what the seat knows and on `rng` (never on the hidden truth), so that
        a player searching through determinizations cannot tell two states apart that it cannot tell
        apart at the table. Future chance is resampled too.
        """

    def clone(self, state: State) -> State:
        """An independent copy of the state. Default: `core.plain.clone`, for dataclasses of plain data."""
        return plain.clone(state)

    #: Whether some seat may not know everything (hands, a face-down deck). The checker then demands
    #: that `determinize` resamples what a seat cannot know.
    hidden_information: bool = True

    def hidden_zones(self, state: State, seat: int) -> dict[str, Any]:
        """What `seat` cannot see beyond other seats' private views, by name, in its true order: face-down
        decks and piles, the chance to come (e.g. {"deck": [...], "chance": state.rng}).

        The checker demands that each of these varies across determinizations for `seat` (a deck order
        that never changes means search would know the next draw). Default: nothing.
        """
        return {}

    # ----- results ---------------------------------------------------------------------------
    @abstractmethod
    def is_over(self, state: State) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def scores(self, state: State) -> list[int]:
        """Each seat's score now (final scores once the game is over)."""

    def public_scores(self, state: State) -> list[int] | None:
        """The scores every seat may see while the game runs, or None where they would reveal hidden cards.

        Default: the `scores` entry of the spectator's public view, if the game puts one there.
        """
        public = self.view(state, None).get("public")
        scores = public.get("scores") if isinstance(public, dict) else None
        return list(scores) if isinstance(scores, list) else None

    @abstractmethod
    def winners(self, state: State) -> list[int]:
        """The winning seats after the tie-breaks (several for a shared victory); empty in solo games."""

    @abstractmethod
    def breakdown(self, state: State) -> list[dict[str, Any]]:
        """Each seat's score broken into its parts, with "total" first."""

    @abstractmethod
    def card_counts(self, state: State) -> Counter:
        """Every card in every zone (hidden ones included), for the checker's conservation test."""

    @abstractmethod
    def turn(self, state: State) -> int:
        """How many turns have been completed (a turn: one seat acts, or all seats act at once)."""

    def action_bound(self, players: int, options: Mapping[str, Any] | None = None) -> int | None:
        """An upper bound on len(legal_actions) for any seat in any state, if the game declares one.

        None (the default): tools that need a fixed-size action space (tablepress.rl) measure one.
        """
        return None

    def length_bound(self, players: int, options: Mapping[str, Any] | None = None) -> int | None:
        """An upper bound on the number of actions in a whole game, if the game declares one (None: measured)."""
        return None

    # ----- card data and variants ------------------------------------------------------------
    #: The overrides this game was made with (a variant file's contents), or None for the published cards.
    variant: dict[str, Any] | None = None

    def load_data(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The game's card data file merged with `overrides` (a variant); games with card data override this."""
        raise TablepressError(f"{self.name} has no card data to vary")

    def with_variant(self, overrides: Mapping[str, Any]) -> "Game":
        """This game with its card data changed by `overrides` (the same shape as its cards.toml).

        Needs a constructor taking the card data (`TheGame(data)`) and `load_data`; a broken variant
        raises DataError naming the field.
        """
        game = type(self)(self.load_data(overrides))  # type: ignore[call-arg]
        game.variant = dict(overrides)
        return game

    # ----- people ----------------------------------------------------------------------------
    #: Players when none are given.
    default_players: int = 2

    def score_position(self, text: str, source: str = "position") -> dict[str, Any]:
        """Score a position typed by hand (docs/reference.md, "Position files": {"game", "players": [{"name", "total", ...}]})."""
        raise TablepressError(f"{self.name} has no scoring helper")

    def rules_text(self) -> str:
        """The rules summary shown by `help` in the terminal and in the web app's rules panel."""
        return self.summary


def _seats(seats: tuple[int, ...]) -> str:
    return ", ".join(str(s) for s in seats) or "nobody"

