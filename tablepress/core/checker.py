"""The forward-model checker: properties every game must have, for every player count and option.

Each game's tests call `check_game` for every player count (and option set). It plays many random
games through `core.match.Match` and asserts that

- random playouts terminate, and a seat asked to move always has a legal action;
- the same seed gives the same game, and replaying a record reproduces every state;
- a clone is equal to its original and shares no list, dict, set or object with it: playing on the
  clone leaves the original as it was;
- cards are conserved: the multiset of all cards in all zones never changes;
- views leak nothing: `public` is the same for every seat and JSON-ready; a seat's view and legal
  actions are identical in every determinization for that seat; a determinization depends only on
  what the seat knows (determinizing a determinization with the same generator gives the same state);
- determinizations resample everything a seat cannot know: over the run, every other seat's private
  view and every zone of `hidden_zones` (that could differ) differs from the truth in some sample;
- card by card, at the deal (before anyone has acted, when a seat knows only its own cards and the public
  setup) no slot of what a seat cannot see (another seat's private view, a hidden zone) holds the true
  card in more than 1 in `KEPT_CHANCE_DENOMINATOR` determinizations over the run (a binomial test with
  false-alarm rate `FALSE_ALARM` per run; later positions may legitimately pin cards down);
- no face-down cards hide outside the declarations: at the deal (when nobody has seen a card another
  view does not show), a list of cards in the state whose cards no view shows and no hidden zone names
  (the checker changes one and watches every view and zone) must be changed by determinize;
- for a game that declares zones (`core.zoned.ZonedGame`), what the zones say everyone knows the public view
  shows, and what they say one seat knows its private view (`core.zone_check`): a face-down pile or a hand
  declared face up would never be dealt anew;
- illegal actions are refused: random texts, another seat's or an earlier position's legal actions,
  legal actions with one word swapped (a card not in hand) and off-turn seats, offered through
  `Match.act` and `Game.apply`, must raise IllegalAction and change nothing.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import pickle
import random
import string
from collections import Counter, deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction
from .game import Game
from .match import Match
from .zone_check import ZoneProbe
from .zoned import ZonedGame

#: Random actions played on a clone to show that it shares nothing with its original.
CLONE_ACTIONS = 3
#: An honest determinization puts the true card back in one slot at most this often over a run (as a
#: fraction 1 / KEPT_CHANCE_DENOMINATOR): more is a card that search would see.
KEPT_CHANCE_DENOMINATOR = 2
#: The chance that an honest game fails the kept-card test in one run (shared out over every slot tested).
FALSE_ALARM = 1e-6
#: Determinizations per seat at the deal of each deep playout, where the kept-card test samples.
DEAL_SAMPLES = 8
#: Illegal actions offered at each step of a deep playout.
REFUSALS = 5
#: Cards of a list the face-down search changes (each for a few others) before judging what sees them.
PROBE_SLOTS = 3
#: Rounds of positions (one per seat) before the current one whose legal actions are offered again.
RECENT_POSITIONS = 3


class CheckFailure(AssertionError):
    """A forward-model property that does not hold; the message says which, where and how to reproduce."""


@dataclass
class CheckReport:
    """What the checker ran: counts a test can assert on and a person can read."""

    game: str
    players: int
    options: dict[str, Any]
    playouts: int = 0
    actions: int = 0
    max_actions: int = 0
    leak_checks: int = 0
    resampled: int = 0
    refusals: int = 0


@dataclass
class _Hidden:
    """What a run has seen of what seats cannot know: which of it could vary, and which did vary.

    Keys are (seat, other seat) for private views and (seat, zone name) for hidden zones.
    """

    private_seen: set[tuple[int, int]] = field(default_factory=set)
    private_varied: set[tuple[int, int]] = field(default_factory=set)
    zone_seen: set[tuple[int, str]] = field(default_factory=set)
    zone_varied: set[tuple[int, str]] = field(default_factory=set)
    slots: "_Slots" = field(default_factory=lambda: _Slots())
    face_down: "_FaceDown" = field(default_factory=lambda: _FaceDown())
    zones: ZoneProbe = field(default_factory=ZoneProbe)

    def problems(self) -> list[str]:
        """What determinize never resampled or kept too often, one phrase per seat, zone or slot."""
        kept = self.face_down.problems()
        kept += [
            f"determinize keeps seat {other}'s real private cards (sampling for {seats}): search would see them"
            for other, seats in _by_second(self.private_seen - self.private_varied)
        ]
        kept += [
            f"determinize never changes the hidden zone {zone!r} (sampling for {seats}): search would know it"
            for zone, seats in _by_second(self.zone_seen - self.zone_varied)
        ]
        return kept + self.slots.problems() + self.zones.problems()


def _by_second(keys: set[tuple[int, Any]]) -> list[tuple[Any, str]]:
    """(seat, thing) pairs grouped by thing: [(thing, "seat 0" or "seats 0, 2")]."""
    groups: dict[Any, list[int]] = {}
    for seat, thing in sorted(keys):
        groups.setdefault(thing, []).append(seat)
    return [(thing, ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats)))
            for thing, seats in groups.items()]


def check_game(
    game: Game,
    players: int,
    options: Mapping[str, Any] | None = None,
    *,
    playouts: int = 1000,
    deep_playouts: int = 12,
    seed: int = 0,
    max_actions: int = 20_000,
    leak_every: int = 3,
    determinizations: int = 3,
    refusals: int = REFUSALS,
) -> CheckReport:
    """Run every check; raise CheckFailure at the first property that fails.

    `playouts` random games are played to the end with conservation checked at the end of each;
    the first `deep_playouts` of them are checked at every step (replay, clone, conservation) and
    every `leak_every` steps for leaks with `determinizations` samples per seat. Over those samples,
    every other seat's private view and every hidden zone that could vary must differ from the truth
    at least once (unless the game declares `hidden_information = False`), no slot of them may hold
    the true card more often than chance allows, and face-down cards that no view shows and no hidden
    zone names must vary too. At each step of a deep playout, `refusals` illegal actions are offered and
    must be refused.
    """
    opts = game.normalise_options(options)
    report = CheckReport(game.name, players, opts)
    hidden = _Hidden()
    _check_same_seed_same_game(game, players, opts, seed)
    for index in range(playouts):
        game_seed = seed * 1_000_003 + index
        deep = index < deep_playouts
        _playout(game, players, opts, game_seed, deep, report, hidden, max_actions, leak_every, determinizations,
                 refusals)
    if report.leak_checks and game.hidden_information:
        _check_resampled(game, players, opts, seed, min(deep_playouts, playouts), report, hidden)
    return report


def _check_resampled(
    game: Game, players: int, opts: dict, seed: int, deep: int, report: CheckReport, hidden: _Hidden
) -> None:
    where = f"{game.name} ({players}p, options {opts})"
    run = f"{report.leak_checks} determinizations in {deep} playouts from seed {seed}"
    if not hidden.private_seen and not hidden.zone_seen:
        raise CheckFailure(
            f"{where} declares hidden information but nothing is ever hidden in {run}: no seat has a "
            f"private view and no hidden zone could vary — declare hidden_zones"
        )
    problems = hidden.problems()
    if problems:
        raise CheckFailure(f"{where}, over {run}: " + "; ".join(problems))


def _check_same_seed_same_game(game: Game, players: int, opts: dict, seed: int) -> None:
    first, second = game.new(players, seed, opts), game.new(players, seed, opts)
    if first != second:
        raise CheckFailure(f"{game.name} ({players}p): two games from seed {seed} differ at setup")


def _playout(
    game: Game,
    players: int,
    opts: dict,
    game_seed: int,
    deep: bool,
    report: CheckReport,
    hidden: _Hidden,
    max_actions: int,
    leak_every: int,
    determinizations: int,
    refusals: int = REFUSALS,
) -> None:
    where = f"{game.name} ({players}p, options {opts}, seed {game_seed})"
    rng = random.Random(game_seed)
    match = Match(game, players, game_seed, opts)
    cards = game.card_counts(match.state)
    history = [game.clone(match.state)] if deep else []
    recent: deque[tuple[int, list[str]]] = deque(maxlen=RECENT_POSITIONS * players)
    steps = 0
    while not match.is_over:
        seats = match.to_move()
        if not seats:
            raise CheckFailure(f"{where}: the game is not over but no seat is to move (step {steps})")
        seat = rng.choice(seats)
        legal = match.legal(seat)
        if not legal:
            raise CheckFailure(f"{where}: seat {seat} is to move but has no legal action (step {steps})")
        if len(set(legal)) != len(legal):
            raise CheckFailure(f"{where}: seat {seat}'s legal actions repeat an action (step {steps})")
        action = rng.choice(legal)
        if deep:
            _check_clone(game, match.state, seat, action, rng, f"{where} step {steps}")
            if steps % leak_every == 0:
                samples = max(determinizations, DEAL_SAMPLES) if steps == 0 else determinizations
                _check_views(game, match.state, players, rng, samples, report, hidden,
                             f"{where} step {steps}", deal=steps == 0)
            offers = random.Random(f"{game_seed}:{steps}")
            report.refusals += _check_refusals(game, match, seat, recent, offers, refusals,
                                               f"{where} step {steps}")
            recent.append((seat, legal))
        match.act(seat, action)
        steps += 1
        if deep:
            history.append(game.clone(match.state))
            if game.card_counts(match.state) != cards:
                raise CheckFailure(f"{where}: cards not conserved after {action!r} (step {steps})")
        if steps > max_actions:
            raise CheckFailure(f"{where}: no end after {max_actions} actions")
    if match.to_move():
        raise CheckFailure(f"{where}: the game is over but seats {match.to_move()} are to move")
    if game.card_counts(match.state) != cards:
        raise CheckFailure(f"{where}: cards not conserved by the end of the game")
    _check_result(game, match.state, players, where)
    report.playouts += 1
    report.actions += steps
    report.max_actions = max(report.max_actions, steps)
    if deep:
        _check_replay(game, match, history, where)


def _check_result(game: Game, state: Any, players: int, where: str) -> None:
    scores, winners, parts = game.scores(state), game.winners(state), game.breakdown(state)
    if len(scores) != players or len(parts) != players:
        raise CheckFailure(f"{where}: scores or breakdown do not have one entry per seat")
    if any(part.get("total") != score for part, score in zip(parts, scores)):
        raise CheckFailure(f"{where}: a breakdown's total differs from the score")
    if players > 1 and not winners:
        raise CheckFailure(f"{where}: a game of {players} ended without a winner")
    if any(scores[w] != max(scores) for w in winners):
        raise CheckFailure(f"{where}: a winner {winners} does not have the highest score {scores}")
    json.dumps(parts)


def _check_replay(game: Game, match: Match, history: list, where: str) -> None:
    record = json.loads(json.dumps(match.record()))
    for step, replayed in enumerate(Match.replay(record, game)):
        if replayed.state != history[step]:
            raise CheckFailure(f"{where}: replaying the record gives a different state at step {step}")


def _check_clone(game: Game, state: Any, seat: int, action: str, rng: random.Random, where: str) -> None:
    """The clone equals the original, shares nothing mutable with it, and playing on it leaves it alone."""
    before = pickle.dumps(state)
    copy = game.clone(state)
    if copy != state:
        raise CheckFailure(f"{where}: a clone differs from its original")
    originals = _mutables(state)
    shared = next((path for ident, path in _mutables(copy).items() if ident in originals), None)
    if shared is not None:
        raise CheckFailure(
            f"{where}: a clone shares state{shared} with its original: changing one changes the other"
        )
    game.apply_legal(copy, seat, action)
    for _ in range(CLONE_ACTIONS - 1):
        movers = game.to_move(copy)
        if not movers:
            break
        mover = rng.choice(movers)
        game.apply_legal(copy, mover, rng.choice(game.legal_actions(copy, mover)))
    if pickle.dumps(state) != before:
        raise CheckFailure(f"{where}: applying {action!r} and more to a clone changed the original")


_ATOMS = (str, bytes, int, float, complex, frozenset, type(None), enum.Enum, type)


def _mutables(value: Any, path: str = "", found: dict[int, str] | None = None) -> dict[int, str]:
    """Every mutable object reachable from `value` (lists, dicts, sets, objects), by id, with its path."""
    found = {} if found is None else found
    if isinstance(value, _ATOMS):
        return found
    frozen = isinstance(value, tuple) or _is_frozen_dataclass(value)
    if not frozen:
        if id(value) in found:
            return found
        found[id(value)] = path
    if isinstance(value, dict):
        for key, item in value.items():
            _mutables(item, f"{path}[{key!r}]", found)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _mutables(item, f"{path}[{index}]", found)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for part in dataclasses.fields(value):
            _mutables(getattr(value, part.name), f"{path}.{part.name}", found)
    elif hasattr(value, "__dict__"):
        for name, item in vars(value).items():
            _mutables(item, f"{path}.{name}", found)
    return found


def _is_frozen_dataclass(value: Any) -> bool:
    return dataclasses.is_dataclass(value) and value.__dataclass_params__.frozen  # type: ignore[union-attr]


def _check_views(
    game: Game, state: Any, players: int, rng: random.Random, samples: int, report: CheckReport,
    hidden: _Hidden, where: str, deal: bool = False,
) -> None:
    """Views leak nothing and determinizations resample what `seat` cannot know (card by card at the deal)."""
    before = pickle.dumps(state)
    public = game.view(state, None)["public"]
    json.dumps(public)
    if game.view(state, None).get("private"):
        raise CheckFailure(f"{where}: the spectator view has a private part")
    views = [game.view(state, seat) for seat in range(players)]
    for seat, view in enumerate(views):
        json.dumps(view)
        if view["public"] != public:
            raise CheckFailure(f"{where}: seat {seat}'s public view differs from the spectator's")
    cards = game.card_counts(state)
    face_down = hidden.face_down.find(game, state, players, random.Random(where)) if deal else {}
    for seat in range(players):
        legal = game.legal_actions(state, seat)
        pairs = [(seat, other) for other in range(players) if other != seat and views[other]["private"]]
        zones = {name: zone for name, zone in game.hidden_zones(state, seat).items() if _could_vary(zone)}
        hidden.private_seen.update(pairs)
        hidden.zone_seen.update((seat, name) for name in zones)
        for _ in range(samples):
            det_seed = rng.getrandbits(32)
            det = game.determinize(state, seat, random.Random(det_seed))
            report.leak_checks += 1
            if det != state:
                report.resampled += 1
            if game.view(det, seat) != views[seat]:
                raise CheckFailure(
                    f"{where}: seat {seat}'s view differs in a determinization for that seat — the view "
                    f"shows something the seat cannot know, or determinize changed what it does know"
                )
            if game.legal_actions(det, seat) != legal:
                raise CheckFailure(f"{where}: seat {seat}'s legal actions differ in a determinization")
            if game.card_counts(det) != cards:
                raise CheckFailure(f"{where}: a determinization for seat {seat} does not conserve cards")
            again = game.determinize(det, seat, random.Random(det_seed))
            if again != game.determinize(state, seat, random.Random(det_seed)):
                raise CheckFailure(
                    f"{where}: determinize for seat {seat} depends on hidden information (the same "
                    f"generator gives different states from two states the seat cannot tell apart)"
                )
            _note_varied(game, det, seat, pairs, views, zones, hidden, deal)
            hidden.face_down.note(seat, face_down, det)
    if isinstance(game, ZonedGame):
        hidden.zones.note(game, state, players, random.Random(f"zones {where}"))
    if pickle.dumps(state) != before:
        raise CheckFailure(f"{where}: determinize or view changed the true state")


def _note_varied(
    game: Game, det: Any, seat: int, pairs: list[tuple[int, int]], views: list[dict],
    zones: dict[str, Any], hidden: _Hidden, deal: bool,
) -> None:
    """Record which other seats' private views and which hidden zones differ from the truth in `det`, and
    (at the deal) card by card which of their slots kept the true card."""
    for pair in pairs:
        if deal or pair not in hidden.private_varied:
            other = pair[1]
            sampled = game.view(det, other)["private"]
            if sampled != views[other]["private"]:
                hidden.private_varied.add(pair)
            if deal:
                hidden.slots.note(seat, f"seat {other}'s private view", views[other]["private"], sampled)
    if deal or any((seat, name) not in hidden.zone_varied for name in zones):
        sampled_zones = game.hidden_zones(det, seat)
        for name, zone in zones.items():
            if sampled_zones.get(name) != zone:
                hidden.zone_varied.add((seat, name))
            if deal:
                hidden.slots.note(seat, f"the hidden zone {name!r}", zone, sampled_zones.get(name))


def _could_vary(zone: Any) -> bool:
    """Whether a hidden zone can differ between states a seat cannot tell apart: a chance integer always,
    a deck or pile once it holds two different cards."""
    if isinstance(zone, (list, tuple)):
        return len(set(map(repr, zone))) >= 2
    return zone is not None


# ----- card by card: slots that keep the true card ---------------------------------------------

Slot = tuple[int, str, tuple, int]


@dataclass
class _Slots:
    """Card by card, how often each slot of what a seat cannot see held the true card in a determinization.

    A slot is (seat sampled for, source, path of a list in it, index): the source is another seat's
    private view, a hidden zone, or a face-down list of the state. A sample counts for a slot only where
    some other slot of the same list changed in it, so lists a seat knows whole (its own cards shown in
    another seat's view) are never counted.
    """

    trials: Counter = field(default_factory=Counter)
    kept: Counter = field(default_factory=Counter)

    def note(self, seat: int, source: str, truth: Any, sample: Any) -> None:
        """Count, for every slot of `truth` whose list changed in `sample`, whether it kept the true card."""
        sampled = dict(_slot_lists(sample))
        for path, cards in _slot_lists(truth):
            found = sampled.get(path, [])
            for index, card in enumerate(cards):
                if _others_changed(cards, found, index):
                    key = (seat, source, path, index)
                    self.trials[key] += 1
                    self.kept[key] += index < len(found) and found[index] == card

    def problems(self) -> list[str]:
        """The slots that held the true card more often than chance allows, one phrase each."""
        limit = FALSE_ALARM / max(1, len(self.trials))
        found = []
        for key in sorted(self.trials, key=repr):
            trials, kept = self.trials[key], self.kept[key]
            if _kept_by_chance(trials, kept) < limit:
                seat, source, path, index = key
                found.append(
                    f"determinize keeps the true card in {source}{_path_text(path)}[{index}] in {kept} of "
                    f"{trials} samples at the deal (sampling for seat {seat}; chance allows about 1 in "
                    f"{KEPT_CHANCE_DENOMINATOR}): search would see it"
                )
        return found


def _kept_by_chance(trials: int, kept: int) -> float:
    """The chance of keeping the true card `kept` or more times in `trials` samples, if each keeps it with
    probability 1 / KEPT_CHANCE_DENOMINATOR (the binomial upper tail, exact)."""
    if kept * KEPT_CHANCE_DENOMINATOR <= trials:
        return 1.0
    odds = KEPT_CHANCE_DENOMINATOR - 1
    tail = sum(math.comb(trials, k) * odds ** (trials - k) for k in range(kept, trials + 1))
    return tail / KEPT_CHANCE_DENOMINATOR ** trials


def _others_changed(cards: list, found: list, index: int) -> bool:
    """Whether a sampled list differs from the true one anywhere but at `index`."""
    if len(found) != len(cards):
        return True
    return any(found[other] != card for other, card in enumerate(cards) if other != index)


def _slot_lists(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, list]]:
    """Every list of cards in JSON-like data, by path: a list of lists is walked into, any other list
    (of card codes, numbers or card records) is a list of slots."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _slot_lists(item, (*path, key))
    elif isinstance(value, (list, tuple)):
        if value and all(isinstance(item, (list, tuple, dict)) for item in value) and not all(
                isinstance(item, dict) for item in value):
            for index, item in enumerate(value):
                yield from _slot_lists(item, (*path, index))
        elif len(value) > 1:
            yield path, list(value)


def _path_text(path: tuple) -> str:
    return "".join(f"[{part!r}]" for part in path)


# ----- face-down cards that nothing declares ---------------------------------------------------


@dataclass
class _FaceDown:
    """Lists of cards in the state that no view shows and no hidden zone names yet could as well hold
    another seat's private cards, and whether determinize ever changed them, per seat sampled for.

    The checker finds them itself at the deal: changing one card of such a list changes the card counts
    but nothing any seat sees and no hidden zone, and exchanging one of its cards with one that another
    seat holds privately changes only that seat's view. Paths are judged once per run.
    """

    judged: set[tuple] = field(default_factory=set)
    hidden: set[tuple] = field(default_factory=set)
    seen: set[tuple[int, tuple]] = field(default_factory=set)
    varied: set[tuple[int, tuple]] = field(default_factory=set)

    def find(self, game: Game, state: Any, players: int, rng: random.Random) -> dict[tuple, list]:
        """This position's lists of face-down cards that nothing declares, by path (judging new paths)."""
        copy = game.clone(state)
        lists = {path: cards for path, cards in _state_lists(copy) if cards}
        fresh = [path for path in lists if path not in self.judged]
        if fresh:
            probe = _Probe(game, copy, players, rng, lists)
            seen_by = {path: probe.seen_by(lists[path]) for path in lists}
            private = [lists[path] for path, seats in seen_by.items() if seats is not None and len(seats) == 1]
            for path in fresh:
                if seen_by[path] == set() and probe.exchangeable(lists[path], private):
                    self.hidden.add(path)
                self.judged.add(path)
        return {path: list(cards) for path, cards in lists.items() if path in self.hidden}

    def note(self, seat: int, truth: dict[tuple, list], sample: Any) -> None:
        """Record which of the face-down lists could vary and which `sample` changed."""
        if not truth:
            return
        sampled = dict(_state_lists(sample))
        for path, cards in truth.items():
            if len(set(map(repr, cards))) >= 2:
                self.seen.add((seat, path))
                if sampled.get(path) != cards:
                    self.varied.add((seat, path))

    def problems(self) -> list[str]:
        """The face-down lists determinize never changed, one phrase each."""
        return [
            f"state{_state_path(path)} holds face-down cards that no view shows and no hidden zone names, "
            f"and determinize never changes them (sampling for {seats}): declare them in hidden_zones "
            f"and resample them"
            for path, seats in _by_second(self.seen - self.varied)
        ]


class _Probe:
    """Changes made to a copy of the state to see who sees a list of cards; each is undone at once."""

    def __init__(self, game: Game, state: Any, players: int, rng: random.Random, lists: dict[tuple, list]):
        self.game, self.state, self.players, self.rng = game, state, players, rng
        self.looks = _looks(game, state, players)
        self.counts = game.card_counts(state)
        self.pool = [card for _, card in sorted({repr(c): c for cards in lists.values() for c in cards}.items())]

    def seen_by(self, cards: list) -> set[int] | None:
        """Which seats' views change when a card of `cards` is changed for another (-1 for the spectator
        and the hidden zones); None if no change of it alters the card counts (not a list of cards). Empty
        as soon as one change alters the card counts and nothing anyone sees: that card is face down, even
        where changing it for another would show (a card of a kind the view lists, as the violets in a box).
        Up to `PROBE_SLOTS` cards of the list are tried, each with up to four others."""
        seen: set[int] | None = None
        for index in self.rng.sample(range(len(cards)), min(PROBE_SLOTS, len(cards))):
            card = cards[index]
            others = [other for other in self.pool if type(other) is type(card) and other != card]
            for other in self.rng.sample(others, min(4, len(others))):
                cards[index] = other
                try:
                    if self.game.card_counts(self.state) != self.counts:
                        changed = self._changed()
                        if not changed:
                            return set()
                        seen = (seen or set()) | changed
                except Exception:  # noqa: BLE001 - a changed state may be impossible: then it is no evidence
                    continue
                finally:
                    cards[index] = card
        return seen

    def exchangeable(self, cards: list, private: list[list]) -> bool:
        """Whether a card of `cards` can change places with a card some seat holds privately, with the card
        counts kept and only that seat's view changed (`PROBE_SLOTS` pairs tried with each such list)."""
        for held in private:
            for _ in range(PROBE_SLOTS):
                index, other = self.rng.randrange(len(cards)), self.rng.randrange(len(held))
                if cards[index] == held[other] or held is cards:
                    continue
                cards[index], held[other] = held[other], cards[index]
                try:
                    if self.game.card_counts(self.state) == self.counts and len(self._changed()) == 1:
                        return True
                except Exception:  # noqa: BLE001 - as in seen_by
                    continue
                finally:
                    cards[index], held[other] = held[other], cards[index]
        return False

    def _changed(self) -> set[int]:
        now = _looks(self.game, self.state, self.players)
        changed = {index - 1 for index in range(1, self.players + 1) if now[index] != self.looks[index]}
        if now[0] != self.looks[0] or now[self.players + 1:] != self.looks[self.players + 1:]:
            changed.add(-1)
        return changed


def _looks(game: Game, state: Any, players: int) -> list:
    """Everything any seat may see of `state` and every hidden zone it names."""
    return [game.view(state, None), *(game.view(state, seat) for seat in range(players)),
            *(game.hidden_zones(state, seat) for seat in range(players))]


def _state_lists(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, list]]:
    """Every list of plain values (card numbers, codes) in a state, by path, as the list object itself."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for part in dataclasses.fields(value):
            yield from _state_lists(getattr(value, part.name), (*path, part.name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _state_lists(item, (*path, key))
    elif isinstance(value, (list, tuple)):
        if isinstance(value, list) and value and all(_is_plain(item) for item in value):
            yield path, value
        else:
            for index, item in enumerate(value):
                yield from _state_lists(item, (*path, index))


def _is_plain(value: Any) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def _state_path(path: tuple) -> str:
    return "".join(f".{part}" if isinstance(part, str) and index == 0 else f"[{part!r}]"
                   for index, part in enumerate(path))


# ----- illegal actions are refused -------------------------------------------------------------

#: What random action texts are made of.
_TEXT = string.ascii_letters + string.digits + " -_,.:;!?#"


def _check_refusals(game: Game, match: Match, seat: int, recent: deque[tuple[int, list[str]]],
                    rng: random.Random, count: int, where: str) -> int:
    """Offer up to `count` illegal actions (one of each kind first) through `Match.act` and `Game.apply`;
    each must raise IllegalAction and change nothing. Returns how many were offered."""
    kinds = [rng.sample(kind, len(kind)) for kind in _illegal_offers(game, match, seat, recent, rng)]
    chosen = [kind[0] for kind in kinds if kind]
    rest = [offer for kind in kinds for offer in kind[1:]]
    chosen += rng.sample(rest, max(0, min(count - len(chosen), len(rest))))
    for who, text in dict.fromkeys(chosen[:max(count, 0)]):
        _demand_refusal(game, match, who, text, where)
    return min(len(chosen), max(count, 0))


def _illegal_offers(game: Game, match: Match, seat: int, recent: deque[tuple[int, list[str]]],
                    rng: random.Random) -> list[list[tuple[int, str]]]:
    """(seat, text) pairs that must be refused now, by kind: random texts, legal actions of nearby positions
    (other seats' and the seat's own), legal actions with one word swapped for another (a card not in
    hand), and a legal action offered by a seat that is not to move."""
    legal = match.legal(seat)
    earlier = [action for _, actions in recent for action in actions]
    movers = match.to_move()
    kinds = [
        [(seat, _random_text(rng)) for _ in range(2)],
        [(seat, action) for who, actions in recent if who == seat for action in actions],
        [(seat, action) for who, actions in recent if who != seat for action in actions],
        [(seat, text) for text in _swapped_words(legal, legal + earlier, rng)],
        [(other, rng.choice(legal)) for other in range(match.players) if other not in movers],
    ]
    return [[offer for offer in kind if not _may_be_legal(game, match, *offer)] for kind in kinds]


def _random_text(rng: random.Random) -> str:
    return "".join(rng.choice(_TEXT) for _ in range(rng.randint(1, 12)))


def _swapped_words(legal: list[str], known: list[str], rng: random.Random, tries: int = 6) -> list[str]:
    """Legal actions with one word replaced by a word of another action (a card not in hand, a wrong row)."""
    words = sorted({word for action in known for word in action.split()})
    made = []
    for _ in range(tries if legal and words else 0):
        parts = rng.choice(legal).split()
        if parts:
            parts[rng.randrange(len(parts))] = rng.choice(words)
            made.append(" ".join(parts))
    return made


def _may_be_legal(game: Game, match: Match, seat: int, text: str) -> bool:
    """Whether `text` is (a way of writing) one of `seat`'s legal actions now."""
    if seat not in match.to_move():
        return False
    legal = match.legal(seat)
    if text in legal:
        return True
    try:
        return game.canonical(match.state, seat, text) in legal
    except Exception:  # noqa: BLE001 - a text the game cannot read is not legal
        return False


