"""A game's guided first game: a fixed deal, the newcomer's suggested line, and steps explained on the table.

A game ships its guide as `guide.json` in its folder:

```json
{"format": "tablepress-guide/1", "title": "Your first game of Flowers", "summary": "…",
 "players": 2, "seat": 0, "opponent": "level:beginner", "seed": 41, "options": {},
 "suggested_by": "greedy", "line": ["draw 1", "place R3 1,0", …],
 "steps": [{"at": 0, "title": "…", "text": "…", "rules": "a-turn", "expect": {"public.step": "draw"}}, …,
           {"at": "end", "title": "…", "text": "…", "rules": "scoring", "expect": {"winners": [0]}}]}
```

`line` is the newcomer's move at each of its decisions (the k-th action the newcomer takes), as the
agent `suggested_by` chooses it from the newcomer's own information; the opponent plays its level with
the server's seeds, so following the line replays the same game. A step is shown at the newcomer's
decision `at` (or once the game is over, `"end"`); its `expect` holds facts its text relies on, each a
dotted path into the newcomer's view (`public.stacks.0.top`, `legal_kinds`, `winners`) and the value found
there. `rules` names a heading of the game's rules page by its anchor. `terms` lists the card names the steps
use as words of the game rather than as cards (By This's "Key"), which the tests' check that a step names only
cards the newcomer sees leaves out.

`Guide.at(view)` works out what the guide shows from one seat's view alone (the view the API gives that
seat): it never reads the true state, so it can name only what that seat may see.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import DataError, TablepressError
from .package import GamePackage

GUIDE_FILE = "guide.json"
GUIDE_FORMAT = "tablepress-guide/1"
#: The `at` of the steps shown once the game is over.
END = "end"
#: The longest title, and text, of a step.
MAX_TITLE = 80
MAX_TEXT = 900
#: The fields of a guide file.
FIELDS = {"format", "title", "summary", "players", "seat", "opponent", "seed", "options", "suggested_by", "line",
          "steps", "terms"}


@dataclass(frozen=True)
class Step:
    """One explanation: shown at the newcomer's decision `at` (a number from 0) or at the end (`END`)."""

    at: int | str
    title: str
    text: str
    rules: str
    expect: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Point:
    """What the guide shows for one view: where the newcomer is, whether the game still follows the guide's
    line, the steps to show there (in order), the move it suggests, and the rules anchor that applies."""

    kind: str  # "move" (the newcomer is to move), "waiting" (another seat is) or "end"
    move: int  # how many actions the newcomer has taken
    on_path: bool
    steps: tuple[Step, ...] = ()
    suggest: str | None = None
    rules: str | None = None
    #: Why the game left the guide's line ("" while on it).
    reason: str = ""


@dataclass(frozen=True)
class Guide:
    """A game's guided first game (see the module docstring)."""

    game: str
    title: str
    summary: str
    players: int
    seat: int
    opponent: str
    seed: int
    options: Mapping[str, Any]
    suggested_by: str
    line: tuple[str, ...]
    steps: tuple[Step, ...]
    terms: tuple[str, ...] = ()

    @property
    def seats(self) -> list[str]:
        """The seat specs of the guided game: `human` for the newcomer, the opponent elsewhere."""
        return ["human" if seat == self.seat else self.opponent for seat in range(self.players)]

    def steps_at(self, at: int | str) -> tuple[Step, ...]:
        """The steps shown at decision `at` (or `END`), in the file's order."""
        return tuple(step for step in self.steps if step.at == at)

    def rules_before(self, move: int) -> str | None:
        """The rules anchor of the latest step shown at or before decision `move`."""
        found = None
        for step in self.steps:
            if step.at != END and int(step.at) <= move:
                found = step.rules
        return found

    def at(self, view: Mapping[str, Any]) -> Point:
        """What the guide shows for `view`, the newcomer's view as the API gives it (status, to_move, seat,
        legal_actions, log, public, private, winners)."""
        seat = view.get("seat")
        own = [entry.get("text") for entry in view.get("log") or [] if entry.get("seat") == seat]
        move = len(own)
        reason = "this is not the newcomer's seat" if seat != self.seat else self._left_line(own)
        if view.get("status") == "over":
            steps = self.steps_at(END)
            return self._point("end", move, steps, None, view, reason, steps[-1].rules if steps else None)
        if seat not in (view.get("to_move") or []):
            return Point("waiting", move, not reason, (), None, self.rules_before(move), reason)
        suggest = self.line[move] if move < len(self.line) else None
        if not reason and suggest is None:
            reason = "the guide's line has ended"
        elif not reason and suggest not in (view.get("legal_actions") or []):
            reason = "the game went another way than the guide's"
        steps = self.steps_at(move)
        return self._point("move", move, steps, suggest, view, reason, self.rules_before(move))

    def _left_line(self, own: list[Any]) -> str:
        """Why the newcomer's own moves so far are not the start of the line ("" if they are). It names only
        the newcomer's own move, never a move of the line it did not see suggested."""
        for index, taken in enumerate(own):
            if index >= len(self.line):
                return "the guide's line has ended"
            if taken != self.line[index]:
                return f"your move {index + 1} ({taken}) was not the guide's suggestion"
        return ""

    def _point(self, kind: str, move: int, steps: tuple[Step, ...], suggest: str | None, view: Mapping[str, Any],
               reason: str, rules: str | None) -> Point:
        """A point, off the line (no steps, no suggestion) if `reason` or a step's expectation fails."""
        if not reason:
            for step in steps:
                failed = unmet(step.expect, view)
                if failed:
                    reason = f"step {step.title!r}: {failed}"
                    break
        if reason:
            return Point(kind, move, False, (), None, rules, reason)
        return Point(kind, move, True, steps, suggest, rules)


