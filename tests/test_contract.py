"""`tablepress check GAME` and `tablepress.testing.contract_tests`: the shared contract checks pass on a sound
package (the `new-game` skeleton) and each one fails, in one line naming it, on a package broken for it."""

from __future__ import annotations

import dataclasses
import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tablepress.core import registry
from tablepress.core.contract import contract_checks, failures, run_contract
from tablepress.core.fingerprint import fingerprint
from tablepress.core.package import Expectations, GamePackage, PlainTerminal, package
from tablepress.scaffold import new_game

from test_simultaneous import SealedBids

NAME, MODULE = "contract-tricks", "contract_tricks"
SKELETON_CHECKS = ["checker-2p", "checker-3p", "checker-4p", "fingerprint", "asking-order-2p", "asking-order-3p",
                   "asking-order-4p", "terminal", "faces", "intro", "rules"]


@pytest.fixture(scope="module")
def skeleton(tmp_path_factory) -> Path:
    """A skeleton written by `new_game`."""
    return new_game(NAME, tmp_path_factory.mktemp("games"))


@pytest.fixture(scope="module")
def sound(skeleton) -> GamePackage:
    """The skeleton's PACKAGE, imported from its folder."""
    sys.path.insert(0, str(skeleton))
    try:
        yield importlib.import_module(MODULE).PACKAGE
    finally:
        sys.path.remove(str(skeleton))
        for module in [m for m in sys.modules if m == MODULE or m.startswith(MODULE + ".")]:
            del sys.modules[module]


@pytest.fixture
def install(monkeypatch) -> Callable[[GamePackage], str]:
    """Registers a package as an installed plugin would be; returns its name."""
    def register(chosen: GamePackage) -> str:
        monkeypatch.setattr(registry, "_loaded", {chosen.name: chosen})
        monkeypatch.setattr(registry, "_broken", {})
        monkeypatch.setattr(registry, "_entry_points", lambda: {chosen.name: None})
        return chosen.name
    return register


def test_the_skeleton_passes_every_check_and_says_so(cli, install, sound):
    assert [check.id for check in contract_checks(sound)] == SKELETON_CHECKS
    done = cli("check", install(sound))
    assert done.exit_code == 0, done.output
    assert done.stdout.strip() == f"{NAME}: all 11 checks passed"
    progress = done.stderr.splitlines()
    assert progress[0] == f"[1/11] {NAME}: checker 2p" and progress[-1] == f"[11/11] {NAME}: rules"


def test_an_unknown_game_is_one_line():
    from typer.testing import CliRunner

    from tablepress.cli import app

    done = CliRunner().invoke(app, ["check", "no-such-game"])
    assert done.exit_code == 2 and "unknown game 'no-such-game'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


# ----- broken packages: each breaks one check ------------------------------------------------------------
def _leaky(sound: GamePackage, folder: Path) -> GamePackage:
    """A checker mutant: every seat's view shows every hand."""
    base = type(sound.game)

    class Leaky(base):  # type: ignore[misc, valid-type]
        def view(self, state: Any, seat: int | None) -> dict[str, Any]:
            shown = super().view(state, seat)
            shown["private"]["hands"] = [list(hand) for hand in state.hands]
            return shown

    return dataclasses.replace(sound, game=Leaky())


def _wrong_fingerprint(sound: GamePackage, folder: Path) -> GamePackage:
    return dataclasses.replace(sound, expectations=Expectations(fingerprint="0" * 24))


def _no_fingerprint(sound: GamePackage, folder: Path) -> GamePackage:
    return dataclasses.replace(sound, expectations=Expectations())


class _EndlessTerminal(PlainTerminal):
    """Draws a view until the game is over, then fails."""

    def render(self, view: dict[str, Any], seat: int | None, names: list[str]) -> Any:
        if view["public"]["over"]:
            raise KeyError("winner")
        return super().render(view, seat, names)


def _terminal(sound: GamePackage, folder: Path) -> GamePackage:
    return dataclasses.replace(sound, terminal=_EndlessTerminal())


def _faces_twice(sound: GamePackage, folder: Path) -> GamePackage:
    from tablepress.faces.plain import plain_faces

    return dataclasses.replace(sound, faces=lambda game: plain_faces(game) * 2)


def _no_components(sound: GamePackage, folder: Path) -> GamePackage:
    return dataclasses.replace(sound, components=lambda game: [])


