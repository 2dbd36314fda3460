"""The forward-model checker must catch broken games, not only pass good ones."""

from __future__ import annotations

import random

import pytest

from tablepress.core.checker import CheckFailure, check_game
from tablepress.games.by_this.engine import ByThisGame
from tablepress.games.flowers.engine import FlowersGame
from tablepress.games.planted.engine import PlantedGame
from tablepress.games.pressed.engine import PressedGame

# ----- Flowers ---------------------------------------------------------------------------------


class LeakyView(FlowersGame):
    """Shows the face-down stack's top card to everyone."""

    def view(self, state, seat):
        view = super().view(state, seat)
        view["public"]["secret"] = self.cards.codes[state.stacks[-1][-1]] if state.stacks[-1] else None
        return view


class PeekingDeterminize(FlowersGame):
    """Returns the true state: views agree, but search would see the real hidden cards."""

    def determinize(self, state, seat, rng):
        return self.clone(state)


class HiddenTruthDeterminize(FlowersGame):
    """Shuffles with a generator seeded from the true face-down order — depends on hidden information."""

    def determinize(self, state, seat, rng):
        return super().determinize(state, seat, random.Random(hash(tuple(state.stacks[-1]))))


class SharedClone(FlowersGame):
    """A clone that shares the areas with its original."""

    def clone(self, state):
        copy = super().clone(state)
        copy.areas = state.areas
        return copy


class LosesCards(FlowersGame):
    """Drops the covered card when covering."""

    def apply_legal(self, state, seat, action):
        super().apply_legal(state, seat, action)
        for area in state.areas:
            for cell, stack in area.items():
                if len(stack) > 1:
                    area[cell] = stack[-1:]


class PrivateToEveryone(FlowersGame):
    """Puts the drawer's face-down card in every seat's private view."""

    def view(self, state, seat):
        view = super().view(state, seat)
        if seat is not None and state.drawn is not None:
            view["private"]["drawn"] = self.cards.codes[state.drawn]
        return view


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (LeakyView(), "view differs in a determinization"),
        (PeekingDeterminize(), "keeps seat 1's real private cards .*never changes the hidden zone 'box'"),
        (HiddenTruthDeterminize(), "depends on hidden information"),
        (SharedClone(), r"shares state\.areas with its original"),
        (LosesCards(), "cards not conserved"),
        (PrivateToEveryone(), "view differs in a determinization"),
    ],
)
def test_checker_catches_broken_flowers(game, message):
    with pytest.raises(CheckFailure, match=message):
        check_game(game, 2, playouts=6, deep_playouts=6)


def test_checker_passes_the_real_game():
    report = check_game(FlowersGame(), 2, playouts=5, deep_playouts=5)
    assert report.playouts == 5 and report.actions > 0


# ----- hidden hands: By This, Pressed, Planted -------------------------------------------------


def _shuffled(cards, rng):
    pool = sorted(cards)
    rng.shuffle(pool)
    return pool


def _shuffle_unseen_keys(state, rng):
    state.key_deck = _shuffled(state.key_deck[: state.key_hidden], rng) + state.key_deck[state.key_hidden:]


class KeepsHands(ByThisGame):
    """Reshuffles the deck and the unseen Keys but keeps the opponents' real hands."""

    def determinize(self, state, seat, rng):
        det = self.clone(state)
        det.deck = _shuffled(det.deck, rng)
        _shuffle_unseen_keys(det, rng)
        return det


class KeepsDeckOrder(ByThisGame):
    """Deals the opponents' hands among themselves but leaves the deck in its true order."""

    def determinize(self, state, seat, rng):
        det = self.clone(state)
        others = [other for other in range(state.players) if other != seat]
        pool = _shuffled([card for other in others for card in det.hands[other]], rng)
        for other in others:
            size = len(det.hands[other])
            det.hands[other], pool = sorted(pool[:size]), pool[size:]
        _shuffle_unseen_keys(det, rng)
        return det


