"""The log in words (core/narration.py and each game's narrate.py): readable, named, and told from views only."""

from __future__ import annotations

import random
import re

import pytest

from tablepress.core.match import Match
from tablepress.core.narration import Line, Narration, fill, listing, plain_narrate, sentence, standings
from tablepress.core.registry import get_game, package_of

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]
#: Engine codes that must never reach a person's log: Pressed's flower codes, Flowers' card codes,
#: Planted's resource letters, and seats counted from 0.
CODES = {
    "pressed": re.compile(r"\b(ZI|SU|HY|PE|LI|DA|AN|AS|BB|CH|TU)\b"),
    "flowers": re.compile(r"\b[RYBG][1-4][rybg]?\b"),
    "planted": re.compile(r"\b[LWFG]{2,}\b|\+[LWF]\b"),
    "by-this": re.compile(r"\bfrom floor\b|\bsamenumber\b|\bbythis\b"),
}


def played(name: str, players: int, seed: int) -> Match:
    """A finished random game."""
    game = get_game(name)
    match = Match(game, players, seed, {}, ["random"] * players)
    rng = random.Random(seed)
    while not match.is_over:
        seat = match.next_mover()
        match.act(seat, rng.choice(match.legal(seat)))
    return match


def narration_of(match: Match) -> Narration:
    return Narration(match.game, match.players, match.seed, match.options, package_of(match.game).narrate)


@pytest.mark.parametrize("name", ["flowers", "pressed", "planted", "by-this"])
def test_every_move_reads_as_sentences_with_names_and_no_engine_codes(name):
    game = get_game(name)
    for players in (game.min_players if game.min_players > 1 else 2, game.max_players):
        match = played(name, players, seed=players)
        told = narration_of(match).catch_up(match.moves)
        assert len(told) == len(match.moves)
        names = NAMES[:players]
        for entry in told:
            for audience in (entry.public, entry.own):
                assert audience, "every move says something"
                for line in audience:
                    text = sentence(line, names)
                    assert "{P" not in text and "seat 0" not in text
                    assert not CODES[name].search(text), text
        last = told[-1].public[-1]
        assert last.kind == "end" and last.text.startswith("Game over: ")
        assert all(n in sentence(last, names) for n in names)


def test_pressed_planting_names_the_flower_column_and_points():
    match = played("pressed", 3, seed=5)
    first = narration_of(match).catch_up(match.moves)[0].public[0]
    assert re.fullmatch(r"planted [A-Z][a-z' ]+ in column \d \(row \d+\)(, (copying|choosing) [A-Za-z' ]+,?)* "
                        r"for \d+ points?", first.text), first.text
    assert first.seat == match.moves[0].seat


def test_pressed_press_is_secret_until_the_end_and_rounds_are_summed_up():
    match = played("pressed", 3, seed=5)
    told = narration_of(match).catch_up(match.moves)
    presses = [entry for entry, move in zip(told, match.moves) if move.action.startswith("press ")]
    assert presses
    for entry in presses:
        assert re.fullmatch(r"pressed \d cards", entry.public[0].text)
        assert entry.own[0].text.startswith("pressed ") and "cards" not in entry.own[0].text
        assert entry.for_reader(entry.seat) is entry.own and entry.for_reader(None) is entry.public
        assert entry.for_reader(None, reveal=True) is entry.own
    rounds = [line.text for entry in told for line in entry.public if line.kind == "round"]
    assert [text.split(" ends")[0] for text in rounds] == ["Round 1", "Round 2"]


def test_planted_tells_everyone_the_revealed_cards_but_a_choice_only_to_its_chooser():
    match = played("planted", 3, seed=2)
    told = narration_of(match).catch_up(match.moves)
    choices = [entry for entry, move in zip(told, match.moves) if move.action.split()[0] in ("play", "nursery")]
    for entry in choices:
        assert entry.public[0].text == "chose a card"
        assert entry.own[0].text.startswith("chose ") and entry.own[0].text != "chose a card"
    reveals = [line for entry in told for line in entry.public if line.kind == "reveal"]
    assert reveals and all(line.text.startswith("Revealed: {P1} ") for line in reveals)


def test_by_this_close_says_the_points_and_the_count_of_closes():
    match = played("by-this", 3, seed=5)
    told = narration_of(match).catch_up(match.moves)
    closes = [entry.public[0].text for entry, move in zip(told, match.moves) if move.action == "close"]
    assert closes and all(re.fullmatch(r"closed the shelf of \d+ things? for \d+ points? \(close \d+ of \d+\)", c)
                          for c in closes)


