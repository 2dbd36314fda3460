"""Zones, as physical games have them: a game's cards and where they lie, declared once.

A deck is a face-down ordered pile, a hand is seen by its owner, a bed is face up. A game declares its
cards (`Cards`: identities, names, printed fields, backs) and its zones (`Zone`: the state field that
holds them, shared or one per seat, ordered or kept sorted, face up, face down or seen by its owner), and
says in `Seen` facts what seats have seen beyond that (perfect recall: the top of a face-up stack, a hand
a seat held and passed on). From the declaration (`Layout`) come, with no code of the game's own:

- `card_counts`: every card in every zone, for the conservation test;
- `redeal`: the heart of a determinization: every card a seat cannot know is pooled with the others of
  its set and back, the pool sorted, shuffled once and dealt back slot by slot in the order the zones are
  declared (per-seat zones seat by seat); what the seat knows stays; sorted zones are sorted again;
- `hidden_zones`: the cards nobody knows, by zone (and the chance to come), for the checker;
- `view_zones`: each zone's cards as one seat (or everyone) may see them, for the default views.

A zone's `face` is what the rules let seats see; `Seen` facts add slots. What zones cannot say (a
constraint between zones, a hidden choice) a game resamples in a hook (see `core.zoned.ZonedGame`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NamedTuple

from .errors import TablepressError
from .rng import shuffle


class Face(str, Enum):
    """Who sees a zone's cards: everyone (`UP`), nobody (`DOWN`) or the seat it belongs to (`OWNER`)."""

    UP = "up"
    DOWN = "down"
    OWNER = "owner"


UP, DOWN, OWNER = Face.UP, Face.DOWN, Face.OWNER


@dataclass(frozen=True)
class Cards:
    """A set of cards with identities: card `first + i` is called `names[i]`.

    `fields` are what is printed on each card (`{"suit": (...), "rank": (...)}`, one value per card);
    `backs`, where backs differ (`"resource"`, `"item"`), what each card's back shows: cards with
    different backs are never exchanged by a determinization. `keys` are what `card_counts` counts each
    card as (default: its name, so copies of a card count together).
    """

    kind: str
    names: tuple[str, ...]
    fields: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    backs: tuple[Hashable, ...] | None = None
    first: int = 0
    keys: tuple[Hashable, ...] | None = None

    def __post_init__(self) -> None:
        size = len(self.names)
        for name, values in self.fields.items():
            if len(values) != size:
                raise TablepressError(f"cards {self.kind!r}: field {name!r} has {len(values)} values for {size} cards")
        for what in ("backs", "keys"):
            values = getattr(self, what)
            if values is not None and len(values) != size:
                raise TablepressError(f"cards {self.kind!r}: {what} has {len(values)} values for {size} cards")

    def name(self, card: int) -> str:
        """The name of a card (`Red 3`)."""
        return self.names[card - self.first]

    def key(self, card: int) -> Hashable:
        """What `card_counts` counts the card as."""
        return self.names[card - self.first] if self.keys is None else self.keys[card - self.first]

    def record(self, card: int) -> dict[str, Any]:
        """The card's printed fields by name."""
        index = card - self.first
        return {name: values[index] for name, values in self.fields.items()}

    def ids(self) -> range:
        """Every card id of the set."""
        return range(self.first, self.first + len(self.names))


