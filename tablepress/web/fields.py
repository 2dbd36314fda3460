"""What text a request field may hold: bounded in length, with no NUL, control character or lone surrogate
(multi-line text such as a variant's TOML may hold line breaks and tabs). Each check returns the fault as
one line, or None; `requests.text_field` turns a fault into a 422 naming the field.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

#: The longest name, seat spec, game name or option name/value a request may send (characters).
MAX_SHORT = 200
#: The longest seat spec (a budget's digits are checked, and refused with the budget's limit, after this).
MAX_SPEC = 1000
#: What multi-line text may hold besides printable characters.
LINE_BREAKS = frozenset("\n\r\t")


def text_fault(value: Any, max_chars: int, multiline: bool = False) -> str | None:
    """Why `value` is not acceptable text of at most `max_chars` characters (None when it is)."""
    if not isinstance(value, str):
        return "must be text"
    if len(value) > max_chars:
        return f"at most {max_chars:,} characters, not {len(value):,}"
    for offset, char in enumerate(value):
        if multiline and char in LINE_BREAKS:
            continue
        if unicodedata.category(char) in ("Cc", "Cs"):
            line = value.count("\n", 0, offset) + 1
            where = f" on line {line}" if multiline else f" at character {offset + 1}"
            return f"holds a control character (U+{ord(char):04X}){where}; send printable text"
    return None


def strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every string in `value` — object keys included — with the path of where it stands."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            yield where, item
        elif isinstance(item, dict):
            for key, child in item.items():
                yield f"{where} (a key)", str(key)
                stack.append((child, f"{where}.{shown(str(key))}"))
        elif isinstance(item, list):
            stack.extend((child, f"{where}[{index}]") for index, child in enumerate(item))


def shown(text: str, limit: int = 40) -> str:
    """`text` as an error message may repeat it: control characters escaped, at most `limit` characters."""
    cut = text[:limit]
    safe = "".join(c if unicodedata.category(c) not in ("Cc", "Cs") else f"\\u{ord(c):04x}" for c in cut)
    return safe if len(text) <= limit else safe + "..."
