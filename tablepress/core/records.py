"""A record read back by the name it gives: its game found in the registry, its variant (if any) applied, then
replayed through `Match.replay`, which checks every action.

`Match` replays a record with a game it is handed; finding that game is this module's job, so the driver
never depends on the registry or on variant files.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .errors import RecordError, TablepressError
from .game import Game
from .match import Match, check_record
from .registry import get_game
from .variants import apply_variant


def game_of(record: Mapping[str, Any]) -> Game:
    """The game a record was played with: its registered game, with the record's variant applied; RecordError
    naming the fault if the record is malformed or names no game that loads."""
    check_record(record)
    try:
        game = get_game(record["game"])
        if record.get("variant") is not None:
            game = apply_variant(record["variant"], game, source="the record's variant")
    except (TypeError, ValueError) as exc:
        raise RecordError(f"the record's setup is malformed: {exc}") from None
    except TablepressError as exc:
        raise RecordError(f"the record's setup is invalid: {exc}") from None
    return game


def replay(record: Mapping[str, Any]) -> Iterator[Match]:
    """Yield the match after setup and after every action of the record, with the game it names
    (`Match.replay`)."""
    return Match.replay(record, game_of(record))


def from_record(record: Mapping[str, Any]) -> Match:
    """Rebuild a match from a record with the game it names, checking every action (`Match.from_record`)."""
    return Match.from_record(record, game_of(record))
