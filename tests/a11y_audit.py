"""Auditing a page for accessibility with axe-core, inside the browser tests' Chromium (and finding what
moves on it, for reduced motion).

axe-core is an npm package (package.json, installed into node_modules/ by ``make install``). Its source
is run in the page with ``page.evaluate``: Playwright evaluates through the DevTools protocol, which the
page's Content-Security-Policy does not govern, so no inline script is added to the page (the
``chromium`` fixture would fail the test on one). Without axe-core the test skips saying how to install
it, unless ``REQUIRE_BROWSER=1`` (CI), where that is a failure.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from tests.browser import browser_required

AXE_PATH = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
INSTALL_HINT = "install axe-core with `make install` (it runs `npm ci`; needs Node.js and npm)"
BLOCKING = ("serious", "critical")  # impacts a page may not have


@cache
def _axe_source() -> str:
    return AXE_PATH.read_text(encoding="utf-8")


def require_axe() -> None:
    """Skip (fail under REQUIRE_BROWSER=1) when axe-core is not installed."""
    if AXE_PATH.is_file():
        return
    reason = f"axe-core is not installed ({AXE_PATH.relative_to(AXE_PATH.parents[2])} is missing)"
    if browser_required():
        pytest.fail(f"the accessibility test is required here but cannot run: {reason}; {INSTALL_HINT}")
    pytest.skip(f"{reason}; {INSTALL_HINT}")


def audit(page) -> list[dict]:
    """axe-core's serious and critical violations of the page as it is now (all of axe's rules)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(_axe_source())
    result = page.evaluate("""async () => {
        const { violations } = await window.axe.run(document, { resultTypes: ["violations"] });
        return violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })) }));
    }""")
    return [v for v in result if v["impact"] in BLOCKING]


# Every element (and its ::before/::after) whose computed transition or animation lasts longer than 0 s.
_MOVING = """() => {
  const moving = [];
  const long = (value) => value.split(",").some((part) => parseFloat(part) > 0);
  for (const el of document.querySelectorAll("*")) {
    for (const pseudo of [null, "::before", "::after"]) {
      const style = getComputedStyle(el, pseudo);
      if (long(style.transitionDuration) || (style.animationName !== "none" && long(style.animationDuration))) {
        moving.push(`${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${el.getAttribute("class") || ""}${pseudo || ""}`);
      }
    }
  }
  return moving;
}"""


def moving(page) -> list[str]:
    """The elements of the page that move: a transition or an animation that lasts (for reduced motion)."""
    return page.evaluate(_MOVING)


def describe(where: str, violations: list[dict]) -> str:
    """The violations of one page, a line per rule and an indented line per element (the first five)."""
    lines = []
    for v in violations:
        lines.append(f"{where}: {v['impact']} {v['id']}: {v['help']} ({len(v['nodes'])} element(s))")
        for node in v["nodes"][:5]:
            summary = " ".join(node["summary"].split())
            lines.append(f"    {node['target']}: {summary[:300]}")
    return "\n".join(lines)


# Every visible button, link styled as a button, summary and form control smaller than 44 px each way (WCAG
# 2.5.5's touch target; a text field or a list need only its height). A checkbox or radio counts with its
# label, which toggles it too. Closed <details> are opened first: what they hold is tapped as well.
_SMALL_TARGETS = """() => {
  document.querySelectorAll("details:not([open])").forEach((d) => { d.open = true; });
  const MIN = 44, small = [];
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""} "${(el.getAttribute("aria-label")
    || el.textContent || el.value || el.name || "").trim().replace(/\\s+/g, " ").slice(0, 40)}"`;
  for (const el of document.querySelectorAll("button, .btn, summary, input:not([type=hidden]), select, textarea")) {
    const style = getComputedStyle(el);
    let box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1 || style.visibility === "hidden" || style.pointerEvents === "none"
        || el.closest(".visually-hidden")) continue;
    let { left, top, right, bottom } = box;
    if (el.type === "checkbox" || el.type === "radio") {
      for (const label of el.labels) {
        const l = label.getBoundingClientRect();
        left = Math.min(left, l.left); top = Math.min(top, l.top);
        right = Math.max(right, l.right); bottom = Math.max(bottom, l.bottom);
      }
    }
    const wide = ["text", "email", "password", "number", "search", "url", "tel"].includes(el.type)
      || ["SELECT", "TEXTAREA"].includes(el.tagName);
    if (bottom - top < MIN - 0.5 || (!wide && right - left < MIN - 0.5)) {
      small.push(`${name(el)}: ${Math.round(right - left)}x${Math.round(bottom - top)}`);
    }
  }
  return small;
}"""


def small_targets(page) -> list[str]:
    """The page's tap targets smaller than 44 px (opening its closed <details>: call it after the audit)."""
    return page.evaluate(_SMALL_TARGETS)
