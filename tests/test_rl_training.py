"""`tablepress train` (the train extra): masked PPO for seconds, a checkpoint that loads and plays as the
`policy:FILE` seat, the evaluation against random with a Wilson interval, and the learning-curve PNG."""

from __future__ import annotations

import json
import pickle

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pettingzoo")

from typer.testing import CliRunner  # noqa: E402

from tablepress.cli import app  # noqa: E402
from tablepress.core.errors import TablepressError  # noqa: E402
from tablepress.core.match import Match  # noqa: E402
from tablepress.core.registry import get_game  # noqa: E402
from tablepress.rl.network import load  # noqa: E402
from tablepress.rl.policy_agent import PolicyAgent  # noqa: E402
from tablepress.rl.train import TrainConfig, _advantages, evaluate, plot_curve, shaped_rewards, train  # noqa: E402


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A By This policy after three small PPO updates."""
    path = tmp_path_factory.mktemp("policy") / "by-this.pt"
    config = TrainConfig(game="by-this", players=2, steps=450, batch=150, minibatch=64, checkpoint_every=1)
    net, meta = train(config, path)
    return path, net, meta


def test_training_moves_the_loss_and_writes_a_checkpoint(trained) -> None:
    """Each update records its losses; they change from update to update; the file loads to the same net."""
    path, net, meta = trained
    assert [h["steps"] for h in meta.history][-1] == meta.steps >= 450
    assert len(meta.history) >= 3
    first, last = meta.history[0], meta.history[-1]
    assert first["value_loss"] != last["value_loss"] and first["policy_loss"] != last["policy_loss"]
    assert all(0.0 <= h["win_rate"] <= 1.0 for h in meta.history)
    again, again_meta = load(path)
    assert again_meta.game == "by-this" and again_meta.players == 2 and again_meta.digest
    for name, tensor in net.state_dict().items():
        assert torch.equal(tensor, again.state_dict()[name])


def test_the_saved_policy_plays_a_whole_game_as_a_seat(trained) -> None:
    """policy:FILE decides from SeatInfo only, always a legal move, deterministically; it pickles."""
    path, _, _ = trained
    game = get_game("by-this")
    agents = [PolicyAgent(budget=path), pickle.loads(pickle.dumps(PolicyAgent(budget=path)))]
    moves = []
    for _ in range(2):
        match = Match(game, 2, 11)
        while not match.is_over:
            seat = match.next_mover()
            info = match.seat_info(seat)
            action = agents[seat].choose(info)
            assert action in info.legal_actions()
            match.act(seat, action)
        moves.append(match.actions)
    assert moves[0] == moves[1]


def test_the_policy_refuses_other_games_and_bad_files(trained, tmp_path) -> None:
    """A policy for By This at 2 players will not play Flowers or 3 players; a foreign file is one clear error."""
    path, _, _ = trained
    agent = PolicyAgent(budget=path)
    flowers = Match(get_game("flowers"), 2, 1)
    with pytest.raises(TablepressError, match="trained for by-this"):
        agent.choose(flowers.seat_info(0))
    three = Match(get_game("by-this"), 3, 1)
    with pytest.raises(TablepressError, match="2 players"):
        agent.choose(three.seat_info(three.next_mover()))
    junk = tmp_path / "junk.pt"
    junk.write_text("not a policy")
    with pytest.raises(TablepressError, match="not a tablepress policy"):
        PolicyAgent(budget=junk)
    with pytest.raises(TablepressError, match="no such file"):
        PolicyAgent(budget=tmp_path / "missing.pt")


def test_evaluation_and_learning_curve(trained, tmp_path) -> None:
    """Ladder-style evaluation rotates the seat and gives a Wilson interval; the curve is a PNG."""
    path, _, meta = trained
    result = evaluate(path, "by-this", 2, {}, "random", games=6)
    assert result.games == 6 and 0 <= result.wins <= 6
    lo, hi = result.ci95
    assert 0 <= lo <= result.win_rate <= hi <= 1 and result.fair_share == 0.5
    png = tmp_path / "curve.png"
    plot_curve(meta, [result], png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_advantages_and_shaping() -> None:
    """GAE with γ = 1: with λ = 1 a decision's return is every reward after it; shaping pays the margin's
    change between decisions and telescopes to the final margin minus the first."""
    advantages, returns = _advantages([0.1, 0.2, 0.3], [0.0, 0.0, 1.0], 1.0)
    assert returns == pytest.approx([1.0, 1.0, 1.0])
    assert advantages == pytest.approx([0.9, 0.8, 0.7])
    rewards = shaped_rewards([0.0, 2.0, 1.0], 5.0, 1.0, 0.5)
    assert rewards == pytest.approx([1.0, -0.5, 3.0])
    assert sum(rewards) == pytest.approx(1.0 + 0.5 * (5.0 - 0.0))
    assert shaped_rewards([3.0], 4.0, -1.0, 0.0) == [-1.0]


def test_train_command(tmp_path) -> None:
    """`tablepress train GAME --steps N -o FILE` writes the policy and the curve and prints the evaluation."""
    out = tmp_path / "flowers.pt"
    result = CliRunner().invoke(app, ["train", "flowers", "--steps", "120", "-o", str(out), "--eval-games", "2",
                                      "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output[result.output.index("{"):])
    assert summary["game"] == "flowers" and summary["players"] == 2
    assert [e["opponent"] for e in summary["evaluations"]] == ["random", "greedy"]
    assert out.is_file() and out.with_suffix(".png").is_file()
    bad = CliRunner().invoke(app, ["train", "flowers", "--steps", "0", "-o", str(out)])
    assert bad.exit_code == 2 and "--steps must be at least 1" in bad.output
    folder = CliRunner().invoke(app, ["train", "flowers", "-o", str(tmp_path)])
    assert folder.exit_code == 2 and "is a folder" in folder.output


def test_policy_file_is_a_seat_spec(trained) -> None:
    """Once agents/base.py registers `policy` (a file budget), `policy:FILE` builds the agent everywhere."""
    from tablepress.agents.base import AGENTS, make_agent, parse_seats

    if "policy" not in AGENTS:
        pytest.skip("agents/base.py does not register the policy seat yet (see docs/RL.md)")
    path, _, _ = trained
    spec = f"policy:{path}"
    assert parse_seats(f"{spec},random", 2) == [spec, "random"]
    agent = make_agent(spec, seed=1)
    match = Match(get_game("by-this"), 2, 3)
    seat = match.next_mover()
    assert agent.choose(match.seat_info(seat)) in match.legal(seat)
    with pytest.raises(TablepressError, match="needs a file"):
        parse_seats("policy", 2)


def test_training_goes_on_from_a_checkpoint(trained, tmp_path) -> None:
    """--resume continues the same network and history; a checkpoint of another game is refused."""
    path, _, meta = trained
    more = tmp_path / "more.pt"
    _, resumed = train(TrainConfig(game="by-this", players=2, steps=100, batch=100, resume=path), more)
    assert resumed.steps >= meta.steps + 100 and resumed.history[-1]["steps"] == resumed.steps
    assert len(resumed.history) == len(meta.history) + 1
    assert resumed.history[-1]["games"] > meta.history[-1]["games"]
    with pytest.raises(TablepressError, match="trained for by-this"):
        train(TrainConfig(game="flowers", players=2, steps=10, resume=path), tmp_path / "no.pt")
