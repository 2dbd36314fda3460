"""The Table Press site's routes (docs/reference.md, "The site") through FastAPI's TestClient: the catalogue,
game pages, rules, the shareable intro and its QR code, and print.pdf — the same bytes as
`tablepress print` with the same choices — with every error."""

from __future__ import annotations

import html
import re
import subprocess
import sys
import threading
import tomllib
import warnings
from pathlib import Path
from urllib.parse import quote

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")

from fastapi.testclient import TestClient  # noqa: E402

from tablepress.core.errors import TablepressError  # noqa: E402
from tablepress.core.registry import game_names, get_game, get_package  # noqa: E402
from tablepress.faces.catalog import card_faces  # noqa: E402
from tablepress.printing.intro import load_intro  # noqa: E402
from tablepress.web.app import create_app  # noqa: E402
from tablepress.web.catalog import rules_html  # noqa: E402
from tablepress.web.hub import QuotaExceeded  # noqa: E402
from tablepress.web.pages.content import face_url, rules_with_contents, scrolling_tables  # noqa: E402
from tablepress.web.pages.printer import Printer  # noqa: E402
from tablepress.web.pages.share import qr_svg  # noqa: E402

TABLEPRESS = Path(sys.executable).with_name("tablepress")
#: A fixed PDF creation date (reportlab honours SOURCE_DATE_EPOCH), so two renderings can be compared.
EPOCH = "1700000000"
#: The site's public address in these tests (`serve --public-url`): every link the site gives out starts with it.
PUBLIC = "https://games.example.org"
HEAVIER = "[things]\nAnt = [1, 1, 1, 9]\nMountain = [5, 10, 9, 10]\n"


class FakeVariants:
    """The variant store part B puts on `app.state.variants`: `get(id)` or KeyError."""

    def __init__(self, variants: dict[str, dict]):
        self.variants = variants

    def get(self, variant_id: str) -> dict:
        """The stored variant (KeyError if unknown)."""
        return self.variants[variant_id]


def stored(variant_id: str, game: str, name: str, toml: str) -> dict:
    """A variant as the store keeps it."""
    return {"id": variant_id, "game": game, "name": name, "toml": toml, "overrides": tomllib.loads(toml)}


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The web app over a fresh database, with two stored variants and a fixed PDF date."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    application = create_app(tmp_path / "games.db", ai_delay=0.0, public_url=PUBLIC)
    application.state.variants = FakeVariants({
        "v1": stored("v1", "by-this", "heavier", HEAVIER),
        "v2": stored("v2", "flowers", "bigger", "[scoring]\nregion_min = 4\n"),
    })
    return application


@pytest.fixture
def client(app):
    """A test client with the app's lifespan running."""
    with TestClient(app) as c:
        yield c


