"""Every kind of page the site serves, made ready on a test server: for the phone and accessibility tests."""

from __future__ import annotations

import random
import re
from typing import Any

from web_helpers import Server, auth

GAMES = ("flowers", "pressed", "planted", "by-this")
#: Random steps before a table is looked at (Flowers: placed to widen an area, see `widening`).
STEPS = {"flowers": 24, "pressed": 5, "planted": 9, "by-this": 8}
PLACE = re.compile(r"^place \S+ (-?\d+),(-?\d+)$")


def widening(actions: list[str], rng: random.Random) -> str:
    """A Flowers placement as far right as it goes (so an area grows 5+ cards wide); any action otherwise."""
    places = [(int(m.group(1)), action) for action in actions if (m := PLACE.match(action))]
    return max(places)[1] if places else rng.choice(actions)


def table_in_play(server: Server, game: str, seed: int = 4) -> tuple[str, dict[str, str], int]:
    """A two-human game moved STEPS[game] steps: (its id, the seats' tokens, the seat to move)."""
    reply = server.client.post("/api/games", json={"game": game, "seats": ["human", "human"], "seed": seed,
                                                    "names": ["Ana", "Bo"]})
    assert reply.status_code == 201, reply.text
    gid, tokens = reply.json()["id"], reply.json()["tokens"]
    rng = random.Random(seed)
    for _ in range(STEPS[game]):
        seat = server.client.get(f"/api/games/{gid}").json()["to_move"][0]
        view = server.client.get(f"/api/games/{gid}", headers=auth(tokens[str(seat)])).json()
        server.client.post(f"/api/games/{gid}/actions", json={"action": widening(view["legal_actions"], rng)},
                           headers=auth(tokens[str(seat)]))
    seat = server.client.get(f"/api/games/{gid}").json()["to_move"][0]
    return gid, tokens, seat


def table_url(server: Server, game: str) -> str:
    """The address of a seat's table in a game in play."""
    gid, tokens, seat = table_in_play(server, game)
    return f"/play/{gid}#seat={seat}&token={tokens[str(seat)]}"


def guided_url(server: Server, game: str) -> str:
    """The newcomer's table of a guided first game, its guide panel shown."""
    reply = server.client.post(f"/api/guides/{game}")
    assert reply.status_code == 201, reply.text
    gid, tokens = reply.json()["id"], reply.json()["tokens"]
    seat = next(iter(tokens))
    return f"/play/{gid}#seat={seat}&token={tokens[seat]}&guide=1"


def simulation_url(server: Server) -> str:
    """A small simulation's page (its progress, or its report once done)."""
    reply = server.client.post("/api/simulations", json={"game": "by-this", "games": 2, "seats": ["random"]})
    assert reply.status_code == 202, reply.text
    return f"/simulations/{reply.json()['id']}"


def every_page(server: Server) -> dict[str, str]:
    """Each page type by a name for the test ids: home, each game's page, rules, intro and print panel,
    Make, a table in play for each game, a simulation, a leaderboard, error pages."""
    pages: dict[str, Any] = {"home": "/"}
    for game in GAMES:
        pages |= {f"game-{game}": f"/games/{game}", f"rules-{game}": f"/games/{game}/rules",
                  f"intro-{game}": f"/games/{game}/intro", f"print-{game}": f"/games/{game}#print",
                  f"make-{game}": f"/make/{game}", f"table-{game}": table_url(server, game)}
    pages |= {"ratings": "/games/pressed/ratings"}
    pages |= {"guided-table": guided_url(server, "planted")}
    pages |= {"simulation": simulation_url(server), "error-game": "/games/no-such-game",
              "error-page": "/no/such/page", "error-simulation": "/simulations/no-such-job"}
    return pages
