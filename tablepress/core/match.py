"""The one driver: a `Match` is one game being played, and every surface steps games through it.

A match owns validation (canonical text, whose turn, legality), simultaneous choices (a seat still to
choose decides from the position before anyone chose in it, whichever is asked first), the move log (each move's full text and what the other seats saw of
it), undo points, and records. The terminal, the web hub, the simulator, the ladder, the checker and
the RL adapters all call `Match.act` (an agent loop: `next_mover`, `seat_info`, `act`); none applies
actions to a game itself.

A record is JSON: game, players, options, seats, seed and the actions in order — enough to rebuild every
state exactly. `Match.replay` checks every action as it goes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import IllegalAction, RecordError, TablepressError
from .files import read_text
from .game import Game

RECORD_FORMAT = "tablepress-record/1"


@dataclass
class Move:
    """One action as it happened: who, its canonical text, what every other seat saw, and when (if known)."""

    seat: int
    action: str
    public: str
    at: float | None = None

    def seen_by(self, seat: int | None) -> str:
        """The move as `seat` may read it: its own moves in full, everyone else's as they were shown."""
        return self.action if seat == self.seat else self.public


class SeatInfo:
    """Everything one seat may use to decide: its view, its legal actions and determinizations, and the
    moves it has seen.

    The true state stays private to this object; an agent never touches it. `determinize` gives full
    states that agree with what the seat knows, for search; `history` the earlier moves as the seat saw
    them, each with the seat's information just before it (when the seat decides inside a `Match`).
    """

    __slots__ = ("game", "seat", "_state", "_legal", "_match", "_seen")

    def __init__(self, game: Game, state: Any, seat: int, legal: list[str] | None = None,
                 match: "Match | None" = None, seen: int | None = None):
        self.game = game
        self.seat = seat
        self._state = state
        self._legal = legal
        self._match = match
        self._seen = seen

    def view(self) -> dict[str, Any]:
        """The seat's view: {"public": ..., "private": ...}."""
        return self.game.view(self._state, self.seat)

    def legal_actions(self) -> list[str]:
        """The seat's legal actions now."""
        if self._legal is None:
            self._legal = self.game.legal_actions(self._state, self.seat)
        return self._legal

    def determinize(self, rng: random.Random) -> Any:
        """A full state consistent with this seat's knowledge; hidden information resampled from `rng`."""
        return self.game.determinize(self._state, self.seat, rng)

    def history(self, last: int) -> list["PastMove"]:
        """Up to the `last` most recent moves, oldest first, each as this seat saw it with this seat's
        information just before it; none outside a match, or when the match's moves do not rebuild its state."""
        match = self._match
        if match is None or last < 1:
            return []
        seen = len(match.moves) if self._seen is None else self._seen
        past = []
        start = max(0, seen - last)
        for move, before in match.states_before(start)[:seen - start]:
            past.append(PastMove(move.seat, move.seen_by(self.seat), SeatInfo(self.game, before, self.seat)))
        return past


@dataclass(frozen=True)
class PastMove:
    """An earlier move as one seat saw it: who moved, the move (in full only if it was the seat's own, else
    what was shown), and that seat's information just before it."""

    seat: int
    action: str
    before: SeatInfo


@dataclass(frozen=True)
class Proposal:
    """An action worked out but not yet taken (`Match.propose`): the move, the state after it, the
    simultaneous choice it is made in, and the number of moves it follows."""

    move: Move
    state: Any
    step: "SimultaneousStep | None"
    index: int


@dataclass(frozen=True)
class SimultaneousStep:
    """A simultaneous choice under way: the state before anyone chose in it, the number of moves then,
    the seats that were to choose, and those who have chosen since."""

    start: Any
    moves: int
    movers: frozenset[int]
    chosen: frozenset[int] = frozenset()


@dataclass(frozen=True)
class UndoPoint:
    """What a match looked like before a move, to go back to."""

    moves: int
    state: Any


