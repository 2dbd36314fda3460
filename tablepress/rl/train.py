"""A small self-play learning smoke test through the PettingZoo environment, for any game.

`ActionTextPolicy` is a linear softmax policy over the *texts* of the legal actions: each action text is
split into words and hashed into a small feature vector (`verb=place`, `w=Apple`, word pairs, length),
and the logit of an action is θ·φ(action). It sees which kinds of action pay, not the state. `reinforce`
trains it with REINFORCE (a running-mean baseline) from the end-of-game rewards of `pettingzoo_env`,
the learner's seat alternating and every other seat playing uniformly at random; `win_rate` measures
it against random players. On By This a few hundred games lift the win rate well above one half.
"""

from __future__ import annotations

import zlib

import numpy as np

from .pettingzoo_env import TablepressEnv


class ActionTextPolicy:
    """A softmax policy over hashed features of the legal actions' texts."""

    def __init__(self, size: int = 128):
        self.size = size
        self.theta = np.zeros(size)
        self._cache: dict[str, np.ndarray] = {}

    def features(self, legal: list[str]) -> np.ndarray:
        """One feature row per legal action."""
        rows = []
        for text in legal:
            row = self._cache.get(text)
            if row is None:
                words = text.split()
                tokens = [f"verb={words[0]}", f"n={len(words)}", *(f"w={w}" for w in words[1:]),
                          *(f"{a}_{b}" for a, b in zip(words, words[1:]))]
                row = np.zeros(self.size)
                for token in tokens:
                    row[zlib.crc32(token.encode()) % self.size] += 1.0
                self._cache[text] = row
            rows.append(row)
        return np.array(rows)

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """The softmax over the actions' logits."""
        logits = features @ self.theta
        weights = np.exp(logits - logits.max())
        return weights / weights.sum()


def play(env: TablepressEnv, policy: ActionTextPolicy, learner: str, rng: np.random.Generator,
         seed: int) -> tuple[list[tuple[np.ndarray, np.ndarray, int]], float]:
    """One game: `learner` samples from the policy, the others play at random. Returns its choices and reward."""
    env.reset(seed=seed)
    choices: list[tuple[np.ndarray, np.ndarray, int]] = []
    reward = 0.0
    for agent in env.agent_iter():
        _, accumulated, terminated, truncated, _ = env.last(observe=False)
        if terminated or truncated:
            if agent == learner:
                reward = float(accumulated)
            env.step(None)
            continue
        legal = env.legal_actions(agent)
        if agent == learner:
            features = policy.features(legal)
            probabilities = policy.probabilities(features)
            index = int(rng.choice(len(legal), p=probabilities))
            choices.append((features, probabilities, index))
        else:
            index = int(rng.integers(len(legal)))
        env.step(index)
    return choices, reward


def reinforce(env: TablepressEnv, games: int = 400, learning_rate: float = 0.05, seed: int = 0,
              policy: ActionTextPolicy | None = None) -> ActionTextPolicy:
    """Train a policy with REINFORCE against random players, the learner's seat alternating."""
    policy = policy or ActionTextPolicy()
    rng = np.random.default_rng(seed)
    baseline = 0.0
    for game in range(games):
        learner = env.possible_agents[game % len(env.possible_agents)]
        choices, reward = play(env, policy, learner, rng, seed * 1_000_003 + game)
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        for features, probabilities, index in choices:
            policy.theta += learning_rate * advantage * (features[index] - probabilities @ features)
    return policy


def win_rate(env: TablepressEnv, policy: ActionTextPolicy, games: int = 200, seed: int = 10_000) -> float:
    """The policy's share of wins against random players (a shared result counts half)."""
    rng = np.random.default_rng(seed)
    total = 0.0
    for game in range(games):
        learner = env.possible_agents[game % len(env.possible_agents)]
        _, reward = play(env, policy, learner, rng, seed + game)
        total += 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0
    return total / games
