"""`tablepress train GAME`: masked PPO (CleanRL style, PyTorch) over the PettingZoo environment.

The learner holds one seat of each training game (rotating, so it plays every turn position) and
uniformly random players hold the others. Each update collects `batch` learner decisions, computes
GAE advantages (γ = 1) and runs `epochs` passes of clipped PPO over minibatches, with masked logits
(illegal ids get no probability), an entropy bonus and a value loss. The reward is the final one
("score" by default: the normalised margin) plus potential-based shaping: the change of the
learner's score margin between its decisions, scaled to the usual final margin (it telescopes to the
final margin, so the best policy is unchanged; `shaping=0` turns it off). A checkpoint
(`network.save`) is written every `checkpoint_every` updates and at the end (`resume` goes on from
one); then the policy (argmax, as the `policy:FILE` seat plays) is evaluated ladder-style against
`random` and `greedy` — the seat rotating over the games, a shared win counting 1/k, Wilson 95%
intervals — and the learning curve is drawn as a PNG beside the file.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ..agents.ladder import Rung, run_rung
from ..core.errors import TablepressError
from ..core.rng import derive_seed
from .network import PolicyMeta, PolicyNet, load, save
from .pettingzoo_env import TablepressEnv


@dataclass
class TrainConfig:
    """What `train` does (see the module docstring); every field has a working default."""

    game: str
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    steps: int = 20_000
    seed: int = 0
    reward: str = "score"
    hidden: int = 128
    learning_rate: float = 1e-3
    batch: int = 1024
    epochs: int = 4
    minibatch: int = 256
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    gae_lambda: float = 0.95
    max_grad_norm: float = 0.5
    checkpoint_every: int = 5
    #: A checkpoint to go on training (the optimiser starts afresh); None: a new network.
    resume: Path | None = None
    #: Weight of the margin-change shaping (0: the final reward only); margins are divided by a running
    #: mean of the largest final |margin|, so the shaping is about as large as the final reward.
    shaping: float = 1.0


@dataclass
class Batch:
    """Learner decisions of one update, with their advantages and returns."""

    observations: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    log_probs: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    advantages: list[float] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    #: The learner's share of the victory in each finished game.
    shares: list[float] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.actions)


def _advantages(values: Sequence[float], rewards: Sequence[float], lam: float) -> tuple[list[float], list[float]]:
    """GAE with γ = 1 over one seat's decisions of one game (`rewards[t]`: what followed decision t)."""
    advantages = [0.0] * len(values)
    running = 0.0
    for t in range(len(values) - 1, -1, -1):
        following = values[t + 1] if t + 1 < len(values) else 0.0
        delta = rewards[t] + following - values[t]
        running = delta + lam * running
        advantages[t] = running
    return advantages, [a + v for a, v in zip(advantages, values)]


def margin(game: Any, state: Any, seat: int) -> float:
    """The seat's score minus the mean score (its margin; the score itself in solo games)."""
    scores = [float(s) for s in game.scores(state)]
    return scores[seat] - sum(scores) / len(scores) if len(scores) > 1 else scores[seat]


def shaped_rewards(margins: Sequence[float], end_margin: float, reward: float, weight: float) -> list[float]:
    """Per-decision rewards: the final reward after the last decision, plus (potential-based shaping,
    which leaves the best policy unchanged) `weight` × the change of the margin until the next one."""
    following = [*margins[1:], end_margin]
    rewards = [weight * (after - now) for now, after in zip(margins, following)]
    rewards[-1] += reward
    return rewards


def _share(game: Any, state: Any, seat: int) -> float:
    winners = game.winners(state)
    return 1.0 / len(winners) if seat in winners else 0.0