class Match:
    """A game in progress: its state, who sits where, and every move taken so far."""

    def __init__(
        self,
        game: Game,
        players: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
        seats: list[str] | None = None,
    ):
        game.check_players(players)
        self.game = game
        self.players = players
        self.seed = int(seed)
        self.options = game.normalise_options(options)
        self.seats = list(seats) if seats else ["human"] * players
        self._legal: dict[int, list[str]] = {}
        self._state = game.new(players, self.seed, self.options)
        self.moves: list[Move] = []
        self._step: SimultaneousStep | None = None

    @property
    def state(self) -> Any:
        """The engine state now (only `view` may show it to anyone)."""
        return self._state

    @state.setter
    def state(self, state: Any) -> None:
        self._state = state
        self._legal = {}
        self._step = None

    # ----- reading ---------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.game.is_over(self.state)

    @property
    def actions(self) -> list[tuple[int, str]]:
        """Every (seat, action) so far, in order."""
        return [(move.seat, move.action) for move in self.moves]

    def to_move(self) -> tuple[int, ...]:
        """The seats that must act now."""
        return self.game.to_move(self.state)

    @property
    def simultaneous(self) -> SimultaneousStep | None:
        """The simultaneous choice under way once one of its seats has chosen, or None."""
        return self._step

    def next_mover(self) -> int:
        """The seat an agent loop asks next: the lowest-numbered seat still to move.

        During a simultaneous choice every mover decides from the position as it was before anyone
        chose in it (`seat_info`), so the order of asking changes nothing any of them knows.
        """
        movers = self.to_move()
        if not movers:
            raise IllegalAction("the game is over")
        return min(movers)

    def legal(self, seat: int) -> list[str]:
        """`seat`'s legal actions now (computed once per position)."""
        legal = self._legal.get(seat)
        if legal is None:
            legal = self.game.legal_actions(self.state, seat)
            self._legal[seat] = legal
        return legal

    def seat_info(self, seat: int) -> SeatInfo:
        """What `seat` may use to decide now (its view, legal actions, determinizations, the moves it saw).

        During a simultaneous choice a seat that has not chosen yet decides from the position as it was
        before anyone chose in it: the choices others made meanwhile (and anything the game shows of
        them, such as a card's back or a smaller hand) are not part of its information, whichever order
        the seats are asked in.
        """
        step = self._step
        if step is not None and seat in step.movers and seat not in step.chosen:
            return SeatInfo(self.game, step.start, seat, None, self, step.moves)
        return SeatInfo(self.game, self.state, seat, self.legal(seat), self)

    def states_before(self, start: int) -> list[tuple[Move, Any]]:
        """Each move from number `start` on with a copy of the state just before it, rebuilt from the seed;
        none if the moves do not rebuild the state the match holds (it was set some other way)."""
        game = self.game
        state = game.new(self.players, self.seed, self.options)
        found = []
        for index, move in enumerate(self.moves):
            if index >= start:
                found.append((move, game.clone(state)))
            game.apply_legal(state, move.seat, move.action)
        return found if state == self.state else []

    def view(self, seat: int | None) -> dict[str, Any]:
        """The view of `seat` (None: a spectator)."""
        return self.game.view(self.state, seat)

    # ----- acting ----------------------------------------------------------------------------
    def check(self, seat: int, action: str) -> str:
        """The canonical text of `action` if `seat` may take it now; else IllegalAction saying why."""
        return self.game.checked(self.state, seat, action, self.legal(seat))

    def act(self, seat: int, action: str, *, at: float | None = None,
            commit: Callable[[Move, Any], None] | None = None) -> Move:
        """Take one action for `seat`, or raise IllegalAction and change nothing.

        The move is logged in its canonical text with what the other seats see of it. With `commit`,
        the action is applied to a copy and `commit(move, new_state)` runs before the match adopts it
        (e.g. to store it first): if `commit` raises, the match is unchanged.
        """
        if commit is not None:
            proposal = self.propose(seat, action, at=at)
            commit(proposal.move, proposal.state)
            return self.adopt(proposal)
        text = self.check(seat, action)
        game = self.game
        move = Move(seat, text, game.public_action(self.state, seat, text), at)
        step = self._step_before(seat)
        game.apply_legal(self.state, seat, text)
        self.moves.append(move)
        self._legal = {}
        self._step = self._step_after(step, seat)
        return move

    def propose(self, seat: int, action: str, *, at: float | None = None) -> Proposal:
        """One action for `seat` worked out on a copy of the state, the match unchanged (IllegalAction if it
        may not be taken): `adopt` takes it, e.g. once it is stored."""
        text = self.check(seat, action)
        game = self.game
        move = Move(seat, text, game.public_action(self.state, seat, text), at)
        state = game.clone(self.state)
        game.apply_legal(state, seat, text)
        return Proposal(move, state, self._step_before(seat), len(self.moves))

    def adopt(self, proposal: Proposal) -> Move:
        """Take a proposed action; RuntimeError, changing nothing, if the match moved on since it was proposed."""
        if proposal.index != len(self.moves):
            raise RuntimeError(f"the proposal was made at move {proposal.index}; the match is at {len(self.moves)}")
        self._state = proposal.state
        self.moves.append(proposal.move)
        self._legal = {}
        self._step = self._step_after(proposal.step, proposal.move.seat)
        return proposal.move

    def _step_before(self, seat: int) -> SimultaneousStep | None:
        """The simultaneous choice `seat` is about to act in (begun now if several seats are to move), or None."""
        if self._step is not None:
            return self._step
        movers = self.to_move()
        if len(movers) < 2:
            return None
        return SimultaneousStep(self.game.clone(self.state), len(self.moves), frozenset(movers))

    def _step_after(self, step: SimultaneousStep | None, seat: int) -> SimultaneousStep | None:
        """The simultaneous choice still under way after `seat` acted in `step`, or None once it is resolved.

        It goes on while only seats of the step are to move and at least one of them has not chosen.
        """
        if step is None:
            return None
        chosen = step.chosen | {seat}
        movers = set(self.to_move())
        if not movers or not movers <= step.movers or movers <= chosen:
            return None
        return SimultaneousStep(step.start, step.moves, step.movers, chosen)

    def fork(self) -> "Match":
        """A second match at this point, with its own log, sharing the current state object.

        Safe when both act only through `act(..., commit=...)`, which replaces the state rather than
        changing it in place (as the web hub and the OpenSpiel adapter do).
        """
        twin = object.__new__(Match)
        twin.__dict__.update(self.__dict__)
        twin.moves = list(self.moves)
        twin._legal = dict(self._legal)
        return twin

    # ----- undo ------------------------------------------------------------------------------
    def undo_point(self) -> UndoPoint:
        """Where the match is now, to come back to with `undo`."""
        return UndoPoint(len(self.moves), self.game.clone(self.state))

    def undo(self, point: UndoPoint) -> None:
        """Go back to `point`: its state, and the moves before it (a simultaneous choice under way there
        is found again from the moves)."""
        self.state = point.state
        del self.moves[point.moves:]
        self._step = self._step_from_moves()

    def _step_from_moves(self) -> SimultaneousStep | None:
        """The simultaneous choice under way after the logged moves, rebuilt from the seed (None if the
        moves do not rebuild the state held)."""
        game = self.game
        state = game.new(self.players, self.seed, self.options)
        replay = object.__new__(Match)
        replay.__dict__.update(self.__dict__)
        replay._state, replay.moves, replay._legal, replay._step = state, [], {}, None
        for move in self.moves:
            step = replay._step_before(move.seat)
            game.apply_legal(replay._state, move.seat, move.action)
            replay.moves.append(move)
            replay._step = replay._step_after(step, move.seat)
        return replay._step if replay._state == self._state else None

    # ----- records ---------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The game record as JSON-ready data."""
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game.name,
            "players": self.players,
            "options": jsonable(self.options),
            "seats": self.seats,
            "seed": self.seed,
            **({"variant": self.game.variant} if self.game.variant is not None else {}),
            "actions": [{"seat": move.seat, "action": move.action} for move in self.moves],
        }
        if self.is_over:
            data["scores"] = self.game.scores(self.state)
            data["winners"] = self.game.winners(self.state)
        return data

    def save(self, path: str | Path) -> None:
        """Write the record to `path` as JSON."""
        Path(path).write_text(json.dumps(self.record(), indent=1, ensure_ascii=False) + "\n")

    @classmethod
    def from_record(cls, record: Mapping[str, Any], game: Game) -> "Match":
        """Rebuild a match of `game` from a record, checking every action; raises RecordError naming the bad step
        (`records.from_record` finds the game the record names)."""
        match = None
        for match in cls.replay(record, game):
            pass
        assert match is not None
        return match

    @classmethod
    def replay(cls, record: Mapping[str, Any], game: Game) -> Iterator["Match"]:
        """Yield the match of `game` after setup and after every action of the record, checking each one.

        The record is checked first (`check_record`); once the actions end, the game must be over if
        the record gives final scores or winners, and they must be the replayed ones. `game` is the game
        the record is played with: the one it names (`records.replay` finds it) or one under test.
        """
        check_record(record)
        try:
            match = cls(game, record["players"], record["seed"], record.get("options") or {},
                        record.get("seats"))
        except (TypeError, ValueError) as exc:
            raise RecordError(f"the record's setup is malformed: {exc}") from None
        except TablepressError as exc:
            raise RecordError(f"the record's setup is invalid: {exc}") from None
        yield match
        for step, entry in enumerate(record["actions"], start=1):
            seat, action = entry["seat"], entry["action"]
            try:
                match.act(seat, action)
            except IllegalAction as exc:
                raise RecordError(f"action {step} ({_clip(action)!r} by seat {seat}) is illegal: {exc}") from None
            yield match
        _check_result(record, match)


