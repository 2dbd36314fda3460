"""`tablepress new-game`: the skeleton it writes is a complete package whose game passes the checker."""

from __future__ import annotations

import importlib
import sys
import tomllib
from pathlib import Path

import pytest

from tablepress.core.checker import check_game
from tablepress.core.errors import TablepressError
from tablepress.core.fingerprint import fingerprint
from tablepress.core.package import GamePackage, PlainTerminal
from tablepress.printing.intro import REQUIRED
from tablepress.scaffold import new_game

NAME, MODULE = "tiny-tricks", "tiny_tricks"


@pytest.fixture(scope="module")
def skeleton(tmp_path_factory) -> Path:
    """A skeleton written by `new_game` into a fresh folder."""
    return new_game(NAME, tmp_path_factory.mktemp("games"))


@pytest.fixture(scope="module")
def skeleton_package(skeleton):
    """The skeleton's PACKAGE, imported from its folder (not installed)."""
    sys.path.insert(0, str(skeleton))
    try:
        yield importlib.import_module(MODULE).PACKAGE
    finally:
        sys.path.remove(str(skeleton))
        for module in [m for m in sys.modules if m == MODULE or m.startswith(MODULE + ".")]:
            del sys.modules[module]


def test_the_skeleton_has_every_file_filled_in(skeleton):
    files = sorted(str(path.relative_to(skeleton)) for path in skeleton.rglob("*") if path.is_file())
    assert files == ["README.md", "pyproject.toml", f"tests/test_{MODULE}.py", f"{MODULE}/__init__.py",
                     f"{MODULE}/engine.py", f"{MODULE}/intro.toml", f"{MODULE}/rules.md"]
    assert not [path for path in skeleton.rglob("*") if path.is_file() and "$" in path.read_text()]


def test_the_skeleton_declares_its_entry_point_and_intro(skeleton):
    project = tomllib.loads((skeleton / "pyproject.toml").read_text())["project"]
    assert project["name"] == NAME and "tablepress" in project["dependencies"]
    assert project["entry-points"]["tablepress.games"] == {NAME: f"{MODULE}:PACKAGE"}
    intro = tomllib.loads((skeleton / MODULE / "intro.toml").read_text())
    assert intro["title"] == "Tiny Tricks" and set(REQUIRED) <= {s["id"] for s in intro["section"]}


def test_the_skeleton_leaves_out_every_optional_part(skeleton_package):
    package = skeleton_package
    assert isinstance(package, GamePackage) and package.name == NAME
    assert isinstance(package.terminal, PlainTerminal) and package.faces is None
    assert package.file("web.js") is None and package.file("rules.md") is not None
    assert [check.players for check in package.checks()] == [2, 3, 4]
    assert package.expectations.fingerprint == fingerprint(package.game), "new-game records the skeleton's"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_skeleton_game_passes_the_checker(skeleton_package, players):
    report = check_game(skeleton_package.game, players, playouts=60, deep_playouts=6, seed=players)
    assert report.playouts == 60 and report.leak_checks > 0 and report.resampled > 0
    assert report.max_actions == 5 * players


def test_the_skeleton_game_follows_suit_and_the_highest_of_the_led_suit_takes_the_trick(skeleton_package):
    game = skeleton_package.game
    state = game.new(3, 4)
    played = [game.legal_actions(state, 0)[-1]]
    game.apply(state, 0, played[0])
    led = played[0].split()[1]
    for seat in (1, 2):
        hand = [game.actions[card] for card in state.hands[seat]]
        follow = [action for action in hand if action.split()[1] == led]
        assert game.legal_actions(state, seat) == (follow or hand)
        with pytest.raises(TablepressError):
            game.apply(state, 3 - seat, game.legal_actions(state, seat)[0])
        played.append(game.legal_actions(state, seat)[0])
        game.apply(state, seat, played[-1])
    ranks = [int(action.split()[2]) if action.split()[1] == led else 0 for action in played]
    winner = ranks.index(max(ranks))
    assert state.tricks == [int(seat == winner) for seat in range(3)] and game.to_move(state) == (winner,)
    assert fingerprint(game) == fingerprint(game)


@pytest.mark.parametrize("name", ["", "My-Game", "my_game", "-game", "game-", "my--game", "7up", "tiny tricks"])
def test_bad_names_are_refused(tmp_path, name):
    with pytest.raises(TablepressError, match="lowercase letters"):
        new_game(name, tmp_path)
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize(("name", "reason"), [("by-this", "already"), ("json", "Python has"), ("class", "Python has")])
def test_taken_names_are_refused(tmp_path, name, reason):
    with pytest.raises(TablepressError, match=reason):
        new_game(name, tmp_path)


def test_the_command_writes_once_then_refuses_with_one_line(cli, tmp_path):
    result = cli("new-game", "other-tricks", "--dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "other-tricks" / "other_tricks" / "engine.py").is_file()
    again = cli("new-game", "other-tricks", "--dir", str(tmp_path))
    assert again.exit_code == 2 and "exists already" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1 and "Traceback" not in again.output


def test_the_skeleton_engine_declares_zones_and_writes_no_information_handling(skeleton, skeleton_package):
    """Its view, determinize, hidden zones and card counts come from its zones; its engine stays short."""
    from tablepress.core.zoned import ZonedGame

    game = skeleton_package.game
    assert isinstance(game, ZonedGame)
    own = vars(type(game))
    assert not {"view", "determinize", "hidden_zones", "card_counts"} & set(own)
    assert len((skeleton / MODULE / "engine.py").read_text().splitlines()) <= 155


def test_the_default_terminal_draws_the_cards_in_their_zones(skeleton_package):
    from rich.console import Console

    game, terminal = skeleton_package.game, skeleton_package.terminal
    state = game.new(3, 2)
    game.apply(state, 0, game.legal_actions(state, 0)[0])
    names = ["Ana", "Bo", "Cy"]

    def drawn(seat):
        console = Console(width=120, record=True, color_system=None)
        console.print(terminal.render(game.view(state, seat), seat, names))
        return console.export_text()

    mine, spectator = drawn(1), drawn(None)
    hand = [f"[{game.layout.cards_of(game.layout.by_name['hand']).name(card)}]" for card in state.hands[1]]
    assert "Hand · Bo" in mine and all(card in mine for card in hand) and "(yours)" in mine
    assert not any(card in spectator for card in hand) and "Hand · Bo" in spectator
    trick = game.layout.sets["card"].name(state.trick[0])
    assert "Trick" in spectator and f"[{trick}]" in spectator and "9 face down" in spectator
    assert "{" not in mine, "no raw data: the facts are one line of words"


def test_plain_faces_print_each_card_with_its_declared_fields(skeleton_package):
    import re

    from tablepress.faces.plain import plain_faces
    from tablepress.faces.svg import face_svg

    faces = {face.key: face for face in plain_faces(skeleton_package.game)}
    assert len(faces) == 24 and sum(face.copies for face in faces.values()) == 24
    texts = re.findall(r">([^<>]+)</text", face_svg(faces["Gold 5"].front, "Gold 5"))
    assert texts[:3] == ["Gold 5", "Suit: Gold", "Rank: 5"]
