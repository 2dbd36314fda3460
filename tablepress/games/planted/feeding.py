"""Feeding and propagation (rules.md, steps 4 and 5), and the feeding solver.

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


#: Boards (plants and growth) whose feeding sums are remembered by `best_gain`.
SUMS_CACHE_SIZE = 20_000
#: Per set of plants fed: L, W and F costs, their total, points covered, plants fully grown.
Sums = list[tuple[int, int, int, int, int, int]]
_sums: dict[tuple, tuple[PlantedCards, Sums]] = {}


def feeding_sums(cards: PlantedCards, plants: Sequence[int], growth: Sequence[int]) -> Sums:
    """For every set of the plants that can still grow (bit masks in increasing order, as `feedings` lists
    them): its L, W and F costs, their total, the points of the spaces it covers and the plants it makes
    fully grown. Remembered by the plants and their growth (a board's resources change far more often)."""
    key = (id(cards), tuple(plants), tuple(growth))  # the entry holds `cards`, so its id stays its own
    found = _sums.get(key)
    if found is not None:
        return found[1]
    open_positions = feedable(cards, plants, growth)
    if open_positions and open_positions[-1] == len(plants) - 1 and len(plants) > 1:
        # The last plant (one just bought) is the highest bit: the sets with it follow those without.
        plant = cards.plants[plants[-1]]
        cost, space, grows = plant.cost, plant.spaces[growth[-1]], int(growth[-1] + 1 == len(plant.spaces))
        without = feeding_sums(cards, plants[:-1], growth[:-1])
        sums = without + [(nl + cost[0], nw + cost[1], nf + cost[2], total + cost[0] + cost[1] + cost[2],
                           covered + space, grown + grows) for nl, nw, nf, total, covered, grown in without]
        _remember(key, cards, sums)
        return sums
    sums = [(0, 0, 0, 0, 0, 0)]
    for mask in range(1, 1 << len(open_positions)):
        low = mask & -mask
        pos = open_positions[low.bit_length() - 1]
        plant = cards.plants[plants[pos]]
        cost = plant.cost
        nl, nw, nf, total, covered, grown = sums[mask ^ low]
        sums.append((nl + cost[0], nw + cost[1], nf + cost[2], total + cost[0] + cost[1] + cost[2],
                     covered + plant.spaces[growth[pos]], grown + (growth[pos] + 1 == len(plant.spaces))))
    _remember(key, cards, sums)
    return sums


def _remember(key: tuple, cards: PlantedCards, sums: Sums) -> None:
    if len(_sums) >= SUMS_CACHE_SIZE:
        _sums.clear()
    _sums[key] = (cards, sums)


#: Per total cost of a set of plants fed: (value, L, W, F) of each such set, the highest value first, where
#: the value is the points it covers plus a given number of points per plant it makes fully grown.
Buckets = list[list[tuple[int, int, int, int]]]
_buckets: dict[tuple, tuple[PlantedCards, Buckets]] = {}


def feeding_buckets(cards: PlantedCards, plants: Sequence[int], growth: Sequence[int], per_grown: int) -> Buckets:
    """The sets of `feeding_sums` grouped by their total cost (see Buckets), each group by value, highest
    first (`per_grown` points for each plant a set makes fully grown). Remembered like the sums."""
    key = (id(cards), tuple(plants), tuple(growth), per_grown)
    found = _buckets.get(key)
    if found is not None:
        return found[1]
    sums = feeding_sums(cards, plants, growth)
    buckets: Buckets = [[] for _ in range(max(total for _, _, _, total, _, _ in sums) + 1)]
    for nl, nw, nf, total, covered, grown in sums:
        buckets[total].append((covered + per_grown * grown, nl, nw, nf))
    for bucket in buckets:
        bucket.sort(reverse=True)
    if len(_buckets) >= SUMS_CACHE_SIZE:
        _buckets.clear()
    _buckets[key] = (cards, buckets)
    return buckets


def best_gain(
    cards: PlantedCards,
    plants: Sequence[int],
    growth: Sequence[int],
    resources: Sequence[int],
    tool_kinds: Sequence[int],
    decoration_kinds: Sequence[int],
    propagation: int,
) -> int:
    """The gain of the solver's best feeding (`feedings(...)[0].gain`), found without listing the feedings.

    Whatever a set of plants costs, paying it leaves leftovers worth B - total (B, the budget: the L, W and F
    held plus one for every `thumbs_per_resource` Green Thumbs), so its propagation depends on its total cost
    alone, and no set costing more than B is affordable. For each total up to B, the first affordable set
    of the highest value is the best of that total.
    """
    per_thumb, per_token = cards.thumbs_per_resource, cards.leftovers_per_token
    have_l, have_w, have_f, have_g = resources
    budget = have_l + have_w + have_f + have_g // per_thumb
    if not budget:  # every growth costs at least one resource (cards.py): only feeding nothing is possible
        return 0
    per_grown = 0
    by_propagation = []
    for kind in decoration_kinds:
        deco = cards.decorations[kind]
        if deco.scores == "grown":
            per_grown += deco.points
        elif deco.scores == "propagation":
            by_propagation.append(deco)
    trays = seed_tray_bonus(cards, tool_kinds)
    buckets = feeding_buckets(cards, plants, growth, per_grown)
    best = None
    for total in range(min(budget, len(buckets) - 1) + 1):
        bucket = buckets[total]
        if not bucket:
            continue
        tokens = (budget - total) // per_token
        if tokens:
            tokens += trays
        extra = tokens
        for deco in by_propagation:
            extra += deco.points * ((propagation + tokens) // deco.per - propagation // deco.per)
        if best is not None and bucket[0][0] + extra <= best:
            continue
        for value, nl, nw, nf in bucket:
            if best is not None and value + extra <= best:
                break
            missing = (nl - have_l if nl > have_l else 0) + (nw - have_w if nw > have_w else 0) + \
                (nf - have_f if nf > have_f else 0)
            if missing * per_thumb <= have_g:
                best = value + extra
                break
    assert best is not None  # feeding nothing is always possible
    return best


#: Action texts of feedings, by card data, plants and positions fed (search lists feedings at every node).
_texts: dict[tuple, tuple[PlantedCards, str]] = {}


def feeding_text(cards: PlantedCards, plants: Sequence[int], feeding: Feeding) -> str:
    """The action text of a feeding: `feed Monstera+Aloe Vera` (board order) or `feed none`."""
    if not feeding.positions:
        return "feed none"
    key = (id(cards), tuple(plants), feeding.positions)  # the entry holds `cards`, so its id stays its own
    found = _texts.get(key)
    if found is not None:
        return found[1]
    text = "feed " + "+".join(cards.plants[plants[pos]].name for pos in feeding.positions)
    if len(_texts) >= SUMS_CACHE_SIZE:
        _texts.clear()
    _texts[key] = (cards, text)
    return text