def _copied(sound: GamePackage, folder: Path, name: str, change: Callable[[str], str]) -> GamePackage:
    """The package over a copy of its folder with the file `name` changed."""
    shutil.copytree(sound.folder, folder, dirs_exist_ok=True)
    path = folder / name
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
    return dataclasses.replace(sound, folder=folder)


def _intro_without_end(sound: GamePackage, folder: Path) -> GamePackage:
    return _copied(sound, folder, "intro.toml", lambda text: text.replace('id = "end"', 'id = "finish"'))


def _intro_with_a_stranger(sound: GamePackage, folder: Path) -> GamePackage:
    return _copied(sound, folder, "intro.toml", lambda text: text.replace('"Blue 6"', '"Purple 9"'))


def _rules_without_headings(sound: GamePackage, folder: Path) -> GamePackage:
    return _copied(sound, folder, "rules.md", lambda text: text.replace("#", ""))


#: Broken packages: how each is made, the one check it breaks and words its failure line holds.
BROKEN = {
    "view-leak": (_leaky, "checker 2p", "contract-tricks (2p"),
    "wrong-fingerprint": (_wrong_fingerprint, "fingerprint", "recorded fingerprint 000000000000000000000000 but "
                                                            "the game's is "),
    "no-fingerprint": (_no_fingerprint, "fingerprint", "no fingerprint recorded"),
    "terminal": (_terminal, "terminal", "at the end of a 3-player game: KeyError"),
    "faces": (_faces_twice, "faces", "card key 'Blue 1' names more than one face"),
    "components": (_no_components, "components", "declared but the maker gives none"),
    "intro": (_intro_without_end, "intro", "no section with id 'end'"),
    "intro-card": (_intro_with_a_stranger, "intro", "'Purple 9', which no card face has"),
    "rules": (_rules_without_headings, "rules", "rules.md has no heading"),
}


@pytest.mark.parametrize("kind", BROKEN)
def test_tablepress_check_names_each_broken_check(cli, install, sound, tmp_path, kind):
    make, check, words = BROKEN[kind]
    broken = make(sound, tmp_path / "game")
    done = cli("check", install(broken))
    assert done.exit_code == 1, done.output
    lines = done.stdout.strip().splitlines()
    assert lines and all(line.startswith(f"FAIL {NAME}: ") for line in lines)
    assert lines[0].startswith(f"FAIL {NAME}: {check}: ") and words in lines[0], lines
    if kind != "view-leak":  # the leak shows at every player count
        assert len(lines) == 1, lines
    assert f"{len(lines)} of " in done.stderr and "Traceback" not in done.output
    if "fingerprint" in kind:
        assert f'Expectations(fingerprint="{fingerprint(sound.game)}")' in lines[0]


def test_asking_order_fails_for_a_resolution_that_rewards_choosing_first(cli, install, tmp_path):
    game = SealedBids(first_bonus=True)
    broken = package(game, str(tmp_path / "__init__.py"), expectations=Expectations(fingerprint=fingerprint(game)))
    done = cli("check", install(broken))
    assert done.exit_code == 1
    failed = [line for line in done.stdout.splitlines() if ": asking order " in line]
    assert len(failed) == 2 and all("reverse seat order" in line for line in failed), done.stdout
    fair = SealedBids()
    outcomes = run_contract(package(fair, str(tmp_path / "__init__.py")))
    assert not [o for o in failures(outcomes) if o.name.startswith("asking order")]


# ----- the pytest plugin ---------------------------------------------------------------------------------
def _pytest(project: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf"], cwd=project,
                          env={**os.environ, "COLUMNS": "400"}, capture_output=True, text=True, timeout=300)


def test_the_skeletons_tests_are_the_contract_checks_and_fail_with_them(skeleton, tmp_path):
    project = shutil.copytree(skeleton, tmp_path / NAME)
    done = _pytest(project)
    assert done.returncode == 0 and "11 passed" in done.stdout, done.stdout + done.stderr
    init = project / MODULE / "__init__.py"
    init.write_text(init.read_text().replace('fingerprint="', 'fingerprint="ff'), encoding="utf-8")
    done = _pytest(project)
    assert done.returncode == 1 and "1 failed, 10 passed" in done.stdout, done.stdout + done.stderr
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAILED")]
    assert len(failed) == 1 and "test_contract[fingerprint]" in failed[0]
    assert f"{NAME}: fingerprint: recorded fingerprint ff" in failed[0]
    assert "Traceback" not in done.stdout
