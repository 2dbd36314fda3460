"""Variants as differences: change, remove or add one card of a list without restating the list.

Where the card data holds a list, a variant may give a whole list (it replaces the published one) or a
table of differences, keyed by what the list holds:

- a list of cards (`[[tools]]`): keys are card names, values tables of the card's changed fields.
  `copies = 0` or `remove = true` takes the card out of the list; `add = true` with every field adds a
  new card at the end (a name the list does not have is an error without it):

      [tools."Watering Can"]
      copies = 0

      [tools."Pruning Shears"]
      add = true
      copies = 2
      effect = "buy"
      choices = "LWF"
      amount = 1

  A card is named by its `name`; in a list of cards without names (Planted's resources) by the first
  text field that tells them all apart (`[resources.GG]`, by `shows`).
- a list of numbers (`Rice = [8, 1, 1, 7]`, a score table): keys are entry numbers from 1, or the
  names of the entries where the card data names them (By This's `words` name the numbers of every
  thing: `[things.Rice]` then `Size = 2`);
- a list of names (`decks.2`, `butterflies.Y`): keys are names, `true` to have it (added at the end),
  `false` to take it out (`[decks.2]` then `Lily = true`).

`resolve(base, overrides)` gives the overrides with every difference replaced by the whole list it
makes, so the rest of the code sees lists as before. Errors are one line naming the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import DataError

#: Keys of a card's difference that are instructions, not fields of the card.
REMOVE, ADD = "remove", "add"


def resolve(base: Mapping[str, Any], overrides: Mapping[str, Any], source: str = "") -> dict[str, Any]:
    """`overrides` with every list difference replaced by the whole list it makes from `base`.

    Tables are followed key by key; a key `base` does not have is left for the merge to judge. DataError
    names the field, after `source` (e.g. `planted `) when given.
    """
    try:
        return _resolve(base, overrides, "", base)
    except DataError as exc:
        raise DataError(f"{source}{exc}") from None


def _resolve(base: Mapping[str, Any], overrides: Mapping[str, Any], where: str,
             root: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in overrides.items():
        field = join(where, key)
        old = base.get(key) if isinstance(base, Mapping) else None
        if isinstance(old, Mapping) and isinstance(value, Mapping):
            out[key] = _resolve(old, value, field, root)
        elif isinstance(old, list) and isinstance(value, Mapping):
            out[key] = apply_difference(old, value, field, entry_names(root, base, key))
        else:
            out[key] = value
    return out


def apply_difference(old: Sequence[Any], change: Mapping[str, Any], field: str,
                     names: Sequence[str] = ()) -> list[Any]:
    """The list `old` with the difference `change` applied (module doc); DataError naming the field."""
    if not change:
        raise DataError(f"{field}: the table of changes is empty; give a change or the whole list")
    if old and all(isinstance(item, Mapping) for item in old):
        return _cards(list(old), change, field)
    if old and all(_is_number(item) for item in old):
        return _entries(list(old), change, field, names)
    if all(isinstance(item, str) for item in old):
        return _names(list(old), change, field)
    raise DataError(f"{field}: give the whole list; a table of changes is for lists of cards, numbers or names")


def card_key(cards: Sequence[Mapping[str, Any]]) -> str | None:
    """The field that names each card of a list: `name`, else the first text field every card has, all different."""
    if cards and all(isinstance(card.get("name"), str) for card in cards):
        return "name"
    for key in cards[0] if cards else ():
        texts = [card.get(key) for card in cards]
        if all(isinstance(t, str) and t for t in texts) and len(set(texts)) == len(texts):
            return str(key)
    return None


def find_card(cards: Sequence[Mapping[str, Any]], key: str, name: str) -> int | None:
    """The index of the card called `name` (exact, else ignoring case), or None."""
    for test in (lambda a: a == name, lambda a: a.casefold() == name.casefold()):
        for index, card in enumerate(cards):
            if test(str(card.get(key))):
                return index
    return None


def _cards(cards: list[Mapping[str, Any]], change: Mapping[str, Any], field: str) -> list[Any]:
    key = card_key(cards)
    if key is None:
        raise DataError(f"{field}: its cards have no names, so give the whole list")
    fields = list(dict.fromkeys(k for card in cards for k in card))
    out: list[Any] = [dict(card) for card in cards]
    for name, edit in change.items():
        where = join(field, name)
        if not isinstance(edit, Mapping):
            raise DataError(f"{where}: give a table of the card's changes (e.g. copies = 0), not {kind_of(edit)}")
        for flag in (REMOVE, ADD):
            if flag in edit and not isinstance(edit[flag], bool):
                raise DataError(f"{where}.{flag}: must be true or false, not {kind_of(edit[flag])}")
        unknown = [k for k in edit if k not in fields and k not in (REMOVE, ADD)]
        if unknown:
            raise DataError(f"{join(where, unknown[0])}: the cards have no field {unknown[0]!r} "
                            f"(fields: {', '.join(fields)})")
        if key in edit:
            raise DataError(f"{join(where, key)}: a card is renamed by removing it and adding another")
        index = find_card(out, key, str(name))
        gone = edit.get(REMOVE) is True or edit.get("copies") == 0
        values = {k: v for k, v in edit.items() if k not in (REMOVE, ADD)}
        if index is None:
            if edit.get(ADD) is not True:
                known = ", ".join(str(card.get(key)) for card in out)
                raise DataError(f"{where}: no card {str(name)!r} (cards: {known}); add = true adds a new one")
            if not gone:
                out.append({key: str(name), **values})
        elif edit.get(ADD) is True:
            raise DataError(f"{where}: the card is already in the list; leave out add = true to change it")
        elif gone:
            del out[index]
        else:
            out[index] = {**out[index], **values}
    return out


def _entries(numbers: list[Any], change: Mapping[str, Any], field: str, names: Sequence[str]) -> list[Any]:
    out = list(numbers)
    for key, value in change.items():
        index = entry_index(str(key), len(out), names)
        if index is None:
            named = f" or {', '.join(names)}" if names else ""
            raise DataError(f"{join(field, key)}: no entry {str(key)!r} (entries 1–{len(out)}{named})")
        if not _is_number(value):
            raise DataError(f"{join(field, key)}: must be a number, not {kind_of(value)}")
        out[index] = value
    return out


def entry_index(key: str, length: int, names: Sequence[str] = ()) -> int | None:
    """The 0-based entry a key names: a number from 1, or one of the entries' names (any case)."""
    if key.strip().isdecimal():
        number = int(key)
        return number - 1 if 1 <= number <= length else None
    for index, name in enumerate(names[:length]):
        if name.casefold() == key.strip().casefold():
            return index
    return None


