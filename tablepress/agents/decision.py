"""What both search algorithms share for one decision: the game's heuristics, its fast paths, the rewards
under the chosen backup, the greedy player's step and the greedy judgement of the root actions."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..core.game import Game
from ..core.match import SeatInfo
from ..core.package import Evaluate, StepValues, TurnGoesOn
from .evaluation import fast_step_values_for, heuristic_for, margin_step_values_for, seat_value_for, turn_goes_on_for
from .greedy import action_values, follow_turn, others_guessed, pick_best
from .presets import Backup
from .rewards import cutoff_margins, final_margins


def after(game: Game, state: Any, seat: int, action: str) -> Any:
    """A clone of `state` with `action` applied."""
    child = game.clone(state)
    game.apply_legal(child, seat, action)
    return child


@dataclass
class Decision:
    """One search's view of the game: `me` searches among `players`, drawing on `rng`.

    `steps` are the game's fast one-step `evaluate` values and `margins` its fast one-step rewards under
    `backup` (None where the game has no fast path for them: each child is then cloned and judged).
    """

    game: Game
    me: int
    players: int
    rng: random.Random
    backup: Backup
    end_bonus: float | None
    evaluate: Evaluate
    seat_value: Evaluate
    steps: StepValues | None
    margins: StepValues | None
    goes_on: TurnGoesOn | None

    @classmethod
    def of(cls, game: Game, me: int, players: int, rng: random.Random, backup: Backup,
           end_bonus: float | None) -> "Decision":
        """The decision's context, with the game's heuristics read once."""
        return cls(game, me, players, rng, backup, end_bonus, heuristic_for(game), seat_value_for(game),
                   fast_step_values_for(game), margin_step_values_for(game, backup), turn_goes_on_for(game))

    def reward(self, state: Any, seat: int) -> float:
        """`seat`'s reward at a cut-off in `state`: under the "own" backup its value alone (no other seat's
        is needed), else its margin (`cutoff_margins`)."""
        if self.backup == Backup.OWN:
            return self.seat_value(self.game, state, seat)
        return self.cutoff(state)[seat]

    def cutoff(self, state: Any) -> list[float]:
        """Every seat's reward at a heuristic cut-off."""
        return cutoff_margins(self.game, state, self.seat_value, self.players, self.backup)

    def final(self, state: Any) -> list[float]:
        """Every seat's reward at the end of the game."""
        return final_margins(self.game, state, self.backup, self.end_bonus)

    def scored(self, state: Any) -> list[float]:
        """Every seat's reward: the end's if the game is over, else the cut-off's."""
        return self.final(state) if self.game.is_over(state) else self.cutoff(state)

    def one_step_rewards(self, state: Any, seat: int, actions: list[str]) -> list[float]:
        """`seat`'s reward after each of `actions` (fast where the game allows)."""
        if self.margins is not None:
            return self.margins(self.game, state, seat, actions)
        return [self.reward(after(self.game, state, seat, action), seat) for action in actions]

    def one_step_values(self, state: Any, seat: int, actions: list[str]) -> list[float]:
        """The game's `evaluate` for `seat` after each of `actions` (fast where the game allows)."""
        if self.steps is not None:
            return self.steps(self.game, state, seat, actions)
        return [self.evaluate(self.game, after(self.game, state, seat, action), seat) for action in actions]

    def greedy_step(self, state: Any, seat: int) -> str | None:
        """The greedy player's action for `seat` in this determinized state (its whole turn looked
        through, as `greedy.action_values` does; ties by the search's generator), or None if it has none."""
        legal = self.game.legal_actions(state, seat)
        if len(legal) <= 1:
            return legal[0] if legal else None
        values = action_values(self.game, [state], seat, legal, self.evaluate, self.rng, step_values=self.steps,
                               turn_goes_on=self.goes_on)
        return pick_best(legal, values, self.rng)[0]

    def finish_turn(self, state: Any, seat: int) -> Any:
        """The state once `seat` has finished its turn greedily (`greedy.follow_turn`)."""
        return follow_turn(self.game, state, seat, self.evaluate, self.rng, step_values=self.steps)[0]

    def greedy_judgement(self, info: SeatInfo, state: Any, actions: list[str], samples: int) -> dict[str, float]:
        """Each root action's reward after the seat's best continuation of its turn, averaged over `samples`
        determinizations (`state` first; one without hidden information). In a simultaneous choice each
        sample first gets the game's guesses at the others' choices (`greedy.others_guessed`)."""
        game, seat = self.game, self.me
        count = samples if game.hidden_information else 1
        states = [state] + [info.determinize(self.rng) for _ in range(count - 1)]
        totals = [0.0] * len(actions)
        for sample in states:
            sample = others_guessed(game, sample, seat, self.rng)
            for index, action in enumerate(actions):
                totals[index] += self.reward(self.finish_turn(after(game, sample, seat, action), seat), seat)
        return {action: total / len(states) for action, total in zip(actions, totals)}
