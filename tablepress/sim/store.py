"""Saving result rows, one row a game, as SQLite (table `games`), Parquet or CSV, with flat columns to query.

Columns: index, seed, variant, seats (comma-joined specs), first, winners (comma-joined seats), turns,
decisions, branching, lead_changes, leader_half, score_0..score_{P-1}, share_0.. (win shares, 1/k for a
shared victory), one `fig_NAME` column per card-level figure, and for a rotated run `specs` (the --seats
specs, comma-joined) and `entrants` (which spec sat at each seat); `rounds` (scores after each round),
`cards` and `samples` are JSON text. `load_rows` reads any of them back into rows.

The three formats hold the same columns and values. Nested fields are flattened the same way in each:
a list per seat becomes one column per seat (`score_0`, `share_0`...), a list of seats or specs
comma-joined text, and the deeper structures (`rounds`, `cards`: {measure: {card: [per seat]}},
`samples`) one JSON text cell each. CSV (UTF-8, a header line, RFC 4180 quoting) writes a missing value
(and a NaN, which SQLite stores as NULL) as an empty cell.
"""

from __future__ import annotations

import csv
import json
import math
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.errors import TablepressError

SCALARS = ("index", "seed", "first", "turns", "decisions", "branching", "lead_changes", "leader_half")
JSON_COLUMNS = ("rounds", "cards", "samples")
FORMATS = {".sqlite": "sqlite", ".sqlite3": "sqlite", ".db": "sqlite", ".parquet": "parquet", ".csv": "csv"}


def _format(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise TablepressError(f"{path}: --out takes a .sqlite, .db, .parquet or .csv file")
    return fmt


def flatten(row: dict[str, Any], variant: str | None = None) -> dict[str, Any]:
    """One result row as flat columns."""
    flat: dict[str, Any] = {key: row[key] for key in SCALARS}
    flat["variant"] = variant
    flat["seats"] = ",".join(row["seats"])
    flat["winners"] = ",".join(str(s) for s in row["winners"])
    for seat, value in enumerate(row["scores"]):
        flat[f"score_{seat}"] = value
    for seat, value in enumerate(row["shares"]):
        flat[f"share_{seat}"] = value
    for key, value in row.items():
        if key.startswith("fig."):
            flat["fig_" + key[4:]] = value
    if row.get("rotated"):
        flat["specs"] = ",".join(row["specs"])
        flat["entrants"] = ",".join(str(e) for e in row["entrants"])
    for key in JSON_COLUMNS:
        if key in row:
            flat[key] = json.dumps(row[key], separators=(",", ":"))
    return flat


def unflatten(flat: dict[str, Any]) -> dict[str, Any]:
    """Flat columns back into a result row (the inverse of `flatten`, less the variant label)."""
    row: dict[str, Any] = {key: flat[key] for key in SCALARS}
    for key in ("index", "seed", "first", "turns", "decisions", "lead_changes", "leader_half"):
        row[key] = int(row[key])
    row["branching"] = float(row["branching"])
    row["seats"] = flat["seats"].split(",")
    row["winners"] = [int(s) for s in flat["winners"].split(",")] if flat["winners"] else []
    players = len(row["seats"])
    row["scores"] = [float(flat[f"score_{seat}"]) for seat in range(players)]
    row["shares"] = [float(flat[f"share_{seat}"]) for seat in range(players)]
    for key, value in flat.items():
        if key.startswith("fig_") and value is not None:
            row["fig." + key[4:]] = float(value)
    if flat.get("specs"):
        row.update(rotated=True, specs=flat["specs"].split(","),
                   entrants=[int(e) for e in flat["entrants"].split(",")])
    for key in JSON_COLUMNS:
        if flat.get(key):
            row[key] = json.loads(flat[key])
    return row


def save_rows(path: str | Path, runs: Sequence[tuple[str | None, Sequence[dict[str, Any]]]]) -> None:
    """Write the rows of one or more runs (label, rows) to `path`, replacing the file."""
    path = Path(path)
    fmt = _format(path)
    flat = [flatten(row, label) for label, rows in runs for row in rows]
    columns = list(dict.fromkeys(key for row in flat for key in row))
    try:
        if path.exists():
            path.unlink()
        if fmt == "sqlite":
            _save_sqlite(path, columns, flat)
        elif fmt == "csv":
            _save_csv(path, columns, flat)
        else:
            _save_parquet(path, columns, flat)
    except (OSError, sqlite3.Error) as exc:
        raise TablepressError(f"{path}: cannot write ({getattr(exc, 'strerror', None) or exc})") from None


def _save_sqlite(path: Path, columns: list[str], flat: list[dict[str, Any]]) -> None:
    with sqlite3.connect(path) as db:
        names = ", ".join(json.dumps(c) for c in columns)
        db.execute(f"CREATE TABLE games ({names})")
        marks = ", ".join("?" for _ in columns)
        db.executemany(f"INSERT INTO games ({names}) VALUES ({marks})",
                       [tuple(row.get(c) for c in columns) for row in flat])
    db.close()


def _save_csv(path: Path, columns: list[str], flat: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows({c: _cell(row.get(c)) for c in columns} for row in flat)


def _cell(value: Any) -> Any:
    """A CSV cell: None and NaN empty (SQLite stores NaN as NULL too), anything else as written."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return value


def _load_csv(path: Path) -> list[dict[str, Any]]:
    """CSV rows as flat columns: an empty cell is a missing value (None), as in the other formats."""
    with path.open(encoding="utf-8", newline="") as handle:
        return [{key: (None if value == "" else value) for key, value in row.items()} for row in csv.DictReader(handle)]


def _save_parquet(path: Path, columns: list[str], flat: list[dict[str, Any]]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pydict({c: [row.get(c) for row in flat] for c in columns})
    pq.write_table(table, path)


def load_rows(path: str | Path) -> list[tuple[str | None, dict[str, Any]]]:
    """Read a saved file back: (variant label, row) for every game, in file order."""
    path = Path(path)
    fmt = _format(path)
    if not path.exists():
        raise TablepressError(f"{path}: no such file")
    if fmt == "sqlite":
        db = sqlite3.connect(path)
        try:
            db.row_factory = sqlite3.Row
            flat = [dict(r) for r in db.execute("SELECT * FROM games ORDER BY rowid")]
        finally:
            db.close()
    elif fmt == "csv":
        flat = _load_csv(path)
    else:
        import pyarrow.parquet as pq

        flat = pq.read_table(path).to_pylist()
    return [(row.get("variant"), unflatten(row)) for row in flat]