def view_fact(view: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted path of a view (`public.stacks.0.top`), or the derived fact `legal_kinds` (the
    first words of the legal actions, in order, each once); KeyError if the path leads nowhere."""
    if path == "legal_kinds":
        kinds: list[str] = []
        for action in view.get("legal_actions") or []:
            word = action.split(" ", 1)[0]
            if word not in kinds:
                kinds.append(word)
        return kinds
    value: Any = view
    for part in path.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            raise KeyError(path)
    return value


def unmet(expect: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """The first expectation `view` does not meet, said in one line from what the view holds ("" if it meets
    them all); never the expected value, which may name what the view's seat does not see."""
    for path, wanted in expect.items():
        try:
            found = view_fact(view, path)
        except KeyError:
            return f"the view has no {path}"
        if found != wanted:
            return f"{path} is {json.dumps(found, ensure_ascii=False)[:60]}"
    return ""


# ----- reading a guide file ------------------------------------------------------------------------
def load_guide(package: GamePackage) -> Guide | None:
    """The guide in a game's folder, or None if it has none; DataError naming the field of a broken one."""
    path = package.file(GUIDE_FILE)
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{package.name} {GUIDE_FILE}: {exc}") from None
    return parse_guide(package, data)


def parse_guide(package: GamePackage, data: Any) -> Guide:
    """A guide from its JSON data, checked against the game (player count, seat, options, step fields)."""
    where = f"{package.name} {GUIDE_FILE}"
    if not isinstance(data, Mapping):
        raise DataError(f"{where}: a guide is a JSON object")
    if data.get("format") != GUIDE_FORMAT:
        raise DataError(f"{where}: format must be {GUIDE_FORMAT!r}")
    unknown = set(data) - FIELDS
    if unknown:
        raise DataError(f"{where}: unknown fields: {', '.join(sorted(unknown))}")
    game = package.game
    players = _whole(data, "players", where)
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise DataError(f"{where}: options must be an object")
    try:
        game.check_players(players)
        game.normalise_options(options)
    except (TablepressError, TypeError, ValueError) as exc:
        raise DataError(f"{where}: players or options: {exc}") from None
    seat = _whole(data, "seat", where)
    if not 0 <= seat < players:
        raise DataError(f"{where}: seat must be a seat of the {players} players, from 0")
    seed = _whole(data, "seed", where)
    line = data.get("line")
    if not isinstance(line, list) or not line or not all(isinstance(a, str) and a for a in line):
        raise DataError(f"{where}: line must be a list of actions (text)")
    steps = tuple(_step(item, i, len(line), where) for i, item in enumerate(data.get("steps") or []))
    if not steps:
        raise DataError(f"{where}: steps must list at least one step")
    order = [len(line) if step.at == END else int(step.at) for step in steps]
    if order != sorted(order):
        raise DataError(f"{where}: steps must come in the order they are shown")
    return Guide(
        game=game.name, title=_text(data, "title", where, MAX_TITLE), summary=_text(data, "summary", where, MAX_TEXT),
        players=players, seat=seat, opponent=_text(data, "opponent", where, 40), seed=seed, options=dict(options),
        suggested_by=_text(data, "suggested_by", where, 40), line=tuple(line), steps=steps,
        terms=_terms(data.get("terms", []), where),
    )


def _terms(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(term, str) and term for term in value):
        raise DataError(f"{where}: terms must be a list of words")
    return tuple(value)


def _step(item: Any, index: int, moves: int, where: str) -> Step:
    """One step of the file, checked."""
    here = f"{where}: step {index + 1}"
    if not isinstance(item, Mapping):
        raise DataError(f"{here} must be an object")
    unknown = set(item) - {"at", "title", "text", "rules", "expect"}
    if unknown:
        raise DataError(f"{here} has unknown fields: {', '.join(sorted(unknown))}")
    at = item.get("at")
    if at != END and not (isinstance(at, int) and not isinstance(at, bool) and 0 <= at < moves):
        raise DataError(f"{here}: at must be a decision of the line (0 to {moves - 1}) or {END!r}")
    expect = item.get("expect", {})
    if not isinstance(expect, Mapping) or not all(isinstance(k, str) and k for k in expect):
        raise DataError(f"{here}: expect must map view paths to values")
    return Step(at=at, title=_text(item, "title", here, MAX_TITLE), text=_text(item, "text", here, MAX_TEXT),
                rules=_text(item, "rules", here, 80), expect=dict(expect))


def _text(data: Mapping[str, Any], key: str, where: str, longest: int) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > longest:
        raise DataError(f"{where}: {key} must be text of 1 to {longest} characters")
    return value


def _whole(data: Mapping[str, Any], key: str, where: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise DataError(f"{where}: {key} must be a whole number from 0")
    return value

