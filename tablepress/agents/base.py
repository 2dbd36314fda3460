"""What an agent is given (a seat's information set), agent specs `NAME[:BUDGET]`, and the agent registry."""

from __future__ import annotations

import importlib
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
}

HUMAN = "human"


class Seconds(float):
    """A time budget (`ismcts:2s`, `ismcts:500ms`): seconds a decision, printed back as given."""

    def __str__(self) -> str:
        return f"{float(self):g}s"

    __repr__ = __str__


def parse_spec(spec: str) -> tuple[str, int | Seconds | None]:
    """Split `NAME[:BUDGET]` into its name and budget, with a clear error for anything else.

    A budget is a positive whole number (`ismcts:500` — iterations a decision) or a time
    (`ismcts:2s`, `ismcts:500ms` — returned as `Seconds`).
    """
    name, _, budget = spec.strip().lower().partition(":")
    if name != HUMAN and name not in AGENTS:
        raise TablepressError(f"unknown seat {spec!r} (seats: {', '.join([HUMAN, *AGENTS])})")
    if not budget:
        return name, None
    if budget.isdigit() and int(budget) > 0:
        return name, int(budget)
    for unit, factor in (("ms", 0.001), ("s", 1.0)):
        number = budget.removesuffix(unit)
        if number != budget:
            try:
                seconds = float(number) * factor
            except ValueError:
                break
            if 0 < seconds < float("inf"):
                return name, Seconds(seconds)
            break
    raise TablepressError(
        f"seat {spec!r}: the budget after ':' must be a positive whole number or a time such as 2s or 500ms"
    )


def parse_seats(text: str | None, players: int) -> list[str]:
    """Seat specs for `players` seats from a comma-separated list; fewer specs than players repeat the last."""
    specs = [s.strip().lower() for s in (text or "random").split(",") if s.strip()]
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
    try:
        agent = cls(seed=seed) if budget is None else cls(seed=seed, budget=budget)
    except (TypeError, ValueError):
        raise TablepressError(f"seat {spec!r}: {name} does not take that budget") from None
    agent.spec = spec
    return agent
