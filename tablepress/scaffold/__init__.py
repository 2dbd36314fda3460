"""`tablepress new-game NAME`: a new game as a pip-installable package, from the template files beside this module.

`template/` holds the skeleton as `*.tmpl` files whose `$name`, `$module`, `$title` and `$cls` are filled
in (`string.Template`), and `$fingerprint` with the fingerprint of the filled-in engine; the folder `module/`
becomes the game's module and `tests/test_game.py` its `tests/test_<module>.py`. The skeleton is a small but
real trick-taking game that passes the contract checks (`tablepress check`), with none of the optional parts,
so every default is in use from the start.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
import sys
from pathlib import Path
from string import Template
from types import ModuleType

from ..core.errors import TablepressError
from ..core.fingerprint import fingerprint
from ..core.registry import game_names

TEMPLATE = Path(__file__).resolve().parent / "template"
NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


def module_name(name: str) -> str:
    """The Python module of a game called `name` (`my-game` → `my_game`)."""
    return name.replace("-", "_")


def check_name(name: str) -> None:
    """Raise TablepressError unless `name` may name a new game and its module."""
    if not NAME.fullmatch(name):
        raise TablepressError(
            f"a game's name is lowercase letters, digits and single hyphens, starting with a letter "
            f"(e.g. my-game), not {name!r}"
        )
    if name in game_names():
        raise TablepressError(f"there is a game called {name!r} already")
    module = module_name(name)
    if keyword.iskeyword(module) or importlib.util.find_spec(module) is not None:
        raise TablepressError(f"{name!r} would make a module {module!r}, which Python has already: choose another name")


def fill(name: str) -> dict[str, str]:
    """The template's values for a game called `name`."""
    words = name.split("-")
    return {
        "name": name,
        "module": module_name(name),
        "title": " ".join(word.capitalize() for word in words),
        "cls": "".join(word.capitalize() for word in words),
    }


def skeleton_fingerprint(values: dict[str, str]) -> str:
    """The fingerprint of the skeleton's engine filled in with `values` (its state's class name is hashed too)."""
    source = Template((TEMPLATE / "module" / "engine.py.tmpl").read_text(encoding="utf-8")).substitute(values)
    name = f"_tablepress_skeleton_{values['module']}"
    module = ModuleType(name)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    try:
        exec(compile(source, f"<{values['module']}/engine.py>", "exec"), module.__dict__)
        return fingerprint(getattr(module, f"{values['cls']}Game")())
    finally:
        del sys.modules[name]


def target_path(relative: Path, module: str) -> Path:
    """Where a template file goes in the new package: `module/` renamed, the test named, `.tmpl` dropped."""
    parts = [module if part == "module" else part for part in relative.with_suffix("").parts]
    if parts[-1] == "test_game.py":
        parts[-1] = f"test_{module}.py"
    return Path(*parts)


def new_game(name: str, where: Path) -> Path:
    """Write the skeleton of a game called `name` into `where/name`; returns that folder.

    Raises TablepressError for a bad or taken name, or a target that exists already.
    """
    check_name(name)
    root = where / name
    if root.exists():
        raise TablepressError(f"{root} exists already: choose another --dir or name")
    values = fill(name)
    values["fingerprint"] = skeleton_fingerprint(values)
    try:
        for source in sorted(TEMPLATE.rglob("*.tmpl")):
            path = root / target_path(source.relative_to(TEMPLATE), values["module"])
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(Template(source.read_text(encoding="utf-8")).substitute(values), encoding="utf-8")
    except OSError as exc:
        raise TablepressError(f"cannot write {exc.filename}: {exc.strerror}") from None
    return root