def play_training_game(env: TablepressEnv, net: PolicyNet, learner: int, seed: int, rng: random.Random,
                       batch: Batch, lam: float, shaping: float = 0.0) -> float:
    """One game: `learner` samples from the policy, every other seat plays uniformly at random.

    `shaping` weighs the change of the learner's score margin between its decisions (see
    `shaped_rewards`). Returns the largest |margin| at the end (the caller's scale for `shaping`)."""
    env.reset(seed=seed)
    game = env.game
    mine: list[tuple[np.ndarray, np.ndarray, int, float, float]] = []
    margins: list[float] = []
    name = env.possible_agents[learner]
    while not env.match.is_over:
        agent = env.agent_selection
        if agent != name:
            env.step(rng.choice(list(env.legal_by_id(agent))))
            continue
        observed = env.observe(agent)
        with torch.no_grad():
            action, log_prob, _, value = net.act(torch.as_tensor(observed["observation"]).unsqueeze(0),
                                                 torch.as_tensor(observed["action_mask"], dtype=torch.bool).unsqueeze(0))
        mine.append((observed["observation"], observed["action_mask"], int(action), float(log_prob), float(value)))
        margins.append(margin(game, env.state, learner))
        env.step(int(action))
    reward = float(env.rewards[name])
    batch.shares.append(_share(game, env.state, learner) if env.players > 1 else reward)
    batch.rewards.append(reward)
    spread = max(abs(margin(game, env.state, s)) for s in range(env.players))
    if not mine:
        return spread
    rewards = shaped_rewards(margins, margin(game, env.state, learner), reward, shaping)
    advantages, returns = _advantages([m[4] for m in mine], rewards, lam)
    for (observation, mask, action, log_prob, value), advantage, ret in zip(mine, advantages, returns):
        batch.observations.append(observation)
        batch.masks.append(mask)
        batch.actions.append(action)
        batch.log_probs.append(log_prob)
        batch.values.append(value)
        batch.advantages.append(advantage)
        batch.returns.append(ret)
    return spread


def ppo_update(net: PolicyNet, optimiser: torch.optim.Optimizer, batch: Batch, config: TrainConfig,
               generator: torch.Generator) -> dict[str, float]:
    """Clipped PPO epochs over minibatches of `batch`; the mean losses."""
    observations = torch.as_tensor(np.stack(batch.observations))
    masks = torch.as_tensor(np.stack(batch.masks), dtype=torch.bool)
    actions = torch.as_tensor(batch.actions)
    old_log_probs = torch.as_tensor(batch.log_probs)
    advantages = torch.as_tensor(batch.advantages, dtype=torch.float32)
    returns = torch.as_tensor(batch.returns, dtype=torch.float32)
    totals = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "approx_kl": 0.0}
    rounds = 0
    for _ in range(config.epochs):
        order = torch.randperm(len(batch), generator=generator)
        for start in range(0, len(batch), config.minibatch):
            index = order[start:start + config.minibatch]
            _, log_prob, entropy, value = net.act(observations[index], masks[index], actions[index])
            ratio = (log_prob - old_log_probs[index]).exp()
            advantage = advantages[index]
            if len(index) > 1:
                advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
            policy_loss = torch.max(-advantage * ratio,
                                    -advantage * ratio.clamp(1 - config.clip, 1 + config.clip)).mean()
            value_loss = 0.5 * ((value - returns[index]) ** 2).mean()
            loss = policy_loss - config.entropy * entropy.mean() + config.value_coef * value_loss
            optimiser.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), config.max_grad_norm)
            optimiser.step()
            totals["policy_loss"] += policy_loss.item()
            totals["value_loss"] += value_loss.item()
            totals["entropy"] += entropy.mean().item()
            totals["approx_kl"] += (old_log_probs[index] - log_prob).mean().item()
            rounds += 1
    return {key: value / max(1, rounds) for key, value in totals.items()}


