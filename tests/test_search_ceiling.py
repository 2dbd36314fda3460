"""scripts/search_ceiling.py: the diagnostic's true-state seat sees the true state, and a short run reports."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from tablepress.core.match import Match
from tablepress.core.registry import get_game

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "search_ceiling.py"


def _script():
    spec = importlib.util.spec_from_file_location("search_ceiling", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_true_state_determinizations_are_the_true_state_and_fair_ones_are_not():
    script = _script()
    game = get_game("pressed")
    match = Match(game, 3, 11)
    seat = match.next_mover()
    fair = match.seat_info(seat)
    cheat = script.TrueStateInfo(game, match.state, seat)
    rng = random.Random(0)
    assert cheat.determinize(rng) == match.state
    assert cheat.determinize(rng) is not match.state
    assert any(fair.determinize(rng).hands != match.state.hands for _ in range(5))
    assert cheat.legal_actions() == fair.legal_actions()


def test_a_short_run_reports_a_rate_inside_its_interval(capsys):
    result = _script().main(["by-this", "--players", "2", "--games", "2", "--budget", "4", "--true-state"])
    assert result["games"] == 2 and result["true_state"] and result["search"] == {"budget": 4}
    assert 0 <= result["wins"] <= 2 and len(result["shares"]) == 2 and sum(result["shares"]) == result["wins"]
    low, high = result["ci95"]
    assert low <= result["win_rate"] <= high
    assert '"win_rate"' in capsys.readouterr().out


def test_bad_settings_get_one_line_and_play_nothing(capsys):
    script = _script()
    for argv, says in ((["no-such-game"], "no-such-game"), (["pressed", "--players", "9"], "not 9"),
                       (["pressed", "--search", "[1]"], "JSON object"),
                       (["pressed", "--search", '{"nope": 1}'], "nope"), (["pressed", "--games", "0"], "--games")):
        with pytest.raises(SystemExit) as stop:
            script.main(argv)
        assert stop.value.code == 2
        err = capsys.readouterr().err
        errors = [line for line in err.splitlines() if "error:" in line]
        assert "Traceback" not in err and len(errors) == 1 and says in errors[0]  # the usage, then one line
