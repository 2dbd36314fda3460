"""`tablepress play` with a level seat: an unknown level is refused before the game starts, in one line."""

from __future__ import annotations


def test_cli_play_refuses_an_unknown_level_in_one_line(cli):
    result = cli("play", "flowers", "--seats", "level:expert,random")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: unknown level 'expert' for flowers (levels: beginner, casual, strong)"
