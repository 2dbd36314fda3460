"""AI levels: every game declares them, `level:NAME` parses and resolves wherever an agent spec goes, and an
unknown level is one line naming the game's levels."""

from __future__ import annotations

import pytest

from tablepress.agents.base import make_agent, parse_seats, parse_spec
from tablepress.agents.levels import LevelAgent, check_level_seats, find_level, resolve
from tablepress.core.errors import TablepressError
from tablepress.core.levels import Level
from tablepress.core.match import Match
from tablepress.core.registry import game_names, get_game, get_package
from tablepress.web.requests import MAX_BUDGET, MAX_SECONDS

GAMES = ["flowers", "pressed", "planted", "by-this"]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_declares_three_levels_whose_agents_parse_within_the_servers_caps(game):
    levels = get_package(game).levels
    assert len(levels) >= 3
    assert len({level.name for level in levels}) == len(levels)
    for level in levels:
        name, _budget = parse_spec(level.agent, MAX_BUDGET, MAX_SECONDS)
        assert name not in ("human", "level", "policy")
        make_agent(level.agent, 0)


def test_level_spec_parses_with_its_name_lower_cased():
    assert parse_spec("level:Casual") == ("level", "casual")
    assert parse_seats("human,LEVEL:strong", 3) == ["human", "level:strong", "level:strong"]


def test_level_spec_without_a_name_is_one_clear_error():
    with pytest.raises(TablepressError, match=r"needs a level's name, as in level:casual"):
        parse_spec("level")


def test_level_resolves_to_the_declared_agent_and_other_specs_pass_through():
    assert resolve("flowers", "level:strong") == find_level("flowers", "strong").agent
    assert resolve("pressed", "level:casual") == "greedy"
    assert resolve("pressed", "ismcts:50") == "ismcts:50"


def test_unknown_level_is_one_line_listing_the_games_levels():
    with pytest.raises(TablepressError) as caught:
        check_level_seats("by-this", ["human", "level:expert"])
    message = str(caught.value)
    assert "\n" not in message
    assert message == "unknown level 'expert' for by-this (levels: beginner, casual, strong)"
    check_level_seats("by-this", ["human", "greedy", "level:strong"])


def test_a_level_agent_plays_its_levels_agent_move_for_move():
    """`level:casual` is greedy: the same seed gives the same moves in a whole game."""
    game = get_game("pressed")
    moves = []
    for spec in ("level:casual", "greedy"):
        match = Match(game, 2, 11, {}, [spec, "random"])
        agents = [make_agent(spec, 3), make_agent("random", 4)]
        while not match.is_over:
            seat = match.next_mover()
            match.act(seat, agents[seat].choose(match.seat_info(seat)))
        moves.append(match.actions)
    assert moves[0] == moves[1]


class First:
    """A stand-in agent that always takes the first legal action."""

    def choose(self, info):
        return info.legal_actions()[0]

    def reseed(self, seed):
        pass


def test_a_level_with_random_moves_plays_that_share_of_its_moves_at_random():
    """Beginner (half its moves at random) over 400 decisions in a position with n legal actions departs
    from its agent's choice about (1 - 1/n) / 2 of the time; a level ignoring its share never does."""
    match = Match(get_game("by-this"), 2, 5, {}, ["random", "random"])
    info = match.seat_info(match.next_mover())
    n = len(info.legal_actions())
    assert n > 3
    agent = make_agent("level:beginner", 1)
    agent.choose(info)
    agent.inner = First()
    departs = sum(agent.choose(info) != info.legal_actions()[0] for _ in range(400)) / 400
    assert abs(departs - 0.5 * (1 - 1 / n)) < 0.08


def test_an_unknown_level_met_in_play_names_the_games_levels():
    match = Match(get_game("planted"), 2, 1, {}, ["random", "random"])
    agent = make_agent("level:grandmaster", 0)
    with pytest.raises(TablepressError, match=r"unknown level 'grandmaster' for planted \(levels: beginner"):
        agent.choose(match.seat_info(match.next_mover()))


@pytest.mark.parametrize("bad", [dict(name="Casual", agent="greedy"), dict(name="x", agent="level:y"),
                                 dict(name="x", agent="greedy", random_moves=1.0)])
def test_a_malformed_level_declaration_is_refused(bad):
    with pytest.raises(TablepressError):
        Level(**bad)


def test_cli_simulate_and_ladder_take_levels(cli):
    result = cli("simulate", "by-this", "-n", "2", "--seats", "level:casual,level:beginner", "--players", "2")
    assert result.exit_code == 0, result.stderr
    bad = cli("simulate", "by-this", "-n", "2", "--seats", "level:nope")
    assert bad.exit_code == 2 and "levels: beginner, casual, strong" in bad.stderr
    ladder = cli("ladder", "by-this", "--players", "2", "--rung", "level:casual/random/2", "--json")
    assert ladder.exit_code == 0, ladder.stderr
    assert cli("ladder", "by-this", "--players", "2", "--rung", "level:x/random/2").exit_code == 2


def test_every_registered_game_resolves_its_own_levels():
    for name in game_names():
        for level in get_package(name).levels:
            assert resolve(name, f"level:{level.name}") == level.agent
