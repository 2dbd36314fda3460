"""The `policy:FILE` seat: a policy trained by `tablepress train` playing as an agent (the `train` extra).

It decides from `SeatInfo` only: the seat's view becomes the game's observation planes, the legal
actions become the mask over the game's fixed action ids, and it plays the most probable legal id
(deterministic: the same view gives the same move). A checkpoint is for one game at one player count
(and the action table it was trained with); anything else is a clear error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..agents.base import Agent
from ..core.errors import TablepressError
from ..core.match import SeatInfo
from .spaces import spaces


class PolicyAgent(Agent):
    """Plays the argmax of a trained policy over the legal action ids."""

    def __init__(self, seed: int = 0, budget: str | Path | None = None):
        if budget is None:
            raise TablepressError("policy seat: give the file, as in policy:trained.pt")
        self.path = Path(budget)
        self._loaded: Any = None
        self._load()

    def _load(self) -> Any:
        if self._loaded is None:
            from .network import load

            self._loaded = load(self.path)
        return self._loaded

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "spec": self.spec}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.path, self.spec, self._loaded = state["path"], state["spec"], None

    def choose(self, info: SeatInfo) -> str:
        """The legal action whose id the policy rates highest."""
        import torch

        net, meta = self._load()
        game = info.game
        if game.name != meta.game:
            raise TablepressError(f"policy {self.path}: trained for {meta.game}, not {game.name}")
        view = info.view()
        players = view.get("public", {}).get("players", meta.players)
        if players != meta.players:
            raise TablepressError(f"policy {self.path}: trained for {meta.players} players, not {players}")
        space = spaces(game, meta.players, meta.options)
        digest = getattr(space.actions, "digest", None)
        if digest is not None and digest() != meta.digest:
            raise TablepressError(f"policy {self.path}: trained on another version of {game.name}'s actions")
        by_id = space.legal(view, info.seat, info.legal_actions())
        observation = torch.as_tensor(space.observation.encode(view, info.seat)).unsqueeze(0)
        mask = torch.as_tensor(space.mask(by_id), dtype=torch.bool).unsqueeze(0)
        with torch.no_grad():
            logits, _ = net(observation, mask)
        return by_id[int(logits.argmax(dim=-1))]
