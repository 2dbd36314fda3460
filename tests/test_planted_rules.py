"""Planted rules (tablepress/games/planted/rules.md): tools, Nursery calls, the 6-plant limit, feeding, propagation,
decorations, passing, hidden simultaneous choices and perfect recall."""

from __future__ import annotations

import random

import pytest

from tablepress.core.errors import IllegalAction
from tablepress.games.planted import GAME
from tablepress.games.planted.engine import BUY, CHOOSE, FEED, PlantedState
from tablepress.games.planted.feeding import propagation_tokens
from tablepress.games.planted.scoring import score_board

CARDS = GAME.cards
PLANT = {p.name: i for i, p in enumerate(CARDS.plants)}
TOOL = {t.name: i for i, t in enumerate(CARDS.tools)}
DECO = {d.name: i for i, d in enumerate(CARDS.decorations)}


def card(label: str, nth: int = 0) -> int:
    """The nth card number showing `label` (`WW`, `Watering Can`, `Workbench`)."""
    return [n for n in range(1, 103) if CARDS.label(n) == label][nth]


def deal(state: PlantedState, seat: int, wanted: list[int]) -> None:
    """Put exactly `wanted` in a seat's hand, returning its old hand to the decks; a wanted card in another
    hand is replaced there by a deck card of its kind."""
    for zone in (state.resource_deck, state.item_deck, state.resource_discard, state.item_discard):
        zone[:] = [c for c in zone if c not in wanted]
    for other, hand in enumerate(state.hands):
        for index, c in enumerate(hand):
            if c in wanted and other != seat:
                hand[index] = (state.resource_deck if CARDS.is_resource(c) else state.item_deck).pop()
        hand.sort()
    for old in state.hands[seat]:
        (state.resource_deck if CARDS.is_resource(old) else state.item_deck).append(old)
    state.hands[seat] = sorted(wanted)


def game(players: int = 3, seed: int = 1) -> PlantedState:
    """A new game."""
    return GAME.new(players, seed)


def test_card_numbers_follow_the_rules_table():
    assert [CARDS.label(n) for n in (1, 3, 5, 7, 10, 13, 18, 23, 28, 33, 38, 43, 47, 51, 55, 60)] == [
        "LLL", "WWW", "FFF", "LWF", "GGG", "LL", "WW", "FF", "LW", "LF", "WF", "LG", "WG", "FG", "GG", "GG"]
    assert CARDS.label(61) == "Watering Can" and CARDS.label(73) == "Trowel" and CARDS.label(78) == "Seed Tray"
    assert CARDS.label(79) == "Workbench" and CARDS.label(97) == "Macramé Hanger" and CARDS.label(102) == "Side Table"
    assert len(CARDS.plants) == 42 and len(CARDS.beginners) == 6


def test_setup():
    s = game(4)
    assert all(len(h) == 8 and sum(CARDS.is_resource(c) for c in h) == 6 for h in s.hands)
    assert len(s.row) == 4 and len(s.plant_deck) == 32
    assert all(len(p) == 1 and CARDS.plants[p[0]].tier == "beginner" for p in s.plants)
    assert len({p[0] for p in s.plants}) == 4 and len(s.put_away) == 2


def play_turn(state: PlantedState, choices: dict[int, str]) -> None:
    """Every seat chooses: the given action, or its first legal `play`."""
    for seat in GAME.to_move(state):
        GAME.apply(state, seat, choices.get(seat) or GAME.legal_actions(state, seat)[0])


def play_card(s: PlantedState, label: str) -> None:
    """One turn of 2 players in which seat 0 plays the first card showing `label` (both keep cards to pass)."""
    deal(s, 0, [card(label), 1])
    deal(s, 1, [2, 6])
    play_turn(s, {0: f"play {card(label)} {label}", 1: "play 2 LLL"})


def test_watering_can_adds_water_on_a_ww_card_only():
    s = game(2)
    s.tools[0] = [card("Watering Can")]
    play_card(s, "WW")
    assert s.resources[0] == [0, 3, 0, 0]
    play_card(s, "WF")
    assert s.resources[0] == [0, 4, 1, 0]
    play_card(s, "WWW")
    assert s.resources[0] == [0, 7, 1, 0]


def test_tools_stack_and_gloves_take_any_green_thumb_card():
    s = game(2)
    s.tools[0] = [card("Grow Lamp"), card("Grow Lamp", 1), card("Gardening Gloves")]
    play_card(s, "LL")
    assert s.resources[0] == [4, 0, 0, 0]
    play_card(s, "LG")
    assert s.resources[0] == [5, 0, 0, 2]
    play_card(s, "LLL")  # exactly LL only: LLL gets no Grow Lamp bonus
    assert s.resources[0] == [8, 0, 0, 2]


