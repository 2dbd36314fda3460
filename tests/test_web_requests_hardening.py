"""The web server's request side under hostile input: every bad request is one clear 4xx `{"detail": LINE}`
that changes nothing, and hypothesis finds no body, query or header that gives a 500."""

from __future__ import annotations

import json
import re
import socket
import tomllib
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

warnings.filterwarnings("ignore", message="Using `httpx`")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from tablepress.agents.base import HUMAN, make_agent  # noqa: E402
from tablepress.core.registry import game_names  # noqa: E402
from tablepress.web.app import MAX_HEAD, create_app  # noqa: E402
from tablepress.web.errors import MAX_DETAIL  # noqa: E402
from tablepress.web.requests import MAX_DIGITS, MAX_VARIANT_TOTAL, BadRequest, check_variant  # noqa: E402

from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from web_helpers import Server, auth, play_out  # noqa: E402

HUGE = "1" * 5000
FUZZ = settings(max_examples=150, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture
def served(tmp_path):
    """An app whose AI seats never get to move (so fuzzed AI seats cost nothing), and its client."""
    app = create_app(tmp_path / "games.db", ai_delay=3600.0)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield app, client


@pytest.fixture
def client(served):
    """The module's test client."""
    return served[1]


@pytest.fixture
def game(served):
    """A fresh two-human Flowers game: (app, client, id, tokens)."""
    app, client = served
    reply = client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 3})
    assert reply.status_code == 201, reply.text
    return app, client, reply.json()["id"], reply.json()["tokens"]


def one_line(reply: Any, status: int | tuple[int, ...]) -> str:
    """The reply's detail, after checking its status and that it is `{"detail": one line}`."""
    statuses = status if isinstance(status, tuple) else (status,)
    assert reply.status_code in statuses, reply.text
    body = reply.json()
    assert set(body) == {"detail"} and isinstance(body["detail"], str)
    assert body["detail"] and "\n" not in body["detail"] and "Traceback" not in body["detail"]
    assert len(body["detail"]) <= MAX_DETAIL
    return body["detail"]


def game_count(client: TestClient) -> int:
    return client.get("/healthz").json()["games"]


def post(client: TestClient, path: str, raw: str | bytes, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **(auth(token) if token else {})}
    return client.post(path, content=raw.encode() if isinstance(raw, str) else raw, headers=headers)


# ----- numbers Python cannot read, and nesting -----------------------------------------------------
@pytest.mark.parametrize("raw, field", [
    ('{"game": "flowers", "seats": ["human", "human"], "seed": %s}' % HUGE, "seed"),
    ('{"game": "flowers", "seats": ["human", "human"], "options": {"summer": %s}}' % HUGE, "options.summer"),
    ('{"game": "flowers", "seats": ["human", %s]}' % HUGE, "seats[1]"),
    ('{"game": "flowers", "seats": ["human", "human"], "variant": {"copies": {"4": -%s}}}' % HUGE, "variant.copies.4"),
    ('{"game": "flowers", "seats": ["human", "human"], "seed": NaN}', "seed"),
    ('{"game": "flowers", "seats": ["human", "human"], "seed": -Infinity}', "seed"),
    ('{"game": "flowers", "seats": ["human", "human"], "options": {"summer": 1e999}}', "options.summer"),
])
def test_numbers_python_cannot_read_are_a_422_naming_the_field(client, raw, field):
    before = game_count(client)
    detail = one_line(post(client, "/api/games", raw), 422)
    assert detail.startswith(f"{field}: ")
    assert game_count(client) == before


