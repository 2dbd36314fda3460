"""Variants as differences (`core/differences.py`), the changes table as a person reads it, and `--vary` of cards,
entries, flags and names (`sim/vary.py`)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tablepress.cli import app
from tablepress.core import differences
from tablepress.core.errors import DataError, TablepressError
from tablepress.core.registry import get_game
from tablepress.core.variants import apply_variant, base_data, change_lines, check_shape, load_variant, variant_changes
from tablepress.sim.tune import variant_toml
from tablepress.sim.vary import overrides, parse_vary

PLANTED, BY_THIS, PRESSED = (base_data(get_game(name)) for name in ("planted", "by-this", "pressed"))
WITHOUT_CAN = """
[tools."Watering Can"]
copies = 0
"""


def whole_list_without_the_can() -> dict:
    return {"tools": [tool for tool in PLANTED["tools"] if tool["name"] != "Watering Can"]}


# ----- differences ---------------------------------------------------------------------------------
def test_removing_the_watering_can_as_a_difference_gives_the_whole_list_overrides_card_data(tmp_path: Path) -> None:
    path = tmp_path / "no-can.toml"
    path.write_text(WITHOUT_CAN, encoding="utf-8")
    by_difference = load_variant(path, get_game("planted"), 2)
    by_list = apply_variant(whole_list_without_the_can(), get_game("planted"), 2)
    assert by_difference.load_data(by_difference.variant) == by_list.load_data(by_list.variant)
    assert [t["name"] for t in get_game("planted").load_data(tomllib.loads(WITHOUT_CAN))["tools"]] == [
        "Grow Lamp", "Feed Scoop", "Gardening Gloves", "Trowel", "Seed Tray"]
    assert by_difference.variant == {"tools": {"Watering Can": {"copies": 0}}}  # kept as written


def test_a_card_changes_is_removed_or_added_by_name_and_the_rest_stays() -> None:
    tools = PLANTED["tools"]
    changed = differences.apply_difference(tools, {"trowel": {"amount": 2}, "Seed Tray": {"remove": True},
                                                   "Pruning Shears": {"add": True, "copies": 2, "effect": "buy",
                                                                      "choices": "LW", "amount": 1}}, "tools")
    assert [t["name"] for t in changed] == ["Watering Can", "Grow Lamp", "Feed Scoop", "Gardening Gloves", "Trowel",
                                            "Pruning Shears"]
    assert changed[4] == {**tools[4], "amount": 2} and changed[-1]["copies"] == 2
    assert tools[4]["amount"] == 1  # the published data untouched
    resources = differences.apply_difference(PLANTED["resources"], {"GG": {"copies": 4}}, "resources")
    assert resources[-1] == {"shows": "GG", "copies": 4}  # cards without names: by the text that tells them apart


def test_entries_and_names_change_without_restating_the_list() -> None:
    game = get_game("by-this")
    assert game.load_data({"things": {"Rice": {"Size": 2}}})["things"]["Rice"] == [8, 2, 1, 7]
    assert game.load_data({"things": {"Rice": {"4": 1}}})["things"]["Rice"] == [8, 1, 1, 1]
    pressed = get_game("pressed").load_data({"decks": {"2": {"Lily": True, "Peony": False}},
                                             "flowers": {"Zinnia": {"table": {"3": 10}}}})
    assert pressed["decks"]["2"] == ["Zinnia", "Sunflower", "Hydrangea", "electives", "Lily"]
    assert pressed["flowers"]["Zinnia"]["table"] == [0, 0, 10, 14, 20, 26, 32, 32]


@pytest.mark.parametrize(("overrides", "words"), [
    ({"tools": {"Watering Cann": {"copies": 0}}}, "tools.Watering Cann: no card 'Watering Cann' (cards: Watering Can"),
    ({"tools": {"Watering Can": 0}}, "tools.Watering Can: give a table of the card's changes (e.g. copies = 0), not 0"),
    ({"tools": {"Watering Can": {"colour": "blue"}}}, "tools.Watering Can.colour: the cards have no field 'colour'"),
    ({"tools": {"Watering Can": {"remove": "yes"}}}, "tools.Watering Can.remove: must be true or false"),
    ({"tools": {"Trowel": {"add": True, "copies": 2}}}, "tools.Trowel: the card is already in the list"),
    ({"tools": {}}, "tools: the table of changes is empty"),
    ({"game": {"pass_left": {"3": 2}}}, "game.pass_left.3: no entry '3' (entries 1–2)"),
    ({"tiers": {"easy": {"2": "x"}}}, "tiers.easy.2: must be a number, not the text 'x'"),
])
def test_a_bad_difference_is_one_line_naming_the_field(overrides: dict, words: str) -> None:
    with pytest.raises(DataError) as caught:
        check_shape(overrides, PLANTED)
    assert words in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(DataError) as through_the_game:
        apply_variant(overrides, get_game("planted"), None, source="v.toml")
    assert str(through_the_game.value).startswith("v.toml: ") and "\n" not in str(through_the_game.value)


def test_a_bad_difference_in_a_file_names_the_file_and_the_cli_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "typo.toml"
    path.write_text('[tools."Watering Cann"]\ncopies = 0\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["simulate", "planted", "-n", "2", "--jobs", "1", "--variant", str(path)])
    assert result.exit_code != 0 and f"{path}: tools.Watering Cann: no card" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


# ----- the changes table ---------------------------------------------------------------------------
def test_changes_read_as_a_person_writes_them() -> None:
    assert change_lines(tomllib.loads(WITHOUT_CAN), PLANTED) == ["Watering Can: 3 copies → 0"]
    assert change_lines(whole_list_without_the_can(), PLANTED) == ["Watering Can: 3 copies → 0"]
    assert change_lines({"things": {"Rice": [8, 2, 1, 7]}}, BY_THIS) == ["Rice Size: 1 → 2"]
    assert change_lines({"rules": {"close_min": {"3": 2}}, "keys": {"A to Z": {"ascending": False}}}, BY_THIS) == [
        "rules.close_min.3: 4 → 2", "A to Z ascending: true → false"]
    assert change_lines({"plants": {"Monstera": {"remove": True}},
                         "tools": {"Hose": {"add": True, "copies": 1, "effect": "exact", "shows": "W", "gain": "W"}}},
                        PLANTED) == ["Monstera: removed", "Hose: added (copies = 1, effect = exact, shows = W, gain = W)"]
    assert change_lines({"flowers": {"Zinnia": {"table": {"3": 10}, "copies": 8}}, "decks": {"2": {"Lily": True}}},
                        PRESSED) == ["Zinnia table[3]: 9 → 10", "Zinnia: 10 copies → 8", "decks.2: + Lily"]


def test_the_changes_list_holds_plain_values_never_a_cards_table() -> None:
    changes = variant_changes(whole_list_without_the_can() | {"plants": {"Monstera": {"remove": True}}}, PLANTED)
    assert changes == [
        {"field": "tools.Watering Can.copies", "old": 3, "new": 0, "text": "Watering Can: 3 copies → 0"},
        {"field": "plants.Monstera", "old": "included", "new": "removed", "text": "Monstera: removed"}]
    assert variant_changes({"scoring": {"region_min": 3}}, base_data(get_game("flowers"))) == [
        {"field": "scoring.region_min", "old": 5, "new": 3, "text": "scoring.region_min: 5 → 3"}]
    for line in change_lines({"tools": list(reversed(PLANTED["tools"]))}, PLANTED):
        assert "{" not in line and "'" not in line  # no Python repr of a card


def test_a_changes_text_check_catches_a_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mutant: changes printed as Python values, as before this change; the text test must see it."""
    from tablepress.core import variants

    monkeypatch.setattr(variants, "shown", repr)
    assert change_lines({"keys": {"A to Z": {"ascending": False}}}, BY_THIS) != ["A to Z ascending: true → false"]


