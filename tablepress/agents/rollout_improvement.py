"""A rollout improvement of the greedy player (Bertsekas): the `RolloutImprovement` preset's algorithm.

The `candidates` root actions greedy judges best are each rolled out on the same determinizations (common
random numbers: the candidates differ by their own effect, not by the draw of hidden cards), every seat
playing as the greedy player would in that determinization (its whole-turn lookahead) until the searcher's
turn has come round `rollout_turns` times, then the heuristic cut-off; the best mean wins. Each rollout is
one iteration. With **sequential halving** (Karnin, Koren & Somekh 2013) more of greedy's ranking is tried
for the same budget: the budget is split over ceil(log2 k) rounds, each a number of shared determinizations
on which every surviving candidate is rolled out once, and after each round the half with the lower mean
reward is dropped; the best mean of the last two wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..core.match import SeatInfo
from .allowance import Allowance
from .decision import Decision, after
from .presets import RolloutImprovement

#: The most greedy steps a rollout takes (a guard; a round of turns is far fewer).
MODEL_STEP_CAP = 200


@dataclass
class Tally:
    """Rollouts by root candidate: how many (`n`) and their summed reward (`w`)."""

    n: dict[str, int] = field(default_factory=dict)
    w: dict[str, float] = field(default_factory=dict)

    def add(self, action: str, visits: int, reward: float) -> None:
        """Count `visits` more rollouts of `action` with `reward` in all."""
        self.n[action] = self.n.get(action, 0) + visits
        self.w[action] = self.w.get(action, 0.0) + reward

    def absorb(self, group: "Tally") -> None:
        """Add one group's rollouts (one shared determinization) to these, and empty the group.

        Only whole groups are counted, so every candidate's mean is over the same determinizations (a budget
        ending inside a group drops that group's rollouts)."""
        for action, visits in group.n.items():
            self.add(action, visits, group.w[action])
        group.n.clear()
        group.w.clear()

    def mean(self, action: str) -> float:
        """`action`'s mean rollout reward."""
        return self.w[action] / self.n[action]


def halving_rounds(budget: int, candidates: int) -> list[int]:
    """Sequential halving's plan for `candidates` root candidates: the rollout groups (one rollout of every
    survivor on a shared determinization) of each round, the budget split evenly over ceil(log2 candidates)
    rounds, the lower half dropped after each but the last."""
    rounds = max(1, math.ceil(math.log2(candidates))) if candidates > 1 else 1
    plan, alive = [], candidates
    for _ in range(rounds):
        plan.append(max(1, budget // rounds // alive))
        alive = max(2, math.ceil(alive / 2)) if alive > 2 else alive
    return plan


def best_half(tally: Tally, prior: dict[str, float], survivors: list[str]) -> list[str]:
    """The better half (rounded up, at least 2) of `survivors` by mean rollout reward, then prior, in their order."""
    keep = max(2, math.ceil(len(survivors) / 2))
    if len(survivors) <= keep:
        return survivors
    ranked = sorted(survivors, key=lambda action: (tally.mean(action), prior.get(action, 0.0)), reverse=True)[:keep]
    return [action for action in survivors if action in ranked]


def rollout_improvement(info: SeatInfo, actions: list[str], state: Any, decision: Decision,
                        preset: RolloutImprovement, allowance: Allowance, plan_budget: int) -> tuple[str, int]:
    """The candidate of the best mean rollout reward from `state` (the first determinization) on, within
    `allowance` (ties by greedy's judgement, then greedy's order); also the rollouts run. With halving, the
    rounds are planned for `plan_budget` rollouts."""
    me = decision.me
    if preset.prior_samples > 0:
        prior = decision.greedy_judgement(info, state, actions, preset.prior_samples)
    else:
        prior = dict(zip(actions, decision.one_step_rewards(state, me, actions)))
    survivors = sorted(actions, key=lambda action: -prior[action])[:preset.candidates]
    rounds = halving_rounds(plan_budget, len(survivors)) if preset.halving else []
    tally, group = Tally(), Tally()
    iterations = 0
    while True:
        for action in survivors:
            if allowance.spent(iterations):
                break
            group.add(action, 1, greedy_rollout(decision, after(decision.game, state, me, action),
                                                preset.rollout_turns)[me])
            iterations += 1
        else:
            tally.absorb(group)
            if rounds:
                rounds[0] -= 1
                if rounds[0] <= 0 and len(rounds) > 1:
                    rounds.pop(0)
                    survivors = best_half(tally, prior, survivors)
            if not allowance.spent(iterations):
                state = info.determinize(decision.rng)
                continue
        break
    if not tally.n:  # the budget ended inside the first group: it is all there is
        tally.absorb(group)
    return best_mean(tally, prior, survivors), iterations


def best_mean(tally: Tally, prior: dict[str, float], survivors: list[str]) -> str:
    """The surviving candidate with the best mean rollout reward; ties by the prior, then the order."""
    return max((a for a in survivors if tally.n.get(a)), key=lambda a: (tally.mean(a), prior.get(a, 0.0)))


def greedy_rollout(decision: Decision, state: Any, turns: int) -> list[float]:
    """Play on from a root candidate (in place) with every seat, the searcher too, making the greedy player's
    choices until the searcher's turn has come round `turns` times, then every seat's reward at the cut-off
    (or at the end). The searcher has just acted: the rest of its turn is finished greedily first."""
    game, me = decision.game, decision.me
    my_turn, seen = True, 0
    for _ in range(MODEL_STEP_CAP):
        if game.is_over(state):
            break
        movers = game.to_move(state)
        if not movers:
            break
        seat = next((s for s in movers if s != me), me)
        if seat == me and not my_turn:
            seen += 1
            if seen >= turns:
                break
        my_turn = seat == me
        action = decision.greedy_step(state, seat)
        if action is None:
            break
        game.apply_legal(state, seat, action)
    return decision.scored(state)