def _names(names: list[str], change: Mapping[str, Any], field: str) -> list[str]:
    out = list(names)
    for name, wanted in change.items():
        if not isinstance(wanted, bool):
            raise DataError(f"{join(field, name)}: true to have {str(name)!r} in the list, false to take it out, "
                            f"not {kind_of(wanted)}")
        present = [n for n in out if n.casefold() == str(name).casefold()]
        if wanted and not present:
            out.append(str(name))
        elif not wanted:
            if not present:
                raise DataError(f"{join(field, name)}: {str(name)!r} is not in the list ({', '.join(out) or 'empty'})")
            out = [n for n in out if n.casefold() != str(name).casefold()]
    return out


def entry_names(root: Mapping[str, Any], section: Mapping[str, Any], key: Any) -> list[str]:
    """The names of the entries of the number list `section[key]`, where the card data names them.

    They are named when the list is a row of a table of two or more number lists of one length (By This's
    things) and the card data's top level has a list of exactly as many different texts (its `words`).
    """
    rows = [v for v in section.values() if _numbers(v)] if isinstance(section, Mapping) else []
    if len(rows) < 2 or len({len(r) for r in rows}) != 1 or not _numbers(section.get(key)):
        return []
    length = len(rows[0])
    for value in root.values():
        if (isinstance(value, list) and len(value) == length and all(isinstance(v, str) for v in value)
                and len(set(value)) == length):
            return list(value)
    return []


def join(where: str, key: Any) -> str:
    """A field path: `where.key`, the key in double quotes where it holds what a bare key cannot."""
    text = str(key)
    bare = text if _bare(text) else json.dumps(text if len(text) <= 40 else text[:39] + "…")
    return f"{where}.{bare}" if where else bare


def _bare(text: str) -> bool:
    return re.fullmatch(r"[A-Za-z0-9_'’ -]{1,40}", text) is not None


def _numbers(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(_is_number(v) for v in value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def kind_of(value: Any) -> str:
    """How a message names a value the data did not expect: a table, a list, true or false, the text '…' (clipped),
    a huge number by its digits, or the value itself."""
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the text {(value if len(value) <= 40 else value[:39] + '…')!r}"
    if isinstance(value, int) and abs(value) > 10**12:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    return repr(value)[:40]