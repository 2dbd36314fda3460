"""By This rules (tablepress/games/by_this/rules.md): the sample turn, every special, Floor and pass, closes, the end, setup."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tablepress.core.errors import IllegalAction
from tablepress.games.by_this import GAME
from tablepress.games.by_this.engine import CLOSE_STEP, OVER, PLACE_STEP, PLAY, ByThisState
from tablepress.games.by_this.scoring import close_points

N = GAME.by_name


def key(name: str) -> int:
    """A Key's id from its plain name (`Small to Large`)."""
    return GAME.key_by_plain[name]


def special(effect: str, copy: int = 0) -> int:
    """The id of a special by effect."""
    return [c for c, e in enumerate(GAME.cards.effect) if e == effect][copy]


def arrange(players: int, *, key_in_play: str, face_up: tuple[str, str] = ("A to Z", "Old to New"),
            shelf: tuple[str, ...] = (), hands: tuple[tuple, ...] = (), floor: tuple[str, ...] = (),
            current: int = 0, young: bool = False, deck_top: tuple = ()) -> ByThisState:
    """A game state laid out by hand; every other card goes into the deck (sorted, `deck_top` on top)."""
    state = GAME.new(players, 0, {"young": young})

    def ids(items) -> list[int]:
        return [item if isinstance(item, int) else N[item] for item in items]

    state.key = key(key_in_play)
    state.face_up = [key(k) for k in face_up]
    state.key_deck = sorted(set(range(len(GAME.cards.keys))) - {state.key, *state.face_up})
    state.key_hidden = len(state.key_deck)
    state.shelf = ids(shelf)
    state.floor = ids(floor)
    state.hands = [sorted(ids(hand)) for hand in hands] + [[] for _ in range(players - len(hands))]
    used = set(state.shelf) | set(state.floor) | {c for hand in state.hands for c in hand}
    top = ids(deck_top)
    state.deck = [c for c in range(GAME.cards.card_count) if c not in used and c not in top] + top[::-1]
    state.current = current
    state.phase = PLAY
    return state


def names(cards: list[int]) -> list[str]:
    """Card names."""
    return [GAME.names[c] for c in cards]


def full_counts() -> Counter:
    """The card counts of a fresh game (every card and Key once)."""
    return GAME.card_counts(GAME.new(3, 1))


# ----- the sample turn ----------------------------------------------------------------------------
def test_sample_turn_step_by_step() -> None:
    ana, bo = 0, 1
    state = arrange(
        3, key_in_play="Small to Large", face_up=("A to Z", "Old to New"), shelf=("Ant", "Rice", "Sand"),
        hands=(("Needle", "Pearl", "Egg", "Hat", "Kite"), ("Apple", "Coffee", "Guitar", "Whale", special("bythis"))),
        current=ana,
    )
    assert GAME.card_counts(state) == full_counts()
    # Ana: Needle (Size 2) fits on the right only.
    legal = GAME.legal_actions(state, ana)
    assert "place Needle right" in legal and "place Needle left" not in legal
    GAME.apply(state, ana, "place Needle right")
    assert names(state.shelf) == ["Ant", "Rice", "Sand", "Needle"]
    # Closing now would score 4 + 2 = 6; she does not.
    assert state.phase == CLOSE_STEP and GAME.close_score(state) == 6
    assert GAME.view(state, bo)["public"]["close_score"] == 6
    assert GAME.legal_actions(state, ana) == ["close", "keep"]
    GAME.apply(state, ana, "keep")
    assert state.current == bo and state.phase == PLAY and len(state.shelf) == 4
    # Bo plays By This and takes A to Z: Needle (ABC 6) is out of order after Sand (ABC 8) and falls.
    assert "bythis A to Z" in GAME.legal_actions(state, bo)
    top_key = state.key_deck[0]
    GAME.apply(state, bo, "bythis A to Z")
    assert GAME.cards.keys[state.key].name == "A to Z"
    assert names(state.shelf) == ["Ant", "Rice", "Sand"]
    assert names(state.floor)[-1] == "Needle"
    assert state.face_up == [top_key, key("Old to New")]  # the row is refilled from the Key deck
    assert state.key_deck[-1] == key("Small to Large")  # the old Key goes under
    assert GAME.view(state, None)["public"]["key_deck_known_under"] == ["Small → Large"]
    assert "By This" in names(state.spent)
    # He must now place: Apple (ABC 1) is legal on the left (same number as Ant); Coffee (ABC 2) nowhere.
    assert state.phase == PLACE_STEP
    legal = GAME.legal_actions(state, bo)
    assert "place Apple left" in legal and "place Apple right" not in legal
    assert not any(a.startswith("place Coffee") for a in legal)
    assert all(a.startswith("place ") for a in legal)
    with pytest.raises(IllegalAction, match="neither end"):
        GAME.apply(state, bo, "place Coffee left")
    GAME.apply(state, bo, "place Apple left")
    assert names(state.shelf) == ["Apple", "Ant", "Rice", "Sand"]
    assert GAME.ends(state, N["Coffee"]) == []
    assert GAME.card_counts(state) == full_counts()