@pytest.mark.parametrize("path, raw, field", [
    ("actions", '{"action": %s}' % HUGE, "action"),
    ("actions", '{"action": NaN}', "action"),
    ("bot", '{"agent": %s}' % HUGE, "agent"),
    ("bot", '{"agent": Infinity}', "agent"),
])
def test_unreadable_numbers_in_actions_and_take_overs_change_nothing(game, path, raw, field):
    app, client, gid, tokens = game
    before = client.get(f"/api/games/{gid}", headers=auth(tokens["0"])).json()
    detail = one_line(post(client, f"/api/games/{gid}/{path}", raw, tokens["0"]), 422)
    assert detail.startswith(f"{field}: ")
    assert client.get(f"/api/games/{gid}", headers=auth(tokens["0"])).json() == before
    assert app.state.hub.rooms[gid].match.seats == ["human", "human"]


def test_a_number_at_the_digit_limit_is_read(client):
    reply = post(client, "/api/games", '{"game": "flowers", "seats": ["human"], "seed": %s}' % ("9" * MAX_DIGITS))
    assert "digits" not in one_line(reply, 422) and "seed" in reply.json()["detail"]


def test_reasons_repeating_long_or_multi_line_input_stay_one_short_line(client):
    before = game_count(client)
    one_line(client.post("/api/games", json={"game": "flowers", "seats": ["human"], "options": {"x" * 5000: 1}}), 422)
    detail = one_line(client.post("/api/games", json={"game": "flowers", "seats": ["human"],
                                                      "options": {"a\nb": {"c": 1}}}), 422)
    assert detail.startswith("options.a\\nb: ")
    assert game_count(client) == before


def test_deep_nesting_is_refused(client):
    before = game_count(client)
    raw = '{"game": "flowers", "seats": ["human"], "options": {"x": %s}}' % ("[" * 200 + "]" * 200)
    assert "nested" in one_line(post(client, "/api/games", raw), 422)
    assert game_count(client) == before


# ----- seat specs the agents cannot build, and budget caps -----------------------------------------
@pytest.mark.parametrize("spec, fragment", [
    ("greedy:3s", "not a time"),
    ("random:99", "takes no budget"),
    ("human:2", "takes no budget"),
    ("ismcts:\uff15", "positive whole number"),
    ("\uff49smcts:5", "unknown seat"),
    ("ismcts: 2s", "positive whole number"),
    ("ismcts:1e3s", "positive whole number"),
    ("ismcts:4999s", "limit of 10s"),
    ("ismcts:5001", "limit of 5000"),
    ("greedy:" + "9" * 400, "limit of 5000"),
])
def test_seats_the_agents_cannot_build_or_over_budget_are_refused(client, spec, fragment):
    before = game_count(client)
    detail = one_line(client.post("/api/games", json={"game": "flowers", "seats": ["human", spec]}), 422)
    assert detail.startswith("seats[1]: ") and fragment in detail and len(detail) < 200
    assert game_count(client) == before


@pytest.mark.parametrize("spec", ["greedy:3s", "random:99", "ismcts:\uff15", "ismcts:4999s", "ismcts:5001", "human"])
def test_a_take_over_by_an_agent_that_cannot_be_built_changes_nothing(game, spec):
    app, client, gid, tokens = game
    detail = one_line(client.post(f"/api/games/{gid}/bot", json={"agent": spec}, headers=auth(tokens["1"])), 422)
    assert detail.startswith("agent: ")
    assert app.state.hub.rooms[gid].match.seats == ["human", "human"]
    assert client.get(f"/api/games/{gid}", headers=auth(tokens["1"])).status_code == 200


def test_budgets_within_the_caps_are_taken(client):
    reply = client.post("/api/games", json={"game": "flowers", "seats": ["ismcts:10s", "ismcts:5000", "greedy:8"]})
    assert reply.status_code == 201, reply.text


