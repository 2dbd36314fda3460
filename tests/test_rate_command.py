"""`tablepress rate`: a tiny round robin writes the ratings file the catalog and game page read."""

from __future__ import annotations

import dataclasses
import json

from tablepress.agents.level_ratings import RATINGS_FILE, level_facts
from tablepress.core.levels import Level
from tablepress.core.registry import get_package


def test_rate_writes_every_entrants_rating_and_the_pairs_behind_them(cli, tmp_path):
    out = tmp_path / RATINGS_FILE
    result = cli("rate", "by-this", "--games", "2", "--seed", "4", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    data = json.loads(out.read_text())
    assert data["game"] == "by-this" and data["players"] == 2 and data["games_per_pair"] == 2
    entrants = [row["entrant"] for row in data["ratings"]]
    assert entrants == ["random", "level:beginner", "level:casual", "level:strong"]
    assert data["ratings"][0]["rating"] == 1000.0
    assert all(row["games"] == 6 for row in data["ratings"])
    assert len(data["pairs"]) == 6 and all(pair["games"] == 2 for pair in data["pairs"])
    for row in data["ratings"]:
        assert row["interval"][0] <= row["rating"] <= row["interval"][1]
    assert data["cpu_seconds"] > 0 and data["machine"]["cores"] >= 1 and data["date"]

    package = get_package("by-this")
    shown = level_facts(dataclasses.replace(package, folder=tmp_path))
    assert [(f["name"], f["games"]) for f in shown] == [("beginner", 6), ("casual", 6), ("strong", 6)]
    assert all(isinstance(f["rating"], int) for f in shown)

    changed = dataclasses.replace(package, folder=tmp_path, levels=(Level("casual", "ismcts:50"),))
    assert level_facts(changed)[0]["rating"] is None and level_facts(changed)[0]["games"] == 0


def test_rate_refuses_bad_input_in_one_line(cli, tmp_path):
    for args, words in ((("by-this", "--games", "0"), "--games must be from 1"),
                        (("chess",), "unknown game 'chess'"),
                        (("by-this", "-o", str(tmp_path / "no" / "levels.json")), "does not exist")):
        result = cli("rate", *args)
        assert result.exit_code == 2
        assert words in result.stderr and result.stderr.count("\n") == 1
