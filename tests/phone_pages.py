"""Every kind of page the site serves, made ready on a test server: for the phone and accessibility tests."""

from __future__ import annotations

import random
import re
from typing import Any

from web_helpers import Server, auth, play_out

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


def by_this_call_url(server: Server) -> str:
    """A By This table where the seat to move may call "By This!" (a face-up key card is a control there)."""
    for seed in range(40):
        made = server.client.post("/api/games", json={"game": "by-this", "seats": ["human", "human"], "seed": seed,
                                                       "names": ["Ana", "Bo"]}).json()
        gid, tokens = made["id"], made["tokens"]
        rng = random.Random(seed)
        for _ in range(200):
            to_move = server.client.get(f"/api/games/{gid}").json()["to_move"]
            if not to_move:
                break
            token = tokens[str(to_move[0])]
            legal = server.client.get(f"/api/games/{gid}", headers=auth(token)).json()["legal_actions"]
            if any(action.startswith("bythis ") for action in legal):
                return f"/play/{gid}#seat={to_move[0]}&token={token}"
            server.client.post(f"/api/games/{gid}/actions", json={"action": rng.choice(legal)}, headers=auth(token))
    raise AssertionError("no By This call came up in 40 games")


def guided_url(server: Server, game: str) -> str:
    """The newcomer's table of a guided first game, its guide panel shown."""
    reply = server.client.post(f"/api/guides/{game}")
    assert reply.status_code == 201, reply.text
    gid, tokens = reply.json()["id"], reply.json()["tokens"]
    seat = next(iter(tokens))
    return f"/play/{gid}#seat={seat}&token={tokens[seat]}&guide=1"


def player(server: Server, name: str) -> dict[str, str]:
    """A new player made over the API: {"id", "name", "token"} (the client's cookies forgotten after)."""
    reply = server.client.post("/api/players", json={"name": name})
    assert reply.status_code == 201, reply.text
    server.client.cookies.clear()
    return reply.json()


def lobby_game(server: Server, host: dict[str, str], guest: dict[str, str], game: str = "pressed") -> str:
    """A rated two-player lobby game of `host` and `guest` with a 10-minute clock and a few chat lines (one an
    emote): its id."""
    table = server.client.post("/api/tables", json={"game": game, "players": 2, "clock": 600},
                               headers=auth(host["token"])).json()
    gid = server.client.post(f"/api/tables/{table['id']}/join", headers=auth(guest["token"])).json()["game_id"]
    for n, who in enumerate((host, guest, host)):
        server.client.post(f"/api/games/{gid}/chat", headers=auth(who["token"]),
                           json={"text": f"a chat line long enough to wrap on a phone, number {n}"})
    server.client.post(f"/api/games/{gid}/chat", headers=auth(guest["token"]), json={"emote": "gg"})
    return gid


def variant_pages(server: Server) -> dict[str, str]:
    """A saved variant's intro and a table playing it."""
    made = server.client.post("/api/variants", json={"game": "by-this", "name": "Big rice for the whole table",
                                                     "toml": "[things]\nRice = [8, 2, 1, 7]\n"})
    assert made.status_code == 201, made.text
    vid = made.json()["id"]
    game = server.client.post("/api/games", json={"game": "by-this", "seats": ["human", "human"], "variant": vid,
                                                   "names": ["Ana", "Bo"]}).json()
    return {"intro-variant": f"/games/by-this/intro?variant={vid}",
            "table-variant": f"/play/{game['id']}#seat=0&token={game['tokens']['0']}"}


def signed_in_pages(server: Server) -> dict[str, tuple[str, str]]:
    """Pages as a signed-in player sees them, each (address, the player's token for its cookie): the home page
    with the player's games (one waiting on the player, one finished) and open tables (the player's own and
    another's with AI levels), and the player's lobby game with its clock, chat and rated mark."""
    ana, bo = player(server, "Ana Verylongname"), player(server, "Bo")
    gid = lobby_game(server, ana, bo)
    while 0 not in server.client.get(f"/api/games/{gid}").json()["to_move"]:
        view = server.client.get(f"/api/games/{gid}", headers=auth(bo["token"])).json()
        server.client.post(f"/api/games/{gid}/actions", json={"action": view["legal_actions"][0]},
                           headers=auth(bo["token"]))
    done = lobby_game(server, ana, bo, game="by-this")
    play_out(server.client, done, {"0": ana["token"], "1": bo["token"]}, seed=3)
    server.client.post("/api/tables", json={"game": "flowers", "players": 3, "clock": 86400}, headers=auth(ana["token"]))
    server.client.post("/api/tables", json={"game": "planted", "players": 4,
                                            "ai": {"2": "level:beginner", "3": "level:strong"}},
                       headers=auth(bo["token"]))
    return {"home-signed-in": ("/", ana["token"]), "table-signed-in": (f"/play/{gid}", ana["token"]),
            "table-finished-rated": (f"/play/{done}", ana["token"])}


def simulation_url(server: Server) -> str:
    """A small simulation's page (its progress, or its report once done)."""
    reply = server.client.post("/api/simulations", json={"game": "by-this", "games": 2, "seats": ["random"]})
    assert reply.status_code == 202, reply.text
    return f"/simulations/{reply.json()['id']}"


def every_page(server: Server) -> dict[str, str | tuple[str, str]]:
    """Each page type by a name for the test ids: home, each game's page, rules, intro and print panel,
    Make, a table in play for each game, a simulation, a leaderboard, error pages, a saved variant's intro
    and table, a By This table whose key cards may be called, a lobby game watched (its chat and clock);
    and as a signed-in player sees them (address, the player's token for its cookie), the home page with the
    player's games and the player's tables."""
    pages: dict[str, Any] = {"home": "/"}
    for game in GAMES:
        pages |= {f"game-{game}": f"/games/{game}", f"rules-{game}": f"/games/{game}/rules",
                  f"intro-{game}": f"/games/{game}/intro", f"print-{game}": f"/games/{game}#print",
                  f"make-{game}": f"/make/{game}", f"table-{game}": table_url(server, game)}
    pages |= {"ratings": "/games/pressed/ratings", "table-by-this-call": by_this_call_url(server)}
    pages |= {"guided-table": guided_url(server, "planted")}
    pages |= {"simulation": simulation_url(server), "error-game": "/games/no-such-game",
              "error-page": "/no/such/page", "error-simulation": "/simulations/no-such-job"}
    pages |= variant_pages(server)
    pages |= {"table-watched": f"/play/{lobby_game(server, player(server, 'Cy'), player(server, 'Di'))}"}
    pages |= signed_in_pages(server)
    return pages
