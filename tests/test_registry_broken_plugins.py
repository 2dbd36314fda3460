"""A plugin game that fails to load is skipped with one warning line; every other game and the CLI work.

Each case adds a fake entry point to the registry's entry-point discovery. The CLI cases run in a
subprocess that patches discovery before the command line is imported (it lists the games at import).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib.metadata import EntryPoint

import pytest

from tablepress.core import registry

GROUP = registry.GROUP

#: Broken plugins by what is wrong with them: the entry point's target and a word the warning must hold.
BROKEN = {
    "import-error": ("no_such_module_for_tablepress:PACKAGE", "ModuleNotFoundError"),
    "abstract": ("tests_broken_plugins:ABSTRACT", "abstract"),
    "not-a-package": ("tests_broken_plugins:NOT_A_PACKAGE", "is not a GamePackage"),
    "misnamed": ("tests_broken_plugins:MISNAMED", "its name is 'flowers'"),
}

#: The module the broken plugins' entry points name, written to a temporary folder on the path.
PLUGIN_MODULE = textwrap.dedent('''
    from tablepress.core.registry import get_package

    class _Half:
        pass

    def _abstract():
        from tablepress.core.game import Game
        class Half(Game):
            name = "abstract"
        return Half()  # raises TypeError: abstract methods are missing

    NOT_A_PACKAGE = object()
    MISNAMED = get_package("flowers")

    def __getattr__(name):
        if name == "ABSTRACT":
            return _abstract()
        raise AttributeError(name)
''')


@pytest.fixture
def broken(monkeypatch, tmp_path):
    """The registry discovering the real games plus one broken plugin of each kind."""
    (tmp_path / "tests_broken_plugins.py").write_text(PLUGIN_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    real = registry.entry_points
    fakes = [EntryPoint(name, target, GROUP) for name, (target, _) in BROKEN.items()]
    monkeypatch.setattr(registry, "entry_points", lambda group: [*real(group=group), *fakes])
    registry.refresh()
    yield
    monkeypatch.undo()
    registry.refresh()


def test_broken_plugins_are_skipped_and_named(broken, capsys):
    names = registry.game_names()
    assert {"flowers", "pressed", "planted", "by-this"} <= set(names)
    assert not set(BROKEN) & set(names)
    reasons = registry.broken_plugins()
    assert set(reasons) == set(BROKEN)
    for name, (_, why) in BROKEN.items():
        assert why in reasons[name] and "\n" not in reasons[name]
    warnings = capsys.readouterr().err.splitlines()
    assert len(warnings) == len(BROKEN), "one warning line per broken plugin, once"
    for name in BROKEN:
        assert sum(f"game {name!r}" in line for line in warnings) == 1


def test_asking_for_a_broken_game_says_why_in_one_line(broken):
    with pytest.raises(registry.TablepressError, match="could not be loaded from no_such_module"):
        registry.get_package("import-error")
    assert registry.get_game("pressed").name == "pressed"


CLI = textwrap.dedent('''
    import sys
    from importlib.metadata import EntryPoint
    from tablepress.core import registry

    real = registry.entry_points
    fake = EntryPoint("broken-game", "no_such_module_for_tablepress:PACKAGE", registry.GROUP)
    registry.entry_points = lambda group: [*real(group=group), fake]
    sys.argv = ["tablepress", *sys.argv[1:]]
    from tablepress.entry import main
    main()
''')


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CLI, *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("args", [["--version"], ["play", "--help"], ["score", "--help"]])
def test_the_cli_works_beside_a_broken_plugin(args):
    done = _cli(*args)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "broken-game" in line]
    assert len(warnings) == 1 and "could not be loaded" in warnings[0]
    assert "Traceback" not in done.stderr


def test_another_game_plays_beside_a_broken_plugin():
    done = _cli("play", "pressed", "--seats", "random,random", "--seed", "1")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "broken-game" in done.stderr and "Traceback" not in done.stderr
