"""Variant checks (`POST /api/variants?dry_run=1`) are quota'd per client and run in a pool of their own, so a
burst of them never holds up an AI seat's decision."""

from __future__ import annotations

import asyncio
import time
import warnings

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")

from fastapi.testclient import TestClient  # noqa: E402

from tablepress.web import quotas  # noqa: E402
from tablepress.web.app import create_app  # noqa: E402
from tablepress.web.hub import Hub, QuotaExceeded  # noqa: E402
from tablepress.web.quotas import Gate, Rate, Slots  # noqa: E402
from tablepress.web.store import open_store  # noqa: E402

DRY_RUN = {"game": "flowers", "toml": "[scoring]\nregion_min = 4\n"}


def test_dry_runs_past_a_clients_rate_are_429_and_others_still_check(tmp_path, monkeypatch):
    monkeypatch.setattr(quotas, "CHECKS_A_MINUTE", 2)
    app = create_app(tmp_path / "games.db", ai_delay=0.0)
    with TestClient(app) as client:
        for _ in range(2):
            assert client.post("/api/variants?dry_run=1", json=DRY_RUN).status_code == 200
        stored = app.state.workshop.store.count_variants()
        reply = client.post("/api/variants?dry_run=1", json=DRY_RUN)
        assert reply.status_code == 429 and set(reply.json()) == {"detail"} and "variant checks" in reply.json()["detail"]
        reply = client.post("/api/variants", json={**DRY_RUN, "name": "Hot"})  # saving checks it too
        assert reply.status_code == 429
        assert app.state.workshop.store.count_variants() == stored
        assert app.state.variant_checks.slots.count() == 0  # a refused check holds nothing
    with TestClient(app, client=("10.0.0.2", 5000)) as other:
        assert other.post("/api/variants?dry_run=1", json=DRY_RUN).status_code == 200


def test_a_client_holds_at_most_its_share_of_running_checks():
    gate = Gate(Slots(3, 2, "variant checks"), Rate(100, 60, "variant checks"))
    with gate.entering("a"), gate.entering("a"):
        with pytest.raises(QuotaExceeded, match="you have 2 variant checks open"):
            with gate.entering("a"):
                pass
        with gate.entering("b"):
            with pytest.raises(QuotaExceeded, match="3 variant checks are open"):
                with gate.entering("c"):
                    pass
    assert gate.slots.count() == 0


async def first_ai_move(hub: Hub) -> float:
    """Seconds from creating a game whose AI seat (greedy, thought out in a worker) moves first to its move
    being stored."""
    started = time.perf_counter()
    room, _tokens = await hub.create("flowers", ["greedy", "human"], {}, 11)
    while not room.match.moves:
        await asyncio.sleep(0.005)
    return time.perf_counter() - started


def test_an_ai_seat_replies_while_dry_runs_saturate_their_pool(tmp_path, capsys):
    store = open_store(tmp_path / "games.db")
    hub = Hub(store, ai_delay=0.0)

    async def scenario() -> tuple[float, float, bool]:
        await asyncio.gather(hub.thinker.run(len, "warm", limit=60), hub.checker.run(len, "warm", limit=60))
        quiet = await first_ai_move(hub)
        load = [asyncio.create_task(hub.checker.run(time.sleep, 4, limit=30)) for _ in range(3 * hub.checker.workers)]
        await asyncio.sleep(0.2)  # the checks hold every worker of their pool, and more wait
        loaded = await first_ai_move(hub)
        still_checking = not all(task.done() for task in load)
        await asyncio.gather(*load)
        return quiet, loaded, still_checking

    try:
        quiet, loaded, still_checking = asyncio.run(scenario())
    finally:
        asyncio.run(hub.close())
        store.close()
    assert still_checking, "the AI seat moved only once the checks were done"
    with capsys.disabled():
        print(f"\nAI reply: {quiet:.3f} s alone, {loaded:.3f} s with the variant-check pool saturated")
