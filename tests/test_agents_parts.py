"""The agents' parts: seat specs with budgets, evaluations and rewards, the Flowers heuristic, the ladder, the CLI."""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from tablepress.agents.base import SeatInfo, Seconds, make_agent, parse_seats, parse_spec
from tablepress.agents.decision import Decision
from tablepress.agents.greedy import GreedyAgent
from tablepress.agents.ismcts import IsmctsAgent
from tablepress.agents.presets import Backup, TreeSearch
from tablepress.agents.rewards import WIN_BONUS, final_margins
from tablepress.agents.tree_search import Node, TreeSearcher
from tablepress.core.package import Heuristics
from tablepress.agents.ladder import markdown, parse_rung, run_rung, wilson
from tablepress.cli import app
from tablepress.core.errors import TablepressError
from tablepress.core.registry import get_game
from tablepress.games.flowers.heuristics import area_value, seat_value
from tablepress.games.flowers.notation import parse_position
from tablepress.games.flowers.scoring import score_area

FLOWERS = get_game("flowers")


# ----- seat specs ---------------------------------------------------------------------------------
def test_budgets_are_iterations_or_times() -> None:
    """`ismcts:500` is 500 iterations; `ismcts:2s` and `ismcts:500ms` are times, printed back as given."""
    assert parse_spec("ismcts:500") == ("ismcts", 500)
    assert parse_spec("greedy") == ("greedy", None)
    name, budget = parse_spec("ISMCTS:2s")
    assert name == "ismcts" and isinstance(budget, Seconds) and budget == 2.0 and str(budget) == "2s"
    assert parse_spec("ismcts:500ms")[1] == pytest.approx(0.5)
    assert parse_seats("human,ismcts:1.5s", 3) == ["human", "ismcts:1.5s", "ismcts:1.5s"]


@pytest.mark.parametrize("spec", ["ismcts:0", "ismcts:-3", "ismcts:fast", "ismcts:0s", "ismcts:infs", "ismcts:nans",
                                  "ismcts:2h", "wizard:3"])
def test_bad_budgets_say_so(spec: str) -> None:
    """A budget that is not a positive count or time, or an unknown agent, is one clear error."""
    with pytest.raises(TablepressError, match="seat"):
        parse_spec(spec)


@pytest.mark.parametrize("spec", ["random:5", "greedy:2s", "human:1", "random:"])
def test_an_agent_that_takes_no_such_budget_says_so(spec: str) -> None:
    """random takes no budget; greedy counts determinizations, not seconds: refused when parsed, as the CLI parses."""
    with pytest.raises(TablepressError, match="budget"):
        parse_spec(spec)
    with pytest.raises(TablepressError, match="budget"):
        make_agent(spec, 1)


@pytest.mark.parametrize("spec", ["ismcts:\uff15", "ismcts:\u0665", "ismcts:1_000", "ismcts: 2s", "ismcts:1e3s",
                                  "ismcts:2 s", "ismcts:" + "9" * 5000])
def test_budgets_are_plain_ascii_numbers(spec: str) -> None:
    """Full-width or Arabic-Indic digits, underscores, exponents and spaces are refused, briefly."""
    with pytest.raises(TablepressError, match="seat") as refused:
        parse_spec(spec)
    assert len(str(refused.value)) < 200


def test_every_budget_is_capped_in_count_and_time() -> None:
    """The caps hold for every spec (the CLI's too); the web server passes lower ones."""
    from tablepress.agents.base import MAX_COUNT, MAX_SECONDS

    assert parse_spec(f"ismcts:{MAX_COUNT}")[1] == MAX_COUNT
    assert parse_spec(f"ismcts:{MAX_SECONDS:g}s")[1] == MAX_SECONDS
    for spec in (f"ismcts:{MAX_COUNT + 1}", f"greedy:{MAX_COUNT + 1}", f"ismcts:{MAX_SECONDS + 1:g}s",
                 f"ismcts:{int(MAX_SECONDS * 1000) + 1}ms"):
        with pytest.raises(TablepressError, match="over the limit"):
            parse_spec(spec)
    with pytest.raises(TablepressError, match="limit of 10s"):
        parse_spec("ismcts:11s", max_seconds=10)