#: The largest record file `load_record` reads (a long game's record is tens of kilobytes).
MAX_RECORD_BYTES = 16 * 1024 * 1024
#: Seeds are whole numbers of at most this many bits (sign aside).
SEED_BITS = 64


def check_record(record: Any) -> None:
    """Check a record's fields before replaying it; RecordError naming the first bad field.

    `format` (if given) is this version's; `game` is text; `players` and `seed` are whole numbers (the
    seed of at most 64 bits); `options` and `variant` are objects or absent; `seats` is absent or
    one text per player; `actions` is a list of {"seat": a seat number, "action": text}; `scores` and
    `winners` are absent or lists of whole numbers (one score per player; winners distinct seats).
    """
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    for key in ("game", "players", "seed", "actions"):
        if key not in record:
            raise RecordError(f"the record has no {key!r} field")
    if "format" in record and record["format"] != RECORD_FORMAT:
        raise RecordError(f"the record's format is {_clip(record['format'])!r}; this tablepress reads {RECORD_FORMAT!r}")
    if not isinstance(record["game"], str):
        raise RecordError("the record's 'game' must be a game's name")
    players, seed = record["players"], record["seed"]
    if not _whole(players):
        raise RecordError(f"the record's 'players' must be a whole number, not {_clip(players)}")
    if not _whole(seed) or abs(seed).bit_length() > SEED_BITS:
        raise RecordError(f"the record's 'seed' must be a whole number of at most {SEED_BITS} bits")
    for key in ("options", "variant"):
        if record.get(key) is not None and not isinstance(record[key], Mapping):
            raise RecordError(f"the record's {key!r} must be an object")
    seats = record.get("seats")
    if seats is not None and (not isinstance(seats, list) or len(seats) != players
                              or not all(isinstance(seat, str) for seat in seats)):
        raise RecordError(f"the record's 'seats' must be a list of {players} seat names")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError("the record's 'actions' must be a list")
    for step, entry in enumerate(actions, start=1):
        if (not isinstance(entry, Mapping) or not _whole(entry.get("seat"))
                or not isinstance(entry.get("action"), str)):
            raise RecordError(f"action {step} must be an object with a 'seat' number and an 'action' text")
    scores = record.get("scores")
    if "scores" in record and (not isinstance(scores, list) or len(scores) != players
                               or not all(_whole(score) for score in scores)):
        raise RecordError(f"the record's 'scores' must be a list of {players} whole numbers")
    winners = record.get("winners")
    if "winners" in record and (not isinstance(winners, list) or not all(_whole(w) and 0 <= w < players for w in winners)
                                or len(set(winners)) != len(winners)):
        raise RecordError(f"the record's 'winners' must be a list of different seats from 0 to {players - 1}")


