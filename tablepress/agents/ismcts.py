"""The `ismcts` agent: single-observer Information-Set MCTS (Cowling, Powley & Whitehouse, 2012).

One tree per decision, rooted at the deciding seat's information set. Each iteration

1. **determinizes**: draws one full state consistent with what the seat knows
   (`SeatInfo.determinize` with the agent's seeded generator) — the only way hidden information enters;
2. **selects** down the tree with UCB1 where an action's exploration term counts the iterations in
   which it was *available* (legal in that determinization), not the parent's visits;
   large action sets are opened by **progressive widening** in the order of the game's heuristic
   (the best-looking actions first, more as the node is visited);
3. **expands** one new action, **rolls out** a few steps (random, or greedy-guided) and cuts off with
   the game's heuristic (`evaluation.cutoff_rewards`), or scores the end (`evaluation.final_rewards`);
4. **backs up** one reward per seat; each node's statistics are from the side of the seat acting there,
   so opponents are searched as players of their own interests (any number of players).

Simultaneous choices: the seats in `to_move` act one after another inside the tree. A seat choosing in
the same step as another does not see that other's choice: the edge is labelled with what others see
of it (`Game.public_action`), so the later chooser's node is shared over the earlier one's hidden
choices; the earlier seat's own choice is attached again to the key when that seat next moves (it
remembers what it chose). Choices other seats made before the search are hidden in the state and
resampled by `determinize`.

`ismcts:N` runs N iterations a decision (default 300); `ismcts:2s` runs for two seconds (then results
depend on the machine's speed, not only on the seed). The agent keeps no tree between decisions and
holds only plain data, so it pickles for process pools and Ray.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..core.game import Game
from .base import Agent, Seconds, SeatInfo
from .evaluation import Evaluate, cutoff_rewards, final_rewards, heuristic_for

DEFAULT_ITERATIONS = 300


class Node:
    """A node of the search tree: one information set of the seat that acts there."""

    __slots__ = ("seat", "visits", "n", "w", "avail", "children", "order", "ranked")

    def __init__(self, seat: int):
        self.seat = seat
        self.visits = 0
        self.n: dict[str, int] = {}  # action → times taken
        self.w: dict[str, float] = {}  # action → summed reward for `seat`
        self.avail: dict[str, int] = {}  # action → iterations in which it was legal here
        self.children: dict[tuple, Node] = {}
        self.order: list[str] = []  # actions in the order widening opens them
        self.ranked = False


class IsmctsAgent(Agent):
    """SO-ISMCTS with availability-count UCB, heuristic progressive widening and a depth cut-off.

    `budget` is iterations a decision (an int) or seconds (`Seconds`). The other parameters tune the
    search: `exploration` (UCB constant, rewards are in [0, 1]), `widening` and `widening_power`
    (a node visited v times considers ceil(widening · v^widening_power) actions, in heuristic order),
    `rollout_depth` (steps played out after the tree before the heuristic cut-off) and
    `rollout_policy` ("random" or "greedy": the best one-step heuristic action).
    """

    def __init__(
        self,
        seed: int = 0,
        budget: int | float | None = None,
        exploration: float = 0.5,
        widening: float = 2.0,
        widening_power: float = 0.5,
        rollout_depth: int = 0,
        rollout_policy: str = "random",
    ):
        if budget is not None and (isinstance(budget, bool) or not budget > 0):
            raise ValueError(f"ismcts takes a positive budget, not {budget!r}")
        if isinstance(budget, float) and not isinstance(budget, Seconds):
            budget = Seconds(budget)
        if rollout_policy not in ("random", "greedy"):
            raise ValueError(f"rollout_policy must be 'random' or 'greedy', not {rollout_policy!r}")
        self.rng = random.Random(seed)
        self.budget: int | Seconds = budget if budget is not None else DEFAULT_ITERATIONS
        self.exploration = exploration
        self.widening = widening
        self.widening_power = widening_power
        self.rollout_depth = rollout_depth
        self.rollout_policy = rollout_policy
        #: Iterations run in the last decision (for benchmarks).
        self.last_iterations = 0

    def reseed(self, seed: int) -> None:
        """Restart from `seed`."""
        self.rng = random.Random(seed)

    # ----- the search ----------------------------------------------------------------------------
    def choose(self, info: SeatInfo) -> str:
        """Search from the seat's information set and return the most visited root action."""
        actions = info.legal_actions()
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        game = info.game
        evaluate = heuristic_for(game)
        root = Node(info.seat)
        players = None
        iterations = 0
        deadline = time.perf_counter() + float(self.budget) if isinstance(self.budget, Seconds) else None
        while True:
            if deadline is None:
                if iterations >= self.budget:
                    break
            elif iterations and time.perf_counter() >= deadline:
                break
            state = info.determinize(self.rng)
            if players is None:
                players = len(game.scores(state))
            self._iterate(game, state, root, evaluate, players)
            iterations += 1
        self.last_iterations = iterations
        return self._best(root, actions)

    def _best(self, root: Node, actions: list[str]) -> str:
        """The most visited legal root action; ties by mean reward, then at random."""
        def key(action: str) -> tuple[int, float]:
            visits = root.n.get(action, 0)
            return visits, (root.w[action] / visits if visits else 0.0)

        best = max(key(a) for a in actions)
        return self.rng.choice([a for a in actions if key(a) == best])

    def _iterate(self, game: Game, state: Any, root: Node, evaluate: Evaluate, players: int) -> None:
        """One iteration on one determinization: select, expand, roll out, back up."""
        path: list[tuple[Node, str]] = []
        hidden: dict[int, list[str]] = {}
        node = root
        while not game.is_over(state):
            movers = game.to_move(state)
            seat = node.seat
            if seat not in movers:
                break  # this information set is reached with another seat to move: cut off here
            legal = game.legal_actions(state, seat)
            if not legal:
                break
            if not node.ranked:
                self._rank(game, state, node, legal, evaluate)
            action, new = self._select(node, legal)
            path.append((node, action))
            simultaneous = len(movers) > 1
            label = game.public_action(state, seat, action) if simultaneous else action
            game.apply_legal(state, seat, action)
            if game.is_over(state):
                break
            after = game.to_move(state)
            if not after:
                break
            next_seat = seat if seat in after else after[0]
            if simultaneous and next_seat != seat and next_seat in movers:
                hidden.setdefault(seat, []).append(action)  # the next chooser has not seen it
            else:
                label = action
            key = (label, tuple(hidden.pop(next_seat, ())))
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node(next_seat)
            node = child
            if new:
                break
        rewards = self._leaf(game, state, evaluate, players)
        for visited, action in path:
            visited.n[action] = visited.n.get(action, 0) + 1
            visited.w[action] = visited.w.get(action, 0.0) + rewards[visited.seat]

    def _rank(self, game: Game, state: Any, node: Node, legal: list[str], evaluate: Evaluate) -> None:
        """Order a node's actions by their one-step heuristic value for its seat (best first)."""
        node.ranked = True
        if len(legal) <= 1:
            node.order = list(legal)
            return
        seat = node.seat
        values = []
        for index, action in enumerate(legal):
            child = game.clone(state)
            game.apply_legal(child, seat, action)
            values.append((-evaluate(game, child, seat), index))
        values.sort()
        node.order = [legal[index] for _, index in values]

    def _select(self, node: Node, legal: list[str]) -> tuple[str, bool]:
        """The action to take at `node` among `legal`; whether it is new (an expansion)."""
        node.visits += 1
        order = node.order
        if len(order) < len(legal):
            known = set(order)
            order.extend(a for a in legal if a not in known)
        limit = max(1, math.ceil(self.widening * node.visits ** self.widening_power))
        legal_set = set(legal) if len(order) != len(legal) else None
        candidates = []
        for action in order:
            if legal_set is None or action in legal_set:
                candidates.append(action)
                if len(candidates) >= limit:
                    break
        avail, n, w = node.avail, node.n, node.w
        best_action, best_value = None, -1.0
        log_c = self.exploration
        for action in candidates:
            seen = avail.get(action, 0) + 1
            avail[action] = seen
            visits = n.get(action, 0)
            if visits == 0:
                if best_action is None or best_value < math.inf:
                    best_action, best_value = action, math.inf
                continue
            if best_value == math.inf:
                continue
            value = w[action] / visits + log_c * math.sqrt(math.log(seen) / visits)
            if value > best_value:
                best_action, best_value = action, value
        assert best_action is not None
        return best_action, n.get(best_action, 0) == 0

    def _leaf(self, game: Game, state: Any, evaluate: Evaluate, players: int) -> list[float]:
        """Roll out up to `rollout_depth` steps, then score the end or cut off with the heuristic."""
        rng = self.rng
        for _ in range(self.rollout_depth):
            if game.is_over(state):
                break
            movers = game.to_move(state)
            seat = movers[0] if len(movers) == 1 else rng.choice(movers)
            legal = game.legal_actions(state, seat)
            if self.rollout_policy == "greedy" and len(legal) > 1:
                action = _greedy_step(game, state, seat, legal, evaluate, rng)
            else:
                action = rng.choice(legal)
            game.apply_legal(state, seat, action)
        if game.is_over(state):
            return final_rewards(game, state)
        return cutoff_rewards(game, state, evaluate, players)


def _greedy_step(game: Game, state: Any, seat: int, legal: list[str], evaluate: Evaluate, rng: random.Random) -> str:
    """The legal action with the best one-step heuristic value for `seat` (ties at random)."""
    best_value, best = -math.inf, []
    for action in legal:
        child = game.clone(state)
        game.apply_legal(child, seat, action)
        value = evaluate(game, child, seat)
        if value > best_value + 1e-9:
            best_value, best = value, [action]
        elif value >= best_value - 1e-9:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)
