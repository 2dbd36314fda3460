"""Fixed action spaces and observation planes of every game (core/actions.py, games/<name>/actions.py,
rl/spaces.py): the id ↔ action map is pinned, every legal action has an id that means the same move in
every state, and observations come from the view alone."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tablepress.core.actions import ActionTable, Plane, Planes
from tablepress.core.match import Match
from tablepress.core.registry import game_names, get_game, get_package
from tablepress.games.flowers.actions import GRID_RADIUS
from tablepress.rl.spaces import (ActionSpaceExceeded, HashedObservation, InfoState, LegalIndexSpace,
                                  NoActionInSpace, spaces)

#: (game, players) → (number of ids, digest of the whole id ↔ name map, observation length).
PINNED = {
    ("flowers", 1): (52, "9dd8d16e4f7a8814", 848),
    ("flowers", 2): (52, "9dd8d16e4f7a8814", 1487),
    ("flowers", 4): (52, "9dd8d16e4f7a8814", 2765),
    ("pressed", 2): (1167, "0393cacfb4b4d060", 456),
    ("pressed", 3): (1268, "583be1d16669dc82", 772),
    ("pressed", 5): (1611, "c48695079ff65dca", 1668),
    ("planted", 2): (1108, "3e723b19cd7f8f28", 738),
    ("planted", 5): (1108, "3e723b19cd7f8f28", 1365),
    ("by-this", 2): (1901, "429c97b2b877c920", 323),
    ("by-this", 4): (1901, "429c97b2b877c920", 331),
}
#: (game, players) → {id: name}: examples of the map, readable.
EXAMPLES = {
    ("flowers", 2): {0: "draw 1", 2: "draw 3", 3: "place -3,-3", 3 + 24: "place 0,0", 51: "place 3,3"},
    ("pressed", 3): {0: "plant ZI 1", 4: "plant SU 1", 1267: "press TU TU TU TU"},
    ("planted", 2): {0: "play 1", 102: "nursery 1", 1044: "feed none", 1045: "feed 1", 1107: "feed 1+2+3+4+5+6"},
    ("by-this", 2): {0: "close", 1: "keep", 4: "pass", 5: "bythis A to Z", 13: "floor Ant"},
}
NAMES = game_names()


def _counts() -> list[tuple[str, int]]:
    cases = []
    for name in NAMES:
        game = get_game(name)
        cases += [(name, n) for n in sorted({game.min_players, 2, game.max_players})
                  if game.min_players <= n <= game.max_players]
    return cases


def _beyond_grid(text: str) -> bool:
    x, y = map(int, text.rsplit(" ", 1)[1].split(","))
    return max(abs(x), abs(y)) > GRID_RADIUS


def _table(name: str, players: int) -> ActionTable:
    package = get_package(name)
    table = package.actions(package.game, players, {})
    assert isinstance(table, ActionTable) and table.fixed
    return table


@pytest.mark.parametrize(("name", "players"), sorted(PINNED))
def test_the_id_map_is_pinned(name: str, players: int) -> None:
    """The whole id ↔ name map hashes to the recorded digest: ids stay stable across versions."""
    size, digest, observation = PINNED[(name, players)]
    table = _table(name, players)
    assert (table.size, table.digest(), spaces(get_game(name), players).observation_size) == (size, digest, observation)


@pytest.mark.parametrize(("name", "players"), sorted(EXAMPLES))
def test_examples_of_the_id_map(name: str, players: int) -> None:
    """A few ids by name, both ways."""
    table = _table(name, players)
    for action_id, text in EXAMPLES[(name, players)].items():
        assert table.name(action_id) == text and table.id_of(text) == action_id


@pytest.mark.parametrize(("name", "players"), _counts())
def test_every_legal_action_has_one_id_meaning_that_action(name: str, players: int) -> None:
    """In random games every legal action has an id, distinct ids in a state, and the id's name is the
    action (the text, or for Planted the text without what the view already says)."""
    if get_package(name).actions is None:
        pytest.skip(f"{name} declares no action space: its ids are legal-action indices, which name no move")
    game = get_game(name)
    space = spaces(game, players)
    table = space.actions
    seen_ids: set[int] = set()
    for seed in range(3):
        match = Match(game, players, seed)
        rng = random.Random(seed)
        while not match.is_over:
            for seat in match.to_move():
                legal = match.legal(seat)
                view = game.view(match.state, seat)
                ids = table.ids(view, seat, legal)
                outside = [t for t, i in zip(legal, ids) if i is None]
                if name == "flowers":  # only cells beyond the bounded grid, and never every move
                    assert all(_beyond_grid(t) for t in outside) and len(outside) < len(legal)
                else:
                    assert not outside, outside[:3]
                inside = [i for i in ids if i is not None]
                assert len(set(inside)) == len(inside)
                for action_id, text in zip(ids, legal):
                    if action_id is None:
                        continue
                    name_ = table.name(action_id)
                    if name == "planted":
                        assert text.split()[0] == name_.split()[0]
                    elif name == "flowers":  # `place Y4g 1,0` is `place 1,0`: the card in hand
                        assert (text.split()[0], text.split()[-1]) == (name_.split()[0], name_.split()[-1])
                    else:
                        assert name_ == text
                seen_ids.update(ids)
            seat = match.next_mover()
            match.act(seat, rng.choice(match.legal(seat)))
    assert len(seen_ids) > 10


def test_planted_ids_name_cards_and_board_positions() -> None:
    """`play 24 LW` is the id of card 24; a feeding's id names the fed plants' board positions."""
    game = get_game("planted")
    table = _table("planted", 3)
    board = {"public": {"boards": [{"plants": [{"name": "Pothos"}, {"name": "Monstera"}, {"name": "Agave"}]}]}}
    assert table.ids(board, 0, ["play 24 LW", "nursery 24 LW", "feed Pothos+Agave", "feed none"]) == [
        table.id_of("play 24"), table.id_of("nursery 24"), table.id_of("feed 1+3"), table.id_of("feed none")]
    assert table.ids(board, 0, ["feed Rose"]) == [None]
    assert game.name == "planted"


def test_flowers_cells_beyond_the_grid_have_no_id_but_a_move_always_does() -> None:
    """A placement beyond the bounded grid is outside the space; covering 0,0 always has an id; the id
    of a placement is its cell (the card is the one in hand)."""
    game = get_game("flowers")
    space = spaces(game, 2)
    origin = space.actions.id_of("place 0,0")
    assert space.actions.ids({}, 0, ["place Y1 7,0", "place Y1 0,0", "place R4g 0,0"]) == [None, origin, origin]
    assert space.legal({}, 0, ["place Y1 7,0", "place Y1 0,0"]) == {origin: "place Y1 0,0"}
    with pytest.raises(NoActionInSpace):
        space.legal({}, 0, ["place Y1 7,0"])


@pytest.mark.parametrize(("name", "players"), _counts())
def test_observation_planes_shape_and_values(name: str, players: int) -> None:
    """The observation is the planes one after another, finite, from a view of the right seat."""
    game = get_game(name)
    space = spaces(game, players)
    planes = space.observation.planes
    assert len({p.name for p in planes}) == len(planes) and all(p.size > 0 for p in planes)
    match = Match(game, players, 1)
    rng = random.Random(1)
    vectors = []
    for _ in range(40):
        if match.is_over:
            break
        seat = match.next_mover()
        vector = space.observation.encode(game.view(match.state, seat), seat)
        assert vector.shape == (space.observation_size,) and vector.dtype == np.float32
        assert np.isfinite(vector).all()
        vectors.append(vector)
        match.act(seat, rng.choice(match.legal(seat)))
    assert any(not np.array_equal(vectors[0], v) for v in vectors[1:]), "the observation never changed"


@pytest.mark.parametrize(("name", "players"), _counts())
def test_a_seats_tensor_ignores_other_seats_hidden_cards(name: str, players: int) -> None:
    """Resampling everything a seat cannot see (others' hands, decks) leaves its observation unchanged,
    and the observation does change with the seat's own private cards."""
    game = get_game(name)
    space = spaces(game, players)
    match = Match(game, players, 5)
    rng = random.Random(5)
    checked = 0
    while not match.is_over and checked < 25:
        seat = match.next_mover()
        mine = space.observation.encode(game.view(match.state, seat), seat)
        for k in range(3):
            other = game.determinize(match.state, seat, random.Random(k))
            assert np.array_equal(mine, space.observation.encode(game.view(other, seat), seat))
        checked += 1
        match.act(seat, rng.choice(match.legal(seat)))
    assert checked > 0


def test_hands_are_private_planes() -> None:
    """Two seats of one By This state see different hands; the spectator-free encoding needs the view."""
    game = get_game("by-this")
    space = spaces(game, 2)
    state = game.new(2, 3)
    first = space.observation.encode(game.view(state, 0), 0)
    second = space.observation.encode(game.view(state, 1), 1)
    layout = Planes(space.observation.planes)
    assert not np.array_equal(layout.part(first, "hand"), layout.part(second, "hand"))
    in_hand = layout.part(first, "hand").sum() + layout.part(first, "specials").sum()
    assert in_hand == len(game.view(state, 0)["private"]["hand"])


def test_information_state_adds_the_seats_own_actions_in_order() -> None:
    """The information state is the observation, then counts and the sequence of the seat's own ids."""
    observation = HashedObservation(8)
    actions = LegalIndexSpace(4)
    info = InfoState(observation, actions, horizon=3)
    view = {"public": {"n": 1}, "private": {}}
    vector = info.encode(view, 0, [2, 0, 2])
    layout = info.layout
    assert np.array_equal(layout.part(vector, "hashed view"), observation.encode(view, 0))
    assert layout.part(vector, "own action counts").tolist() == [1, 0, 2, 0]
    assert layout.part(vector, "own actions").tolist() == pytest.approx([0.75, 0.25, 0.75])
    assert not np.array_equal(vector, info.encode(view, 0, [0, 2, 2]))


def test_the_default_space_of_a_game_that_declares_none() -> None:
    """Without a declared space: id k = the k-th legal action (not fixed), bounded; a hashed view."""
    space = LegalIndexSpace(3, "my-game")
    assert not space.fixed and space.ids({}, 0, ["a", "b"]) == [0, 1] and space.name(0) == "legal action 1"
    with pytest.raises(ActionSpaceExceeded, match="my-game"):
        space.ids({}, 0, ["a", "b", "c", "d"])
    assert HashedObservation(16).encode({"public": {}}, 0).shape == (16,)


def test_planes_layout_and_tables_refuse_duplicates() -> None:
    """Planes are laid out in order and drop indices outside a plane; an action table's names are distinct."""
    layout = Planes([Plane("a", 2, ""), Plane("b", 3, "")])
    vector = layout.zeros()
    layout.put(vector, "b", 1, 5.0)
    layout.put(vector, "b", 3, 9.0)
    layout.put(vector, "a", -1, 9.0)
    assert vector.tolist() == [0, 0, 0, 5, 0]
    with pytest.raises(ValueError):
        ActionTable(("x", "x"))