# ----- --vary of cards, entries, flags and names ---------------------------------------------------
def test_vary_takes_a_card_by_name_and_copies_zero_takes_it_out() -> None:
    can = parse_vary('tools."Watering Can"', PLANTED)
    assert (can.path, can.published, can.low, can.high) == (("tools", "Watering Can", "copies"), 3, 0, 5)
    assert overrides([can], (0,), PLANTED) == {"tools": {"Watering Can": {"copies": 0}}}
    assert parse_vary("tools.watering can.copies=0..3", PLANTED).path == can.path
    monstera = parse_vary("plants.Monstera", PLANTED)
    assert (monstera.kind, monstera.values(), monstera.shown(0)) == ("card", range(0, 2), "out")
    assert overrides([monstera], (0,), PLANTED) == {"plants": {"Monstera": {"remove": True}}}
    assert change_lines(overrides([monstera], (1,), PLANTED), PLANTED) == []


def test_vary_takes_flags_named_entries_and_names_in_a_list() -> None:
    flag = parse_vary('keys."A to Z".ascending', BY_THIS)
    assert (flag.kind, flag.published_value(), flag.json_value(0), flag.shown(1)) == ("flag", 1, False, "true")
    assert overrides([flag], (0,), BY_THIS) == {"keys": {"A to Z": {"ascending": False}}}
    assert parse_vary('keys."A to Z".ascending=false..true', BY_THIS).values() == range(0, 2)
    size = parse_vary("things.Rice.Size=1..3", BY_THIS)
    assert (size.kind, size.path, size.entry, size.published_value()) == ("entry", ("things", "Rice"), 1, 1)
    assert change_lines(overrides([size], (3,), BY_THIS), BY_THIS) == ["Rice Size: 1 → 3"]
    lily = parse_vary("decks.2.Lily", PRESSED)
    assert (lily.kind, lily.published_value()) == ("name", 0)
    assert change_lines(overrides([lily], (1,), PRESSED), PRESSED) == ["decks.2: + Lily"]
    zinnia = parse_vary("decks.3.Zinnia", PRESSED)
    assert overrides([zinnia], (1,), PRESSED)["decks"]["3"] == PRESSED["decks"]["3"]  # in stays where it was


@pytest.mark.parametrize(("text", "words"), [
    ('tools."Watering Cann"', "tools has no card 'Watering Cann' (cards: Watering Can"),
    ("things.Rice.Smell", "things.Rice has no entry 'Smell' (entries 1–4 or ABC, Size, Weight, Age)"),
    ('keys."A to Z".ascending=0..3', "its range is 0..1"),
    ('keys."A to Z".name', "is the text 'A to Z', not a number"),
])
def test_a_bad_vary_of_a_card_is_one_line(text: str, words: str) -> None:
    base = PLANTED if text.startswith("tools") else BY_THIS
    with pytest.raises(TablepressError) as caught:
        parse_vary(text, base)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_tuned_card_difference_is_written_as_a_person_writes_it() -> None:
    text = variant_toml(overrides([parse_vary('tools."Watering Can"', PLANTED)], (0,), PLANTED))
    assert text == WITHOUT_CAN.lstrip("\n")
    assert tomllib.loads(text) == tomllib.loads(WITHOUT_CAN)
