"""By This at the printed table: every card the rules count, the score pad, and the intro's statements
checked against the card data and the rules."""

from __future__ import annotations

import re
from collections import Counter

from tablepress.core.registry import get_game, get_package
from tablepress.faces.catalog import card_faces, game_components
from tablepress.faces.fonts import width_mm
from tablepress.faces.model import COMPONENT_HEIGHT, COMPONENT_WIDTH, Line, Text
from tablepress.games.by_this.scoring import close_points, first_out_of_order
from tablepress.printing.intro import load_intro


def section(name: str) -> str:
    """One intro section's text, on one line."""
    intro = load_intro(get_game("by-this"))
    return " ".join(next(s for s in intro.sections if s.id == name).text.split())


def per_players(text: str, pattern: str) -> dict[int, int]:
    """A figure per player count from a "6 / 5 / 4 for 2 / 3 / 4 people" phrase after `pattern`."""
    figures, counts = re.search(pattern + r"\(([\d /]+) for ([\d /]+) people\)", text).groups()
    return dict(zip((int(n) for n in counts.split("/")), (int(n) for n in figures.split("/"))))


def test_the_print_holds_every_card_the_rules_count() -> None:
    game = get_game("by-this")
    cards = game.cards
    kinds = Counter()
    for face in card_faces(game):
        kinds[face.kind] += face.copies
    assert kinds == {"thing": cards.thing_count, "Key": len(cards.keys), "special": len(cards.names) - cards.thing_count,
                     "table card": len(cards.table_cards)}
    assert sum(kinds.values()) == get_package("by-this").expectations.printed_cards == 54
    assert {face.key for face in card_faces(game) if face.kind == "thing"} == set(cards.names[:cards.thing_count])


def test_the_score_pad_has_a_row_per_close_and_a_column_per_player() -> None:
    game = get_game("by-this")
    (pad,) = [c for c in game_components(game) if c.kind == "scorebook"]
    face = pad.face
    assert face.width <= COMPONENT_WIDTH and face.height <= COMPONENT_HEIGHT
    texts = face.texts()
    games = [t for t in texts if re.fullmatch(r"Game \d+", t)]
    assert len(games) >= 2
    closes = max(game.cards.closes_to_end.values())
    assert texts.count(f"Close {closes}") == len(games) and f"Close {closes + 1}" not in texts
    assert "6 closes (2–3 players) or 8 closes (4 players)" in " ".join(texts)
    columns = [s for s in face.shapes if isinstance(s, Line) and s.x1 == s.x2]
    assert len(columns) == (game.max_players + 1) * len(games)
    for shape in face.shapes:
        if isinstance(shape, Text):
            width = width_mm(shape.text, shape.size, shape.bold)
            start = shape.x - {"start": 0.0, "middle": width / 2, "end": width}[shape.anchor]
            assert 0 <= start and start + width <= face.width and 0 < shape.y <= face.height, shape.text
            assert shape.size >= 7.0, shape.text


def test_a_variant_changes_the_score_pad() -> None:
    game = get_game("by-this").with_variant({"rules": {"closes_to_end": {"4": 10}}})
    (pad,) = game_components(game)
    assert "Close 10" in pad.face.texts()


def test_the_intro_box_matches_the_card_data() -> None:
    cards = get_game("by-this").cards
    box = section("box")
    assert f"**{cards.thing_count} things**" in box
    assert f"**{len(cards.keys)} Keys**" in box
    for key in cards.keys:
        assert key.name in box, key.name
    specials = Counter(cards.names[cards.thing_count:])
    assert f"**{sum(specials.values())} specials**: {', '.join(specials)}." in box
    names = [name for name, _ in cards.table_cards]
    assert f"**{len(names)} table cards**: the {' and the '.join(names)}." in box
    assert ", ".join(cards.words[:-1]) + " and " + cards.words[-1] in box
    values = {v for card in range(cards.thing_count) for v in cards.all_numbers(card).values()}
    assert f"({min(values)}–{max(values)})" in box
    assert "**A score pad**" in box and game_components(get_game("by-this"))


def test_the_intro_sets_up_every_player_count() -> None:
    game = get_game("by-this")
    cards = game.cards
    start = section("start")
    hands = {int(people): int(size) for size, people in re.findall(r"(\d+) each \((\d) people\)", start)}
    players = range(game.min_players, game.max_players + 1)
    assert hands == {p: cards.hand_size[p] for p in players}
    assert f"Turn {cards.floor_size} more face up" in start
    assert f"the other {len(cards.keys) - 3} are the face-down Key deck" in start
    turn = section("turn")
    assert per_players(turn, r"full hand ") == {p: cards.hand_size[p] for p in players}
    low = min(players)
    (usual,) = {cards.close_min[p] for p in players if p != low}
    assert f"{usual} or more things ({cards.close_min[low]} or more with {low} people)" in turn
    end = section("end")
    found = re.search(r"After (\d+) closes \((\d) or (\d) people\) or (\d+) \((\d) people\)", end).groups()
    said = {int(found[1]): int(found[0]), int(found[2]): int(found[0]), int(found[4]): int(found[3])}
    assert said == {p: cards.closes_to_end[p] for p in players}
    assert f"{game.min_players}–{game.max_players} players" in load_intro(game).facts


def test_the_sample_turn_is_true_of_the_cards() -> None:
    cards = get_game("by-this").cards
    example = next(s for s in load_intro(get_game("by-this")).sections if s.id == "example")
    (size_key, _, *before), (abc_key, _, *after) = example.cards

    def number(key: str, name: str) -> int:
        return cards.all_numbers(cards.thing_id(name))[cards.keys[cards.find_key(key)].word]

    sizes = [number(size_key, name) for name in before]
    assert sizes == [1, 1, 1, 2] and first_out_of_order(sizes, True) is None
    closing = int(re.search(r"could close for (\d+)", example.text).group(1))
    assert close_points(sizes) == closing
    abc = cards.keys[cards.find_key(abc_key)]
    kept = before[:first_out_of_order([number(abc_key, n) for n in before], abc.ascending)]
    assert kept == before[:-1] and after == ["Apple", *kept]
    assert number(abc_key, "Apple") == number(abc_key, "Ant") == 1
    coffee = number(abc_key, "Coffee")
    assert coffee == 2 and not coffee <= number(abc_key, kept[0]) and not coffee >= number(abc_key, kept[-1])
