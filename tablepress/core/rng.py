"""Seeded chance. All randomness in a game comes from its seed, so the same seed and actions give the same game.

Engines get every generator for game chance from `chance(seed)`: in `new` (the setup) and, for every
later shuffle or draw, through `next_rng`. Normally that is `random.Random(seed)`. Two context managers
change what it returns, without the engines knowing:

- `scripted_chance(outcomes)`: each chance event (a `_randbelow(n)` call, which `shuffle`, `randrange`,
  `choice` and `sample` all go through) takes the next scripted outcome, and `NeedChance(n)` is raised
  when the script runs out. A shuffle of k cards is k−1 such events (Fisher–Yates: n = k, k−1, …, 2,
  exactly as `random.Random.shuffle`), each outcome equally likely; an event with one outcome takes
  none. The OpenSpiel adapter (`tablepress.rl.openspiel`) turns each event into a chance node this way.
- `record_chance()`: the generators behave exactly as `random.Random(seed)` and log every event as
  (n, outcome), so a seeded game's chance can be replayed as a script.

Engines must use only the integer methods (`shuffle`, `randrange`, `choice`, `sample`, `getrandbits` for
a successor seed) for game chance: the float methods (`random`, `uniform`, `choices`, …) are refused
under a script, because their outcomes are not finite.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


def derive_seed(*parts: object) -> int:
    """A 63-bit seed derived deterministically from any parts (run seed, game index, ...)."""
    text = "\x1f".join(repr(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def shuffle(rng: random.Random, items: list) -> None:
    """`rng.shuffle(items)`: the same order and the same generator state after, about twice as fast for a
    plain `random.Random` (its Fisher–Yates with each draw written out, where the library makes a Python call
    per card). Any other generator (scripted or recorded chance) shuffles its own way."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(items))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


class NeedChance(Exception):
    """Raised under `scripted_chance` when the script has run out: the next chance event has `n` outcomes.

    `then` gives the outcome counts of the events known to follow it whatever the outcomes (the rest of
    a shuffle: n−1, …, 2), so a caller may take that many more outcomes before running the code again.
    """

    def __init__(self, n: int, then: tuple[int, ...] = ()):
        super().__init__(f"a chance event with {n} outcomes needs an outcome (the script has run out)")
        self.n = n
        self.then = then


class ScriptedChanceError(RuntimeError):
    """A generator method with no finite outcomes (floats, bytes) was used for game chance under a script."""


class _Script:
    """The outcomes of one `scripted_chance` block and how many have been used (shared by its generators)."""

    __slots__ = ("outcomes", "used")

    def __init__(self, outcomes: list[int]):
        self.outcomes = outcomes
        self.used = 0

    def generator(self, seed: int) -> random.Random:
        return ScriptedChance(self)


class _Recording:
    """The log of one `record_chance` block."""

    __slots__ = ("draws",)

    def __init__(self, draws: list[tuple[int, int]]):
        self.draws = draws

    def generator(self, seed: int) -> random.Random:
        return RecordingChance(seed, self.draws)


_MODE: ContextVar[_Script | _Recording | None] = ContextVar("tablepress_chance_mode", default=None)


def chance(seed: int) -> random.Random:
    """The generator for game chance from `seed` (`random.Random(seed)` unless scripted or recorded)."""
    mode = _MODE.get()
    if mode is None:
        return random.Random(seed)
    return mode.generator(seed)


def next_rng(rng_state: int) -> tuple[random.Random, int]:
    """A generator for one chance event and the state to keep for the next one.

    Games keep chance as a plain integer in their state (cheap to clone and compare); each chance
    event draws a generator from it (through `chance`) and stores the successor state. Under a script
    the successor is 0: the integer means nothing there.
    """
    rng = chance(rng_state)
    return rng, rng.getrandbits(63)


class ScriptedChance(random.Random):
    """A generator whose every chance event takes the next outcome of its script, or raises NeedChance."""

    def __init__(self, script: _Script):
        super().__init__()
        self._script = script

    def seed(self, *args: object, **kwargs: object) -> None:
        """Nothing: a scripted generator has no state of its own to seed."""

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        """`random.Random.shuffle`'s Fisher–Yates with scripted outcomes (one per card but the first), in
        one loop: re-running a long shuffle from its start is most of the cost of scripted chance."""
        script = self._script
        outcomes = script.outcomes
        used = script.used
        try:
            for i in reversed(range(1, len(x))):
                if used == len(outcomes):
                    raise NeedChance(i + 1, tuple(range(i, 1, -1)))
                j = outcomes[used]
                if not 0 <= j <= i:
                    raise ValueError(f"chance outcome {j} is not one of the {i + 1} outcomes 0 … {i}")
                used += 1
                x[i], x[j] = x[j], x[i]
        finally:
            script.used = used

    def _randbelow(self, n: int) -> int:  # type: ignore[override]
        """The next scripted outcome in 0 … n−1 (n = 1 takes none); NeedChance(n) when none is left."""
        if n <= 1:
            if n < 1:
                raise ValueError("a chance event needs at least one outcome")
            return 0
        script = self._script
        if script.used == len(script.outcomes):
            raise NeedChance(n)
        outcome = script.outcomes[script.used]
        if not 0 <= outcome < n:
            raise ValueError(f"chance outcome {outcome} is not one of the {n} outcomes 0 … {n - 1}")
        script.used += 1
        return outcome

    def getrandbits(self, k: int) -> int:
        """0: a successor seed (`next_rng`) means nothing when chance is scripted."""
        return 0

    def random(self) -> float:
        """Refused: a float has no finite set of outcomes to script."""
        raise ScriptedChanceError("game chance must use shuffle/randrange/choice/sample, not random() or floats")

    def randbytes(self, n: int) -> bytes:
        """Refused: bytes are not scripted chance."""
        raise ScriptedChanceError("game chance must use shuffle/randrange/choice/sample, not randbytes()")


class RecordingChance(random.Random):
    """`random.Random(seed)` exactly, logging every chance event with more than one outcome as (n, outcome)."""

    def __init__(self, seed: int, draws: list[tuple[int, int]]):
        super().__init__(seed)
        self._draws = draws

    def _randbelow(self, n: int) -> int:  # type: ignore[override]
        """The same outcome as `random.Random` draws, logged."""
        outcome = self._randbelow_with_getrandbits(n)  # type: ignore[attr-defined]
        if n > 1:
            self._draws.append((n, outcome))
        return outcome


@contextmanager
def scripted_chance(outcomes: list[int]) -> Iterator[list[int]]:
    """Within the block, `chance()` gives generators that take these outcomes in turn and then raise
    NeedChance(n). The seed is ignored. Yields the outcomes (the list itself)."""
    token = _MODE.set(_Script(outcomes))
    try:
        yield outcomes
    finally:
        _MODE.reset(token)


@contextmanager
def record_chance() -> Iterator[list[tuple[int, int]]]:
    """Within the block, `chance()` behaves as usual and logs each chance event; yields the log of
    (n, outcome)."""
    draws: list[tuple[int, int]] = []
    token = _MODE.set(_Recording(draws))
    try:
        yield draws
    finally:
        _MODE.reset(token)


def scripted_outcomes(draws: list[tuple[int, int]]) -> list[int]:
    """The script that replays a `record_chance` log: its outcomes in order."""
    return [outcome for _, outcome in draws]

