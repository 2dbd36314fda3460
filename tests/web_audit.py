"""Browser checks shared by the phone and accessibility tests: axe-core in the page, and sideways scrolling.

axe-core is the npm package `make test` installs into build/axe (scripts/ensure-axe-core).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

#: axe-core's browser build, where scripts/ensure-axe-core puts it.
AXE = Path(__file__).resolve().parents[1] / "build" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
#: Marks a test that runs axe-core: skipped where it is not installed.
needs_axe = pytest.mark.skipif(not AXE.exists(), reason="needs axe-core in build/axe (make test installs it: "
                                                         "scripts/ensure-axe-core)")
#: The impacts a page may not have.
SERIOUS = ("serious", "critical")

RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " :: " + (n.failureSummary || "").split("\\n")[1])}));
}"""


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations of the page as it stands (WCAG A and AA and best practice)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in SERIOUS]


def sideways(page: Any) -> int:
    """How many pixels the page is wider than the window (0 when nothing scrolls sideways)."""
    return page.evaluate("Math.max(0, document.scrollingElement.scrollWidth - window.innerWidth)")


def widest(page: Any) -> list[str]:
    """The elements reaching past the window's right edge (for a failing test's message)."""
    return page.evaluate("""() => [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && el.offsetParent !== null)
      .filter((el) => !el.parentElement.closest('[data-scrolls]') && getComputedStyle(el.parentElement).overflowX === 'visible')
      .slice(0, 8).map((el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + '.' + [...el.classList].join('.')
                       + ' right=' + Math.round(el.getBoundingClientRect().right))""")
