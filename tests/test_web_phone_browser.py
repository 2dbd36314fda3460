"""No page scrolls sideways on a phone, every control on it is big enough to tap (44 px either way), and
axe-core finds nothing serious on any page, in real Chromium.

Every page type (tests/phone_pages.py), some as a signed-in player sees them, is opened at three phone sizes
and at desktop size.
"""

from __future__ import annotations

import pytest

from phone_pages import every_page
from web_audit import axe_violations, needs_axe, sideways, widest
from web_helpers import Server, needs_chromium

pytestmark = needs_chromium

PHONES = [(360, 740), (390, 844), (414, 896)]
DESKTOP = (1366, 900)
#: Controls smaller than a thumb (44 px either way); a checkbox counts by the label it sits in.
SMALL = """() => [...document.querySelectorAll('button, select, input:not([type=hidden]), summary, a.button, [data-action]')]
  .filter((el) => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden')
  .map((el) => [el, (el.type === 'checkbox' || el.type === 'radio') && el.closest('label') ? el.closest('label') : el])
  .map(([el, box]) => [el, box.getBoundingClientRect()])
  .filter(([, r]) => r.height < 44 || r.width < 44)
  .map(([el, r]) => `${el.tagName.toLowerCase()}#${el.id}.${[...el.classList].join('.')} `
                    + `"${(el.textContent || el.value || '').trim().slice(0, 20)}" ${Math.round(r.width)}x${Math.round(r.height)}`)"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("phone") / "games.db", ai_delay=0.05)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def pages(server) -> dict[str, str]:
    return every_page(server)


def settled(browser, server, where: str | tuple[str, str], width: int, height: int):
    """A page in a fresh context of the size, after its scripts drew it: `where` is its address, or (its
    address, a player's token) for a page as that signed-in player sees it (the token in the player cookie)."""
    url, token = (where, None) if isinstance(where, str) else where
    context = browser.new_context(viewport={"width": width, "height": height})
    if token is not None:
        context.add_cookies([{"name": "tp_player", "value": token, "url": server.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + url)
    if url.startswith("/play/"):  # a table keeps its live connections open: the network is never idle
        page.wait_for_selector("#conn.live")
        page.wait_for_function("document.getElementById('status').textContent !== 'Loading…'")
        page.wait_for_timeout(500)
    else:
        page.wait_for_load_state("networkidle")
    page.wait_for_timeout(200)
    return context, page, errors


@pytest.mark.parametrize("width,height", PHONES)
def test_no_page_is_wider_than_a_phone_and_every_control_can_be_tapped(browser, server, pages, width, height):
    wide, small = {}, {}
    for name, url in pages.items():
        context, page, errors = settled(browser, server, url, width, height)
        try:
            assert not errors, (name, errors)
            if sideways(page):
                wide[name] = (sideways(page), widest(page))
            if found := page.evaluate(SMALL):
                small[name] = found[:6]
        finally:
            context.close()
    assert not wide, f"pages scrolling sideways at {width} px: {wide}"
    assert not small, f"controls too small to tap at {width} px: {small}"


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