# ----- placing -----------------------------------------------------------------------------------
def test_legal_ends_ascending_and_descending() -> None:
    state = arrange(2, key_in_play="Small to Large", shelf=("Coin", "Egg", "Leaf"))  # Size 2, 3, 4
    assert GAME.ends(state, N["Ant"]) == ["left"]  # 1 ≤ 2
    assert GAME.ends(state, N["Diamond"]) == ["left"]  # 2 ≤ 2: same numbers sit together
    assert GAME.ends(state, N["Coffee"]) == ["right"]  # 4 ≥ 4
    assert GAME.ends(state, N["Apple"]) == []  # 3: fits neither end
    state = arrange(2, key_in_play="Large to Small", shelf=("Leaf", "Egg", "Coin"))  # Size 4, 3, 2
    assert GAME.ends(state, N["Whale"]) == ["left"]
    assert GAME.ends(state, N["Ant"]) == ["right"]
    assert GAME.ends(state, N["Apple"]) == []
    single = arrange(2, key_in_play="A to Z", shelf=("Apple",))
    assert GAME.ends(single, N["Ant"]) == ["left", "right"]  # same number: either side


def test_empty_shelf_takes_any_thing_from_hand_or_floor() -> None:
    state = arrange(2, key_in_play="A to Z", hands=(("Oak", "Zipper"),), floor=("Coin",))
    legal = GAME.legal_actions(state, 0)
    assert legal[:3] == ["place Oak", "place Zipper", "place Coin from floor"]
    GAME.apply(state, 0, "place Coin from floor")
    assert names(state.shelf) == ["Coin"] and state.floor == []


def test_floor_only_when_you_cannot_place_and_pass_only_without_things() -> None:
    state = arrange(2, key_in_play="Small to Large", shelf=("Ant", "Mountain"), hands=(("Apple", "Coffee"),))
    legal = GAME.legal_actions(state, 0)
    assert legal == ["floor Apple", "floor Coffee"]
    GAME.apply(state, 0, "floor Coffee")
    assert names(state.floor) == ["Coffee"] and names(state.hands[0]) == ["Apple"]
    state = arrange(2, key_in_play="Small to Large", shelf=("Ant", "Mountain"), hands=((special("dump"),),),
                    floor=("Apple",))
    assert GAME.legal_actions(state, 0) == ["dump", "pass"]
    can_place = arrange(2, key_in_play="Small to Large", shelf=("Ant", "Mountain"), hands=(("Apple", "Sand"),))
    assert "floor Apple" not in GAME.legal_actions(can_place, 0)
    with pytest.raises(IllegalAction, match="only when you cannot place"):
        GAME.apply(can_place, 0, "floor Apple")
    with pytest.raises(IllegalAction, match="pass only"):
        GAME.apply(can_place, 0, "pass")


def test_draw_to_full_hand_at_the_start_of_a_turn() -> None:
    state = arrange(3, key_in_play="A to Z", hands=(("Ant",), ("Oak",)), deck_top=("Egg", "Hat", "Kite", "Leaf"))
    GAME.apply(state, 0, "place Ant")
    assert state.current == 1 and names(state.hands[1]) == ["Egg", "Hat", "Kite", "Leaf", "Oak"]


