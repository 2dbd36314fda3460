"""The `ismcts` agent: Information-Set MCTS (Cowling, Powley & Whitehouse, 2012) for any game.

One search per decision, rooted at the deciding seat's information set. Each iteration

1. **determinizes**: draws one full state consistent with what the seat knows
   (`SeatInfo.determinize` with the agent's seeded generator) — the only way hidden information enters;
2. **selects** down the tree with UCB1 where an action's exploration term counts the iterations in
   which it was *available* (legal in that determinization), not the parent's visits;
   large action sets are opened by **progressive widening** in the order of the game's heuristic
   (the best-looking actions first, more as the node is visited; actions a node first meets in a later
   determinization — another drawn card, another hand — are ranked in too); each action's heuristic margin
   counts as a **prior** of `prior_weight` visits per rival seat, and at the root that prior is the
   greedy player's judgement (the margin after the seat's best continuation of its turn, averaged
   over a few determinizations) — the search starts from greedy's move and leaves it on evidence;
3. **expands** one new action, **rolls out** a few steps (random, or greedy-guided), lets the seat that
   moved last **finish its turn** greedily if it is still to move (a Flowers draw is not judged with
   the card still in hand) and cuts off with the game's heuristic (`evaluation.cutoff_margins`), or
   scores the end (`evaluation.final_margins`);
4. **backs up** one reward per seat; an edge's statistics are from the side of the seat acting there,
   so opponents are searched as players of their own interests (any number of players). The reward is
   each seat's margin over the best rival (`backup="best"`), or over the rivals' mean, or its own value
   (a game's `SEARCH` may choose by the number of players: Flowers, nearly a solitaire, backs up each
   seat's own value at every count). A game may hint an `end_bonus` B (by player count): the end of
   the game then rewards each seat its final value plus B times its share of the victory less its fair
   share, so that a search blind to its rivals until the end still weighs winning there (Flowers: 8
   points, 4 at 4 players).

**Rivals by policy** (`rivals="policy"`): the other seats do not search in the tree but move by rollout
steps (the best of a few sampled actions by their one-step value), so the tree is open-loop over the
searching seat's own decisions and an iteration reaches its next turn however many seats sit between —
with the rivals in the tree, 300 iterations at 4 players spend themselves on the rivals' first replies.
`rivals="random"` moves them by random legal actions instead, in the rollouts too, and values only the
searching seat after the root: 2-3x cheaper, where the rivals' choices hardly reach the searcher's value.
`rivals="greedy"` moves each rival as the greedy player would in that determinization (its whole turn looked
through, `greedy.action_values`, so a Flowers draw is valued by the best place for the card): against greedy
opponents the closest model, at about 1.3x the cost of policy. The determinization is one of the searcher's
samples, so a rival judging in it sees that sample's cards, never the true hidden ones.

**Root candidates** (`root_candidates=k`; a game's `heuristics.SEARCH` may ask for it): the tree is
replaced by a rollout improvement of greedy (Bertsekas): the k root actions greedy judges best are each
rolled out on the same determinizations (common random numbers), every seat playing as the greedy player
would in that determinization (its whole-turn lookahead, `greedy.action_values`) until the seat's turn
has come round `rollout_turns` times, then the heuristic cut-off; the best mean wins. Each rollout is one
iteration. Against greedy opponents this models them exactly but for the hidden cards. With
**sequential halving** (`root_halving`; Karnin, Koren & Somekh 2013) more of greedy's ranking is tried
for the same budget: the budget is split over ceil(log2 k) rounds, each a number of shared
determinizations on which every surviving candidate is rolled out once, and after each round the half
with the lower mean reward is dropped; the best mean of the last two wins. (Searching the
seat's own tree with greedy-modelled rivals was tried too: By This 3p 38 % of 60, Pressed 18 % of 20 —
no better than the plain search, so it is not kept.)

Where a game gives fast one-step values (`Heuristics.step_values`), ranking a node's new actions,
greedy rollout steps and finishing a turn use them instead of cloning, applying and evaluating every
action: the same values, so the same search for the same seed; only a chosen action is applied.

Hidden actions: when a game's actions are all public (`Game.public_actions`) there is one tree
(SO-ISMCTS). Otherwise every seat has its own tree (MO-ISMCTS): the seat to move selects in its own
tree, and each tree follows the edge labelled with what its owner sees of the action — the action
itself for the actor, `Game.public_action` for everyone else. So a seat never searches as if it knew
another's secret choice, and simultaneous choices (several seats in `to_move`, acting one after
another inside the search) are made without seeing each other. Choices other seats made before the
search are hidden in the state and resampled by `determinize`.

`ismcts:N` runs N iterations a decision (default 300); `ismcts:2s` runs for two seconds (then results
depend on the machine's speed, not only on the seed). The agent keeps no tree between decisions and
holds only plain data, so it pickles for process pools and Ray.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, NamedTuple

from ..core.game import Game
from .base import Agent, Seconds, SeatInfo
from .evaluation import (BACKUPS, Evaluate, StepValues, TurnGoesOn, cutoff_margins, fast_step_values_for, final_margins,
                         heuristic_for, margin_step_values_for, search_hints_for, seat_value_for, turn_goes_on_for)
from .greedy import action_values, follow_turn, others_guessed, pick_best

DEFAULT_ITERATIONS = 300
#: Rollout steps after the tree, and actions a greedy rollout step tries, unless the game suggests others.
ROLLOUT_DEPTH = 5
ROLLOUT_SAMPLE = 4
#: How many visits' worth of reward the heuristic's judgement of an action counts for, per rival seat:
#: with more rivals a visit's reward (a margin over the best of them) is noisier evidence.
PRIOR_WEIGHT = 5.0
#: Determinizations the root's prior (the greedy player's judgement) is averaged over.
PRIOR_SAMPLES = 4
#: How many root actions (the best by the greedy judgement) are compared by greedy rollouts on shared
#: determinizations; 0: a tree search over all of them (`root_candidates`), unless the game suggests more.
ROOT_CANDIDATES = 0
#: With root candidates, how many of the searching seat's own turns a rollout plays (the first is the one
#: the candidate is in) before the heuristic cut-off, unless the game suggests others (`rollout_turns`).
ROLLOUT_TURNS = 1
#: How the other seats move inside the search (`rivals`): "tree", each searched as a player of its own
#: interests in the tree; "policy", by rollout steps (`_rollout_step`), so the tree holds only the searching
#: seat's own decisions (an open-loop tree that reaches its next turn within a few iterations); "random",
#: as "policy" but each rival step is a uniformly random legal action, in the tree and in the rollouts, and
#: only the searcher is valued after the root (its rewards alone are backed up): the cheapest search, for
#: games where, with the "own" backup, the rivals' choices hardly reach the searcher's value; "greedy", as
#: "policy" but each rival step is the greedy player's choice in the determinization (`_greedy_step`).
RIVALS = ("tree", "policy", "random", "greedy")
#: The most steps a greedy rollout takes (a guard; a round of turns is far fewer).
MODEL_STEP_CAP = 200


class _Fast(NamedTuple):
    """A game's fast one-step values for one search: `steps` its `evaluate` after each action, `margins`
    the search's margin after each action (None where the game has no fast path for it)."""

    steps: StepValues | None
    margins: StepValues | None