def test_the_cli_refuses_a_seat_its_agent_cannot_build(tmp_path) -> None:
    """`play` and `simulate` refuse `greedy:3s` in one line (exit 2) before anything runs or is written."""
    record = tmp_path / "r.json"
    for args in (["play", "flowers", "--seats", "human,greedy:3s", "--record", str(record)],
                 ["simulate", "flowers", "--seats", "random:99", "-n", "1"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "takes" in result.output and "Traceback" not in result.output
    assert not record.exists()


def test_time_budget_searches_for_about_that_long() -> None:
    """`ismcts:50ms` runs iterations until its time is up and returns a legal action."""
    agent = make_agent("ismcts:50ms", 1)
    assert isinstance(agent, IsmctsAgent)
    state = FLOWERS.new(2, 3)
    info = SeatInfo(FLOWERS, state, 0)
    assert agent.choose(info) in info.legal_actions()
    assert agent.last_iterations >= 1


# ----- evaluations and rewards --------------------------------------------------------------------
def test_a_game_without_heuristics_is_judged_by_its_score_margin() -> None:
    """The default heuristics: a seat's value is its score, and greedy's judgement its margin over the best other."""
    fake = SimpleNamespace(name="no-such-game", scores=lambda state: [3, 7, 5])
    default = Heuristics()
    assert default.seat_value(fake, None, 2) == 5
    assert default.evaluate(fake, None, 0) == -4
    assert default.evaluate(fake, None, 1) == 2


def test_final_margins_favour_the_winner_and_share_ties() -> None:
    """The end's reward is each seat's margin over the best other plus its share of the win bonus."""
    state = FLOWERS.new(2, 1)
    state.areas[0] = parse_position("B4 B4 R3 R3\nB4 B4 R3 R2\n.  R1 .  R2", FLOWERS.cards, "t")[0][1]
    state.over = True
    scores = FLOWERS.scores(state)
    winner, loser = final_margins(FLOWERS, state)
    assert FLOWERS.winners(state) == [0]
    assert winner == scores[0] - scores[1] + WIN_BONUS and loser == scores[1] - scores[0]
    state.areas[1] = dict(state.areas[0])
    first, second = final_margins(FLOWERS, state)
    assert first == second == WIN_BONUS / 2


# ----- the Flowers heuristic ----------------------------------------------------------------------
def test_flowers_heuristic_is_the_score_once_no_turns_are_left() -> None:
    """With no turns left, open groups are lost and small regions worth nothing: the value is the score."""
    rng = random.Random(5)
    for seed in range(12):
        state = FLOWERS.new(2, seed)
        while not FLOWERS.is_over(state):
            seat = FLOWERS.to_move(state)[0]
            FLOWERS.apply_legal(state, seat, rng.choice(FLOWERS.legal_actions(state, seat)))
        for seat in range(2):
            assert seat_value(FLOWERS, state, seat) == FLOWERS.scores(state)[seat]
            assert area_value(FLOWERS, state.areas[seat], 0) == score_area(state.areas[seat], FLOWERS.cards).total


def _area(text: str) -> dict:
    return parse_position(text, FLOWERS.cards, "test")[0][1]


def test_flowers_heuristic_values_what_a_good_player_values() -> None:
    """Open groups cost less than dead ones, early more than late; a region of 4 beats two of 2."""
    open_three = _area("Y3 Y3 .")
    walled = _area(".  R1 .\nB1 Y3 R1\n.  R1 .")  # the 3 can never be joined by two more
    free = _area(".  R1 .\nB1 Y3 .\n.  R1 .")
    assert area_value(FLOWERS, walled, 20) < -0.9
    assert area_value(FLOWERS, free, 20) > area_value(FLOWERS, walled, 20) + 0.5
    assert area_value(FLOWERS, open_three, 20) > area_value(FLOWERS, open_three, 2) > -2
    assert area_value(FLOWERS, _area("Y3 Y3 Y3"), 20) > area_value(FLOWERS, open_three, 20)
    too_many = _area("B2 B2 B2")
    assert area_value(FLOWERS, too_many, 20) == -3
    big = _area("R2 R2 R3 R3\n. . . R3")
    split = _area("R2 R2 B3 B3\n. . . R3")
    assert area_value(FLOWERS, big, 20) > area_value(FLOWERS, split, 20)


# ----- ladder --------------------------------------------------------------------------------------
def test_wilson_interval() -> None:
    """Known values of the Wilson 95% interval, including fractional successes and the edges."""
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(7.5, 10)[0] < 0.75 < wilson(7.5, 10)[1]
    assert wilson(0, 0) == (0.0, 1.0)


def test_ladder_rotates_seats_and_reports() -> None:
    """The challenger takes every seat in turn; shares add up; the table names both agents."""
    rung = run_rung("by-this", 2, "greedy", "random", games=4, seed=2)
    assert [r.seat for r in rung.results] == [0, 1, 0, 1]
    assert rung.wins == sum(r.share for r in rung.results)
    assert rung.ci95[0] <= rung.win_rate <= rung.ci95[1]
    table = markdown([rung])
    assert "| by-this | 2 | `greedy` | `random` | 4 |" in table
    assert rung.summary()["fair_share"] == 0.5
    again = run_rung("by-this", 2, "greedy", "random", games=4, seed=2, jobs=2)
    assert [r.scores for r in again.results] == [r.scores for r in rung.results]


def test_ladder_gives_the_challengers_turn_positions() -> None:
    """The challenger's turn position is counted from the first player, not its seat (Pressed's second seat
    starting here): the per-position games and wins add up to the rung's, in the summary, the Markdown
    table and the terminal's table."""
    rung = run_rung("pressed", 2, "greedy", "random", games=4, seed=2, options={"first": 2})
    assert [r.seat for r in rung.results] == [0, 1, 0, 1]
    assert [r.position for r in rung.results] == [1, 0, 1, 0]
    positions = rung.summary()["positions"]
    assert [entry["position"] for entry in positions] == [1, 2]
    assert [entry["games"] for entry in positions] == [2, 2]
    assert sum(entry["win_rate"] * entry["games"] for entry in positions) == pytest.approx(rung.wins)
    first = [r.share for r in rung.results if r.seat == 1]
    assert positions[0]["win_rate"] == pytest.approx(sum(first) / 2)
    assert positions[0]["ci95"][0] <= positions[0]["win_rate"] <= positions[0]["ci95"][1]
    assert "1st " in markdown([rung]) and "(2) · 2nd " in markdown([rung])
    result = CliRunner().invoke(app, ["ladder", "pressed", "--rung", "greedy/random/2", "--players", "2,3"])
    assert result.exit_code == 0, result.output
    assert "by turn position" in result.output and "3rd" in result.output
    assert "The challenger by turn position" in result.output  # the terminal's own table, not only the progress lines


def test_ismcts_beats_random() -> None:
    """A small seeded ladder: a modest search beats random in all of a few Flowers games."""
    rung = run_rung("flowers", 2, "ismcts:40", "random", games=2, seed=3)
    assert rung.wins == 2


def test_rung_syntax() -> None:
    """`CHALLENGER/OPPONENT/GAMES`, with the specs checked."""
    assert parse_rung("ismcts:300/greedy/40") == ("ismcts:300", "greedy", 40)
    for bad in ("ismcts/greedy", "ismcts/greedy/0", "human/greedy/3", "wizard/greedy/3"):
        with pytest.raises(TablepressError):
            parse_rung(bad)


def test_ladder_and_bench_commands() -> None:
    """`tablepress ladder` prints the table; a bad rung is one clear error; bench reports ISMCTS speed."""
    runner = CliRunner()
    result = runner.invoke(app, ["ladder", "by-this", "--rung", "greedy/random/2", "--players", "2"])
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "random" in result.output
    bad = runner.invoke(app, ["ladder", "by-this", "--rung", "greedy/random"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    bench = runner.invoke(app, ["bench", "by-this", "--players", "2", "--seconds", "0.2"])
    assert bench.exit_code == 0, bench.output
    assert "ismcts" in bench.output


def test_games_declare_search_presets() -> None:
    """Rollout settings come from the agent's changes if given, else from the game's presets, else the
    preset's defaults."""
    from tablepress.agents.evaluation import search_presets_for
    from tablepress.agents.presets import TreeSearch
    from tablepress.games.flowers.heuristics import SEARCH

    assert search_presets_for(FLOWERS) is SEARCH
    for players, depth in ((2, 1), (4, 3)):  # Flowers rolls out one step per rival seat
        preset = IsmctsAgent().preset_for(FLOWERS, players)
        assert isinstance(preset, TreeSearch) and (preset.rollout_depth, preset.rollout_sample) == (depth, 8)
        given = IsmctsAgent(rollout_depth=1, rollout_sample=2).preset_for(FLOWERS, players)
        assert isinstance(given, TreeSearch) and (given.rollout_depth, given.rollout_sample) == (1, 2)
    assert IsmctsAgent().preset_for(get_game("planted"), 2) == TreeSearch()
    assert (TreeSearch().rollout_depth, TreeSearch().rollout_sample) == (5, 4)


def test_ismcts_starts_from_the_greedy_players_judgement() -> None:
    """With one iteration the search can only follow its root prior: the greedy player's best placement."""
    from tablepress.agents.greedy import GreedyAgent

    checked = 0
    for state, seat, legal in _random_flowers_decisions(game_seed=9, walk_seed=5):
        if checked == 6:
            break
        if legal[0].startswith("place") and len(legal) > 3:
            info = SeatInfo(FLOWERS, state, seat)
            greedy = GreedyAgent(seed=1)
            best = {greedy.choose(info) for _ in range(8)}  # placements are public: only ties differ
            values = [seat_value(FLOWERS, _placed(state, seat, a), seat) for a in legal]
            top = {a for a, v in zip(legal, values) if v >= max(values) - 1e-9}
            assert best <= top
            assert IsmctsAgent(seed=2, budget=1).choose(info) in top
            checked += 1
    assert checked == 6


def _random_flowers_decisions(game_seed: int, walk_seed: int) -> Iterator[tuple[Any, int, list[str]]]:
    """Each decision of a 2-player Flowers game played at random: (state, seat, legal actions). The state
    is the game's own and moves on after each step: clone it to keep it."""
    rng = random.Random(walk_seed)
    state = FLOWERS.new(2, game_seed)
    while not FLOWERS.is_over(state):
        seat = FLOWERS.to_move(state)[0]
        legal = FLOWERS.legal_actions(state, seat)
        yield state, seat, legal
        FLOWERS.apply_legal(state, seat, rng.choice(legal))


def _placed(state: object, seat: int, action: str) -> object:
    child = FLOWERS.clone(state)
    FLOWERS.apply_legal(child, seat, action)
    return child


class _OpenInfo(SeatInfo):
    """A seat that is shown the true state as its only determinization (for tests of judgement, not secrecy)."""

    def determinize(self, rng: random.Random) -> object:
        return self.game.clone(self._state)


def test_the_root_prior_judges_a_draw_by_the_best_place_for_the_card() -> None:
    """A Flowers draw changes no area, so a one-step judgement ties every draw and takes the first; the root
    prior follows the turn to the best placement, as greedy does, and picks greedy's draw instead."""
    from tablepress.agents.greedy import action_values

    discriminating = 0
    for state, seat, legal in _random_flowers_decisions(game_seed=21, walk_seed=11):
        if discriminating == 3:
            break
        if legal[0].startswith("draw") and len(legal) > 1:
            info = _OpenInfo(FLOWERS, state, seat)
            values = action_values(FLOWERS, [FLOWERS.clone(state)], seat, legal, seat_value, random.Random(1))
            top = {a for a, v in zip(legal, values) if v >= max(values) - 1e-9}
            if legal[0] not in top:
                discriminating += 1
                assert IsmctsAgent(seed=2, budget=1).choose(info) in top
                assert IsmctsAgent(seed=2, budget=1, prior_samples=0).choose(info) == legal[0]
    assert discriminating == 3


def test_a_negative_prior_is_refused() -> None:
    """The prior's weight and samples are counts: a negative one is a clear error, not a strange search."""
    with pytest.raises(ValueError, match="prior"):
        IsmctsAgent(prior_weight=-1)
    with pytest.raises(ValueError, match="prior"):
        IsmctsAgent(prior_samples=-2)


def test_impossible_rollout_settings_are_refused() -> None:
    """A negative rollout or a rollout step that tries no action is a clear error, not a crash mid-search."""
    with pytest.raises(ValueError, match="rollout_depth"):
        IsmctsAgent(rollout_depth=-1)
    with pytest.raises(ValueError, match="rollout_sample"):
        IsmctsAgent(rollout_sample=0)
    IsmctsAgent(rollout_depth=0, rollout_sample=1)  # the smallest sensible settings are fine


def _decision(seat: int) -> Decision:
    """A 2-player Flowers search's context for `seat`, margins over the best rival backed up."""
    return Decision.of(FLOWERS, seat, 2, random.Random(1), Backup.BEST, None)


def _flowers_draw_decision(seed: int) -> object:
    """A Flowers position a few turns in, at a draw decision."""
    decisions = _random_flowers_decisions(game_seed=seed, walk_seed=seed)
    return next(state for state, _, legal in decisions if legal[0].startswith("draw") and state.turn >= 6)


def test_a_cut_off_in_the_middle_of_a_turn_values_the_turn_finished() -> None:
    """A Flowers leaf reached right after a draw is judged after the best place for the drawn card: the
    card in hand is not left out of the drawer's value (which would favour whoever has just placed)."""
    state = _flowers_draw_decision(3)
    seat = state.current
    FLOWERS.apply_legal(state, seat, "draw 1")
    placed = [_placed(state, seat, a) for a in FLOWERS.legal_actions(state, seat)]
    best = max(seat_value(FLOWERS, p, seat) - seat_value(FLOWERS, p, 1 - seat) for p in placed)
    held = seat_value(FLOWERS, state, seat) - seat_value(FLOWERS, state, 1 - seat)
    assert best != pytest.approx(held)
    for finish, expected in ((True, best), (False, held)):
        searcher = TreeSearcher(TreeSearch(rollout_depth=0, finish_turn=finish), _decision(seat))
        rewards = searcher.leaf(FLOWERS.clone(state), seat)
        assert rewards[seat] == pytest.approx(expected)


def test_actions_first_met_in_a_later_determinization_are_opened_best_first() -> None:
    """After a face-down draw each determinization holds another card; the placements of a card met later
    are ranked by the heuristic like the first card's, not opened in board order."""
    state = _flowers_draw_decision(4)
    seat = state.current
    hands = []
    for swap in (0, 1):
        sample = FLOWERS.clone(state)
        stack = sample.stacks[2]
        stack[-1], stack[swap] = stack[swap], stack[-1]
        FLOWERS.apply_legal(sample, seat, "draw 3")
        hands.append(sample)
    assert hands[0].drawn != hands[1].drawn
    searcher = TreeSearcher(TreeSearch(), _decision(seat))
    node = Node()
    for sample in hands:
        legal = FLOWERS.legal_actions(sample, seat)
        searcher.rank(sample, node, seat, legal)
        opened = [a for a in node.order if a in set(legal)]
        values = [seat_value(FLOWERS, _placed(sample, seat, a), seat) for a in opened]
        assert values == sorted(values, reverse=True)
        assert set(opened) == set(legal)
    assert len(node.order) == len(set(node.order)) == len(node.known)


# ----- the games' fast one-step values (Heuristics.step_values) -------------------------------------
def _decisions(game: Any, players: int, seed: int, count: int) -> list[SeatInfo]:
    """`count` information sets met along a random game (each with its own copy of the state)."""
    rng = random.Random(seed)
    state, found = game.new(players, seed), []
    while not game.is_over(state) and len(found) < count:
        seat = game.to_move(state)[0]
        legal = game.legal_actions(state, seat)
        if len(legal) > 1 and rng.random() < 0.3:
            found.append(SeatInfo(game, game.clone(state), seat))
        game.apply_legal(state, seat, rng.choice(legal))
    return found


def _decide(games: list[tuple[str, int]]) -> list[str]:
    choices = []
    for name, players in games:
        for info in _decisions(get_game(name), players, 5, 3):
            choices.append(GreedyAgent(seed=3).choose(info))
            choices.append(IsmctsAgent(seed=3, budget=30).choose(info))
    return choices


def test_fast_step_values_make_the_same_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Greedy and ismcts given a game's step values (here: a stand-in equal to cloning, applying and
    evaluating, as the hook promises) choose exactly as without them: the same values, the same rng calls."""
    from tablepress.agents import decision, greedy
    from tablepress.agents.evaluation import cloning_step_values, heuristic_for, seat_value_for
    from tablepress.core.package import margin

    games = [("by-this", 3), ("pressed", 2), ("flowers", 2)]
    monkeypatch.setattr(greedy, "fast_step_values_for", lambda game: None)
    monkeypatch.setattr(decision, "fast_step_values_for", lambda game: None)
    monkeypatch.setattr(decision, "margin_step_values_for", lambda game, backup="best": None)
    slow = _decide(games)
    fast = lambda game: cloning_step_values(heuristic_for(game))  # noqa: E731
    monkeypatch.setattr(greedy, "fast_step_values_for", fast)
    monkeypatch.setattr(decision, "fast_step_values_for", fast)
    monkeypatch.setattr(decision, "margin_step_values_for", lambda game, backup="best": cloning_step_values(
        seat_value_for(game) if backup == "own" else margin(seat_value_for(game))))
    assert _decide(games) == slow


@pytest.mark.parametrize("players", [2, 3])
def test_own_rewards_from_step_values_make_the_same_decisions(monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    """Flowers ismcts backing up each seat's own value (its setting at every count) chooses the same with its
    step values as the rewards as when every action is cloned and judged."""
    from tablepress.agents import decision

    game = get_game("flowers")
    infos = _decisions(game, players, 5, 3)
    fast = [IsmctsAgent(seed=3, budget=30, backup="own").choose(info) for info in infos]
    monkeypatch.setattr(decision, "margin_step_values_for", lambda game, backup="best": None)
    assert [IsmctsAgent(seed=3, budget=30, backup="own").choose(info) for info in infos] == fast


def test_best_step_with_step_values_applies_only_the_chosen_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """With step values, best_step clones and applies the chosen action alone and returns its state."""
    from tablepress.agents.greedy import best_step

    game = get_game("by-this")
    info = _decisions(game, 2, 8, 1)[0]
    state, seat, legal = info._state, info.seat, info.legal_actions()
    applied: list[str] = []
    real = game.apply_legal
    monkeypatch.setattr(game, "apply_legal", lambda s, p, a: (applied.append(a), real(s, p, a))[1])
    values = [float(i % 3) for i in range(len(legal))]
    action, child, value = best_step(game, state, seat, legal, None, random.Random(1),  # type: ignore[arg-type]
                                     step_values=lambda g, s, p, actions: values)
    assert applied == [action] and value == 2.0 and values[legal.index(action)] == 2.0
    monkeypatch.undo()
    expected = game.clone(state)
    game.apply_legal(expected, seat, action)
    assert child == expected and state == info._state


def test_search_margins_use_step_values_only_when_evaluate_is_the_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's step values are the search's margins only when its evaluate is the default margin of its
    seat value; one whose evaluate is something else (Flowers: the seat's own value) is judged by cloning."""
    from tablepress.agents import evaluation

    def own(game: Any, state: Any, seat: int) -> float:
        return 0.0

    def steps(game: Any, state: Any, seat: int, actions: Any) -> list[float]:
        return [0.0] * len(actions)

    for heuristics, expected in ((Heuristics(seat_value=own, step_values=steps), steps),
                                 (Heuristics(seat_value=own, evaluate=own, step_values=steps), None),
                                 (Heuristics(seat_value=own), None)):
        monkeypatch.setattr(evaluation, "package_of", lambda game, h=heuristics: SimpleNamespace(heuristics=h))
        assert evaluation.margin_step_values_for(FLOWERS) is expected


def test_own_rewards_use_step_values_when_evaluate_is_the_seat_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """With each seat backing up its own value, a game whose evaluate is its seat value (Flowers) has its
    step values as the rewards; a game whose evaluate is a margin, and the "mean" backup, are judged by cloning."""
    from tablepress.agents import evaluation

    def own(game: Any, state: Any, seat: int) -> float:
        return 0.0

    def steps(game: Any, state: Any, seat: int, actions: Any) -> list[float]:
        return [0.0] * len(actions)

    for heuristics, backup, expected in ((Heuristics(seat_value=own, evaluate=own, step_values=steps), "own", steps),
                                         (Heuristics(seat_value=own, step_values=steps), "own", None),
                                         (Heuristics(seat_value=own, evaluate=own, step_values=steps), "mean", None),
                                         (Heuristics(seat_value=own, step_values=steps), "mean", None)):
        monkeypatch.setattr(evaluation, "package_of", lambda game, h=heuristics: SimpleNamespace(heuristics=h))
        assert evaluation.margin_step_values_for(FLOWERS, backup) is expected
