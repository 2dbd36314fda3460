"""Reading the files a user hands the command line (records, variants, position files), bounded.

Each is UTF-8 text of a bounded size; anything else is one line naming the file, raised as the
error class of that kind of file.
"""

from __future__ import annotations

from pathlib import Path

from .errors import PositionError, TablepressError

#: The largest position file `read_position` reads (a real table's position is a few lines).
MAX_POSITION_BYTES = 1024 * 1024


def read_text(path: str | Path, limit: int, what: str, error: type[TablepressError] = TablepressError,
              form: str = "text") -> str:
    """The UTF-8 text of the file at `path`, of at most `limit` bytes; else `error` naming the file.

    `what` names the kind of file in messages, `form` what it holds ("JSON", "TOML", "text")."""
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise error(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise error(f"{path}: too large for a {what} (over {_size(limit)})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{path}: not UTF-8 {form} (a {what} is {form} in UTF-8)") from None


def read_position(path: str | Path) -> str:
    """A position file's text for `Game.score_position`; PositionError naming the file if it cannot be one."""
    return read_text(path, MAX_POSITION_BYTES, "position file", PositionError)


def _size(limit: int) -> str:
    return f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit // 2**10} KiB"
