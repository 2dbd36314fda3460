"""Information-set MCTS (Cowling, Powley & Whitehouse, 2012): the `TreeSearch` preset's algorithm.

Each iteration

1. **determinizes**: draws one full state consistent with what the seat knows (`SeatInfo.determinize`);
2. **selects** down the tree with UCB1 where an action's exploration term counts the iterations in which
   it was *available* (legal in that determinization); large action sets are opened by **progressive
   widening** in the order of the game's heuristic (actions a node first meets in a later determinization
   are ranked in too); each action's heuristic reward counts as a **prior** of `prior_weight` visits per
   rival seat, and at the root that prior is the greedy player's judgement (`Decision.greedy_judgement`);
3. **expands** one new action, **rolls out** `rollout_depth` steps, lets the seat that moved last **finish
   its turn** greedily if it is still to move, and cuts off with the game's heuristic or scores the end;
4. **backs up** one reward per seat (`Backup`); an edge's statistics are from the side of the seat acting
   there, so every seat is searched as a player of its own interests.

How the other seats move is the preset's `rivals` (presets.Rivals). When a game's actions are all public
there is one tree (SO-ISMCTS); otherwise every seat has its own tree (MO-ISMCTS), each following the edge
labelled with what its owner sees of the action (`Game.public_action`), so no seat searches as if it knew
another's secret choice, and simultaneous choices are made without seeing each other.
"""

from __future__ import annotations

import math
from typing import Any

from ..core.match import SeatInfo
from .allowance import Allowance
from .decision import Decision
from .presets import Backup, RolloutPolicy, Rivals, TreeSearch
from .greedy import pick_best

#: The most steps a seat's turn is finished at random in (a guard; a turn is far fewer).
MODEL_STEP_CAP = 200


class Node:
    """A node of one observer's search tree: an information set of that observer.

    Edge statistics are kept for the seat that acts here: times taken, summed reward for that seat and
    availability (iterations in which the action was legal here).
    """

    __slots__ = ("visits", "n", "w", "avail", "children", "order", "known", "prior")

    def __init__(self) -> None:
        self.visits = 0
        self.n: dict[str, int] = {}
        self.w: dict[str, float] = {}
        self.avail: dict[str, int] = {}
        self.children: dict[str, Node] = {}
        self.order: list[str] = []  # actions in the order widening opens them
        self.known: set[str] = set()  # the actions in `order` (for membership only, never iterated)
        self.prior: dict[str, float] = {}  # action → its one-step heuristic judgement for the seat acting here

    def child(self, label: str) -> "Node":
        """The node reached by the edge `label`, created on first use."""
        node = self.children.get(label)
        if node is None:
            node = self.children[label] = Node()
        return node


def tree_search(info: SeatInfo, actions: list[str], state: Any, decision: Decision, preset: TreeSearch,
                allowance: Allowance) -> tuple[str, int]:
    """The most visited root action of a search from `state` (the first determinization) within
    `allowance`; ties by mean reward, then at random. Also the iterations run."""
    searcher = TreeSearcher(preset, decision)
    players = decision.players
    roots = [Node()] * players if info.game.public_actions else [Node() for _ in range(players)]
    root = roots[decision.me]
    if preset.rivals == Rivals.RANDOM:
        # Only the searcher's rewards are valued; every seat's standing now sets their scale.
        standing = decision.cutoff(state)
        searcher.low, searcher.high = min(standing), max(standing)
    if preset.prior_samples > 0 and preset.prior_weight > 0:
        root.prior = decision.greedy_judgement(info, state, actions, preset.prior_samples)
        for value in root.prior.values():
            searcher.low, searcher.high = min(searcher.low, value), max(searcher.high, value)
        root.order = sorted(actions, key=lambda action: -root.prior[action])
        root.known.update(actions)
    iterations = 0
    while True:
        searcher.iterate(state, roots)
        iterations += 1
        if allowance.spent(iterations):
            break
        state = info.determinize(decision.rng)
    return searcher.best(root, actions), iterations