def _after(game: Game, state: Any, seat: int, action: str) -> Any:
    """A clone of `state` with `action` applied."""
    child = game.clone(state)
    game.apply_legal(child, seat, action)
    return child


#: No fast path: every one-step value by cloning and evaluating.
NO_FAST = _Fast(None, None)


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


def _hinted(hints: dict[str, Any], name: str, players: int, default: Any, valid: Any, expected: str) -> Any:
    """A game's search hint `name` for this many players (`{name}_by_players`: {players: value}), else for
    any count (`name`), else `default`. A hint `valid` refuses, or keyed by anything but a whole number, is
    refused whatever the count (`expected` says what is wanted), so a mistyped hint (`{"3": "own"}`) cannot
    quietly fall back."""
    by_players = hints.get(f"{name}_by_players", {})
    asked = [hints.get(name, default), *(by_players.values() if isinstance(by_players, dict) else ())]
    if (not isinstance(by_players, dict) or any(type(count) is not int for count in by_players)
            or not all(map(valid, asked))):
        raise ValueError(f"the game's search hints ask for {name} {hints.get(name)!r} and by players "
                         f"{by_players!r}: each must be {expected}, keyed by a whole number")
    return by_players.get(players, hints.get(name, default))


def _is_points(value: Any) -> bool:
    """Whether a hint is a number of points (or None: not set)."""
    return value is None or (type(value) in (int, float) and math.isfinite(value))