def test_draw_stops_when_the_deck_runs_out() -> None:
    state = arrange(2, key_in_play="A to Z", hands=(("Ant",), ("Oak",)))
    state.deck = state.deck[-2:]
    GAME.apply(state, 0, "place Ant")
    assert len(state.hands[1]) == 3 and state.deck == []


# ----- specials ---------------------------------------------------------------------------------
def test_by_this_slide_keeps_the_ordered_prefix() -> None:
    # Under Heavy → Light (Weight, falling): Whale 10, Elephant 9, Brick 7, Mirror 8 — Mirror and after fall.
    state = arrange(2, key_in_play="A to Z", face_up=("Heavy to Light", "New to Old"),
                    shelf=("Brick", "Elephant", "Mirror", "Whale"), hands=((special("bythis"), "Oak"),))
    GAME.apply(state, 0, "bythis Heavy to Light")
    assert names(state.shelf) == ["Brick"]  # Elephant 9 is out of order after Brick 7 under a falling Key
    assert names(state.floor) == ["Elephant", "Mirror", "Whale"]
    assert state.phase == PLACE_STEP
    legal = GAME.legal_actions(state, 0)
    assert "place Oak left" in legal and "place Whale left from floor" in legal


def test_by_this_then_no_placement_ends_the_turn() -> None:
    state = arrange(2, key_in_play="Small to Large", face_up=("A to Z", "Old to New"),
                    shelf=("Ant", "Rice", "Sand"), hands=((special("bythis"), "Coffee"), ("Oak",)))
    GAME.apply(state, 0, "bythis A to Z")  # shelf Ant 1, Rice 8, Sand 8: Coffee 2 fits nowhere
    assert state.phase == CLOSE_STEP  # 3 things with 2 players: the close offer, no place step
    GAME.apply(state, 0, "keep")
    assert state.current == 1 and state.idle == 0  # a special counts: no step toward a forced close


def test_by_this_not_while_locked_nor_before_first_close_at_young_table() -> None:
    hand = ((special("bythis"), "Apple"),)
    state = arrange(2, key_in_play="A to Z", hands=hand)
    assert "bythis Old to New" in GAME.legal_actions(state, 0)
    state.locked = True
    assert not any(a.startswith("bythis") for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="locked"):
        GAME.apply(state, 0, "bythis Old to New")
    young = arrange(2, key_in_play="A to Z", hands=hand, young=True)
    assert not any(a.startswith("bythis") for a in GAME.legal_actions(young, 0))
    with pytest.raises(IllegalAction, match="Young table"):
        GAME.apply(young, 0, "bythis Old to New")
    young.total_closes = young.forced_closes = 1  # a forced close counts as a close
    assert "bythis Old to New" in GAME.legal_actions(young, 0)


def test_dump_the_shelf_then_place() -> None:
    state = arrange(2, key_in_play="A to Z", shelf=("Ant", "Coin", "Egg"), hands=((special("dump"), "Zipper"),),
                    floor=("Oak",))
    assert "dump" in GAME.legal_actions(state, 0)
    GAME.apply(state, 0, "dump")
    assert state.shelf == [] and names(state.floor) == ["Oak", "Ant", "Coin", "Egg"]
    assert GAME.cards.keys[state.key].name == "A to Z"
    assert state.phase == PLACE_STEP
    assert GAME.legal_actions(state, 0) == ["place Zipper", "place Oak from floor", "place Ant from floor",
                                            "place Coin from floor", "place Egg from floor"]
    GAME.apply(state, 0, "place Egg from floor")
    assert names(state.shelf) == ["Egg"] and "Dump the Shelf" in names(state.spent)


def test_dump_and_lock_may_be_taken_back() -> None:
    state = arrange(2, key_in_play="A to Z", shelf=("Ant",), hands=((special("dump"), special("lock"), "Zipper"),))
    assert GAME.undoable(state, 0, "dump") and GAME.undoable(state, 0, "lock")
    assert not GAME.undoable(state, 0, "place Zipper right")  # the next player draws


