"""Previews of legal actions (core/preview.py): the points each would score, worked out from what the seat knows."""

from __future__ import annotations

import random

from tablepress.core.match import Match
from tablepress.core.preview import Hint, hints
from tablepress.core.registry import get_game, package_of


def advanced(name: str, players: int, seed: int, steps: int) -> Match:
    match = Match(get_game(name), players, seed, {}, ["random"] * players)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.is_over:
            break
        seat = match.next_mover()
        match.act(seat, rng.choice(match.legal(seat)))
    return match


def true_change(match: Match, seat: int, action: str) -> int:
    game = match.game
    child = game.clone(match.state)
    game.apply_legal(child, seat, action)
    return game.scores(child)[seat] - game.scores(match.state)[seat]


def test_flowers_placements_preview_the_real_change_of_score():
    checked = 0
    for seed in range(6):
        match = advanced("flowers", 2, seed, steps=2 * seed + 9)
        seat = match.next_mover()
        if not match.legal(seat)[0].startswith("place"):
            match.act(seat, match.legal(seat)[0])
        found = hints(match.game, match.seat_info(seat))
        for action in match.legal(seat):
            if action in found:
                assert found[action].points == true_change(match, seat, action)
                checked += 1
    assert checked > 20


def test_pressed_plantings_preview_their_points():
    match = advanced("pressed", 3, 4, steps=5)
    seat = match.next_mover()
    found = hints(match.game, match.seat_info(seat))
    plants = [a for a in match.legal(seat) if a.startswith("plant")]
    assert plants and set(plants) <= set(found)
    assert any(found[a].points for a in plants)
    for action in plants:
        assert found[action].points == true_change(match, seat, action)


def test_by_this_notes_what_the_shelf_is_worth_after_each_placement():
    match = advanced("by-this", 2, 3, steps=6)
    seat = match.next_mover()
    note = package_of(match.game).note
    found = hints(match.game, match.seat_info(seat), note)
    game = match.game
    places = [a for a in match.legal(seat) if a.startswith("place")]
    assert places
    for action in places:
        child = game.clone(match.state)
        game.apply_legal(child, seat, action)
        worth = game.view(child, seat)["public"]["close_score"]
        assert found[action].note.startswith(f"shelf worth {worth}")
        assert found[action].as_json()["text"].startswith("shelf worth")  # no "+0" beside a note


def test_an_action_whose_outcome_the_seat_cannot_know_gets_no_preview():
    """Two determinizations that disagree (here: forced to) leave the action out — seen to fail without the check."""
    match = advanced("pressed", 2, 4, steps=3)
    seat = match.next_mover()
    info = match.seat_info(seat)
    game = match.game
    states = []

    class Disagreeing:
        def __init__(self):
            self.seat = seat

        def legal_actions(self):
            return info.legal_actions()

        def determinize(self, rng):
            state = info.determinize(rng)
            state.scores = [score + len(states) for score in state.scores]  # a hidden difference
            states.append(state)
            return state

    def by_score(game, seat, before, action, after):
        return str(after["public"]["scores"][seat])  # a note that depends on the difference

    assert hints(game, Disagreeing(), by_score) == {}
    assert hints(game, info, by_score)


def test_a_hint_reads_as_the_table_writes_it():
    assert Hint(3, None).as_json() == {"points": 3, "note": None, "text": "+3"}
    assert Hint(-2, "doomed").as_json()["text"] == "-2 · doomed"
    assert Hint(0, "shelf worth 4").as_json()["text"] == "shelf worth 4"
    assert Hint(None, None).as_json()["text"] == ""


def test_flowers_marks_add_up_to_the_engines_score_and_name_every_group():
    from tablepress.games.flowers import GAME
    from tablepress.games.flowers.marks import area_marks
    from tablepress.games.flowers.scoring import score_area

    for seed in range(8):
        match = advanced("flowers", 3, seed, steps=20 + 9 * seed)
        for area in match.state.areas:
            marks = area_marks(area, GAME.cards)
            score = score_area(area, GAME.cards)
            assert marks["points"]["total"] == score.total
            assert marks["points"]["regions"] == score.region_points
            assert marks["discards"] == len(score.discarded)
            assert sum(region["points"] > 0 for region in marks["regions"]) == len(score.regions)
            for cell in marks["cells"].values():
                assert cell["group"] in ("exact", "short", "over", None)
                assert (cell["need"] == 0) == (cell["group"] == "exact") or cell["group"] is None


def test_a_note_reading_only_public_views_gives_the_same_hints_from_the_spectators_views():
    note = package_of(get_game("by-this")).note
    assert getattr(note, "public_only", False)

    def from_the_seats_views(game, seat, before, action, after):
        return note(game, seat, before, action, after)

    for seed in range(12):
        match = advanced("by-this", 2 + seed % 3, seed, seed * 3)
        if match.is_over:
            continue
        seat = match.next_mover()
        info = match.seat_info(seat)
        assert hints(match.game, info, note) == hints(match.game, info, from_the_seats_views)