def test_tools_and_decorations_go_on_the_board():
    s = game(2)
    deal(s, 0, [card("Trowel")])
    play_turn(s, {0: f"play {card('Trowel')} Trowel"})
    deal(s, 0, [card("Bookshelf")])
    play_turn(s, {0: f"play {card('Bookshelf')} Bookshelf"})
    assert s.tools[0] == [card("Trowel")] and s.decorations[0] == [card("Bookshelf")]


def test_choices_are_hidden_until_everyone_has_chosen():
    s = game(3)
    before = GAME.view(s, 1)
    action = GAME.legal_actions(s, 0)[-1]  # a nursery call
    assert action.startswith("nursery")
    assert GAME.public_action(s, 0, action) == "chose a card"
    GAME.apply(s, 0, action)
    assert GAME.to_move(s) == (1, 2)
    assert str(action.split()[1]) not in str(GAME.view(s, 1)["public"]["revealed"])
    assert GAME.view(s, 1)["public"] == GAME.view(s, None)["public"]
    assert GAME.view(s, 1)["private"] == before["private"]
    assert GAME.view(s, 0)["private"]["chosen"]["nursery"] is True
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, GAME.legal_actions(s, 1)[0])
    GAME.apply(s, 1, GAME.legal_actions(s, 1)[0])
    GAME.apply(s, 2, GAME.legal_actions(s, 2)[0])
    revealed = GAME.view(s, 1)["public"]["revealed"]
    assert [r["nursery"] for r in revealed] == [True, False, False]


def test_nursery_calls_in_card_number_order_with_immediate_refill():
    s = game(3)
    deal(s, 0, [50, 5])
    deal(s, 1, [7, 6])
    deal(s, 2, [30, 4])
    row, deck_top = list(s.row), s.plant_deck[-1]
    play_turn(s, {0: "nursery 50 WG", 1: "nursery 7 LWF", 2: "nursery 30 LW"})
    assert s.phase == BUY and GAME.to_move(s) == (1,)
    assert [c["seat"] for c in GAME.view(s, None)["public"]["calls"]] == [1, 2, 0]
    GAME.apply(s, 1, f"buy {CARDS.plants[row[2]].name}")
    assert s.row[2] == deck_top and s.plants[1][-1] == row[2]
    assert GAME.to_move(s) == (2,)
    with pytest.raises(IllegalAction, match="nursery row"):
        GAME.apply(s, 2, f"buy {CARDS.plants[row[2]].name}")  # already taken
    GAME.apply(s, 2, f"buy {CARDS.plants[deck_top].name}")
    assert GAME.to_move(s) == (0,)
    GAME.apply(s, 0, f"buy {CARDS.plants[row[0]].name}")
    assert s.phase == CHOOSE and s.step == 1
    assert sorted(s.resource_discard) == [7, 30, 50] and s.resources == [[0] * 4] * 3


def test_trowel_gives_a_chosen_resource_on_buying():
    s = game(2)
    s.tools[0] = [card("Trowel"), card("Trowel", 1)]
    deal(s, 0, [card("GG")])
    play_turn(s, {0: f"nursery {card('GG')} GG"})
    name = CARDS.plants[s.row[0]].name
    assert GAME.legal_actions(s, 0)[:6] == [f"buy {name} +{pick}" for pick in ("LL", "LW", "LF", "WW", "WF", "FF")]
    GAME.apply(s, 0, f"buy {name} +WF")
    assert s.resources[0] == [0, 1, 1, 0]


def test_six_plant_limit_forbids_nursery_calls():
    s = game(2)
    s.plants[0] = [PLANT[n] for n in ("ZZ Plant", "Monstera", "Agave", "Hoya", "Yucca", "Begonia")]
    s.growth[0] = [0] * 6
    assert not any(a.startswith("nursery") for a in GAME.legal_actions(s, 0))
    assert any(a.startswith("nursery") for a in GAME.legal_actions(s, 1))
    first = s.hands[0][0]
    with pytest.raises(IllegalAction, match="at most 6"):
        GAME.apply(s, 0, f"nursery {first}")


def test_nursery_call_with_an_empty_row_only_discards():
    s = game(2)
    s.plant_deck, s.row = [], []
    deal(s, 0, [card("WW")])
    play_turn(s, {0: f"nursery {card('WW')} WW"})
    assert s.phase == CHOOSE and s.resources[0] == [0, 0, 0, 0] and card("WW") in s.resource_discard
    assert len(s.plants[0]) == 1


