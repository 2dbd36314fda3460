"""A load run of `tablepress bench --web` and what it measured: what `load` plays and `load_report` writes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .lobby_client import SocialResult


@dataclass(frozen=True)
class Run:
    """One measurement: `games` concurrent games against `workers` processes over `store` (a `kind` of KINDS)."""

    store: str
    workers: int
    games: int
    kind: str = "table"

    @property
    def label(self) -> str:
        """`PostgreSQL, 2 processes, 500 games` (`lobby: ...` for a lobby run)."""
        name = "PostgreSQL" if self.store == "postgresql" else "SQLite"
        label = f"{name}, {self.workers} process{'es' if self.workers > 1 else ''}, {self.games} games"
        return f"lobby: {label}" if self.kind == "lobby" else label


@dataclass
class Result:
    """What one run measured (latencies in milliseconds, rates per second, CPU in milliseconds an action)."""

    run: Run
    seconds: float
    think: float
    actions: int
    offered_per_s: float
    served_per_s: float
    action_ms: dict[str, float]
    seen_ms: dict[str, float]
    create_ms: dict[str, float]
    refused: int
    failed: int
    games_started: int
    games_finished: int
    server_cpu_ms: float
    postgres_cpu_ms: float | None
    client_cpu_ms: float
    machine_before: dict[str, str]
    machine_after: dict[str, str]
    errors: list[str] = field(default_factory=list)
    social: SocialResult | None = None  # a lobby run's figures

    def as_json(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        data = asdict(self)
        data["run"] = {**asdict(self.run), "label": self.run.label}
        return data
