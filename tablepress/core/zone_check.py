"""The checker's test of a zoned game's declaration against its views: what the zones say a seat knows, a view shows.

A game that takes its views from its zones cannot show what it declares hidden. A game that writes its own
view (its tables read its shape) can still declare a zone wrongly: a face-down pile declared face up is never
dealt anew by a determinization, so search would know it. The leak test catches a view showing more than the
zones say; this catches the other way round. At positions of the checker's playouts one card of each zone a
seat is declared to know (face up, its owner's, or a `Seen` fact) is changed for a card of another name, on
a copy: what everyone knows must change the public view (a spectator's), what one seat knows that seat's
private view. Every card probed that no view shows is a problem (a face-down stack declared face up whose
top alone is shown is one; so is a hand declared face up in a game whose view shows it to its owner alone);
each zone and knower is probed until it has been shown `ENOUGH` times.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .zoned import ZonedGame
from .zones import OWNER, UP, Known, Zone

EVERYONE, OWNERS, SEERS = "everyone", "its owner", "the seat that saw it"
#: Times a (zone, knower) pair is seen shown before it is probed no more.
ENOUGH = 3


@dataclass
class ZoneProbe:
    """How often each (zone, knower) pair was shown by the view it must be in, and how often it was not."""

    shown: Counter = field(default_factory=Counter)
    missed: Counter = field(default_factory=Counter)

    def note(self, game: ZonedGame, state: Any, players: int, rng: random.Random) -> None:
        """Probe one known card of each (zone, knower) pair not shown `ENOUGH` times, in a copy of `state`."""
        copy = game.clone(state)
        for key, slots in _known_slots(game, copy, players).items():
            if self.shown[key] >= ENOUGH or not slots:
                continue
            zone, pile, index, seat = rng.choice(slots)
            shown = _shows(game, copy, zone, pile, index, seat, rng)
            if shown is not None:
                (self.shown if shown else self.missed)[key] += 1

    def problems(self) -> list[str]:
        """The (zone, knower) pairs declared known of which the view did not show some card, one phrase each."""
        return [
            f"zone {zone!r} is declared known to {who}, but changing one of its cards changed no "
            f"{'public view' if who == EVERYONE else 'private view of ' + who} ({self.missed[(zone, who)]} of "
            f"{self.missed[(zone, who)] + self.shown[(zone, who)]} tries): declare what the views show (a face-down "
            f"zone is dealt anew)"
            for zone, who in sorted(self.missed)
        ]


def _known_slots(game: ZonedGame, state: Any, players: int) -> dict[tuple[str, str], list[tuple]]:
    """Every slot a seat is declared to know, by (zone, knower): (zone, pile, index, seat or None: everyone)."""
    layout = game.layout
    public = layout.facts(state, game.seen(state, None))
    private = [layout.facts(state, game.seen(state, seat)) for seat in range(players)]
    found: dict[tuple[str, str], list[tuple]] = {}
    for zone in layout.zones:
        if zone.nested:
            continue
        for pile, cards in layout.piles(zone, state):
            for index in range(len(cards)):
                if zone.face is UP or _has(public, zone, pile, index):
                    found.setdefault((zone.name, EVERYONE), []).append((zone, pile, index, None))
                    continue
                if zone.face is OWNER and pile is not None and pile < players:
                    found.setdefault((zone.name, OWNERS), []).append((zone, pile, index, pile))
                for seat in range(players):
                    if _has(private[seat], zone, pile, index):
                        found.setdefault((zone.name, SEERS), []).append((zone, pile, index, seat))
    return found


def _has(known: Known, zone: Zone, pile: int | None, index: int) -> bool:
    have = known.get((zone.name, pile))
    return have is True or bool(have) and index in have  # type: ignore[operator]


def _shows(game: ZonedGame, state: Any, zone: Zone, pile: int | None, index: int, seat: int | None,
           rng: random.Random) -> bool | None:
    """Whether changing the card at the slot changes the private view of `seat` (None: the public view); None
    when no card of another name exists or the changed state cannot be viewed (no evidence)."""
    cards = game.layout.cards_of(zone)
    holder = getattr(state, zone.field)
    if pile is not None:
        holder = holder if zone.single else holder[pile]
    at = pile if zone.single else index
    true = getattr(state, zone.field) if zone.single and pile is None else holder[at]
    others = [card for card in cards.ids() if cards.name(card) != cards.name(true)]
    if not others:
        return None
    before = _look(game, state, seat)
    _put(state, zone, holder, at, rng.choice(others))
    try:
        after = _look(game, state, seat)
    except Exception:  # noqa: BLE001 - a changed state may be impossible: then it is no evidence
        return None
    finally:
        _put(state, zone, holder, at, true)
    return before != after


def _put(state: Any, zone: Zone, holder: Any, at: int | None, card: Any) -> None:
    if zone.single and at is None:
        setattr(state, zone.field, card)
    else:
        holder[at] = card


def _look(game: ZonedGame, state: Any, seat: int | None) -> str:
    """The public view (seat None) or the seat's private view, as text."""
    return json.dumps(game.view(state, seat)["public" if seat is None else "private"], sort_keys=True, default=str)