def test_last_plant_empties_the_row_without_refill():
    s = game(2)
    s.plant_deck, s.row = [], [PLANT["Monstera"]]
    deal(s, 0, [card("WW")])
    deal(s, 1, [card("WW", 1)])
    play_turn(s, {0: f"nursery {card('WW')} WW", 1: f"nursery {card('WW', 1)} WW"})
    assert GAME.to_move(s) == (0,)
    GAME.apply(s, 0, "buy Monstera")
    assert s.row == [] and s.phase == CHOOSE and len(s.plants[1]) == 1  # seat 1's call only discarded


@pytest.mark.parametrize(("round_index", "receiver"), [(0, 1), (1, 2), (2, 1), (3, 2)])
def test_hands_pass_left_in_rounds_1_and_3_and_right_in_2_and_4(round_index, receiver):
    s = game(3)
    s.round = round_index
    played = [GAME.legal_actions(s, seat)[0] for seat in range(3)]
    rest = sorted(set(s.hands[0]) - {int(played[0].split()[1])})
    play_turn(s, dict(enumerate(played)))
    assert s.hands[receiver] == rest


def test_a_seat_remembers_the_hand_it_passed_on():
    s = game(3)
    play_turn(s, {})
    passed = list(s.hands[1])
    known = GAME.view(s, 0)["private"]["known_hands"]
    assert [k["seat"] for k in known] == [1] and [c["number"] for c in known[0]["cards"]] == passed
    GAME.apply(s, 1, GAME.legal_actions(s, 1)[0])  # seat 1 chooses: seat 0 no longer knows which card
    for seed in range(5):
        det = GAME.determinize(s, 0, random.Random(seed))
        assert sorted(det.hands[1] + [det.chosen[1]]) == passed
        assert det.hands[0] == s.hands[0]
    assert len({GAME.determinize(s, 0, random.Random(seed)).chosen[1] for seed in range(20)}) > 1


def feeding_state(resources: list[int], plants: list[tuple[str, int]], tools=(), decorations=()) -> PlantedState:
    """A 2-player state in round 1's feeding step where only seat 0 still has to feed."""
    s = game(2)
    for seat in range(2):
        deal(s, seat, [])
    s.plants[0] = [PLANT[name] for name, _ in plants]
    s.growth[0] = [tokens for _, tokens in plants]
    s.tools[0] = list(tools)
    s.decorations[0] = list(decorations)
    s.resources[0] = list(resources)
    s.phase, s.fed, s.step = FEED, [False, True], 8
    return s


def test_feeding_with_green_thumbs_for_a_missing_resource():
    s = feeding_state([0, 1, 0, 2], [("ZZ Plant", 0)])
    assert GAME.legal_actions(s, 0) == ["feed ZZ Plant", "feed none"]
    GAME.apply(s, 0, "feed ZZ Plant")
    assert s.growth[0] == [1] and s.propagation[0] == 0 and s.round == 1


def test_feeding_without_enough_resources_is_not_offered():
    s = feeding_state([0, 1, 0, 1], [("ZZ Plant", 0), ("Monstera", 0)])
    assert GAME.legal_actions(s, 0) == ["feed none"]
    with pytest.raises(IllegalAction, match="cannot be paid"):
        GAME.apply(s, 0, "feed ZZ Plant")


def test_feeding_each_plant_once_and_not_fully_grown_ones():
    s = feeding_state([5, 5, 5, 0], [("ZZ Plant", 4), ("Snake Plant", 0), ("Aloe Vera", 2)])
    legal = GAME.legal_actions(s, 0)
    assert legal[0] == "feed Aloe Vera+Snake Plant" or legal[0] == "feed Snake Plant+Aloe Vera"
    assert not any("ZZ Plant" in a for a in legal)
    assert len(legal) == 4  # none, Snake, Aloe, both
    GAME.apply(s, 0, legal[0])
    # paid LW + LF from LLLLL WWWWW FFFFF: 10 left → 5 propagation tokens
    assert s.growth[0] == [4, 1, 3] and s.propagation[0] == 5


def test_the_last_turn_starts_feeding_and_a_seat_with_nothing_to_feed_is_fed_automatically():
    s = game(2)
    s.step = 7
    s.plants = [[PLANT["ZZ Plant"]], [PLANT["Snake Plant"]]]
    deal(s, 0, [card("LLL")])
    deal(s, 1, [card("LW")])
    play_turn(s, {})
    assert s.phase == FEED and GAME.to_move(s) == (1,)  # ZZ Plant (WF) cannot grow on Light alone
    assert s.fed == [True, False] and s.propagation == [1, 0] and s.resources[0] == [0, 0, 0, 0]
    assert GAME.legal_actions(s, 1) == ["feed Snake Plant", "feed none"]


