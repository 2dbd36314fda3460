"""No page scrolls sideways on a phone, and axe-core finds nothing serious on any page, in real Chromium.

Every page type (tests/phone_pages.py) is opened at three phone sizes and at desktop size.
"""

from __future__ import annotations

import pytest

from phone_pages import every_page
from web_audit import axe_violations, needs_axe, sideways, widest
from web_helpers import Server, needs_chromium

pytestmark = needs_chromium

PHONES = [(360, 740), (390, 844), (414, 896)]
DESKTOP = (1366, 900)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("phone") / "games.db", ai_delay=0.05)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def pages(server) -> dict[str, str]:
    return every_page(server)


def settled(browser, server, url: str, width: int, height: int):
    """A page at `url` in a fresh context of the size, after its scripts drew it."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + url)
    page.wait_for_load_state("networkidle")
    if url.startswith("/play/"):
        page.wait_for_selector("#log li")
    page.wait_for_timeout(200)
    return context, page, errors


@pytest.mark.parametrize("width,height", PHONES)
def test_no_page_is_wider_than_a_phone(browser, server, pages, width, height):
    wide = {}
    for name, url in pages.items():
        context, page, errors = settled(browser, server, url, width, height)
        try:
            assert not errors, (name, errors)
            if sideways(page):
                wide[name] = (sideways(page), widest(page))
        finally:
            context.close()
    assert not wide, f"pages scrolling sideways at {width} px: {wide}"


@needs_axe
@pytest.mark.parametrize("width,height", [PHONES[0], DESKTOP])
def test_axe_finds_nothing_serious_on_any_page(browser, server, pages, width, height):
    found = {}
    for name, url in pages.items():
        context, page, _errors = settled(browser, server, url, width, height)
        try:
            violations = axe_violations(page)
            if violations:
                found[name] = [(v["id"], v["impact"], v["nodes"][:2]) for v in violations]
        finally:
            context.close()
    assert not found, "\n".join(f"{name}: {v}" for name, v in found.items())
