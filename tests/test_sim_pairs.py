"""Card pairs that win together (`sim/pairs.py`): a planted synergy is found, shuffled rows give nothing."""

from __future__ import annotations

import random

import pytest

from tablepress.sim import pairs
from tablepress.sim.findings import findings
from tablepress.sim.pairs import card_pairs
from tablepress.sim.stats import summarise

CARDS = ("Lily", "Daisy", "Zinnia", "Peony", "Aster")


def constructed(games: int, synergy: bool, seed: int = 3) -> list[dict]:
    """Two-player rows where each seat presses each card half the time; with `synergy`, a seat that presses
    both Lily and Daisy wins (its opponent does not hold both) — each alone does nothing."""
    rng = random.Random(seed)
    rows = []
    for index in range(games):
        held = {card: [float(rng.random() < 0.5) for _ in range(2)] for card in CARDS}
        both = [held["Lily"][s] > 0 and held["Daisy"][s] > 0 for s in range(2)]
        if synergy and both[0] != both[1]:
            winner = 0 if both[0] else 1
        else:
            winner = rng.randrange(2)
        shares = [1.0 if s == winner else 0.0 for s in range(2)]
        rows.append({"index": index, "seed": index, "seats": ["greedy", "greedy"], "first": 0,
                     "scores": [float(s) for s in shares], "winners": [winner], "shares": shares, "turns": 10,
                     "decisions": 10, "branching": 2.0, "lead_changes": 0, "leader_half": winner,
                     "cards": {"press": held}})
    return rows


def test_a_planted_synergy_is_found_and_named() -> None:
    found = card_pairs(constructed(600, synergy=True), 2)
    assert found["tested"] == 10  # 5 cards: 10 pairs, all with enough support
    top = found["pairs"][0]
    assert set(top["cards"]) == {"Lily", "Daisy"} and top["lift"] > 0.2
    assert top["ci95"][0] > 0 and top["p_adjusted"] < 0.05
    assert len(found["pairs"]) <= pairs.SHOWN


def test_shuffled_rows_report_no_pair() -> None:
    rows = constructed(600, synergy=True)
    rng = random.Random(11)
    shares = [row["shares"] for row in rows]
    rng.shuffle(shares)  # the same holdings and the same wins, no longer tied to each other
    for row, share in zip(rows, shares):
        row["shares"] = share
    assert card_pairs(rows, 2)["pairs"] == []
    assert card_pairs(constructed(600, synergy=False), 2)["pairs"] == []


def test_too_little_support_tests_nothing() -> None:
    found = card_pairs(constructed(40, synergy=True), 2)  # 80 seats: ~20 have both, under the minimum 30
    assert found["tested"] == 0 and found["pairs"] == []


def test_the_pair_becomes_a_ranked_finding() -> None:
    rows = constructed(600, synergy=True)
    summary = summarise(rows, "pressed", 2)
    assert summary["pairs"]["pairs"]
    kinds = [f for f in summary["findings"] if f["kind"] == "card pair"]
    assert kinds and "Lily" in kinds[0]["text"] and "Daisy" in kinds[0]["text"]
    assert "pairs tested" in kinds[0]["text"]


def test_mutant_without_the_expected_term_would_flag_single_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mutant that compares 'both' with 'neither' (forgetting what each card alone adds) finds pairs of a
    card that wins alone with any other: the real interaction does not."""
    rows = constructed(600, synergy=False)
    rng = random.Random(5)
    for row in rows:  # Zinnia alone wins: a seat with Zinnia beats one without
        z = row["cards"]["press"]["Zinnia"]
        if z[0] != z[1]:
            winner = 0 if z[0] else 1
            row["shares"] = [1.0 if s == winner else 0.0 for s in range(2)]
    assert card_pairs(rows, 2)["pairs"] == []
    monkeypatch.setattr(pairs, "interaction", lambda both, only_a, only_b, neither: both - neither)
    found = card_pairs(rows, 2)
    assert any("Zinnia" in p["cards"] for p in found["pairs"])  # the mutant is caught
