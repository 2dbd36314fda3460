"""What an agent is given (a seat's information set), agent specs `NAME[:BUDGET]`, and the agent registry."""

from __future__ import annotations

import importlib
import re
from abc import ABC, abstractmethod

from ..core.errors import TablepressError
from ..core.match import SeatInfo


class Agent(ABC):
    """A player that chooses actions. Agents are seeded and picklable."""

    #: The spec that made this agent, e.g. "ismcts:500".
    spec: str = ""

    @abstractmethod
    def choose(self, info: SeatInfo) -> str:
        """One of `info.legal_actions()`."""

    def reseed(self, seed: int) -> None:
        """Restart the agent's randomness from `seed` (each game of a simulation gets its own)."""


#: Agent name → "module:Class". The AI issue adds greedy and ismcts here.
AGENTS: dict[str, str] = {
    "random": "tablepress.agents.random_agent:RandomAgent",
    "greedy": "tablepress.agents.greedy:GreedyAgent",
    "ismcts": "tablepress.agents.ismcts:IsmctsAgent",
    "policy": "tablepress.rl.policy_agent:PolicyAgent",
    "level": "tablepress.agents.levels:LevelAgent",
}
#: The budgets each agent is built with: "count" (`greedy:8` determinizations, `ismcts:500` iterations)
#: and "time" (`ismcts:2s`); "file" (`policy:trained.pt`, the path as given); "level" (`level:casual`, a level
#: the game declares: agents/levels.py); an agent with none takes no budget.
BUDGETS: dict[str, frozenset[str]] = {
    "random": frozenset(),
    "greedy": frozenset({"count"}),
    "ismcts": frozenset({"count", "time"}),
    "policy": frozenset({"file"}),
    "level": frozenset({"level"}),
}
#: The largest count and the longest time a decision any spec may ask for (the web server allows less).
MAX_COUNT = 100_000
MAX_SECONDS = 600.0

HUMAN = "human"

#: The most characters of a spec an error message repeats.
MAX_SHOWN = 40
_COUNT = re.compile(r"[0-9]+")
_TIME = re.compile(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(ms|s)")


class Seconds(float):
    """A time budget (`ismcts:2s`, `ismcts:500ms`): seconds a decision, printed back as given."""

    def __str__(self) -> str:
        return f"{float(self):g}s"

    __repr__ = __str__


def parse_spec(spec: str, max_count: int = MAX_COUNT,
               max_seconds: float = MAX_SECONDS) -> tuple[str, int | Seconds | None]:
    """Split `NAME[:BUDGET]` into its name and budget, with a clear error for anything the agent cannot be built with.

    A budget is a positive whole number up to `max_count` (`ismcts:500` — iterations a decision) or a
    time up to `max_seconds` (`ismcts:2s`, `ismcts:500ms` — returned as `Seconds`), of a kind the agent
    takes (BUDGETS). Digits are ASCII only.
    """
    name, colon, budget = spec.strip().partition(":")
    name = name.lower()
    shown = repr(spec if len(spec) <= MAX_SHOWN else spec[:MAX_SHOWN] + "...")
    if name != HUMAN and name not in AGENTS:
        raise TablepressError(f"unknown seat {shown} (seats: {', '.join([HUMAN, *AGENTS])})")
    if "file" in BUDGETS.get(name, frozenset()):
        if not budget.strip():
            raise TablepressError(f"seat {shown}: {name} needs a file, as in {name}:trained.pt")
        return name, budget.strip()
    if "level" in BUDGETS.get(name, frozenset()):
        if not budget.strip():
            raise TablepressError(f"seat {shown}: {name} needs a level's name, as in {name}:casual")
        return name, budget.strip().lower()
    budget = budget.lower()
    if not colon:
        return name, None
    counted, timed = _COUNT.fullmatch(budget), _TIME.fullmatch(budget)
    if not counted and not timed:
        raise TablepressError(
            f"seat {shown}: the budget after ':' must be a positive whole number or a time such as 2s or 500ms"
        )
    takes = BUDGETS.get(name, frozenset())
    if not takes:
        raise TablepressError(f"seat {shown}: {name} takes no budget")
    if "count" not in takes and counted:
        raise TablepressError(f"seat {shown}: {name} takes a time budget such as 2s, not a whole number")
    if "time" not in takes and timed:
        raise TablepressError(f"seat {shown}: {name} takes a whole-number budget, not a time")
    if counted:
        digits = budget.lstrip("0")
        if not digits:
            raise TablepressError(f"seat {shown}: the budget must be positive")
        if len(digits) > len(str(max_count)) or int(digits) > max_count:
            raise TablepressError(f"seat {shown}: the budget is over the limit of {max_count}")
        return name, int(digits)
    seconds = float(timed[1]) * (0.001 if timed[2] == "ms" else 1.0)
    if not seconds > 0:
        raise TablepressError(f"seat {shown}: the budget must be positive")
    if seconds > max_seconds:
        raise TablepressError(f"seat {shown}: the budget is over the limit of {Seconds(max_seconds)}")
    return name, Seconds(seconds)


def normal_spec(spec: str) -> str:
    """A spec with its name (and a count or time budget) in lower case; a file budget is kept as given."""
    name, colon, budget = spec.strip().partition(":")
    name = name.lower()
    return name + colon + (budget.strip() if "file" in BUDGETS.get(name, frozenset()) else budget.lower())


def parse_seats(text: str | None, players: int) -> list[str]:
    """Seat specs for `players` seats from a comma-separated list; fewer specs than players repeat the last."""
    specs = [normal_spec(s) for s in (text or "random").split(",") if s.strip()]
    if not specs:
        raise TablepressError("--seats needs at least one seat")
    if len(specs) > players:
        raise TablepressError(f"{len(specs)} seats given for {players} players")
    for spec in specs:
        parse_spec(spec)
    return specs + [specs[-1]] * (players - len(specs))


def make_agent(spec: str, seed: int) -> Agent:
    """The agent for a spec such as `random` or `ismcts:500`, seeded."""
    name, budget = parse_spec(spec)
    if name == HUMAN:
        raise TablepressError("a human seat has no agent")
    module_name, _, class_name = AGENTS[name].partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    agent = cls(seed=seed) if budget is None else cls(seed=seed, budget=budget)
    agent.spec = spec
    return agent