class ShowsTheDeckTop(ByThisGame):
    """Puts the next card of the deck in every seat's private view."""

    def view(self, state, seat):
        view = super().view(state, seat)
        if seat is not None and state.deck:
            view["private"]["next"] = self.names[state.deck[-1]]
        return view


class SharesHands(ByThisGame):
    """A clone that shares the list of hands with its original."""

    def clone(self, state):
        copy = super().clone(state)
        copy.hands = state.hands
        return copy


class SharesSpent(ByThisGame):
    """A clone that shares one rarely changed list (the specials played): only a structural check sees it."""

    def clone(self, state):
        copy = super().clone(state)
        copy.spent = state.spent
        return copy


class ReseedsPressed(PressedGame):
    """A determinization that only draws a new chance integer: it differs from the truth, resamples nothing."""

    def determinize(self, state, seat, rng):
        det = self.clone(state)
        det.rng = rng.getrandbits(63)
        return det


class ReseedsPlanted(PlantedGame):
    """The same on Planted."""

    def determinize(self, state, seat, rng):
        det = self.clone(state)
        det.rng = rng.getrandbits(63)
        return det


class ShowsAnOpponentCard(PressedGame):
    """Shows each seat one card of the next seat's hand."""

    def view(self, state, seat):
        view = super().view(state, seat)
        if seat is not None:
            hand = state.hands[(seat + 1) % state.players]
            view["private"]["peek"] = self.cards.codes[hand[0]] if hand else None
        return view


@pytest.mark.parametrize(
    ("game", "players", "message"),
    [
        (KeepsHands(), 2, "keeps seat 1's real private cards \\(sampling for seat 0\\): search would see them"),
        (KeepsHands(), 4, "keeps seat 3's real private cards \\(sampling for seats 0, 1, 2\\)"),
        (KeepsDeckOrder(), 3, "never changes the hidden zone 'deck' \\(sampling for seats 0, 1, 2\\)"),
        (ShowsTheDeckTop(), 2, "view differs in a determinization"),
        (SharesHands(), 2, r"shares state\.hands with its original"),
        (SharesSpent(), 2, r"shares state\.spent with its original"),
        (ShowsAnOpponentCard(), 3, "view differs in a determinization"),
    ],
)
def test_checker_catches_peeking_on_hidden_hands(game, players, message):
    with pytest.raises(CheckFailure, match=message):
        check_game(game, players, playouts=4, deep_playouts=4)


@pytest.mark.parametrize("game", [ReseedsPressed(), ReseedsPlanted()])
def test_checker_catches_a_determinize_that_only_reseeds(game):
    """Differing from the truth is not enough: the hands, the decks and the chance must each vary."""
    with pytest.raises(CheckFailure) as failure:
        check_game(game, 2, playouts=1, deep_playouts=1)
    message = str(failure.value)
    assert "keeps seat 1's real private cards" in message and "keeps seat 0's real private cards" in message
    assert "never changes the hidden zone" in message and "'chance'" not in message


class NothingHidden(ByThisGame):
    """Claims hidden information but names no hidden zone, and no seat has a private view."""

    def view(self, state, seat):
        return {"public": super().view(state, None)["public"], "private": {}}

    def hidden_zones(self, state, seat):
        return {}

    def determinize(self, state, seat, rng):
        return self.clone(state)


def test_checker_asks_a_game_with_hidden_information_to_declare_it():
    with pytest.raises(CheckFailure, match="declares hidden information but nothing is ever hidden"):
        check_game(NothingHidden(), 2, playouts=2, deep_playouts=2)


class OpenByThis(NothingHidden):
    """The same game declaring that nothing is hidden: then nothing needs resampling."""

    hidden_information = False


def test_a_game_without_hidden_information_needs_no_resampling():
    report = check_game(OpenByThis(), 2, playouts=2, deep_playouts=2)
    assert report.leak_checks > 0 and report.resampled == 0


def test_the_real_hidden_hand_games_pass():
    for game, players in ((ByThisGame(), 3), (PressedGame(), 3)):
        report = check_game(game, players, playouts=3, deep_playouts=3)
        assert report.leak_checks > 0 and report.resampled > 0