def test_lock_the_key_until_the_next_close() -> None:
    state = arrange(2, key_in_play="A to Z", shelf=("Ant", "Coin"), hands=((special("lock"), "Egg"),
                                                                            (special("bythis"), "Hat")))
    GAME.apply(state, 0, "lock")
    assert state.locked and state.phase == PLACE_STEP
    GAME.apply(state, 0, "place Egg right")
    assert GAME.view(state, 1)["public"]["locked"]
    GAME.apply(state, 0, "keep")
    assert not any(a.startswith("bythis") for a in GAME.legal_actions(state, 1))
    GAME.apply(state, 1, "place Hat right")
    GAME.apply(state, 1, "close")
    assert not state.locked and state.scores[1] == 4


def test_same_number_places_next_to_a_matching_card_anywhere() -> None:
    # Small → Large: Ant 1, Coin 2, Egg 3, Leaf 4. Apple (Size 3) and Key (Size 2) fit only by Same Number.
    state = arrange(2, key_in_play="Small to Large", shelf=("Ant", "Coin", "Egg", "Leaf"),
                    hands=((special("samenumber"), "Apple"),), floor=("Key",))
    legal = GAME.legal_actions(state, 0)
    same = [a for a in legal if a.startswith("samenumber")]
    assert same == ["samenumber Apple before Egg", "samenumber Apple after Egg",
                    "samenumber Key before Coin from floor", "samenumber Key after Coin from floor"]
    GAME.apply(state, 0, "samenumber Apple after Egg")
    assert names(state.shelf) == ["Ant", "Coin", "Egg", "Apple", "Leaf"]
    assert "Same Number" in names(state.spent) and state.phase == CLOSE_STEP
    assert GAME.close_score(state) == 6  # 5 things + the pile of two 3s


def test_same_number_only_where_it_places() -> None:
    state = arrange(2, key_in_play="Small to Large", shelf=("Ant", "Leaf"), hands=((special("samenumber"), "Apple"),))
    assert not any(a.startswith("samenumber") for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="same number"):
        GAME.apply(state, 0, "samenumber Apple after Ant")
    empty = arrange(2, key_in_play="Small to Large", hands=((special("samenumber"), "Apple"),))
    assert not any(a.startswith("samenumber") for a in GAME.legal_actions(empty, 0))


def test_after_a_special_you_must_place_if_you_can() -> None:
    state = arrange(2, key_in_play="A to Z", shelf=("Ant",), hands=((special("lock"), "Zipper", "Oak"),))
    GAME.apply(state, 0, "lock")
    legal = GAME.legal_actions(state, 0)
    assert legal and all(a.startswith("place ") for a in legal)
    with pytest.raises(IllegalAction, match="place a thing"):
        GAME.apply(state, 0, "floor Oak")


# ----- closes --------------------------------------------------------------------------------------
def test_close_scoring() -> None:
    assert close_points([1, 1, 1]) == 5  # three 1s = 3 + 2
    assert close_points([1, 1, 1, 2]) == 6
    assert close_points([1, 2, 3, 4]) == 4
    assert close_points([2, 2, 5, 5, 5, 9]) == 6 + 1 + 2
    assert close_points([]) == 0


def test_close_offer_only_from_the_minimum_length() -> None:
    three = arrange(3, key_in_play="A to Z", shelf=("Ant", "Coin"), hands=(("Egg",),))
    GAME.apply(three, 0, "place Egg right")
    assert three.phase == PLAY and three.current == 1  # 3 things, 3 players: no close
    two = arrange(2, key_in_play="A to Z", shelf=("Ant", "Coin"), hands=(("Egg",),))
    GAME.apply(two, 0, "place Egg right")
    assert two.phase == CLOSE_STEP  # 3 things, 2 players: may close
    GAME.apply(two, 0, "close")
    assert two.scores == [3, 0] and two.closes == [1, 0] and two.shelf == [] and names(two.closed) == ["Ant", "Coin", "Egg"]
    with pytest.raises(IllegalAction):
        GAME.apply(two, 1, "close")


