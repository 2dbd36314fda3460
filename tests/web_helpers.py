"""Helpers shared by the web tests: a test client over a fresh database, playing through the API."""

from __future__ import annotations

import random
import time
from typing import Any


def auth(token: str) -> dict[str, str]:
    """The Authorization header for a seat token."""
    return {"Authorization": f"Bearer {token}"}


def wait_for(client: Any, game_id: str, token: str | None, predicate, timeout: float = 20.0) -> dict[str, Any]:
    """Poll the seat's view until `predicate(view)` holds, or fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    headers = auth(token) if token else {}
    while True:
        view = client.get(f"/api/games/{game_id}", headers=headers).json()
        if predicate(view):
            return view
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting; last view status={view.get('status')} to_move={view.get('to_move')}")
        time.sleep(0.01)


def play_out(client: Any, game_id: str, tokens: dict[str, str], seed: int = 0, max_actions: int = 5000,
             stop_after: int | None = None) -> dict[str, Any]:
    """Play every human seat with random legal actions over the API until the game ends (or `stop_after` actions)."""
    rng = random.Random(seed)
    done = 0
    view: dict[str, Any] = {}
    for _ in range(max_actions * 20):
        any_view = client.get(f"/api/games/{game_id}").json()
        if any_view["status"] == "over" or (stop_after is not None and done >= stop_after):
            return any_view
        moved = False
        for seat in any_view["to_move"]:
            token = tokens.get(str(seat))
            if token is None:
                continue
            view = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
            if not view["legal_actions"]:
                continue
            reply = client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                                json={"action": rng.choice(view["legal_actions"])})
            if reply.status_code == 200:
                done += 1
                moved = True
                break
        if not moved:
            time.sleep(0.005)
    raise AssertionError("the game did not end")
