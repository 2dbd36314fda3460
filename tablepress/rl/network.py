"""The policy/value network (PyTorch, the `train` extra) and its checkpoint file.

`PolicyNet` is a CleanRL-style actor-critic MLP over a game's observation planes: two hidden layers
(tanh), a policy head with one logit per action id of the game's fixed action space, masked to the
legal ids, and a value head. A checkpoint (`save` / `load`) holds the weights and what they were
trained for: game, players, options, the action table's digest and the network's sizes, so a
policy never plays a game it was not trained on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch
from torch import nn
from torch.distributions import Categorical

from ..core.errors import TablepressError

FORMAT = "tablepress-policy/1"
#: A masked-out logit.
MASKED = -1e9


@dataclass
class PolicyMeta:
    """What a checkpoint was trained for."""

    game: str
    players: int
    options: dict[str, Any]
    observation_size: int
    actions: int
    digest: str
    hidden: int = 128
    steps: int = 0
    history: list[dict[str, float]] = field(default_factory=list)


def _layer(inputs: int, outputs: int, gain: float = 2 ** 0.5) -> nn.Linear:
    layer = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


class PolicyNet(nn.Module):
    """Actor-critic MLP: observation → masked logits over action ids, and a value."""

    def __init__(self, observation_size: int, actions: int, hidden: int = 128):
        super().__init__()
        self.body = nn.Sequential(_layer(observation_size, hidden), nn.Tanh(), _layer(hidden, hidden), nn.Tanh())
        self.policy = _layer(hidden, actions, gain=0.01)
        self.value = _layer(hidden, 1, gain=1.0)

    def forward(self, observation: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits and values for a batch (`mask`: bool, True = legal)."""
        hidden = self.body(observation)
        logits = self.policy(hidden).masked_fill(~mask, MASKED)
        return logits, self.value(hidden).squeeze(-1)

    def act(self, observation: torch.Tensor, mask: torch.Tensor,
            action: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """Sample (or score the given) actions: (action, log-probability, entropy, value)."""
        logits, value = self(observation, mask)
        distribution = Categorical(logits=logits)
        if action is None:
            action = distribution.sample()
        return action, distribution.log_prob(action), distribution.entropy(), value


def save(path: Path, net: PolicyNet, meta: PolicyMeta) -> None:
    """Write a checkpoint (atomically: a crash never leaves half a file)."""
    path = Path(path)
    partial = path.with_name(path.name + ".partial")
    torch.save({"format": FORMAT, "meta": asdict(meta), "weights": net.state_dict()}, partial)
    partial.replace(path)


def load(path: str | Path) -> tuple[PolicyNet, PolicyMeta]:
    """Read a checkpoint written by `save`; a missing or foreign file is a TablepressError naming it."""
    path = Path(path)
    if not path.is_file():
        raise TablepressError(f"policy {path}: no such file")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # torch raises many kinds for a file that is not a checkpoint
        raise TablepressError(f"policy {path}: not a tablepress policy ({type(exc).__name__})") from None
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise TablepressError(f"policy {path}: not a tablepress policy (expected format {FORMAT})")
    meta = PolicyMeta(**data["meta"])
    net = PolicyNet(meta.observation_size, meta.actions, meta.hidden)
    net.load_state_dict(data["weights"])
    net.eval()
    return net, meta