def _demand_refusal(game: Game, match: Match, seat: int, text: str, where: str) -> None:
    """Offer `text` for `seat` through `Match.act` and `Game.apply` (on a clone): both must raise
    IllegalAction and leave the state (and the match's moves) as they were."""
    before, moves = pickle.dumps(match.state), len(match.moves)
    _refused(lambda: match.act(seat, text), seat, text, "Match.act", where)
    if pickle.dumps(match.state) != before or len(match.moves) != moves:
        raise CheckFailure(f"{where}: refusing the illegal action {text!r} of seat {seat} changed the match")
    copy = game.clone(match.state)
    _refused(lambda: game.apply(copy, seat, text), seat, text, "Game.apply", where)
    if copy != match.state:
        raise CheckFailure(f"{where}: Game.apply refused the illegal action {text!r} of seat {seat} but "
                           f"changed the state")


def _refused(attempt: Any, seat: int, text: str, by: str, where: str) -> None:
    try:
        attempt()
    except IllegalAction:
        return
    except Exception as exc:  # noqa: BLE001 - any other error is the failure being reported
        raise CheckFailure(f"{where}: {by} answered the illegal action {text!r} of seat {seat} with "
                           f"{type(exc).__name__} ({exc}) instead of IllegalAction") from None
    raise CheckFailure(f"{where}: {by} accepted the illegal action {text!r} of seat {seat}")