# ----- variants -------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant, fragment", [
    ({"copies": {"4": 1000000}}, "variant: its numbers add up to 1e+06, over this server's limit"),
    ({"copies": {"1": 3000, "2": 3000, "3": 3000, "4": 3000}}, "limit of 10000"),
    ("[copies]\n4 = " + HUGE + "\n", "variant: a number has more than"),
    ("a = " + "[" * 3000 + "]" * 3000 + "\n", "nested"),
    ("[copies]\n4 = nan\n", "variant.copies.4: nan is not a finite number"),
    ("when = 1979-05-27\n", "variant.when: must be text, a number"),
    ({"copies": {"4": json.loads("[" * 40 + "1" + "]" * 40)}}, "nested"),
])
def test_oversized_or_unreadable_variants_are_refused_before_anything_is_built(client, variant, fragment):
    before = game_count(client)
    detail = one_line(client.post("/api/games", json={"game": "flowers", "seats": ["human"], "variant": variant}), 422)
    assert fragment in detail
    assert game_count(client) == before


@pytest.mark.parametrize("name", ["flowers", "pressed", "by_this", "planted"])
def test_each_games_whole_published_card_data_fits_the_variant_limit(name):
    data = tomllib.loads((Path(__file__).parents[1] / "tablepress" / "games" / name / "cards.toml").read_text())
    check_variant(data)
    with pytest.raises(BadRequest, match="limit"):
        check_variant({**data, "extra": MAX_VARIANT_TOTAL})


# ----- WebSockets -----------------------------------------------------------------------------------
def closed_with(client: TestClient, path: str) -> int:
    """The close code a WebSocket to `path` gets (after it was accepted)."""
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect(path) as ws:
            ws.receive_json()
    return closed.value.code


def test_websocket_refusals_carry_their_codes(game):
    _app, client, gid, _tokens = game
    assert closed_with(client, "/ws/games/nothing") == 4404
    assert closed_with(client, f"/ws/games/{gid}?token=wrong") == 4403


def test_the_server_wide_websocket_cap_refuses_with_1013_and_frees_on_close(tmp_path):
    app = create_app(tmp_path / "games.db", ai_delay=3600.0, max_sockets=2)
    with TestClient(app) as client:
        reply = client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"]})
        gid, tokens = reply.json()["id"], reply.json()["tokens"]
        with client.websocket_connect(f"/ws/games/{gid}") as first, \
                client.websocket_connect(f"/ws/games/{gid}?token={tokens['0']}") as second:
            assert first.receive_json()["seat"] is None and second.receive_json()["seat"] == 0
            assert closed_with(client, f"/ws/games/{gid}") == 1013
            assert len(app.state.sockets) == 2
        with client.websocket_connect(f"/ws/games/{gid}") as again:
            assert again.receive_json()["version"] == 0


# ----- request heads over MAX_HEAD ------------------------------------------------------------------
def test_long_request_lines_and_headers_are_414_and_431(client):
    assert "request line" in one_line(client.get("/api/catalog?x=" + "a" * MAX_HEAD), 414)
    assert "headers" in one_line(client.get("/api/catalog", headers={"X-Big": "b" * MAX_HEAD}), 431)
    assert client.get("/api/catalog?x=" + "a" * (MAX_HEAD // 2)).status_code == 200


def ws_close_code(url: str) -> int:
    """The close code a real client reads from a WebSocket to `url` (it must be accepted first)."""
    with connect(url, open_timeout=10) as ws, pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


def test_the_real_server_answers_oversized_heads_sent_in_pieces_and_refused_websockets(tmp_path):
    """Through uvicorn: a head that arrives a packet at a time still gets its one-line JSON answer, and a
    refused WebSocket is closed with its code (not answered 403 before the upgrade)."""
    server = Server(tmp_path / "games.db")
    try:
        reply = server.client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"]})
        ws_base = f"ws://127.0.0.1:{server.port}/ws/games"
        assert ws_close_code(f"{ws_base}/nothing") == 4404
        assert ws_close_code(f"{ws_base}/{reply.json()['id']}?token=wrong") == 4403
        for head, status in ((b"GET /" + b"a" * 3 * MAX_HEAD, 414),
                             (b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 3 * MAX_HEAD, 431)):
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
                for start in range(0, len(head), 1024):
                    try:
                        sock.sendall(head[start:start + 1024])
                    except OSError:
                        break
                answer = b""
                while chunk := sock.recv(4096):
                    answer += chunk
            first, _, body = answer.partition(b"\r\n\r\n")
            assert first.startswith(f"HTTP/1.1 {status} ".encode()), answer[:200]
            assert "8192 bytes" in json.loads(body)["detail"]
        assert server.client.get("/healthz").status_code == 200
    finally:
        server.stop()


# ----- fuzzing: never a 500 -------------------------------------------------------------------------
#: A leaf standing for a number token written into the JSON text as is (see `as_json`).
RAW = "@@raw:{}@@"


def as_json(value: Any) -> bytes:
    """`value` as JSON text, with each RAW leaf replaced by its bare token (huge numbers, NaN, Infinity)."""
    return re.sub(r'"@@raw:([^"@]*)@@"', r"\1", json.dumps(value)).encode()


#: Number tokens Python may fail to read: NaN, Infinity, overflowing floats, whole numbers of up to 6,000 digits.
RAW_NUMBERS = (st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-0", "9" * MAX_DIGITS, "1" * (MAX_DIGITS + 1),
                                "4" * 4301, "-" + "5" * 6000])
               | st.integers(1, 6000).map(lambda n: "7" * n)).map(RAW.format)