def _check_result(record: Mapping[str, Any], match: Match) -> None:
    """The recorded scores and winners, if any, are those of the replayed game, which must be over."""
    given = [key for key in ("scores", "winners") if key in record]
    if not given:
        return
    if not match.is_over:
        raise RecordError(f"the record gives {' and '.join(given)} but its actions end before the game does")
    scores, winners = match.game.scores(match.state), match.game.winners(match.state)
    if "scores" in record and record["scores"] != scores:
        raise RecordError(f"the replayed scores {scores} differ from the recorded {record['scores']}")
    if "winners" in record and sorted(record["winners"]) != sorted(winners):
        raise RecordError(f"the replayed winners {winners} differ from the recorded {record['winners']}")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _clip(value: Any, length: int = 60) -> str:
    """`value` as short text for a message: one line, at most `length` characters."""
    text = " ".join(str(value).split()) if isinstance(value, str) else repr(value)
    return text if len(text) <= length else text[: length - 1] + "…"


def random_playout(match: Match, rng: random.Random,
                   before: Callable[[Match, int, list[str]], None] | None = None) -> None:
    """Play `match` to the end with a uniformly random mover and action at every step, drawn from `rng`
    (mover first, then action: the same seed always gives the same game). `before(match, seat, legal)`
    is called before each action, e.g. to measure the position."""
    while not match.is_over:
        seat = rng.choice(match.to_move())
        legal = match.legal(seat)
        if before is not None:
            before(match, seat, legal)
        match.act(seat, rng.choice(legal))


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file: UTF-8 JSON of at most MAX_RECORD_BYTES; RecordError naming the file otherwise."""
    text = read_text(path, MAX_RECORD_BYTES, "record", RecordError, "JSON")
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_json_int)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: line {exc.lineno}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise RecordError(f"{path}: not a record (its JSON is nested too deeply)") from None
    except ValueError as exc:
        raise RecordError(f"{path}: not valid JSON ({exc})") from None


#: Digits a JSON whole number in a record may have (a 64-bit seed has 20).
MAX_INT_DIGITS = 40


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"a number of {len(text.lstrip('-'))} digits; a record's numbers have at most {MAX_INT_DIGITS}")
    return int(text)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def jsonable(value: Any) -> Any:
    """`value` with tuples as lists and mapping keys as text, as JSON will hold it."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value
