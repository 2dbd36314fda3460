"""The bar: a whole game over the HTTP API of a real `tablepress serve`, with leak, refusal and
SIGKILL-restart checks at every step, and its record replayed by `tablepress replay`."""

from __future__ import annotations

import json
import random

from web_helpers import Server, auth


def hand_names(view: dict) -> set[str]:
    """The things in a By This seat's hand."""
    return {card["card"] for card in view["private"].get("hand", [])}


def test_a_whole_by_this_game_over_http_with_leak_refusal_and_restart_checks(tmp_path, cli):
    db = tmp_path / "bar.db"
    server = Server(db, ai_delay=0.0)
    try:
        reply = server.client.post("/api/games", json={"game": "by-this", "seats": ["human", "human"], "seed": 21})
        assert reply.status_code == 201
        gid, tokens = reply.json()["id"], reply.json()["tokens"]
        rng = random.Random(5)
        steps = 0
        while True:
            views = {seat: server.client.get(f"/api/games/{gid}", headers=auth(token)).json()
                     for seat, token in tokens.items()}
            spectator = server.client.get(f"/api/games/{gid}").json()
            # public is the same for everyone; private only one's own; spectators see no private part
            assert views["0"]["public"] == views["1"]["public"] == spectator["public"]
            assert spectator["private"] == {} and spectator["legal_actions"] == []
            if spectator["status"] == "over":
                break
            assert not hand_names(views["0"]) & hand_names(views["1"])
            for seat in ("0", "1"):
                other = "1" if seat == "0" else "0"
                text = json.dumps(views[seat]["private"])
                assert not any(json.dumps(name) in text for name in hand_names(views[other]))
            mover = str(spectator["to_move"][0])
            waiting = "1" if mover == "0" else "0"
            # refusals change nothing
            action = rng.choice(views[mover]["legal_actions"])
            refused = server.client.post(f"/api/games/{gid}/actions", headers=auth(tokens[waiting]), json={"action": action})
            assert refused.status_code == 409 and refused.json()["detail"]
            assert server.client.post(f"/api/games/{gid}/actions", headers=auth("forged"),
                                      json={"action": action}).status_code == 403
            bad = server.client.post(f"/api/games/{gid}/actions", headers=auth(tokens[mover]), json={"action": "fly away"})
            assert bad.status_code == 409
            assert server.client.post(f"/api/games/{gid}/actions", headers=auth(tokens[mover]), content=b"{").status_code == 422
            assert server.client.get(f"/api/games/{gid}").json()["version"] == steps
            done = server.client.post(f"/api/games/{gid}/actions", headers=auth(tokens[mover]), json={"action": action})
            assert done.status_code == 200 and done.json()["version"] == steps + 1
            steps += 1
            if steps == 15:  # the server dies mid-game and comes back on the same file
                before = {s: server.client.get(f"/api/games/{gid}", headers=auth(t)).json() for s, t in tokens.items()}
                server.kill()
                server = Server(db, ai_delay=0.0)
                for seat, token in tokens.items():
                    after = server.client.get(f"/api/games/{gid}", headers=auth(token)).json()
                    assert {k: v for k, v in after.items() if k not in ("revision", "can_undo")} == \
                        {k: v for k, v in before[seat].items() if k not in ("revision", "can_undo")}
        assert steps > 15
        record = server.client.get(f"/api/games/{gid}/record").json()
        assert len(record["actions"]) == steps and record["scores"] == spectator["scores"]
    finally:
        server.stop()
    path = tmp_path / "by-this.json"
    path.write_text(json.dumps(record))
    result = cli("replay", str(path))
    assert result.exit_code == 0 and "Game over" in result.stdout