def test_forced_close_after_a_whole_round_without_place_or_special() -> None:
    # Small → Large: Ant 1 … Mountain 10; only Size 1 or 10 things could be placed. The shelf is short.
    state = arrange(2, key_in_play="Small to Large", shelf=("Ant", "Mountain"),
                    hands=(("Apple", "Coffee"), ("Egg", "Hat")), deck_top=("Kite", "Leaf"))
    state.locked = True
    GAME.apply(state, 0, "floor Coffee")
    assert state.idle == 1 and state.shelf and state.current == 1
    GAME.apply(state, 1, "floor Egg")
    assert state.shelf == [] and names(state.closed) == ["Ant", "Mountain"]
    assert state.scores == [0, 0] and state.closes == [0, 0]
    assert state.total_closes == 1 and state.forced_closes == 1 and not state.locked and state.idle == 0


def test_a_place_breaks_the_round_and_an_empty_shelf_never_closes() -> None:
    state = arrange(2, key_in_play="Small to Large", shelf=("Ant", "Mountain"),
                    hands=(("Apple",), ("Egg", "Sand")))
    GAME.apply(state, 0, "floor Apple")
    GAME.apply(state, 1, "place Sand left")
    GAME.apply(state, 1, "keep")
    assert state.idle == 0 and state.total_closes == 0
    empty = arrange(3, key_in_play="A to Z", hands=((special("dump"),), (special("lock"),), ("Ant",)))
    empty.deck = []
    GAME.apply(empty, 0, "pass")
    GAME.apply(empty, 1, "pass")
    assert empty.idle == 2 and empty.current == 2
    GAME.apply(empty, 2, "place Ant")
    assert empty.idle == 0 and empty.total_closes == 0


def test_optional_close_is_offered_every_turn_the_shelf_is_long_enough() -> None:
    state = arrange(2, key_in_play="Small to Large", shelf=("Ant", "Coin", "Mountain"),
                    hands=(("Apple",), ("Egg",)))
    GAME.apply(state, 0, "floor Apple")
    assert state.phase == CLOSE_STEP
    GAME.apply(state, 0, "close")
    assert state.scores[0] == 3 and state.idle == 0


# ----- the end -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "closes"), [(2, 6), (3, 6), (4, 8)])
def test_the_game_ends_after_enough_closes(players: int, closes: int) -> None:
    state = arrange(players, key_in_play="A to Z", shelf=("Ant", "Coin", "Egg"), hands=(("Hat",),))
    state.total_closes = closes - 2
    GAME.apply(state, 0, "place Hat right")
    GAME.apply(state, 0, "close")
    assert not GAME.is_over(state) and state.total_closes == closes - 1
    state.shelf = [N[n] for n in ("Leaf", "Needle", "Pearl", "Rice")]
    state.hands[1] = [N["Zipper"]]
    GAME.apply(state, 1, "place Zipper right")
    GAME.apply(state, 1, "close")
    assert GAME.is_over(state) and state.phase == OVER and GAME.to_move(state) == ()
    assert GAME.legal_actions(state, 0) == []


def test_the_game_ends_when_no_thing_is_left() -> None:
    state = arrange(2, key_in_play="A to Z", shelf=("Ant",), hands=(("Coin",), (special("dump"),)))
    state.deck = [special("lock")]
    GAME.apply(state, 0, "place Coin right")
    assert GAME.is_over(state) and state.scores == [0, 0]  # the open shelf is not scored
    assert GAME.winners(state) == [0, 1]


def test_the_end_is_checked_after_the_close_step() -> None:
    state = arrange(2, key_in_play="A to Z", shelf=("Ant", "Coin"), hands=(("Egg",), ()))
    state.deck = []
    GAME.apply(state, 0, "place Egg right")
    assert state.phase == CLOSE_STEP  # no thing left, but the close decision comes first
    GAME.apply(state, 0, "close")
    assert GAME.is_over(state) and state.scores == [3, 0]


def test_ties_go_to_more_closes_then_shared() -> None:
    state = GAME.new(3, 5)
    state.phase = OVER
    state.scores, state.closes = [10, 10, 4], [2, 3, 1]
    assert GAME.winners(state) == [1]
    state.closes = [3, 3, 1]
    assert GAME.winners(state) == [0, 1]
    assert GAME.breakdown(state)[0] == {"total": 10, "closes": 3, "best_close": 0, "shelves": []}


