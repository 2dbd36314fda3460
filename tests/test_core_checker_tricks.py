"""A small trick-taking game with hidden hands and a face-down kitty, and the cheats the checker must catch
in it at every player count: a determinize that keeps one real card, a view that leaks a card the
determinize then keeps, a face-down pile left out of `hidden_zones` and never resampled, and a game that
accepts a revoke (playing off-suit while holding the led suit)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from tablepress.core.checker import CheckFailure, check_game
from tablepress.core.errors import IllegalAction
from tablepress.core.game import Game

SUITS = "SHDC"
RANKS = 5
HAND = 4
PLAYER_COUNTS = [2, 3, 4]


def code(card: int) -> str:
    """A card's code: suit letter and rank (`S1` … `C5`)."""
    return f"{SUITS[card // RANKS]}{card % RANKS + 1}"


def suit(card: int) -> int:
    """A card's suit, 0–3."""
    return card // RANKS


@dataclass
class TricksState:
    """Hands (sorted), the face-down kitty of undealt cards, the trick on the table and the cards played."""

    players: int
    hands: list[list[int]]
    kitty: list[int]
    leader: int = 0
    current: int = 0
    trick: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    turn: int = 0


class Tricks(Game[TricksState]):
    """Twenty cards, four suits of five; four cards each, the rest face down; follow suit; high card wins."""

    name = "tricks"
    title = "Tricks"
    min_players = 2
    max_players = 4

    def new(self, players, seed, options=None):
        """Deal four cards to each seat; the rest is the kitty."""
        deck = list(range(len(SUITS) * RANKS))
        random.Random(seed).shuffle(deck)
        hands = [sorted(deck[seat * HAND:(seat + 1) * HAND]) for seat in range(players)]
        return TricksState(players, hands, sorted(deck[players * HAND:]), won=[0] * players)

    def to_move(self, state):
        """The seat to play, or nobody once the hands are empty."""
        return () if self.is_over(state) else (state.current,)

    def legal_actions(self, state, seat):
        """Cards of the led suit if the seat holds any, else any card."""
        if seat not in self.to_move(state):
            return []
        hand = state.hands[seat]
        follow = [card for card in hand if state.trick and suit(card) == suit(state.trick[0])]
        return [f"play {code(card)}" for card in follow or hand]

    def apply_legal(self, state, seat, action):
        """Play the card; the fourth card of a trick gives it to the highest card of the led suit."""
        card = _card(action)
        state.hands[seat].remove(card)
        state.trick.append(card)
        state.turn += 1
        if len(state.trick) < state.players:
            state.current = (state.current + 1) % state.players
            return
        led = [card if suit(card) == suit(state.trick[0]) else -1 for card in state.trick]
        winner = (state.leader + led.index(max(led))) % state.players
        state.won[winner] += 1
        state.played += state.trick
        state.trick = []
        state.leader = state.current = winner

    def view(self, state, seat):
        """Everything but the hands and the kitty is public; a hand is its owner's."""
        public = {"players": state.players, "current": state.current, "leader": state.leader,
                  "trick": [code(c) for c in state.trick], "played": [code(c) for c in state.played],
                  "hand_sizes": [len(hand) for hand in state.hands], "kitty": len(state.kitty),
                  "scores": list(state.won)}
        private = {} if seat is None else {"hand": [code(c) for c in state.hands[seat]]}
        return {"public": public, "private": private}

    def hidden_zones(self, state, seat):
        """The kitty, which nobody sees."""
        return {"kitty": state.kitty}

    def determinize(self, state, seat, rng):
        """Deal the other hands and the kitty again from the cards `seat` has not seen."""
        det = self.clone(state)
        others = [other for other in range(state.players) if other != seat]
        pool = sorted(det.kitty + [card for other in others for card in det.hands[other]])
        rng.shuffle(pool)
        for other in others:
            size = len(det.hands[other])
            det.hands[other], pool = sorted(pool[:size]), pool[size:]
        det.kitty = sorted(pool)
        return det

    def is_over(self, state):
        """Whether every hand is empty."""
        return not any(state.hands)

    def scores(self, state):
        """Tricks won."""
        return list(state.won)

    def winners(self, state):
        """The seats with the most tricks."""
        return [seat for seat, won in enumerate(state.won) if won == max(state.won)]

    def breakdown(self, state):
        """Tricks won, as the total."""
        return [{"total": won, "tricks": won} for won in state.won]

    def card_counts(self, state):
        """Every card: hands, kitty, trick and played."""
        return Counter([*state.kitty, *state.trick, *state.played, *(c for hand in state.hands for c in hand)])

    def turn(self, state):
        """Cards played so far."""
        return state.turn


def _card(action: str) -> int:
    return SUITS.index(action.split()[1][0]) * RANKS + int(action.split()[1][1:]) - 1


class KeepsOneCard(Tricks):
    """Deals honestly but puts the next seat's real first card back in its first slot."""

    def determinize(self, state, seat, rng):
        det = super().determinize(state, seat, rng)
        other = (seat + 1) % state.players
        if state.hands[other]:
            _put_back(det, state.hands[other][0], other)
        return det