def json_values() -> st.SearchStrategy[Any]:
    """Any JSON value, with numbers of every size (raw tokens too) and text near the API's words."""
    words = st.sampled_from(["human", "random", "greedy", "ismcts", "ismcts:5", "greedy:3s", "random:9", "draw 1",
                             "flowers", "pressed", "by-this", "planted", "summer", "copies", "\x00", "\uff15", ""])
    leaves = (st.none() | st.booleans() | st.integers(-(10**40), 10**40) | st.floats(allow_nan=False, allow_infinity=False)
              | st.text(max_size=30) | words | RAW_NUMBERS)
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10) | words,
                                                                                            inner, max_size=5),
                        max_leaves=25)


def create_bodies() -> st.SearchStrategy[Any]:
    """Create bodies near valid ones: known games, spec-like seats, options, seeds, names and variants."""
    games = st.sampled_from([*game_names(), "chess", "", " flowers "]) | st.text(max_size=12)
    specs = st.sampled_from(["human", "random", "greedy", "greedy:2", "ismcts:3", "ismcts:1s", "ismcts:0",
                             "greedy:3s", "random:99", "HUMAN", "ismcts:\uff15", "wizard"]) | st.text(max_size=12)
    seats = st.lists(specs, max_size=6) | json_values()
    options = st.dictionaries(st.sampled_from(["summer", "electives", "young", "x"]) | st.text(max_size=8),
                              json_values(), max_size=3) | json_values()
    variant = (st.dictionaries(st.sampled_from(["copies", "scoring", "stacks", "game"]), json_values(), max_size=3)
               | st.text(max_size=60) | json_values())
    fields = st.fixed_dictionaries({"game": games, "seats": seats},
                                   optional={"options": options, "seed": json_values(), "names": json_values(),
                                             "variant": variant})
    return fields | json_values()


def raw_bodies(values: st.SearchStrategy[Any]) -> st.SearchStrategy[bytes]:
    """Bodies as JSON text of `values`, or bytes that are not JSON at all."""
    return values.map(as_json) | st.binary(max_size=80) | st.text(max_size=80).map(str.encode)


def assert_clean(reply: Any, ok: tuple[int, ...]) -> None:
    """A valid answer (a status in `ok`) or a 4xx `{"detail": one line}`; never a 500."""
    if reply.status_code in ok:
        return
    assert 400 <= reply.status_code < 500, (reply.status_code, reply.text[:300])
    one_line(reply, reply.status_code)