class TreeSearcher:
    """One decision's tree search: the preset, the decision's context and the range of rewards seen."""

    def __init__(self, preset: TreeSearch, decision: Decision):
        self.preset = preset
        self.decision = decision
        self.weight = preset.prior_weight * max(1, decision.players - 1)
        #: Rewards are scaled into [0, 1] by the range seen so far in this search.
        self.low, self.high = math.inf, -math.inf

    def best(self, root: Node, actions: list[str]) -> str:
        """The most visited legal root action; ties by mean reward, then at random."""
        def key(action: str) -> tuple[int, float]:
            visits = root.n.get(action, 0)
            return visits, (root.w[action] / visits if visits else 0.0)

        best = max(key(a) for a in actions)
        return self.decision.rng.choice([a for a in actions if key(a) == best])

    def iterate(self, state: Any, roots: list[Node]) -> None:
        """One iteration on one determinization (changed in place): select, expand, roll out, back up.

        `roots[p]` is the tree of observer p (all the same tree when every action is public). The seat
        to move selects in its own tree; every tree then follows the edge labelled with what its
        observer sees of the action (the action itself for the actor, `public_action` for the others).
        """
        decision = self.decision
        game, me, seat = decision.game, decision.me, decision.me
        rivals_in_tree = self.preset.rivals == Rivals.TREE
        shared = len(roots) == 1 or roots[0] is roots[-1]
        cursors = list(roots)
        path: list[tuple[Node, str, int]] = []
        players = len(roots)
        while not game.is_over(state):
            if path:
                movers = game.to_move(state)
                if not movers:
                    break
                seat = movers[0]
            legal = game.legal_actions(state, seat)
            if not legal:
                break
            if seat != me and not rivals_in_tree:
                self.rival_step(state, seat, legal)
                continue
            node = cursors[seat]
            if not node.known.issuperset(legal):
                self.rank(state, node, seat, legal)
            action, new = self.select(node, legal)
            path.append((node, action, seat))
            public = action if shared else game.public_action(state, seat, action)
            game.apply_legal(state, seat, action)
            if shared:
                child = node.child(action)
                cursors = [child] * players
            else:
                for observer in range(players):
                    cursors[observer] = cursors[observer].child(action if observer == seat else public)
            if new:
                break
        rewards = self.leaf(state, path[-1][2] if path else seat)
        backed = (rewards[me],) if self.preset.rivals == Rivals.RANDOM else rewards
        self.low = min(self.low, *backed)
        self.high = max(self.high, *backed)
        for visited, action, actor in path:
            visited.n[action] += 1
            visited.w[action] += rewards[actor]

    def rank(self, state: Any, node: Node, seat: int, legal: list[str]) -> None:
        """Rank the actions of `legal` the node has not seen by their one-step heuristic value for `seat`,
        and merge them into the order in which widening opens the node's actions (best first).

        With a `prior_weight`, each action's one-step reward is also its prior: it counts as `prior_weight`
        visits' worth of reward per rival seat.
        """
        new = [action for action in legal if action not in node.known]
        node.known.update(new)
        if len(legal) <= 1:
            node.order.extend(new)
            return
        value_of = node.prior
        if self.preset.prior_weight > 0:
            values = self.decision.one_step_rewards(state, seat, new)
            self.low, self.high = min(self.low, *values), max(self.high, *values)
        else:
            values = self.decision.one_step_values(state, seat, new)
        value_of.update(zip(new, values))
        if node.order:
            node.order.extend(new)
            node.order.sort(key=lambda action: -value_of.get(action, -math.inf))
        else:
            node.order = sorted(new, key=lambda action: -value_of[action])

    def select(self, node: Node, legal: list[str]) -> tuple[str, bool]:
        """The action to take at `node` among `legal`; whether it is new (an expansion)."""
        preset = self.preset
        node.visits += 1
        order = node.order
        limit = max(1, math.ceil(preset.widening * node.visits ** preset.widening_power))
        legal_set = None if len(order) == len(legal) else set(legal)  # equal lengths: the same actions
        candidates = []
        for action in order:
            if legal_set is None or action in legal_set:
                candidates.append(action)
                if len(candidates) >= limit:
                    break
        avail, n, w, prior = node.avail, node.n, node.w, node.prior
        weight = self.weight
        best_action, best_value = None, -math.inf
        log_c = preset.exploration
        low, spread = self.low, self.high - self.low
        if not spread > 0:
            low, spread = 0.0, 1.0
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
            if weight and action in prior:
                mean = (w[action] + weight * prior[action]) / (visits + weight)
            else:
                mean = w[action] / visits
            value = (mean - low) / spread + log_c * math.sqrt(math.log(seen) / visits)
            if value > best_value:
                best_action, best_value = action, value
        assert best_action is not None
        if best_action not in n:
            n[best_action], w[best_action] = 0, 0.0
            return best_action, True
        return best_action, False

    def rollout_step(self, state: Any, seat: int, legal: list[str]) -> None:
        """One rollout step for `seat` in place: the best one-step heuristic action of a few sampled
        (`RolloutPolicy.GREEDY`), or a random one."""
        decision = self.decision
        rng = decision.rng
        if self.preset.rollout_policy == RolloutPolicy.GREEDY and len(legal) > 1:
            if len(legal) > self.preset.rollout_sample:
                legal = rng.sample(legal, self.preset.rollout_sample)
            values = decision.one_step_values(state, seat, legal)
            decision.game.apply_legal(state, seat, pick_best(legal, values, rng)[0])
        else:
            decision.game.apply_legal(state, seat, rng.choice(legal))

    def rival_step(self, state: Any, seat: int, legal: list[str]) -> None:
        """A rival's step in place outside the tree: a uniformly random legal action with random rivals, the
        greedy player's choice with greedy rivals, else a rollout step."""
        decision = self.decision
        rivals = self.preset.rivals
        if rivals == Rivals.RANDOM:
            decision.game.apply_legal(state, seat, decision.rng.choice(legal))
        elif rivals == Rivals.GREEDY:
            action = decision.greedy_step(state, seat)
            if action is not None:
                decision.game.apply_legal(state, seat, action)
        else:
            self.rollout_step(state, seat, legal)

    def leaf(self, state: Any, mover: int) -> list[float]:
        """Roll out up to `rollout_depth` steps (in place: `state` is this iteration's own), then score the
        end or cut off with the heuristic. With random rivals a seat other than the searcher moves at
        random, and finishes its turn at random too, and under the "own" backup only the searcher is valued
        at a cut-off."""
        decision, preset = self.decision, self.preset
        game, rng, me = decision.game, decision.rng, decision.me
        random_rivals = preset.rivals == Rivals.RANDOM
        for _ in range(preset.rollout_depth):
            if game.is_over(state):
                break
            movers = game.to_move(state)
            seat = movers[0] if len(movers) == 1 else rng.choice(movers)
            step = self.rival_step if seat != me else self.rollout_step
            step(state, seat, game.legal_actions(state, seat))
            mover = seat
        if preset.finish_turn and mover != me and random_rivals:
            for _ in range(MODEL_STEP_CAP):
                if game.is_over(state) or game.to_move(state) != (mover,):
                    break
                game.apply_legal(state, mover, rng.choice(game.legal_actions(state, mover)))
        elif preset.finish_turn and not game.is_over(state) and game.to_move(state) == (mover,):
            state = decision.finish_turn(state, mover)
        if game.is_over(state):
            return decision.final(state)
        if random_rivals and decision.backup == Backup.OWN:
            rewards = [0.0] * decision.players  # no other seat's reward is backed up, and its own is all "own" needs
            rewards[me] = decision.seat_value(game, state, me)
            return rewards
        return decision.cutoff(state)
