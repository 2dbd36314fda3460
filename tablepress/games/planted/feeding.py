"""Feeding and propagation (rules/planted.md, steps 4 and 5), and the feeding solver.

A feeding is the set of plants a player grows this round. Which Green Thumbs stand in for what follows
from the set: the player pays every cost from their own resources where they can and two Green Thumbs
for each resource still missing. Any other payment leaves the same propagation value (two Green Thumbs
count as one leftover resource either way), so the set alone decides the score.

The solver scores every feasible set by the change of the player's total — covered spaces, the
propagation that follows (Seed Tray included) and decorations that depend on them (fully grown
plants, propagation tokens) — and offers the best first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import G, PlantedCards
from .scoring import decoration_points


@dataclass(frozen=True)
class Feeding:
    """One way to feed: board positions of the plants grown, and what it brings this round."""

    positions: tuple[int, ...]
    thumbs: int  # Green Thumbs paid for missing resources
    covered: int  # points of the spaces covered
    propagated: int  # propagation tokens taken afterwards (Seed Tray included)
    gain: int  # the change of the player's total score


def propagation_tokens(cards: PlantedCards, resources: Sequence[int], seed_trays: int) -> int:
    """Tokens from leftover resources: every 2 leftovers (2 Green Thumbs count as 1) give 1, plus Seed Trays."""
    value = resources[0] + resources[1] + resources[2] + resources[G] // cards.thumbs_per_resource
    tokens = value // cards.leftovers_per_token
    return tokens + seed_trays if tokens else 0


def seed_tray_bonus(cards: PlantedCards, tool_kinds: Sequence[int]) -> int:
    """Extra propagation tokens from the player's Seed Trays (and any other `propagate` tools)."""
    return sum(cards.tools[k].amount for k in tool_kinds if cards.tools[k].effect == "propagate")


def pay(cards: PlantedCards, resources: Sequence[int], need: Sequence[int]) -> tuple[list[int], int] | None:
    """Resources after paying `need` (L, W, F), using Green Thumbs for what is missing; None if unaffordable.

    Also returns the number of Green Thumbs used.
    """
    left = list(resources)
    missing = 0
    for r in range(3):
        if need[r] > left[r]:
            missing += need[r] - left[r]
            left[r] = 0
        else:
            left[r] -= need[r]
    thumbs = missing * cards.thumbs_per_resource
    if thumbs > left[G]:
        return None
    left[G] -= thumbs
    return left, thumbs


def feedable(cards: PlantedCards, plants: Sequence[int], growth: Sequence[int]) -> list[int]:
    """Board positions of plants that can still grow (not fully grown)."""
    return [i for i, (p, t) in enumerate(zip(plants, growth)) if t < len(cards.plants[p].spaces)]


def feedings(
    cards: PlantedCards,
    plants: Sequence[int],
    growth: Sequence[int],
    resources: Sequence[int],
    tool_kinds: Sequence[int],
    decoration_kinds: Sequence[int],
    propagation: int,
) -> list[Feeding]:
    """Every legal feeding, the solver's best first, then the others (feeding nothing first among them).

    Best: the highest gain; ties go to more growth tokens on plants (the game's tie-break), then fewer
    Green Thumbs spent, then the earliest in the listing order.
    """
    open_positions = feedable(cards, plants, growth)
    trays = seed_tray_bonus(cards, tool_kinds)
    type_counts: dict[str, int] = {}
    grown = 0
    for p, t in zip(plants, growth):
        plant = cards.plants[p]
        type_counts[plant.type] = type_counts.get(plant.type, 0) + 1
        grown += t >= len(plant.spaces)
    decos = [cards.decorations[k] for k in decoration_kinds]
    dynamic = [d for d in decos if d.scores in ("grown", "propagation")]
    tools = len(tool_kinds)
    before = sum(decoration_points(d, tools, type_counts, grown, propagation) for d in dynamic)
    have_l, have_w, have_f, have_g = resources
    have_basic = have_l + have_w + have_f
    per_thumb, per_token = cards.thumbs_per_resource, cards.leftovers_per_token
    # per-subset sums built from the subset without its lowest plant (masks in increasing order)
    size = 1 << len(open_positions)
    need_l, need_w, need_f = [0] * size, [0] * size, [0] * size
    covered_of, grown_of = [0] * size, [0] * size
    chosen_of: list[tuple[int, ...]] = [()] * size
    options: list[Feeding] = []
    for mask in range(size):
        if mask:
            low = mask & -mask
            prev, pos = mask ^ low, open_positions[low.bit_length() - 1]
            plant = cards.plants[plants[pos]]
            cost = plant.cost
            need_l[mask] = need_l[prev] + cost[0]
            need_w[mask] = need_w[prev] + cost[1]
            need_f[mask] = need_f[prev] + cost[2]
            covered_of[mask] = covered_of[prev] + plant.spaces[growth[pos]]
            grown_of[mask] = grown_of[prev] + (growth[pos] + 1 == len(plant.spaces))
            chosen_of[mask] = (pos,) + chosen_of[prev]
        nl, nw, nf = need_l[mask], need_w[mask], need_f[mask]
        missing = (nl - have_l if nl > have_l else 0) + (nw - have_w if nw > have_w else 0) + \
            (nf - have_f if nf > have_f else 0)
        thumbs = missing * per_thumb
        if thumbs > have_g:
            continue
        value = have_basic - (nl + nw + nf) + missing + (have_g - thumbs) // per_thumb
        tokens = value // per_token
        if tokens:
            tokens += trays
        covered = covered_of[mask]
        after = before
        if dynamic:
            after = sum(decoration_points(d, tools, type_counts, grown + grown_of[mask], propagation + tokens)
                        for d in dynamic)
        options.append(Feeding(chosen_of[mask], thumbs, covered, tokens, covered + tokens + after - before))
    best = max(range(len(options)),
               key=lambda i: (options[i].gain, len(options[i].positions), -options[i].thumbs, -i))
    return [options[best]] + options[:best] + options[best + 1:]


def feeding_text(cards: PlantedCards, plants: Sequence[int], feeding: Feeding) -> str:
    """The action text of a feeding: `feed Monstera+Aloe Vera` (board order) or `feed none`."""
    if not feeding.positions:
        return "feed none"
    return "feed " + "+".join(cards.plants[plants[pos]].name for pos in feeding.positions)