@FUZZ
@given(body=raw_bodies(create_bodies()))
def test_fuzzed_create_bodies_are_a_game_or_a_clean_refusal(served, body):
    app, client = served
    before = game_count(client)
    reply = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert_clean(reply, (201,))
    assert game_count(client) == before + (reply.status_code == 201)
    if reply.status_code == 201:
        for spec in app.state.hub.rooms[reply.json()["id"]].match.seats:
            assert spec == HUMAN or make_agent(spec, 0).spec == spec


@FUZZ
@given(body=raw_bodies(st.fixed_dictionaries({"action": RAW_NUMBERS | json_values()
                                              | st.sampled_from(["draw 1", "draw 2", "DRAW 1", "place Y4 0,1", "draw  1"])})
                       | json_values()),
       token=st.sampled_from(["0", "1", "none", "bad"]))
def test_fuzzed_actions_are_taken_or_refused_cleanly(game, body, token):
    app, client, gid, tokens = game
    headers = {"none": {}, "bad": auth("x")}.get(token, auth(tokens.get(token, "")))
    before = len(app.state.hub.rooms[gid].match.actions)
    reply = client.post(f"/api/games/{gid}/actions", content=body, headers={"Content-Type": "application/json", **headers})
    assert_clean(reply, (200,))
    assert len(app.state.hub.rooms[gid].match.actions) == before + (reply.status_code == 200)


@pytest.fixture
def seat_one(served):
    """A function giving a two-human game whose seat 1 is still human: the same one until a take-over succeeds
    (so that per-client quotas are not spent)."""
    app, client = served
    current: dict[str, Any] = {}

    def get() -> tuple[str, dict[str, str]]:
        if not current or app.state.hub.rooms[current["id"]].match.seats[1] != HUMAN:
            reply = client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 3})
            assert reply.status_code == 201, reply.text
            current.update(reply.json())
        return current["id"], current["tokens"]

    return get


@FUZZ
@given(body=raw_bodies(st.fixed_dictionaries({"agent": RAW_NUMBERS | json_values()
                                              | st.sampled_from(["random", "greedy:2", "ismcts:9s", "human", "ismcts:99999",
                                                                 "greedy:3s", "random:9", "ismcts:4999s"])})
                       | json_values()))
def test_fuzzed_take_overs_and_undos_are_done_or_refused_cleanly(served, seat_one, body):
    app, client = served
    gid, tokens = seat_one()
    assert_clean(post(client, f"/api/games/{gid}/undo", body, tokens["0"]), (200,))
    reply = post(client, f"/api/games/{gid}/bot", body, tokens["1"])
    assert_clean(reply, (200,))
    seat = app.state.hub.rooms[gid].match.seats[1]
    assert seat == HUMAN if reply.status_code != 200 else make_agent(seat, 0).spec == seat


@pytest.fixture
def finished(served):
    """A finished two-human By This game: its id and tokens."""
    _app, client = served
    reply = client.post("/api/games", json={"game": "by-this", "seats": ["human", "human"], "seed": 4})
    gid, tokens = reply.json()["id"], reply.json()["tokens"]
    assert play_out(client, gid, tokens)["status"] == "over"
    return gid, tokens


@FUZZ
@given(step=st.integers() | st.text(max_size=20) | st.just(HUGE),
       header=st.none() | st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40),
       query=st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40))
def test_fuzzed_replay_steps_catalog_queries_and_tokens_answer_cleanly(client, finished, step, header, query):
    gid, _tokens = finished
    headers = {} if header is None else {"Authorization": header}
    reply = client.get(f"/api/games/{gid}/replay", params={"step": str(step)}, headers=headers)
    assert_clean(reply, (200,))
    if reply.status_code == 200:
        assert 0 <= reply.json()["step"] <= reply.json()["steps"]
    assert_clean(client.get("/api/catalog", params={"q": query}, headers=headers), (200,))
    assert_clean(client.get(f"/api/games/{gid}", headers=headers), (200,))
