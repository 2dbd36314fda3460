"""Each game's guided first game stays true to its engine: its deal replayed the way the server plays it shows
every step where the guide says, with every expectation of the step met there; each suggested move is legal
and is what the guide's agent takes from the newcomer's own information; a step names only cards the
newcomer can see; every rules link has its heading; and following the guide beats the Beginner AI."""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache

import pytest

from tablepress.core.errors import DataError
from tablepress.core.guide import END, load_guide, parse_guide, unmet
from tablepress.core.registry import get_game, get_package
from tablepress.faces.catalog import card_faces
from tablepress.web.guide_play import GuidedRun, run_guide
from tablepress.web.guides import rules_headings

GAMES = ("by-this", "flowers", "planted", "pressed")


@lru_cache(maxsize=None)
def played(name: str) -> GuidedRun:
    """The game's guide played to its end, the guide's agent asked at every decision."""
    return run_guide(guide_of(name), ask_agent=True)


def guide_of(name: str):
    guide = load_guide(get_package(name))
    assert guide is not None, f"{name} ships no guide.json"
    return guide


@pytest.mark.parametrize("name", GAMES)
def test_the_guide_is_a_two_player_game_against_the_beginner(name):
    guide = guide_of(name)
    assert guide.players == 2 and guide.opponent == "level:beginner"
    assert guide.seats[guide.seat] == "human" and guide.seats.count("human") == 1
    assert [level.name for level in get_package(name).levels][0] == "beginner"


@pytest.mark.parametrize("name", GAMES)
def test_following_the_guide_beats_the_beginner(name):
    run = played(name)
    assert run.match.is_over
    scores = run.match.game.scores(run.match.state)
    assert run.won, f"{name}: the newcomer did not win alone ({scores})"


@pytest.mark.parametrize("name", GAMES)
def test_every_step_is_shown_where_the_guide_says_and_its_expectations_hold_there(name):
    guide, run = guide_of(name), played(name)
    shown: list[int] = []
    for seen in run.seen:
        point = seen.point
        assert point.on_path, f"{name}: left the line at move {point.move}: {point.reason}"
        at = END if point.kind == "end" else point.move
        if point.kind == "waiting":
            assert not point.steps
            continue
        expected = guide.steps_at(at)
        assert point.steps == expected
        for step in expected:
            assert unmet(step.expect, seen.view) == "", f"{name} step {step.title!r} at {at}: {step.expect}"
        shown += [guide.steps.index(step) for step in expected]
    assert sorted(set(shown)) == list(range(len(guide.steps))), f"{name}: steps never shown"
    assert run.seen[-1].point.kind == "end" and guide.steps_at(END), f"{name}: no step at the end"


@pytest.mark.parametrize("name", GAMES)
def test_each_suggestion_is_legal_and_the_guides_agent_choice_from_the_newcomers_view(name):
    guide, run = guide_of(name), played(name)
    moves = [seen for seen in run.seen if seen.point.kind == "move"]
    assert {seen.point.move for seen in moves} == set(range(len(guide.line)))
    for seen in moves:
        suggest = seen.point.suggest
        assert suggest == guide.line[seen.point.move]
        assert suggest in seen.view["legal_actions"]
        assert seen.agent == suggest, f"{name} move {seen.point.move}: {guide.suggested_by} takes {seen.agent!r}"


@pytest.mark.parametrize("name", GAMES)
def test_a_simultaneous_choice_goes_the_same_way_whoever_chooses_first(name):
    def by_seat(run: GuidedRun) -> list[list[str]]:
        return [[action for seat, action in run.match.actions if seat == s] for s in range(run.match.players)]

    later = run_guide(guide_of(name), newcomer_first=True)
    assert by_seat(later) == by_seat(played(name))
    assert later.match.game.scores(later.match.state) == played(name).match.game.scores(played(name).match.state)


@pytest.mark.parametrize("name", GAMES)
def test_every_rules_link_has_its_heading_on_the_rules_page(name):
    headings = rules_headings(name)
    for step in guide_of(name).steps:
        assert step.rules in headings, f"{name} step {step.title!r}: no heading #{step.rules}"


def card_words(name: str) -> set[str]:
    """The names and codes of a game's cards, as a step's text could name them."""
    words = set()
    for face in card_faces(get_game(name)):
        words |= {word for word in (face.name, face.key) if len(word) > 1 and not word.isdigit()}
    return words


def mentions(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w']){re.escape(word)}(?![\w'])", text) is not None


@pytest.mark.parametrize("name", GAMES)
def test_a_step_names_only_cards_the_newcomer_sees_there(name):
    guide, run = guide_of(name), played(name)
    words = card_words(name) - set(guide.terms)
    faces = [(face.name, face.key) for face in card_faces(get_game(name))]
    for seen in run.seen:
        view = seen.view
        visible = json.dumps([view["public"], view["private"], view["legal_actions"], view["log"]], ensure_ascii=False)
        for step in seen.point.steps:
            for word in (w for w in words if mentions(step.title + " " + step.text, w)):
                card = next(pair for pair in faces if word in pair)
                assert any(mentions(visible, w) for w in card if w not in guide.terms), (
                    f"{name} step {step.title!r} names {word!r}, which the newcomer does not see there")


def test_off_the_line_the_guide_shows_no_step_and_suggests_nothing():
    guide, run = guide_of("by-this"), played("by-this")
    seen = next(s for s in run.seen if s.point.kind == "move" and s.point.move == 1)
    view = copy.deepcopy(seen.view)
    own = next(entry for entry in view["log"] if entry["seat"] == guide.seat)
    own["text"] = "place Hammer"
    point = guide.at(view)
    assert not point.on_path and point.steps == () and point.suggest is None
    assert "place Hammer" in point.reason and guide.line[0] not in point.reason
    assert guide.at({**seen.view, "seat": 1 - guide.seat}).on_path is False


def test_a_step_whose_expectation_fails_is_not_shown():
    guide, run = guide_of("by-this"), played("by-this")
    seen = next(s for s in run.seen if s.point.kind == "move" and s.point.move == 0)
    view = copy.deepcopy(seen.view)
    view["public"]["key"]["name"] = "Small → Large"
    point = guide.at(view)
    assert not point.on_path and point.steps == () and point.suggest is None
    assert "Small → Large" in point.reason and "Heavy → Light" not in point.reason


def good_data() -> dict:
    return json.loads((get_package("by-this").folder / "guide.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("change, named", [
    (lambda d: d.pop("line"), "line"),
    (lambda d: d.update(players=9), "players"),
    (lambda d: d.update(seat=2), "seat"),
    (lambda d: d.update(format="other"), "format"),
    (lambda d: d.update(colour="red"), "unknown fields: colour"),
    (lambda d: d["steps"][0].update(at=999), "at must be"),
    (lambda d: d["steps"].reverse(), "order"),
    (lambda d: d["steps"][0].update(text=""), "text"),
    (lambda d: d["steps"][0].update(expect=[1]), "expect"),
    (lambda d: d.update(terms="Key"), "terms"),
])
def test_a_broken_guide_is_refused_naming_its_fault(change, named):
    data = good_data()
    change(data)
    with pytest.raises(DataError, match=re.escape(named)):
        parse_guide(get_package("by-this"), data)