def train(config: TrainConfig, out: Path,
          on_update: Callable[[int, dict[str, float]], None] | None = None) -> tuple[PolicyNet, PolicyMeta]:
    """Train a policy for `config.game` and write its checkpoint to `out` (see the module docstring).

    `on_update(steps_done, record)` is called after each update (for a progress bar).
    """
    if config.steps < 1:
        raise TablepressError(f"--steps must be at least 1, not {config.steps}")
    torch.manual_seed(config.seed)
    generator = torch.Generator().manual_seed(config.seed)
    env = TablepressEnv(config.game, config.players, reward=config.reward, **config.options)
    players = env.players
    space = env.spaces
    digest = getattr(space.actions, "digest", None)
    meta = PolicyMeta(game=env.game.name, players=players, options=dict(config.options),
                      observation_size=space.observation_size, actions=space.actions.size,
                      digest=digest() if digest else "", hidden=config.hidden)
    if config.resume is not None:
        net, earlier = load(config.resume)
        if (earlier.game, earlier.players, earlier.digest, earlier.observation_size) != (
                meta.game, meta.players, meta.digest, meta.observation_size):
            raise TablepressError(f"--resume {config.resume}: trained for {earlier.game} at {earlier.players} "
                                  f"players, not this game")
        meta = earlier
    else:
        net = PolicyNet(meta.observation_size, meta.actions, config.hidden)
    optimiser = torch.optim.Adam(net.parameters(), lr=config.learning_rate, eps=1e-5)
    rng = random.Random(derive_seed(config.seed, meta.steps))
    before = meta.steps
    games = int(meta.history[-1]["games"]) if meta.history else 0
    done = updates = 0
    scale = 1.0
    while done < config.steps:
        batch = Batch()
        net.eval()
        while len(batch) < min(config.batch, config.steps - done):
            seed = derive_seed("tablepress.rl.train", config.seed, games)
            spread = play_training_game(env, net, games % players, seed, rng, batch, config.gae_lambda,
                                        config.shaping / scale)
            scale = max(1.0, 0.95 * scale + 0.05 * spread) if games else max(1.0, spread)
            games += 1
        net.train()
        record = ppo_update(net, optimiser, batch, config, generator)
        done += len(batch)
        updates += 1
        record.update(steps=before + done, games=games, win_rate=float(np.mean(batch.shares)),
                      reward=float(np.mean(batch.rewards)))
        meta.history.append(record)
        meta.steps = before + done
        if updates % config.checkpoint_every == 0:
            save(out, net, meta)
        if on_update:
            on_update(done, record)
    net.eval()
    save(out, net, meta)
    return net, meta


def evaluate(policy_file: Path, game_name: str, players: int, options: Mapping[str, Any], opponent: str,
             games: int, seed: int = 0, on_game: Callable[[], None] | None = None) -> Rung:
    """A ladder rung: the policy (`policy:FILE`) in one rotating seat, `opponent` agents in every other."""
    progress = (lambda n: [on_game() for _ in range(n)]) if on_game else None
    return run_rung(game_name, players, f"policy:{policy_file}", opponent, games, seed, on_rows=progress,
                    options=options)


def plot_curve(meta: PolicyMeta, evaluations: Sequence[Rung], path: Path) -> None:
    """The learning curve as a PNG: the training win rate against random (and its rolling mean) by
    learner decisions, the fair share, the final evaluations with their intervals, and the losses."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [h["steps"] for h in meta.history]
    rates = [h["win_rate"] for h in meta.history]
    window = max(1, len(rates) // 10)
    rolling = [float(np.mean(rates[max(0, i - window + 1): i + 1])) for i in range(len(rates))]
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    top.plot(steps, rates, color="#9ab", linewidth=1, label="training games vs random (sampling)")
    top.plot(steps, rolling, color="#135", linewidth=2, label=f"rolling mean ({window} updates)")
    top.axhline(1.0 / meta.players, color="#a33", linestyle="--", linewidth=1, label="fair share")
    for i, evaluation in enumerate(evaluations):
        lo, hi = evaluation.ci95
        x = steps[-1] if steps else 0
        top.errorbar([x], [evaluation.win_rate], yerr=[[evaluation.win_rate - lo], [hi - evaluation.win_rate]],
                     fmt="o" if i == 0 else "s", capsize=4,
                     label=f"final vs {evaluation.opponent}: {evaluation.win_rate:.2f} [{lo:.2f}, {hi:.2f}]")
    top.set_ylabel("win rate")
    top.set_ylim(0, 1)
    top.set_title(f"{meta.game}, {meta.players} players: masked PPO")
    top.legend(fontsize=7, loc="lower right")
    bottom.plot(steps, [h["value_loss"] for h in meta.history], label="value loss")
    bottom.plot(steps, [h["entropy"] for h in meta.history], label="entropy")
    bottom.set_xlabel("learner decisions")
    bottom.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