def test_every_closed_shelf_is_kept_with_its_closer_and_points() -> None:
    from tablepress.core.match import Match, random_playout
    import random

    match = Match(GAME, 3, 8)
    random_playout(match, random.Random(3))
    state = match.state
    assert len(state.shelves) == state.total_closes
    assert sum(1 for closer, _, _ in state.shelves if closer < 0) == state.forced_closes
    parts = GAME.breakdown(state)
    for seat in range(3):
        mine = [points for closer, points, _ in state.shelves if closer == seat]
        assert sum(mine) == state.scores[seat] and len(mine) == state.closes[seat]
        assert [s["points"] for s in parts[seat]["shelves"]] == mine
        assert parts[seat]["best_close"] == max(mine, default=0)
    public = GAME.view(state, None)["public"]["shelves"]
    assert [entry["points"] for entry in public] == [points for _, points, _ in state.shelves]


# ----- setup, views, hidden information ---------------------------------------------------------
@pytest.mark.parametrize(("players", "hand"), [(2, 6), (3, 5), (4, 4)])
def test_setup(players: int, hand: int) -> None:
    for seed in range(30):
        state = GAME.new(players, seed)
        assert [len(h) for h in state.hands] == [hand] * players
        assert len(state.floor) == 3 and all(GAME.cards.is_thing(c) for c in state.floor)
        assert len(state.face_up) == 2 and len(state.key_deck) == 5 and state.shelf == []
        assert GAME.card_counts(state) == full_counts()
        assert state.current == state.first and 0 <= state.first < players


def test_specials_turned_up_onto_the_floor_are_set_aside_and_shuffled_back() -> None:
    game = GAME.with_variant({"specials": [{"name": "Lock the Key", "effect": "lock", "copies": 40, "text": "x"}],
                              "rules": {"floor_size": 5}})
    for seed in range(20):
        state = game.new(2, seed)
        assert len(state.floor) == 5 and all(game.cards.is_thing(c) for c in state.floor)
        assert sum(game.card_counts(state).values()) == 40 + 40 + 8


def test_first_player_option() -> None:
    assert GAME.new(3, 1, {"first": "2"}).current == 1
    assert {GAME.new(4, seed).current for seed in range(40)} == {0, 1, 2, 3}


def test_views_hide_hands_and_deck_orders() -> None:
    state = GAME.new(3, 11)
    spectator = GAME.view(state, None)
    assert spectator["private"] == {}
    mine = GAME.view(state, 0)
    assert mine["public"] == spectator["public"]
    assert [e["card"] for e in mine["private"]["hand"]] == names(state.hands[0])
    text = repr(mine)
    for other in state.hands[1] + state.hands[2] + state.deck:
        if GAME.cards.is_thing(other):
            assert f"'{GAME.names[other]}'" not in text
    for k in state.key_deck:
        assert GAME.cards.keys[k].name not in text


def test_determinize_keeps_what_the_seat_knows() -> None:
    state = arrange(3, key_in_play="Small to Large", shelf=("Ant", "Rice", "Sand"),
                    hands=(("Needle", "Pearl"), ("Apple", special("bythis")), ("Oak",)), current=1)
    GAME.apply(state, 1, "bythis A to Z")  # Small → Large goes under the Key deck: known to all
    det = GAME.determinize(state, 0, random.Random(3))
    assert det.hands[0] == state.hands[0] and det.shelf == state.shelf and det.floor == state.floor
    assert det.key_deck[-1] == key("Small to Large")
    assert sorted(det.deck + det.hands[1] + det.hands[2]) == sorted(state.deck + state.hands[1] + state.hands[2])
    assert [len(h) for h in det.hands] == [len(h) for h in state.hands]
    assert GAME.view(det, 0) == GAME.view(state, 0)


def test_action_text_round_trips_through_apply() -> None:
    state = GAME.new(2, 4)
    rng = random.Random(4)
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert GAME.turn(state) > 0


def test_bad_actions_change_nothing() -> None:
    state = GAME.new(2, 9)
    before = GAME.clone(state)
    for bad in ("place Unicorn left", "bythis Up to Down", "close", "dance", "place", "floor", "samenumber Ant"):
        with pytest.raises(IllegalAction):
            GAME.apply(state, state.current, bad)
    with pytest.raises(IllegalAction, match="not seat"):
        GAME.apply(state, 1 - state.current, GAME.legal_actions(state, state.current)[0])
    assert state == before