def test_flowers_placing_says_the_card_the_cell_and_the_new_score():
    match = played("flowers", 2, seed=1)
    told = narration_of(match).catch_up(match.moves)
    draw, place = told[0].own[0].text, told[1].public[0].text
    assert re.fullmatch(r"drew a (red|yellow|blue|green) [1-4]( with a \w+ butterfly)? from stack [1-3]", draw)
    assert re.fullmatch(r"placed the (red|yellow|blue|green) [1-4].* at -?\d+,-?\d+(, covering .*)?: -?\d+ points? "
                        r"\([+-]\d+\)", place)


def test_everyone_is_told_only_from_the_spectators_views_and_the_public_text():
    """Default-deny by construction: the public lines get nothing but the spectator's views."""
    calls = []

    def spy(game, before, seat, action, after):
        calls.append((before, action, after))
        return [Line(action, seat)]

    match = played("pressed", 2, seed=3)
    narration = Narration(match.game, 2, match.seed, match.options, spy)
    narration.catch_up(match.moves[:1])
    state = match.game.new(2, match.seed, match.options)
    move = match.moves[0]
    before = match.game.view(state, None)
    match.game.apply_legal(state, move.seat, move.action)
    public_call, own_call = calls
    assert public_call == (before, move.public, match.game.view(state, None))
    assert own_call[1] == move.action and own_call[0] == match.game.view(
        match.game.new(2, match.seed, match.options), move.seat)


def test_an_undo_starts_the_narration_over():
    match = played("by-this", 2, seed=1)
    narration = narration_of(match)
    narration.catch_up(match.moves[:10])
    shorter = match.moves[:4]
    assert len(narration.catch_up(shorter)) == 4
    assert len(narration.catch_up(match.moves)) == len(match.moves)


def test_helpers_fill_names_and_read_as_prose():
    assert fill("passed to {P2}", ["Ana", "Bo"]) == "passed to Bo"
    assert fill("{P9}", ["Ana"]) == "P9"
    assert sentence(Line("passed", 0), ["Ana"]) == "Ana passed"
    assert sentence(Line("Round 1 ends", None, "round"), ["Ana"]) == "Round 1 ends"
    assert standings([3, 5], [1]) == "{P1} 3 · {P2} 5 ★"
    assert listing(["a"]) == "a" and listing(["a", "b", "c"]) == "a, b and c"
    assert plain_narrate(get_game("flowers"), {}, 1, "draw 2", {}) == [Line("draw 2", 1)]


def test_the_web_log_reads_in_words_with_the_players_names(tmp_path):
    import warnings

    warnings.filterwarnings("ignore", message="Using `httpx`")
    from fastapi.testclient import TestClient

    from tablepress.web.app import create_app

    with TestClient(create_app(tmp_path / "games.db", ai_delay=0.0)) as client:
        reply = client.post("/api/games", json={"game": "pressed", "seats": ["human", "human"], "seed": 7,
                                                "names": ["Ana", "Bo"]})
        assert reply.status_code == 201, reply.text
        game_id, tokens = reply.json()["id"], reply.json()["tokens"]
        view = client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {tokens['0']}"}).json()
        seat = view["to_move"][0]
        token = tokens[str(seat)]
        action = view["legal_actions"][0] if seat == 0 else None
        if action is None:
            view = client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json()
            action = view["legal_actions"][0]
        after = client.post(f"/api/games/{game_id}/actions", json={"action": action},
                            headers={"Authorization": f"Bearer {token}"}).json()
        entry = after["log"][-1]
        assert entry["text"] == action
        (line,) = entry["lines"]
        assert line["kind"] == "move" and line["seat"] == seat
        assert re.fullmatch(rf"{after['names'][seat]} planted [A-Z][a-z' ]+ in column \d \(row \d+\).* for \d+ points?",
                            line["text"]), line["text"]


#: Random games whose top score is tied and whose tiebreak picks one winner (game, players, seed).
TIEBREAKS = [("by-this", 2, 150), ("planted", 2, 16), ("flowers", 2, 242)]


@pytest.mark.parametrize("name,players,seed", TIEBREAKS)
def test_game_over_stars_only_the_winners_the_tiebreak_picked(name, players, seed):
    match = played(name, players, seed)
    scores, winners = match.game.scores(match.state), match.game.winners(match.state)
    tied = [seat for seat, score in enumerate(scores) if score == max(scores)]
    assert len(tied) > len(winners) == 1, f"seed {seed} no longer ends in a tie the tiebreak decides; pick another"
    last = narration_of(match).catch_up(match.moves)[-1]
    for audience in (last.public, last.own):
        end = audience[-1]
        assert end.kind == "end" and end.text == "Game over: " + standings(scores, winners)
        assert end.text.count("★") == 1
