"""A guided first game on a phone (390 × 844) in real Chromium: the game page's Learn button opens the table with
the guide panel, whose steps go with Next and Back, whose rules link points at the heading that applies, whose
suggested move is marked and reached with "Show the move" and played with the keyboard; the guide then shows
the next step. The panel covers no control, the page does not scroll sideways, and axe-core finds nothing
serious."""

from __future__ import annotations

import pytest

from tablepress.core.registry import get_package
from tablepress.core.guide import load_guide
from web_audit import axe_violations, needs_axe, sideways, widest
from web_helpers import Server, needs_chromium

pytestmark = [needs_chromium, needs_axe]

PHONE = (390, 844)
GAME = "by-this"

#: Controls in the viewport whose middle is not what a tap there reaches (the pinned bar's own area aside).
COVERED = """() => {
  const bar = document.getElementById('status').getBoundingClientRect().bottom;
  return [...document.querySelectorAll('button, a[href], input, select, summary, [data-action]')]
    .filter((el) => el.offsetParent !== null && !el.closest('[hidden]'))
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && r.top + r.height / 2 > bar && r.top + r.height / 2 < innerHeight)
    .filter(([el, r]) => { const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                           return !hit || !(el === hit || el.contains(hit) || hit.contains(el)); })
    .map(([el, r]) => `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 30)}" at ${Math.round(r.top)}`);
}"""
#: The guide's controls smaller than a thumb (44 px either way).
SMALL = """() => [...document.querySelectorAll('#guide button, #guide a')]
  .filter((el) => el.offsetParent !== null)
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([, r]) => r.height < 44 || r.width < 44)
  .map(([el, r]) => `${el.id || el.textContent} ${Math.round(r.width)}x${Math.round(r.height)}`)"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("guide-browser") / "games.db", ai_delay=0.05)
    yield srv
    srv.stop()


def test_a_newcomer_follows_the_guide_on_a_phone(browser, server):
    guide = load_guide(get_package(GAME))
    first, second = guide.steps_at(0), guide.steps_at(1)
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{server.url}/games/{GAME}")
        page.get_by_role("button", name="Learn: guided first game").first.click()
        page.wait_for_url("**/play/*")
        page.wait_for_selector("#guide #guide-title")
        title = page.locator("#guide-title")
        assert title.inner_text() == first[0].title
        assert page.locator("#guide-back").is_disabled()
        assert page.locator("#guide-rules").get_attribute("href") == f"/games/{GAME}/rules#{first[0].rules}"
        assert sideways(page) == 0, widest(page)
        assert page.evaluate(COVERED) == []
        assert page.evaluate(SMALL) == []
        assert axe_violations(page) == []

        for step in first[1:]:  # Next through the first moment's steps, then Back once
            page.click("#guide-next")
            assert title.inner_text() == step.title
        assert page.locator("#guide-next").is_disabled()
        page.click("#guide-back")
        assert title.inner_text() == first[-2].title
        page.click("#guide-next")

        suggest = guide.line[0]
        assert page.locator("#guide-suggest").is_visible()
        marked = page.locator(".guide-pick")
        assert marked.count() >= 1
        assert {marked.nth(i).get_attribute("data-action") for i in range(marked.count())} == {suggest}
        page.click("#guide-show")
        page.wait_for_function("document.activeElement && document.activeElement.dataset.action === "
                               f"{suggest!r}")
        page.keyboard.press("Enter")  # the keyboard plays it
        page.wait_for_function(f"document.getElementById('guide-title').textContent === {second[0].title!r}",
                               timeout=30_000)
        assert page.locator("#guide-count").inner_text().startswith("move 2 of")
        assert page.evaluate(COVERED) == []
        assert sideways(page) == 0, widest(page)
        assert axe_violations(page) == []

        page.click("#guide-toggle")  # Hide, then show again
        assert page.locator("#guide-body").is_hidden()
        assert page.locator("#guide-toggle").get_attribute("aria-expanded") == "false"
        page.click("#guide-toggle")
        assert page.locator("#guide-body").is_visible() and title.inner_text() == second[0].title
    finally:
        context.close()
    assert not errors, errors