def cli_pdf(tmp_path: Path, game: str, *options: str) -> bytes:
    """The bytes `tablepress print GAME -o FILE OPTIONS` writes (same fixed creation date)."""
    out = tmp_path / f"cli-{game}.pdf"
    result = subprocess.run([str(TABLEPRESS), "print", game, "-o", str(out), *options], capture_output=True, text=True,
                            env={"SOURCE_DATE_EPOCH": EPOCH, "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return out.read_bytes()


def links(text: str) -> list[str]:
    """Every href and src in a page, unescaped."""
    return [html.unescape(m) for m in re.findall(r'(?:href|src)="([^"]+)"', text)]


# ----- the catalogue ----------------------------------------------------------------------------
def test_the_catalogue_has_a_card_per_game_with_its_facts_and_a_face(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    text = page.text
    for name in game_names():
        intro = load_intro(get_game(name))
        assert f'href="/games/{name}"' in text
        assert html.escape(intro.title) in text and html.escape(intro.tagline) in text
        assert html.escape(intro.facts) in text
    faces = [link for link in links(text) if link.startswith("/faces/")]
    assert len(faces) >= len(game_names())
    for face in faces:
        reply = client.get(face)
        assert reply.status_code == 200 and reply.headers["content-type"].startswith("image/svg+xml"), face
    # the games in progress and finished, below the catalogue
    assert 'id="games"' in text and 'id="tab-over"' in text and "/static/lobby.js" in text


def test_the_catalogue_states_each_thesis_in_one_line(client):
    text = client.get("/").text
    line = html.escape("This game is about the same things living in many true orders, felt as the click of a "
                       "drawer that is no longer the drawer, decided by whether you close the shelf now or spend "
                       "a rare key to file it a new way.")
    assert line in text and "File a thing that still fits" not in text


def test_play_again_from_a_table_goes_to_the_games_play_panel(client):
    reply = client.get("/?game=by-this&from=abc123", follow_redirects=False)
    assert reply.status_code == 303 and reply.headers["location"] == "/games/by-this?from=abc123#play"
    assert client.get("/?game=nothing").status_code == 200  # an unknown game: the catalogue


# ----- a game's page ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", game_names())
def test_a_game_page_shows_the_intro_cards_and_every_button(client, name):
    text = client.get(f"/games/{name}").text
    intro = load_intro(get_game(name))
    for section in intro.sections:
        assert f'id="{section.id}"' in text and html.escape(section.heading) in text
    assert html.escape(intro.thesis) in text
    hrefs = links(text)
    for wanted in (f"/games/{name}/rules", f"/games/{name}/intro", f"/make/{name}", "#play", "#simulate",
                   "#print", "#share", f"/games/{name}/qr.svg"):
        assert wanted in hrefs, wanted
    assert f'action="/games/{name}/print.pdf"' in text
    assert f'id="game" name="game" value="{name}"' in text and 'id="create"' in text  # the Play form
    assert 'id="simulate-form"' in text
    faces = {link for link in hrefs if link.startswith("/faces/")}
    assert len(faces) == len(card_faces(get_game(name)))  # the strip, and every card under "All cards"
    for face in list(faces)[:12]:
        assert client.get(face).status_code == 200, face


def test_the_intro_example_cards_are_pictures_of_real_cards(client):
    text = client.get("/games/by-this").text
    example = text[text.index('id="example"'):text.index('id="end"')]
    shown = [html.unescape(alt) for alt in re.findall(r'alt="([^"]*)"', example)]
    assert shown == ["Key Small → Large", "Ant", "Rice", "Sand", "Needle",
                     "Key A → Z", "Apple", "Ant", "Rice", "Sand"]


def test_a_game_whose_intro_does_not_load_shows_the_intro_made_from_its_rules(client, monkeypatch):
    from tablepress.core.errors import DataError
    from tablepress.web.pages import content

    def broken(game):
        raise DataError(f"{game.name}/intro.toml: the intro has no section with id 'box'")

    monkeypatch.setattr(content, "load_intro", broken)
    reply = client.get("/games/flowers")
    assert reply.status_code == 200 and "How to play" in reply.text and "Flowers" in reply.text


def test_the_share_panel_names_the_stable_intro_address(client):
    text = client.get("/games/pressed").text
    assert f'value="{PUBLIC}/games/pressed/intro"' in text


# ----- rules ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", game_names())
def test_the_rules_page_has_every_rule_and_a_working_table_of_contents(client, name):
    text = client.get(f"/games/{name}/rules").text
    rules = get_package(name).rules()
    headings = [line.lstrip("#").strip() for line in rules.splitlines() if re.match(r"#{2,3} ", line)]
    anchors = re.findall(r'<nav class="toc".*?</nav>', text, re.S)[0]
    targets = re.findall(r'href="#([^"]+)"', anchors)
    assert len(targets) == len(headings) and len(set(targets)) == len(targets)
    for target in targets:
        assert f'id="{target}"' in text
    rendered, _contents = rules_with_contents(rules)
    assert scrolling_tables(rendered) in text  # every rule, as the table's rules panel renders them (plus heading
    # ids, and each table in a box that scrolls sideways)
    assert re.sub(r'<(h[1-6]) id="[^"]+">', r"<\1>", rendered) == rules_html(rules)


def test_raw_html_in_rules_is_escaped():
    rendered, contents = rules_with_contents("# T\n\n## A *b* part\n\n<script>alert(1)</script>\n\n## A b part\n")
    assert "<script>" not in rendered and "&lt;script&gt;" in rendered
    assert contents == [(2, "a-b-part", "A b part"), (2, "a-b-part-2", "A b part")]


# ----- the shareable intro and its QR code ------------------------------------------------------
@pytest.mark.parametrize("name", game_names())
def test_the_intro_carries_open_graph_and_twitter_meta(client, name):
    text = client.get(f"/games/{name}/intro").text
    meta = dict(re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)"', text))
    intro = load_intro(get_game(name))
    assert html.unescape(meta["og:title"]) == intro.title == html.unescape(meta["twitter:title"])
    assert intro.tagline in html.unescape(meta["og:description"])
    assert meta["og:url"] == f"{PUBLIC}/games/{name}/intro"
    image = html.unescape(meta["og:image"])
    assert image == f"{PUBLIC}/games/{name}/share.png" and meta["og:image:type"] == "image/png"
    assert meta["twitter:card"] == "summary_large_image" and html.unescape(meta["twitter:image"]) == image
    reply = client.get(image.removeprefix(PUBLIC))
    assert reply.status_code == 200 and reply.headers["content-type"] == "image/png"
    assert reply.content.startswith(b"\x89PNG\r\n\x1a\n")
    for section in intro.sections:
        assert html.escape(section.heading) in text


def test_the_qr_code_encodes_the_intro_address(client):
    reply = client.get("/games/by-this/qr.svg")
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("image/svg+xml")
    assert reply.content == qr_svg(f"{PUBLIC}/games/by-this/intro")
    assert b"<svg" in reply.content and f"QR code: {PUBLIC}/games/by-this/intro".encode() in reply.content


def test_a_qr_code_of_an_address_too_long_is_refused():
    with pytest.raises(TablepressError, match="too long for a QR code"):
        qr_svg("http://x/" + "a" * 5000)


# ----- unknown games ----------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/games/nothing", "/games/nothing/rules", "/games/nothing/intro"])
def test_an_unknown_game_is_a_404_page_naming_the_games(client, path):
    reply = client.get(path)
    assert reply.status_code == 404 and reply.headers["content-type"].startswith("text/html")
    assert "No game called “nothing”" in reply.text
    for name in game_names():
        assert f'href="/games/{name}"' in reply.text


@pytest.mark.parametrize("path", ["/games/nothing/print.pdf", "/games/nothing/qr.svg"])
def test_an_unknown_games_files_are_a_404_naming_the_games(client, path):
    reply = client.get(path)
    assert reply.status_code == 404
    assert reply.json()["detail"] == f"no game 'nothing' (games: {', '.join(game_names())})"


# ----- print.pdf --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", game_names())
def test_print_pdf_is_the_same_bytes_as_tablepress_print(client, tmp_path, name):
    reply = client.get(f"/games/{name}/print.pdf")
    assert reply.status_code == 200 and reply.headers["content-type"] == "application/pdf"
    assert reply.headers["content-disposition"] == f'attachment; filename="{name}-a4.pdf"'
    assert reply.content == cli_pdf(tmp_path, name)


def test_print_pdf_with_every_choice_is_the_same_bytes_as_tablepress_print(client, tmp_path):
    reply = client.get("/games/by-this/print.pdf?paper=letter&backs=1&bleed=3&ink_saver=1&duplex=short")
    assert reply.status_code == 200
    assert reply.content == cli_pdf(tmp_path, "by-this", "--paper", "letter", "--backs", "--bleed", "3",
                                    "--ink-saver", "--duplex", "short")


def test_print_pdf_of_a_variant_marks_its_cards_as_tablepress_print_does(client, tmp_path):
    variant = tmp_path / "heavier.toml"
    variant.write_text(HEAVIER, encoding="utf-8")
    reply = client.get("/games/by-this/print.pdf?variant=v1&backs=1")
    assert reply.status_code == 200
    assert reply.headers["content-disposition"] == 'attachment; filename="by-this-heavier-a4.pdf"'
    assert reply.content == cli_pdf(tmp_path, "by-this", "--variant", str(variant), "--backs")
    assert reply.content != client.get("/games/by-this/print.pdf?backs=1").content


def test_print_pdf_of_an_unknown_variant_is_404_and_of_another_games_422(client):
    unknown = client.get("/games/by-this/print.pdf?variant=nope")
    assert unknown.status_code == 404 and unknown.json()["detail"] == "variant: no variant 'nope'"
    other = client.get("/games/by-this/print.pdf?variant=v2")
    assert other.status_code == 422
    assert other.json()["detail"] == "variant: 'v2' is a variant of flowers, not by-this"


def test_print_pdf_of_a_variant_past_the_servers_deck_bound_is_refused(client, app):
    app.state.variants.variants["v3"] = stored("v3", "pressed", "zinnias", "[flowers.Zinnia]\ncopies = 1000\n")
    reply = client.get("/games/pressed/print.pdf?variant=v3")
    assert reply.status_code == 422 and "card copies come to over 900" in reply.json()["detail"]


def test_print_pdf_without_a_variant_store_says_the_variant_is_unknown(client, app):
    app.state.variants = None
    assert client.get("/games/by-this/print.pdf?variant=v1").status_code == 404


@pytest.mark.parametrize("query, field", [
    ("paper=a5", "paper"), ("backs=2", "backs"), ("backs=yes", "backs"), ("bleed=9", "bleed"),
    ("bleed=-1", "bleed"), ("bleed=nan", "bleed"), ("bleed=inf", "bleed"), ("bleed=3mm", "bleed"),
    ("ink_saver=true", "ink_saver"), ("duplex=sideways", "duplex"), ("inksaver=1", "inksaver"),
    ("paper=a4&paper=letter", "paper"), ("paper=" + "a" * 100, "paper"),
])
def test_bad_print_parameters_are_a_422_naming_the_field(client, query, field):
    reply = client.get(f"/games/by-this/print.pdf?{query}")
    assert reply.status_code == 422
    assert reply.json()["detail"].startswith(f"{field}: ")


def test_an_empty_bleed_is_none(client, tmp_path):
    assert client.get("/games/flowers/print.pdf?bleed=").content == cli_pdf(tmp_path, "flowers")


def test_the_same_choices_are_drawn_once_then_served_from_the_cache(client, app):
    first = client.get("/games/pressed/print.pdf?bleed=2")
    drawn = app.state.printer.drawn
    again = client.get("/games/pressed/print.pdf?bleed=2.0")
    assert again.content == first.content and app.state.printer.drawn == drawn
    client.get("/games/pressed/print.pdf?bleed=1")
    assert app.state.printer.drawn == drawn + 1


# ----- the printer's bounds ---------------------------------------------------------------------
def test_the_printer_refuses_more_than_it_may_keep_waiting():
    printer = Printer(max_waiting=0)
    started, release = threading.Event(), threading.Event()

    def slow() -> bytes:
        started.set()
        release.wait(10)
        return b"slow"

    worker = threading.Thread(target=printer.pdf, args=(("a",), slow))
    worker.start()
    assert started.wait(10)
    with pytest.raises(QuotaExceeded, match="the printer is busy"):
        printer.pdf(("b",), lambda: b"b")
    release.set()
    worker.join(10)
    assert printer.pdf(("a",), lambda: b"never drawn") == b"slow"  # cached meanwhile
    assert printer.pdf(("b",), lambda: b"b") == b"b"


def test_the_printer_draws_one_pdf_at_a_time():
    printer = Printer(max_waiting=8)
    inside, most = [0], [0]
    lock = threading.Lock()

    def draw(key: int):
        def make() -> bytes:
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            threading.Event().wait(0.02)
            with lock:
                inside[0] -= 1
            return bytes([key])
        return make

    threads = [threading.Thread(target=printer.pdf, args=((k,), draw(k))) for k in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert most[0] == 1 and printer.drawn == 6


def test_the_printer_cache_drops_the_least_recently_used_past_its_bytes():
    printer = Printer(max_bytes=10)
    printer.pdf(("a",), lambda: b"aaaa")
    printer.pdf(("b",), lambda: b"bbbb")
    printer.pdf(("a",), lambda: b"drawn again")  # a is now the most recently used
    printer.pdf(("c",), lambda: b"cccc")  # 12 bytes: b goes
    assert printer.pdf(("a",), lambda: b"drawn again") == b"aaaa"
    assert printer.pdf(("b",), lambda: b"new b") == b"new b"
    assert printer.pdf(("big",), lambda: b"x" * 11) == b"x" * 11 and printer.drawn == 5
    assert printer.pdf(("big",), lambda: b"y") == b"y"  # larger than the whole cache: never kept


def test_the_face_addresses_quote_card_keys():
    assert face_url("by-this", "Small → Large") == f"/faces/by-this/{quote('Small → Large', safe='')}.svg"


def test_a_forged_host_header_changes_no_page_or_answer(client):
    """Links come from --public-url: a request naming another Host gets the same bytes everywhere."""
    paths = ["/", "/games/by-this", "/games/by-this/intro", "/games/by-this/qr.svg", "/games/pressed/rules",
             "/api/catalog", "/games/nothing"]
    for path in paths:
        honest = client.get(path)
        forged = client.get(path, headers={"Host": "evil.example:666", "X-Forwarded-Host": "evil.example"})
        assert forged.status_code == honest.status_code, path
        assert forged.content == honest.content, path
        assert b"evil.example" not in forged.content and b"testserver" not in forged.content, path
    assert client.get("/api/catalog").json()["public_url"] == PUBLIC