@dataclass(frozen=True)
class Zone:
    """Where cards lie: the state field `field` and who sees what is in it.

    Shapes: a pile (a list of cards, its top last as the game likes), `piles` (a list of piles, e.g.
    three draw stacks), `single` (one card, or `empty`), `nested` (cards anywhere inside lists, tuples and
    dict values: counted and shown, never dealt by a determinization). `per_seat`: the field holds one of
    these per seat (`state.hands[seat]`), owned by that seat. `ordered=False`: the game keeps the pile
    sorted, so its order tells nothing. `redeal=False`: the cards' places follow rules zones cannot say,
    and the game's own hook resamples them (the zone still counts its cards and is shown).
    """

    name: str
    field: str
    face: Face = DOWN
    per_seat: bool = False
    piles: bool = False
    single: bool = False
    nested: bool = False
    ordered: bool = True
    cards: str = ""
    empty: Any = None
    redeal: bool = True

    def __post_init__(self) -> None:
        if self.face is OWNER and not self.per_seat:
            raise TablepressError(f"zone {self.name!r}: only a zone per seat has an owner")
        if self.per_seat and self.piles:
            raise TablepressError(f"zone {self.name!r}: per_seat already makes one pile per seat")
        if self.single and self.nested:
            raise TablepressError(f"zone {self.name!r} cannot be both single and nested")

    @property
    def several(self) -> bool:
        """Whether the field holds several piles (one per seat, or shared ones)."""
        return self.per_seat or self.piles

    def pile_name(self, pile: int | None) -> str:
        """How the checker and views name one pile of the zone (`stack 2`, `hand of seat 1`)."""
        if pile is None:
            return self.name
        return f"{self.name} of seat {pile}" if self.per_seat else f"{self.name} {pile + 1}"


class Seen(NamedTuple):
    """Slots of a zone a seat knows beyond what the zone's face shows it (perfect recall).

    `pile` picks one pile of a zone of piles (whose, for a zone per seat; None: every pile); the slots
    known are `start:stop` of it (as in a slice), narrowed to those holding one of `cards` if given.
    """

    zone: str
    pile: int | None = None
    start: int = 0
    stop: int | None = None
    cards: frozenset | None = None


Facts = Iterable[Seen]
#: Per (zone name, pile): True (all of it) or the indices known (a set, or a range for a slice).
Known = dict[tuple[str, int | None], "bool | set[int] | range"]


def flatten(value: Any, empty: Any = None) -> Iterator[Any]:
    """Every card inside `value` (lists, tuples and dict values, in order), `empty` slots left out."""
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from flatten(item, empty)
    elif isinstance(value, dict):
        for item in value.values():
            yield from flatten(item, empty)
    elif value is not None and value != empty:
        yield value


