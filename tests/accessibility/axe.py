"""axe-core (npm, pinned in this folder's package-lock.json, installed by scripts/test.sh)
run inside a Playwright page: the accessibility rules a screen-reader user's page must
keep, checked in real Chromium rather than guessed from the HTML.

``serious_violations(page)`` injects axe into the page as it stands and returns the
violations of impact "serious" or "critical", each as one readable line; a test asserts
the list is empty, so a failure names the rule, the element and what to fix."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

AXE_SCRIPT = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING_IMPACTS = ("serious", "critical")
# WCAG 2.1 A and AA plus axe's best practices: what a page for people who cannot see the
# board, or see it poorly, must keep
RULE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def axe_source() -> str:
    """axe-core's script, or a failure as root (scripts/test.sh installs it) or a skip."""
    if not AXE_SCRIPT.exists():
        if os.geteuid() == 0:
            pytest.fail(f"{AXE_SCRIPT} is missing; scripts/test.sh installs it "
                        "(npm ci --prefix tests/accessibility)")
        pytest.skip("axe-core is not installed (npm ci --prefix tests/accessibility)")
    return AXE_SCRIPT.read_text(encoding="utf-8")


def violations(page, *, within: str | None = None) -> list[dict]:
    """axe's violations of the page as it stands now (or only of the ``within`` selector)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # evaluated through the DevTools protocol, not as a <script>: the page's Content
        # Security Policy rightly refuses inline scripts
        page.evaluate(axe_source() + "\n;undefined")
    context = within if within is not None else "document"
    result = page.evaluate(
        """async ([context, tags]) => {
            const target = context === "document" ? document : context;
            const found = await window.axe.run(target, {runOnly: {type: "tag", values: tags},
                                                        resultTypes: ["violations"]});
            return found.violations;
        }""",
        [context, RULE_TAGS])
    return list(result)


def describe(violation: dict) -> str:
    """One line: the rule, its impact, the first elements it names and axe's fix."""
    targets = [json.dumps(node.get("target")) for node in violation.get("nodes", [])[:3]]
    more = len(violation.get("nodes", [])) - len(targets)
    where = ", ".join(targets) + (f" and {more} more" if more > 0 else "")
    return (f"{violation['id']} ({violation.get('impact')}): {violation.get('help')} "
            f"at {where}")


def serious_violations(page, *, within: str | None = None) -> list[str]:
    """The serious and critical violations, one line each (empty when the page passes)."""
    return [describe(v) for v in violations(page, within=within)
            if v.get("impact") in BLOCKING_IMPACTS]