class LeaksOneCard(KeepsOneCard):
    """Shows each seat the next seat's first card, and keeps that card where it was."""

    def view(self, state, seat):
        view = super().view(state, seat)
        if seat is not None:
            hand = state.hands[(seat + 1) % state.players]
            view["private"]["peek"] = code(hand[0]) if hand else None
        return view


class UndeclaredKitty(Tricks):
    """Leaves the kitty out of hidden_zones and deals the other hands without it: search knows the kitty."""

    def hidden_zones(self, state, seat):
        return {}

    def determinize(self, state, seat, rng):
        det = self.clone(state)
        others = [other for other in range(state.players) if other != seat]
        pool = sorted(card for other in others for card in det.hands[other])
        rng.shuffle(pool)
        for other in others:
            size = len(det.hands[other])
            det.hands[other], pool = sorted(pool[:size]), pool[size:]
        return det


class AcceptsRevoke(Tricks):
    """Checks only that the card is in the hand: playing off-suit while holding the led suit goes through."""

    def checked(self, state, seat, action, legal=None):
        text = " ".join(str(action).split())
        try:
            words = text.split()
            in_hand = (seat in self.to_move(state) and len(words) == 2 and words[0] == "play"
                       and code(_card(text)) == words[1] and _card(text) in state.hands[seat])
        except (ValueError, IndexError):
            in_hand = False
        return text if in_hand else super().checked(state, seat, action, legal)


def _put_back(det: TricksState, card: int, seat: int) -> None:
    """Move `card` to the first slot of `seat`'s hand in `det`, swapping it with the card found there."""
    places = [*det.hands, det.kitty]
    holder = next(place for place in places if card in place)
    hand = det.hands[seat]
    holder[holder.index(card)], hand[0] = hand[0], card


MUTANTS = [
    (KeepsOneCard, r"keeps the true card in seat \d's private view\['hand'\]\[0\]"),
    (LeaksOneCard, r"keeps the true card in seat \d's private view\['hand'\]\[0\]"),
    (UndeclaredKitty, r"state\.kitty holds face-down cards that no view shows and no hidden zone names"),
    (AcceptsRevoke, r"Match\.act accepted the illegal action 'play .*' of seat \d"),
]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_honest_trick_game_passes(players):
    report = check_game(Tricks(), players, playouts=20, deep_playouts=8)
    assert report.refusals > 0 and report.resampled > 0


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize(("mutant", "message"), MUTANTS, ids=[kind.__name__ for kind, _ in MUTANTS])
def test_each_cheat_is_caught_at_every_player_count(mutant, message, players):
    with pytest.raises(CheckFailure, match=message):
        check_game(mutant(), players, playouts=20, deep_playouts=8)


def test_the_revoke_really_goes_through_the_mutant():
    """The mutant is the cheat it claims to be: the plain Match accepts a revoke from it."""
    game, honest = AcceptsRevoke(), Tricks()
    state = TricksState(2, [[0, 5], [1, 6]], [], won=[0, 0])
    game.apply(state, 0, "play S1")
    with pytest.raises(IllegalAction):
        honest.checked(state, 1, "play H2")
    assert game.checked(state, 1, "play H2") == "play H2"


def test_the_base_game_follows_suit():
    state = TricksState(2, [[0, 5], [1, 6]], [], won=[0, 0])
    Tricks().apply(state, 0, "play S1")
    assert Tricks().legal_actions(state, 1) == ["play S2"]


class ChangesThenRefuses(Tricks):
    """Refuses an illegal action only after counting it as a turn."""

    def checked(self, state, seat, action, legal=None):
        try:
            return super().checked(state, seat, action, legal)
        except IllegalAction:
            state.turn += 1
            raise


class CrashesOnNonsense(Tricks):
    """Answers a text it cannot read with a ValueError instead of IllegalAction."""

    def checked(self, state, seat, action, legal=None):
        _card(action)
        return super().checked(state, seat, action, legal)


class KeepsTheKittyButDeclaresIt(UndeclaredKitty):
    """Declares the kitty but still never resamples it (the zone check names it)."""

    def hidden_zones(self, state, seat):
        return {"kitty": state.kitty}


@pytest.mark.parametrize(
    ("mutant", "message"),
    [
        (ChangesThenRefuses, r"refusing the illegal action .* changed the match"),
        (CrashesOnNonsense, r"answered the illegal action .* with (ValueError|IndexError) .* instead of IllegalAction"),
        (KeepsTheKittyButDeclaresIt, r"never changes the hidden zone 'kitty'"),
    ],
    ids=["ChangesThenRefuses", "CrashesOnNonsense", "KeepsTheKittyButDeclaresIt"],
)
def test_the_refusal_and_zone_checks_each_fail_on_their_mutant(mutant, message):
    with pytest.raises(CheckFailure, match=message):
        check_game(mutant(), 3, playouts=10, deep_playouts=6)