class Layout:
    """A game's cards and zones (see the module docstring); `chance` names the state's seed of future chance."""

    def __init__(self, cards: Cards | Sequence[Cards], zones: Sequence[Zone], chance: str | None = None):
        sets = (cards,) if isinstance(cards, Cards) else tuple(cards)
        if not sets:
            raise TablepressError("a layout needs at least one set of cards")
        self.sets: dict[str, Cards] = {item.kind: item for item in sets}
        self.zones: tuple[Zone, ...] = tuple(zones)
        self.chance = chance
        self._default = sets[0].kind
        names = [zone.name for zone in self.zones]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise TablepressError(f"zone {twice[0]!r} is declared twice")
        for zone in self.zones:
            if zone.cards and zone.cards not in self.sets:
                raise TablepressError(f"zone {zone.name!r} holds cards {zone.cards!r}, which are not declared")
            if zone.nested and zone.redeal and zone.face is not UP:
                raise TablepressError(f"zone {zone.name!r} is nested: it can only be face up or left to a hook "
                                      f"(redeal=False)")
        self.by_name = {zone.name: zone for zone in self.zones}
        self._dealt = tuple(zone for zone in self.zones if zone.face is not UP and zone.redeal)
        self._empty = {zone.name: zone.empty for zone in self.zones}
        #: What `redeal` needs of each dealt zone, looked up once.
        self._plan = tuple(
            (zone.name, zone.field, zone.several, zone.single, zone.face is OWNER, zone.ordered,
             self.cards_of(zone).kind, self.cards_of(zone).backs, self.cards_of(zone).first)
            for zone in self._dealt
        )

    @property
    def hidden(self) -> bool:
        """Whether some seat may not know everything: a zone not face up, or chance to come."""
        return self.chance is not None or any(zone.face is not UP for zone in self.zones)

    def cards_of(self, zone: Zone) -> Cards:
        """The set of cards a zone holds."""
        return self.sets[zone.cards or self._default]

    # ----- reading ---------------------------------------------------------------------------------
    def piles(self, zone: Zone, state: Any) -> list[tuple[int | None, list]]:
        """The zone's piles in `state` as (pile index or None, its cards as a list): a single slot is a
        list of its card (or empty), nested cards are flattened (copies: only plain piles are the state's own)."""
        value = getattr(state, zone.field)
        if not zone.several:
            return [(None, self._as_list(zone, value))]
        return [(index, self._as_list(zone, item)) for index, item in enumerate(value)]

    @staticmethod
    def _as_list(zone: Zone, value: Any) -> list:
        if zone.single:
            return [] if value is None or value == zone.empty else [value]
        if zone.nested:
            return list(flatten(value, zone.empty))
        return value

    def card_counts(self, state: Any) -> Counter:
        """Every card in every zone, counted as its set's key."""
        counts: Counter = Counter()
        for zone in self.zones:
            key = self.cards_of(zone).key
            for _, cards in self.piles(zone, state):
                counts.update(map(key, cards))
        return counts

    def known(self, zone: Zone, pile: int | None, seat: int | None) -> bool:
        """Whether `seat` (None: everyone) sees the whole pile by the zone's face alone."""
        return zone.face is UP or (zone.face is OWNER and seat is not None and pile == seat)

    def facts(self, state: Any, facts: Facts, into: Known | None = None) -> Known:
        """`facts` resolved against `state` into the slots known, by (zone name, pile)."""
        known: Known = {} if into is None else into
        for fact in facts:
            zone = self.by_name.get(fact.zone)
            if zone is None:
                raise TablepressError(f"a Seen fact names zone {fact.zone!r}, which is not declared")
            value = getattr(state, zone.field)
            if not zone.several:
                piles: Any = ((None, value),)
            elif fact.pile is None:
                piles = enumerate(value)
            else:
                piles = ((fact.pile, value[fact.pile]),)
            plain = not (zone.single or zone.nested)
            for pile, cards in piles:
                if not plain:
                    cards = self._as_list(zone, cards)
                slots: Any = range(len(cards))[fact.start:fact.stop]
                if fact.cards is not None:
                    wanted = fact.cards
                    slots = [index for index in slots if cards[index] in wanted]
                if not slots:
                    continue
                where = (zone.name, pile)
                have = known.get(where)
                if have is True:
                    continue
                if have is None:
                    # a slice stays a range (most facts are one): `_unknown` deals around it at once
                    known[where] = True if len(slots) == len(cards) else slots if type(slots) is range else set(slots)
                    continue
                have = known[where] = set(have) | set(slots)
                if len(have) == len(cards):
                    known[where] = True
        return known

    # ----- determinizing ---------------------------------------------------------------------------
    def redeal(self, sample: Any, seat: int, rng: random.Random, known: Known) -> None:
        """Deal anew, in place, every card of `sample` that `seat` cannot know (see the module docstring).

        `known` is `facts` of what the seat has seen, resolved on the true state (which `sample` copies).
        """
        groups: dict[Hashable, list[tuple[list, Any]]] = {}
        writes: list[tuple[str, int | None, list]] = []
        resort: list[list] = []
        for name, field_name, several, single, owned, ordered, kind, backs, first in self._plan:
            value = getattr(sample, field_name)
            for pile, holder in (enumerate(value) if several else ((None, value),)):
                if single:
                    if holder is None or holder == self._empty[name]:
                        continue
                    holder = [holder]
                    writes.append((field_name, pile, holder))
                elif not holder:
                    continue
                if owned and pile == seat:
                    continue
                have = known.get((name, pile)) if known else None
                if have is True:
                    continue
                if not ordered:
                    resort.append(holder)
                slots: Any = range(len(holder)) if not have else _unknown(have, len(holder))
                if backs is None:
                    group = groups.get(kind)
                    if group is None:
                        group = groups[kind] = []
                    group.append((holder, slots))
                    continue
                for index in slots:
                    groups.setdefault((kind, backs[holder[index] - first]), []).append((holder, (index,)))
        for parts in groups.values():
            pool: list = []
            for holder, slots in parts:
                if type(slots) is range:
                    pool += holder[slots.start:slots.stop]
                else:
                    pool += [holder[index] for index in slots]
            pool.sort()
            shuffle(rng, pool)
            at = 0
            for holder, slots in parts:
                if type(slots) is range:
                    end = at + len(slots)
                    holder[slots.start:slots.stop] = pool[at:end]
                    at = end
                else:
                    for index in slots:
                        holder[index] = pool[at]
                        at += 1
        for holder in resort:
            holder.sort()
        for field_name, pile, holder in writes:
            if pile is None:
                setattr(sample, field_name, holder[0])
            else:
                getattr(sample, field_name)[pile] = holder[0]

    def rechance(self, sample: Any, rng: random.Random) -> None:
        """Draw the chance to come anew (the state's `chance` field), if the game has any."""
        if self.chance is not None:
            setattr(sample, self.chance, rng.getrandbits(63))

    # ----- what nobody knows -------------------------------------------------------------------------
    def hidden_zones(self, state: Any, known_to_any: Known) -> dict[str, Any]:
        """The cards of every dealt, not owner-only zone that no seat knows (`known_to_any`), by pile name,
        in their true order (a single card's zone only while it holds one), then the chance to come."""
        zones: dict[str, Any] = {}
        for zone in self._dealt:
            if zone.face is OWNER:
                continue
            for pile, cards in self.piles(zone, state):
                have = known_to_any.get((zone.name, pile))
                if not have:
                    unknown = cards  # the pile itself, as games gave it before zones
                elif have is True:
                    unknown = []
                else:
                    unknown = [card for index, card in enumerate(cards) if index not in have]
                if zone.single and not unknown:
                    continue
                zones[zone.pile_name(pile) if zone.piles else zone.name] = unknown
        if self.chance is not None:
            zones["chance"] = getattr(state, self.chance)
        return zones

    # ----- what a seat sees --------------------------------------------------------------------------
    def view_zones(self, state: Any, seat: int | None, known: Known, public: Known) -> list[dict[str, Any]]:
        """The zones as `seat` sees them beyond the public view (None: the public view itself): one entry
        per pile, {"zone", "seat" or "pile", "face", "ordered", "cards": a name per card, None where unseen}.

        For a seat, only piles where it sees more than everyone are listed. `known`/`public` are the
        resolved facts of the seat and of everyone.
        """
        entries = []
        for zone in self.zones:
            names = self.cards_of(zone).name
            for pile, cards in self.piles(zone, state):
                shown = self._shown(zone, pile, None, public, len(cards))
                if seat is not None:
                    mine = self._shown(zone, pile, seat, known, len(cards)) | shown
                    if mine == shown:
                        continue
                    shown = mine
                entry: dict[str, Any] = {"zone": zone.name}
                if zone.per_seat:
                    entry["seat"] = pile
                elif zone.piles:
                    entry["pile"] = pile + 1  # type: ignore[operator]
                entry["face"] = zone.face.value
                entry["ordered"] = zone.ordered
                entry["cards"] = [names(card) if index in shown else None for index, card in enumerate(cards)]
                entries.append(entry)
        return entries

    def _shown(self, zone: Zone, pile: int | None, seat: int | None, known: Known, size: int) -> set[int]:
        if self.known(zone, pile, seat):
            return set(range(size))
        have = known.get((zone.name, pile))
        return set(range(size)) if have is True else set(have or ())


def _unknown(known: set[int] | range, size: int) -> range | list[int]:
    """The slots of a pile of `size` not in `known` (a range when they run together, as they mostly do)."""
    if type(known) is range:
        low, high = known.start, known.stop - 1
    else:
        low, high = min(known), max(known)
    if high - low + 1 == len(known):
        if high == size - 1:
            return range(low)
        if low == 0:
            return range(high + 1, size)
    return [index for index in range(size) if index not in known]


def resolve(layout: Layout, state: Any, seen: Callable[[int | None], Facts], seats: Iterable[int | None]) -> Known:
    """The facts `seen(seat)` of every seat in `seats`, resolved together (what any of them knows)."""
    known: Known = {}
    for seat in seats:
        layout.facts(state, seen(seat), known)
    return known