def test_the_round_ends_at_once_when_nobody_can_feed():
    s = game(2)
    s.step = 7
    s.plants = [[PLANT["ZZ Plant"]], [PLANT["Peace Lily"]]]
    deal(s, 0, [card("LLL")])
    deal(s, 1, [card("LLL", 1)])
    play_turn(s, {})
    assert s.round == 1 and s.phase == CHOOSE and s.step == 0 and s.propagation == [1, 1]
    assert all(len(h) == 8 for h in s.hands)


@pytest.mark.parametrize(
    ("resources", "trays", "tokens"),
    [([3, 0, 0, 3], 0, 2), ([1, 0, 0, 1], 0, 0), ([0, 0, 0, 4], 0, 1), ([1, 1, 0, 0], 1, 2),
     ([1, 0, 0, 0], 2, 0), ([2, 2, 1, 5], 0, 3), ([2, 2, 1, 5], 2, 5)],
)
def test_propagation_arithmetic(resources, trays, tokens):
    assert propagation_tokens(CARDS, resources, trays) == tokens


def test_propagation_with_a_seed_tray_in_play():
    s = feeding_state([1, 1, 0, 3], [("Money Tree", 0)], tools=[card("Seed Tray")])
    GAME.apply(s, 0, "feed none")
    # leftovers L, W and 3 Green Thumbs are worth 1 + 1 + 1 = 3 → 1 token; the Seed Tray adds 1
    assert s.propagation[0] == 2 and s.resources[0] == [0, 0, 0, 0]


def score(plants=(), propagation=0, tools=(), decorations=()):
    """Score a board given by names: plants as (name, tokens)."""
    return score_board(CARDS, [PLANT[n] for n, _ in plants], [t for _, t in plants], propagation,
                       [TOOL[t] for t in tools], [DECO[d] for d in decorations])


def test_each_decoration_scores():
    plants = [("Monstera", 3), ("Calathea", 1), ("Aloe Vera", 3), ("ZZ Plant", 2)]
    tools = ["Watering Can", "Trowel", "Trowel"]
    rows = dict(score(plants, 5, tools, [d.name for d in CARDS.decorations]).decoration_rows)
    assert rows["Workbench"] == 3
    assert rows["Ceramic Planter"] == 2 * 3  # Monstera, Calathea, ZZ Plant
    assert rows["Terracotta Pot"] == 2 and rows["Flower Stand"] == 0
    assert rows["Hanging Basket"] == 0 and rows["Terrarium"] == 0 and rows["Wicker Basket"] == 0
    assert rows["Bookshelf"] == 2 * 2  # Foliage, Succulent
    assert rows["Macramé Hanger"] == 3 * 2  # Monstera, Aloe Vera
    assert rows["Side Table"] == 2  # 5 tokens // 2


def test_copies_score_separately_and_the_total_adds_up():
    result = score([("Monstera", 2), ("ZZ Plant", 4), ("Aloe Vera", 3)], 5, ["Watering Can", "Trowel"],
                   ["Workbench", "Workbench", "Terracotta Pot", "Macramé Hanger"])
    assert result.plants == 7 + 6 + 6 and result.propagation == 5
    assert result.decoration_rows == [("Workbench", 2), ("Workbench", 2), ("Terracotta Pot", 2), ("Macramé Hanger", 6)]
    assert result.total == 19 + 5 + 12 and result.growth_tokens == 9


def test_ties_go_to_most_growth_tokens_then_shared():
    s = game(3)
    s.plants = [[PLANT["Monstera"]], [PLANT["ZZ Plant"]], [PLANT["Pothos"]]]
    s.growth = [[1], [3], [3]]  # 3 points each; 1, 3 and 3 growth tokens
    assert GAME.scores(s) == [3, 4, 4]
    s.growth = [[1], [2], [2]]
    s.propagation = [0, 1, 1]
    assert GAME.scores(s) == [3, 3, 3] and GAME.winners(s) == [1, 2]


def test_short_and_loose_action_texts_are_understood():
    s = feeding_state([5, 5, 5, 0], [("ZZ Plant", 0), ("Snake Plant", 0), ("Aloe Vera", 0)])
    assert GAME.canonical(s, 0, "feed aloe vera+zz plant") == "feed ZZ Plant+Aloe Vera"
    assert GAME.canonical(s, 0, "FEED   none") == "feed none"
    GAME.apply(s, 0, "feed snake plant + ALOE VERA")
    assert s.growth[0] == [0, 1, 1]
    s = game(2)
    first = s.hands[0][0]
    assert GAME.canonical(s, 0, f"play {first}") == f"play {first} {CARDS.label(first)}"
    GAME.apply(s, 0, f"nursery {first}")
    assert s.chosen[0] == first and s.nursery[0]
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.apply(s, 1, "play 999")
