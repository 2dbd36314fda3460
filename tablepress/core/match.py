"""A match: one game being played, with the history that makes its record, and replay of records.

A record is JSON: game, players, options, seats, seed and the actions in order — enough to rebuild every
state exactly. `Match.replay` checks every action as it goes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .errors import IllegalAction, RecordError, TablepressError
from .game import Game
from .registry import get_game

RECORD_FORMAT = "tablepress-record/1"


class Match:
    """A game in progress: its state, who sits where, and every action taken so far."""

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
        self.state = game.new(players, self.seed, self.options)
        self.actions: list[tuple[int, str]] = []

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.game.is_over(self.state)

    def to_move(self) -> tuple[int, ...]:
        """The seats that must act now."""
        return self.game.to_move(self.state)

    def act(self, seat: int, action: str) -> None:
        """Apply one action for `seat` (recorded in its canonical text), or raise IllegalAction and change nothing."""
        action = self.game.canonical(self.state, seat, action)
        self.game.apply(self.state, seat, action)
        self.actions.append((seat, action))

    def view(self, seat: int | None) -> dict[str, Any]:
        """The view of `seat` (None: a spectator)."""
        return self.game.view(self.state, seat)

    def record(self) -> dict[str, Any]:
        """The game record as JSON-ready data."""
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game.name,
            "players": self.players,
            "options": _jsonable(self.options),
            "seats": self.seats,
            "seed": self.seed,
            **({"variant": self.game.variant} if self.game.variant is not None else {}),
            "actions": [{"seat": seat, "action": action} for seat, action in self.actions],
        }
        if self.is_over:
            data["scores"] = self.game.scores(self.state)
            data["winners"] = self.game.winners(self.state)
        return data

    def save(self, path: str | Path) -> None:
        """Write the record to `path` as JSON."""
        Path(path).write_text(json.dumps(self.record(), indent=1, ensure_ascii=False) + "\n")

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> "Match":
        """Rebuild a match from a record, checking every action; raises RecordError naming the bad step."""
        match = None
        for match in cls.replay(record):
            pass
        assert match is not None
        return match

    @classmethod
    def replay(cls, record: Mapping[str, Any]) -> Iterator["Match"]:
        """Yield the match after setup and after every action of the record, checking each one."""
        if not isinstance(record, Mapping):
            raise RecordError("a record must be a JSON object")
        for key in ("game", "players", "seed", "actions"):
            if key not in record:
                raise RecordError(f"the record has no {key!r} field")
        try:
            game = get_game(str(record["game"]))
            if record.get("variant") is not None:
                game = game.with_variant(record["variant"])
            match = cls(game, int(record["players"]), int(record["seed"]), record.get("options") or {},
                        record.get("seats"))
        except (TypeError, ValueError) as exc:
            raise RecordError(f"the record's setup is malformed: {exc}") from None
        except TablepressError as exc:
            raise RecordError(f"the record's setup is invalid: {exc}") from None
        yield match
        actions = record["actions"]
        if not isinstance(actions, list):
            raise RecordError("the record's 'actions' must be a list")
        for step, entry in enumerate(actions, start=1):
            try:
                seat, action = int(entry["seat"]), str(entry["action"])
            except (TypeError, KeyError, ValueError):
                raise RecordError(f"action {step} must be an object with 'seat' and 'action'") from None
            try:
                match.act(seat, action)
            except IllegalAction as exc:
                raise RecordError(f"action {step} ({action!r} by seat {seat}) is illegal: {exc}") from None
            yield match
        if "scores" in record and match.is_over and list(record["scores"]) != game.scores(match.state):
            raise RecordError(
                f"the replayed scores {game.scores(match.state)} differ from the recorded {record['scores']}"
            )


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file, with a clear error for a missing file or malformed JSON."""
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise RecordError(f"{path}: cannot read the record ({exc.strerror})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: line {exc.lineno}: not valid JSON ({exc.msg})") from None


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value