def _hinted_choice(hints: dict[str, Any], name: str, players: int, allowed: tuple[str, ...], default: str) -> str:
    """`_hinted` for a setting that is one of `allowed`."""
    return _hinted(hints, name, players, default, allowed.__contains__, f"one of {', '.join(allowed)}")


def _hinted_count(hints: dict[str, Any], name: str, players: int, default: int, least: int) -> int:
    """`_hinted` for a whole number of at least `least`."""
    return _hinted(hints, name, players, default, lambda value: type(value) is int and value >= least,
                   f"a whole number of {least} or more")


def _count_group(root: Node, group: Node) -> None:
    """Add one group's candidate rollouts (one shared determinization) to the root's, and empty the group.

    Only whole groups are counted, so every candidate's mean is over the same determinizations (a budget
    ending inside a group drops that group's rollouts)."""
    for action, visits in group.n.items():
        root.n[action] = root.n.get(action, 0) + visits
        root.w[action] = root.w.get(action, 0.0) + group.w[action]
    group.n.clear()
    group.w.clear()


def halving_rounds(budget: int, candidates: int) -> list[int]:
    """Sequential halving's plan (Karnin, Koren & Somekh, 2013) for `candidates` root candidates: the
    rollout groups (one rollout of every survivor on a shared determinization) of each round, the budget
    split evenly over ceil(log2 candidates) rounds, the lower half dropped after each but the last."""
    rounds = max(1, math.ceil(math.log2(candidates))) if candidates > 1 else 1
    plan, alive = [], candidates
    for _ in range(rounds):
        plan.append(max(1, budget // rounds // alive))
        alive = max(2, math.ceil(alive / 2)) if alive > 2 else alive
    return plan


def _mean_then_prior(root: Node, action: str) -> tuple[float, float]:
    """A root candidate's mean rollout reward, then its prior (the order candidates are judged in)."""
    return root.w[action] / root.n[action], root.prior.get(action, 0.0)


def _best_half(root: Node, survivors: list[str]) -> list[str]:
    """The better half (rounded up, at least 2) of `survivors` by mean rollout reward, in the root's order."""
    keep = max(2, math.ceil(len(survivors) / 2))
    if len(survivors) <= keep:
        return survivors
    ranked = sorted(survivors, key=lambda action: _mean_then_prior(root, action), reverse=True)[:keep]
    return [action for action in survivors if action in ranked]


class IsmctsAgent(Agent):
    """ISMCTS with availability-count UCB, heuristic progressive widening and a depth cut-off.

    `budget` is iterations a decision (an int) or seconds (`Seconds`). The other parameters tune the
    search: `exploration` (UCB constant; margins are scaled into [0, 1] by the range seen in the
    search), `widening` and `widening_power`
    (a node visited v times considers ceil(widening · v^widening_power) actions, in heuristic order),
    `rollout_depth` (steps played out after the tree before the heuristic cut-off),
    `rollout_policy` ("random" or "greedy": the best one-step heuristic action) and `rollout_sample`
    (a greedy rollout step tries at most this many actions). Rollout settings not given come from the
    game's `heuristics.SEARCH`, else `ROLLOUT_DEPTH` and `ROLLOUT_SAMPLE`. `prior_weight` is how
    many visits the heuristic's judgement of an action is worth per rival seat (0: none) and
    `prior_samples` how many determinizations the root's judgement is averaged over (0: the root
    gets the one-step judgement like every other node). `finish_turn` (default on) lets the last
    mover finish its turn before a cut-off. `backup` is the reward each seat backs up (evaluation.BACKUPS:
    its margin over the best rival, over the mean of the rivals, or its own value); when not given, the
    game's `heuristics.SEARCH` may set it (`backup`, or `backup_by_players`: {players: backup}), else "best".
    `root_candidates` (compare only greedy's k best root actions by greedy rollouts on shared
    determinizations, choosing the best mean; 0: the tree) and `rollout_turns` (the seat's own turns such
    a rollout reaches before the cut-off) come from the game's `heuristics.SEARCH` when not given, else
    `ROOT_CANDIDATES`, `ROLLOUT_TURNS` (both may be hinted per player count: `root_candidates_by_players`,
    `rollout_turns_by_players`); `root_halving` (sequential halving over the k candidates instead of
    the same number of rollouts each; with a time budget, the rounds of the default 300 iterations, the last
    one running on to the deadline) from the agent, else the game's `root_halving` hint, else off.
    `rivals` ("tree", "policy", "random" or "greedy", `RIVALS`) says whether
    the other seats search in the tree or move inside it by rollout steps, at random or as the greedy player
    would; when not given, the game's `heuristics.SEARCH` may set it (`rivals`, or `rivals_by_players`),
    else "tree". The game's `end_bonus` hint (or `end_bonus_by_players`) scores the end of the game for
    winning (`evaluation.final_margins`); without it a win adds half a point.
    """

    def __init__(
        self,
        seed: int = 0,
        budget: int | float | None = None,
        exploration: float = 0.5,
        widening: float = 2.0,
        widening_power: float = 0.5,
        rollout_depth: int | None = None,
        rollout_policy: str = "greedy",
        rollout_sample: int | None = None,
        prior_weight: float = PRIOR_WEIGHT,
        prior_samples: int = PRIOR_SAMPLES,
        finish_turn: bool = True,
        backup: str | None = None,
        rollout_turns: int | None = None,
        root_candidates: int | None = None,
        rivals: str | None = None,
        root_halving: bool | None = None,
    ):
        if budget is not None and (isinstance(budget, bool) or not budget > 0):
            raise ValueError(f"ismcts takes a positive budget, not {budget!r}")
        if isinstance(budget, float) and not isinstance(budget, Seconds):
            budget = Seconds(budget)
        if rollout_policy not in ("random", "greedy"):
            raise ValueError(f"rollout_policy must be 'random' or 'greedy', not {rollout_policy!r}")
        if prior_weight < 0 or prior_samples < 0:
            raise ValueError(f"prior_weight and prior_samples must not be negative, not {prior_weight}, {prior_samples}")
        if (rollout_depth is not None and rollout_depth < 0) or (rollout_sample is not None and rollout_sample < 1):
            raise ValueError(f"rollout_depth must be 0 or more and rollout_sample 1 or more, "
                             f"not {rollout_depth}, {rollout_sample}")
        if backup is not None and backup not in BACKUPS:
            raise ValueError(f"backup must be one of {', '.join(BACKUPS)}, not {backup!r}")
        if rollout_turns is not None and rollout_turns < 1:
            raise ValueError(f"rollout_turns must be 1 or more, not {rollout_turns}")
        if root_candidates is not None and root_candidates < 0:
            raise ValueError(f"root_candidates must be 0 (a tree search) or more, not {root_candidates}")
        if root_halving is not None and not isinstance(root_halving, bool):
            raise ValueError(f"root_halving must be true or false, not {root_halving!r}")
        if rivals is not None and rivals not in RIVALS:
            raise ValueError(f"rivals must be one of {', '.join(RIVALS)}, not {rivals!r}")
        self.rivals = rivals
        self._rivals = rivals or "tree"
        self.root_candidates = root_candidates
        self._candidates = 0
        self.root_halving = root_halving
        self._halving = False
        self.rollout_turns = rollout_turns
        self._turns = ROLLOUT_TURNS
        self.backup = backup
        self._backup = backup or "best"
        self._end_bonus: float | None = None
        self._low, self._high = 0.0, 0.0
        self.rng = random.Random(seed)
        self.budget: int | Seconds = budget if budget is not None else DEFAULT_ITERATIONS
        self.exploration = exploration
        self.widening = widening
        self.widening_power = widening_power
        self.rollout_depth = rollout_depth
        self.rollout_policy = rollout_policy
        self.rollout_sample = rollout_sample
        self.prior_weight = prior_weight
        self.prior_samples = prior_samples
        self.finish_turn = finish_turn
        self._players = 0
        self._goes_on: TurnGoesOn | None = None
        self._weight = 0.0
        self._depth, self._sample = ROLLOUT_DEPTH, ROLLOUT_SAMPLE
        #: Iterations run in the last decision (for benchmarks).
        self.last_iterations = 0

    def reseed(self, seed: int) -> None:
        """Restart from `seed`."""
        self.rng = random.Random(seed)

    # ----- the search ----------------------------------------------------------------------------
    def choose(self, info: SeatInfo) -> str:
        """Search from the seat's information set and return the most visited root action (with
        `root_candidates`, the candidate of the best mean rollout reward)."""
        actions = info.legal_actions()
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        game = info.game
        evaluate = heuristic_for(game)
        hints = search_hints_for(game)
        self._sample = (self.rollout_sample if self.rollout_sample is not None
                        else hints.get("rollout_sample", ROLLOUT_SAMPLE))
        goes_on = self._goes_on = turn_goes_on_for(game)
        self._halving = self.root_halving if self.root_halving is not None else hints.get("root_halving", False)
        if not isinstance(self._halving, bool):
            raise ValueError(f"the game's search hints ask for root_halving {self._halving!r}: it must be true or false")
        survivors: list[str] = []  # the root candidates still compared
        rounds: list[int] = []  # with halving, the groups of each round still to come
        roots: list[Node] = []
        fast = NO_FAST  # set with the first determinization, once the number of seats is known
        flat: list[tuple[str, Any]] = []  # (candidate, determinization) rollouts still to run in this group
        group = Node()  # this group's rollouts, counted at the root once every candidate has had its own
        iterations = 0
        self._low, self._high = math.inf, -math.inf
        deadline = time.perf_counter() + float(self.budget) if isinstance(self.budget, Seconds) else None
        while True:
            if deadline is None:
                if iterations >= self.budget:
                    break
            elif iterations and time.perf_counter() >= deadline:
                break
            if flat:
                action, shared_state = flat.pop()
                self._flat_rollout(game, shared_state, group, action, evaluate, info.seat, fast, goes_on)
                iterations += 1
                if not flat:
                    _count_group(roots[info.seat], group)
                    if rounds:
                        rounds[0] -= 1
                        if rounds[0] <= 0 and len(rounds) > 1:
                            rounds.pop(0)
                            survivors = _best_half(roots[info.seat], survivors)
                continue
            state = info.determinize(self.rng)
            if not roots:
                players = self._players = len(game.scores(state))
                self._backup = self._backup_for(hints, players)
                self._rivals = self._rivals_for(hints, players)
                self._candidates = (self.root_candidates if self.root_candidates is not None
                                    else _hinted_count(hints, "root_candidates", players, ROOT_CANDIDATES, 0))
                self._turns = self.rollout_turns or _hinted_count(hints, "rollout_turns", players, ROLLOUT_TURNS, 1)
                self._end_bonus = _hinted(hints, "end_bonus", players, None, _is_points, "a number of points")
                fast = _Fast(fast_step_values_for(game), margin_step_values_for(game, self._backup))
                self._weight = self.prior_weight * max(1, players - 1)
                self._depth = self._rollout_depth(hints, players)
                roots = [Node()] * players if game.public_actions else [Node() for _ in range(players)]
                if self._rivals == "random":
                    # Only the searcher's rewards are valued; every seat's standing now sets their scale.
                    standing = cutoff_margins(game, state, seat_value_for(game), players, self._backup)
                    self._low, self._high = min(standing), max(standing)
                if self.prior_samples > 0 and self.prior_weight > 0:
                    self._judge_root(info, state, roots[info.seat], actions, evaluate, fast)
            if self._candidates:
                if not survivors:
                    if not roots[info.seat].order:
                        self._rank(game, state, roots[info.seat], info.seat, actions, evaluate, fast)
                    survivors = roots[info.seat].order[:self._candidates]
                    if self._halving:
                        budget = self.budget if deadline is None else DEFAULT_ITERATIONS
                        rounds = halving_rounds(int(budget), len(survivors))
                flat = [(action, state) for action in reversed(survivors)]
                continue
            self._iterate(game, state, roots, evaluate, info.seat, fast)
            iterations += 1
        self.last_iterations = iterations
        if self._candidates:
            if not roots[info.seat].n:  # the budget ended inside the first group: it is all there is
                _count_group(roots[info.seat], group)
            return self._best_mean(roots[info.seat], survivors)
        return self._best(roots[info.seat], actions)

    def _flat_rollout(self, game: Game, state: Any, root: Node, action: str, evaluate: Evaluate, me: int,
                      fast: _Fast, goes_on: TurnGoesOn | None) -> None:
        """One rollout of a root candidate (`root_candidates` mode) on a copy of a determinization that
        every candidate of the group shares: the candidate, then everyone as the greedy player until the
        seat's turn comes round `rollout_turns` times (common random numbers: the candidates differ by
        their own effect, not by the draw of hidden cards)."""
        child = _after(game, state, me, action)
        reward = self._greedy_rollout(game, child, evaluate, me, fast, goes_on)[me]
        root.n[action] = root.n.get(action, 0) + 1
        root.w[action] = root.w.get(action, 0.0) + reward

    def _best_mean(self, root: Node, survivors: list[str]) -> str:
        """The surviving root candidate with the best mean rollout reward; ties by the prior, then the order."""
        return max((a for a in survivors if root.n.get(a)), key=lambda action: _mean_then_prior(root, action))

    def _backup_for(self, hints: dict[str, Any], players: int) -> str:
        """The reward backed up: the agent's own setting, else the game's hint, else "best"."""
        return self.backup or _hinted_choice(hints, "backup", players, BACKUPS, "best")

    def _rivals_for(self, hints: dict[str, Any], players: int) -> str:
        """How rivals move in the search: the agent's own setting, else the game's hint, else "tree"."""
        return self.rivals or _hinted_choice(hints, "rivals", players, RIVALS, "tree")

    def _rollout_depth(self, hints: dict[str, Any], players: int) -> int:
        """Rollout steps: the agent's own setting, else the game's hint (per rival seat, or fixed), else the default."""
        if self.rollout_depth is not None:
            return self.rollout_depth
        if "rollout_depth_per_rival" in hints:
            return int(hints["rollout_depth_per_rival"]) * max(1, players - 1)
        return int(hints.get("rollout_depth", ROLLOUT_DEPTH))

    def _best(self, root: Node, actions: list[str]) -> str:
        """The most visited legal root action; ties by mean reward, then at random."""
        def key(action: str) -> tuple[int, float]:
            visits = root.n.get(action, 0)
            return visits, (root.w[action] / visits if visits else 0.0)

        best = max(key(a) for a in actions)
        return self.rng.choice([a for a in actions if key(a) == best])

    def _iterate(self, game: Game, state: Any, roots: list[Node], evaluate: Evaluate, seat: int,
                 fast: _Fast = NO_FAST) -> None:
        """One iteration on one determinization: select, expand, roll out, back up.

        `roots[p]` is the tree of observer p (all the same tree when every action is public). The seat
        to move selects in its own tree; every tree then follows the edge labelled with what its
        observer sees of the action (the action itself for the actor, `public_action` for the others).
        """
        shared = len(roots) == 1 or roots[0] is roots[-1]
        cursors = list(roots)
        path: list[tuple[Node, str, int]] = []
        players = len(roots)
        me = seat
        while not game.is_over(state):
            if path:
                movers = game.to_move(state)
                if not movers:
                    break
                seat = movers[0]
            legal = game.legal_actions(state, seat)
            if not legal:
                break
            if seat != me and self._rivals != "tree":
                self._rival_step(game, state, seat, legal, evaluate, fast)
                continue
            node = cursors[seat]
            if not node.known.issuperset(legal):
                self._rank(game, state, node, seat, legal, evaluate, fast)
            action, new = self._select(node, legal)
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
        rewards = self._leaf(game, state, evaluate, players, path[-1][2] if path else seat, fast, me)
        backed = (rewards[me],) if self._rivals == "random" else rewards
        self._low = min(self._low, *backed)
        self._high = max(self._high, *backed)
        for visited, action, actor in path:
            visited.n[action] += 1
            visited.w[action] += rewards[actor]

    def _greedy_step(self, game: Game, state: Any, seat: int, evaluate: Evaluate, fast: _Fast,
                       goes_on: TurnGoesOn | None) -> str | None:
        """The greedy player's action for `seat` in this determinized state (its whole turn looked
        through, as `greedy.action_values` does; ties by the agent's generator), or None if it has none."""
        legal = game.legal_actions(state, seat)
        if len(legal) <= 1:
            return legal[0] if legal else None
        values = action_values(game, [state], seat, legal, evaluate, self.rng, step_values=fast.steps,
                               turn_goes_on=goes_on)
        return pick_best(legal, values, self.rng)[0]

    def _greedy_rollout(self, game: Game, state: Any, evaluate: Evaluate, me: int, fast: _Fast = NO_FAST,
                       goes_on: TurnGoesOn | None = None) -> list[float]:
        """Play on from a leaf with every seat (`me` too) making the greedy player's choices until `me`'s
        turn has come round `rollout_turns` times, then cut off with the heuristic (or score the end).

        The leaf is in `me`'s turn (it has just acted): the rest of that turn is finished greedily first."""
        my_turn, turns = True, 0
        for _ in range(MODEL_STEP_CAP):
            if game.is_over(state):
                break
            movers = game.to_move(state)
            if not movers:
                break
            seat = next((s for s in movers if s != me), me)
            if seat == me and not my_turn:
                turns += 1
                if turns >= self._turns:
                    break
            my_turn = seat == me
            action = self._greedy_step(game, state, seat, evaluate, fast, goes_on)
            if action is None:
                break
            game.apply_legal(state, seat, action)
        if game.is_over(state):
            return final_margins(game, state, self._backup, self._end_bonus)
        return cutoff_margins(game, state, seat_value_for(game), self._players, self._backup)

    def _rank(self, game: Game, state: Any, node: Node, seat: int, legal: list[str], evaluate: Evaluate,
              fast: _Fast = NO_FAST) -> None:
        """Rank the actions of `legal` the node has not seen by their one-step heuristic value for `seat`,
        and merge them into the order in which widening opens the node's actions (best first).

        A node meets new actions when another determinization allows other moves (a different card
        drawn, another hand). With `prior_weight`, each action's one-step margin is also its prior: it
        counts as `prior_weight` visits' worth of reward per rival seat.
        """
        new = [action for action in legal if action not in node.known]
        node.known.update(new)
        if len(legal) <= 1:
            node.order.extend(new)
            return
        value_of = node.prior
        if self.prior_weight > 0:
            if fast.margins is not None:
                values = fast.margins(game, state, seat, new)
            else:
                values = [self._reward(game, _after(game, state, seat, action), seat) for action in new]
            self._low, self._high = min(self._low, *values), max(self._high, *values)
        elif fast.steps is not None:
            values = fast.steps(game, state, seat, new)
        else:
            values = [evaluate(game, _after(game, state, seat, action), seat) for action in new]
        value_of.update(zip(new, values))
        if node.order:
            node.order.extend(new)
            node.order.sort(key=lambda action: -value_of.get(action, -math.inf))
        else:
            node.order = sorted(new, key=lambda action: -value_of[action])

    def _judge_root(self, info: SeatInfo, state: Any, root: Node, actions: list[str], evaluate: Evaluate,
                    fast: _Fast = NO_FAST) -> None:
        """Give the root the greedy player's judgement as its prior: each action's margin after the seat's
        best continuation of its turn, averaged over `prior_samples` determinizations (one without hidden
        information), and open the root's actions in that order. In a simultaneous choice each sample first
        gets the game's guesses at the others' choices (`greedy.others_guessed`)."""
        game, seat = info.game, info.seat
        samples = self.prior_samples if game.hidden_information else 1
        states = [state] + [info.determinize(self.rng) for _ in range(samples - 1)]
        totals = [0.0] * len(actions)
        for sample in states:
            sample = others_guessed(game, sample, seat, self.rng)
            for index, action in enumerate(actions):
                child, _ = follow_turn(game, _after(game, sample, seat, action), seat, evaluate, self.rng,
                                       step_values=fast.steps)
                totals[index] += self._reward(game, child, seat)
        for action, total in zip(actions, totals):
            value = root.prior[action] = total / len(states)
            self._low, self._high = min(self._low, value), max(self._high, value)
        root.order = sorted(actions, key=lambda a: -root.prior[a])
        root.known.update(actions)

    def _reward(self, game: Game, state: Any, seat: int) -> float:
        """`seat`'s reward at a cut-off in `state`: under the "own" backup its value alone (no other seat's
        is needed), else its margin (`cutoff_margins`)."""
        seat_value = seat_value_for(game)
        if self._backup == "own":
            return seat_value(game, state, seat)
        return cutoff_margins(game, state, seat_value, self._players, self._backup)[seat]

    def _select(self, node: Node, legal: list[str]) -> tuple[str, bool]:
        """The action to take at `node` among `legal`; whether it is new (an expansion)."""
        node.visits += 1
        order = node.order
        limit = max(1, math.ceil(self.widening * node.visits ** self.widening_power))
        legal_set = None if len(order) == len(legal) else set(legal)  # equal lengths: the same actions
        candidates = []
        for action in order:
            if legal_set is None or action in legal_set:
                candidates.append(action)
                if len(candidates) >= limit:
                    break
        avail, n, w, prior = node.avail, node.n, node.w, node.prior
        weight = self._weight
        best_action, best_value = None, -math.inf
        log_c = self.exploration
        # Margins in points are scaled into [0, 1] by the range seen so far in this search.
        low, spread = self._low, self._high - self._low
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

    def _rollout_step(self, game: Game, state: Any, seat: int, legal: list[str], evaluate: Evaluate,
                      fast: _Fast) -> None:
        """One rollout step for `seat` in place: the best one-step heuristic action of a few sampled
        (`rollout_policy` "greedy"), or a random one."""
        rng = self.rng
        if self.rollout_policy == "greedy" and len(legal) > 1:
            if len(legal) > self._sample:
                legal = rng.sample(legal, self._sample)
            if fast.steps is not None:
                values = fast.steps(game, state, seat, legal)
            else:
                values = [evaluate(game, _after(game, state, seat, action), seat) for action in legal]
            game.apply_legal(state, seat, pick_best(legal, values, rng)[0])
        else:
            game.apply_legal(state, seat, rng.choice(legal))

    def _rival_step(self, game: Game, state: Any, seat: int, legal: list[str], evaluate: Evaluate,
                    fast: _Fast) -> None:
        """A rival's step in place outside the tree: a uniformly random legal action with random rivals, the
        greedy player's choice with greedy rivals, else a rollout step."""
        if self._rivals == "random":
            game.apply_legal(state, seat, self.rng.choice(legal))
        elif self._rivals == "greedy":
            action = self._greedy_step(game, state, seat, evaluate, fast, self._goes_on)
            if action is not None:
                game.apply_legal(state, seat, action)
        else:
            self._rollout_step(game, state, seat, legal, evaluate, fast)

    def _leaf(self, game: Game, state: Any, evaluate: Evaluate, players: int, mover: int,
              fast: _Fast = NO_FAST, me: int | None = None) -> list[float]:
        """Roll out up to `rollout_depth` steps (in place: `state` is this iteration's own), then score the
        end or cut off with the heuristic. With random rivals a seat other than `me` (the searcher) moves at
        random, and finishes its turn at random too, and under the "own" backup only `me` is valued at a
        cut-off."""
        rng = self.rng
        for _ in range(self._depth):
            if game.is_over(state):
                break
            movers = game.to_move(state)
            seat = movers[0] if len(movers) == 1 else rng.choice(movers)
            step = self._rival_step if seat != me else self._rollout_step
            step(game, state, seat, game.legal_actions(state, seat), evaluate, fast)
            mover = seat
        if self.finish_turn and mover != me and self._rivals == "random":
            for _ in range(MODEL_STEP_CAP):
                if game.is_over(state) or game.to_move(state) != (mover,):
                    break
                game.apply_legal(state, mover, rng.choice(game.legal_actions(state, mover)))
        elif self.finish_turn and not game.is_over(state) and game.to_move(state) == (mover,):
            state, _ = follow_turn(game, state, mover, evaluate, rng, step_values=fast.steps)
        if game.is_over(state):
            return final_margins(game, state, self._backup, self._end_bonus)
        if me is not None and self._rivals == "random" and self._backup == "own":
            rewards = [0.0] * players  # no other seat's reward is backed up, and its own is all "own" needs
            rewards[me] = seat_value_for(game)(game, state, me)
            return rewards
        return cutoff_margins(game, state, seat_value_for(game), players, self._backup)


