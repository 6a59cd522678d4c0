"""Whether every word a part of a page shows came from the message catalog.

A page opened with ``?lang=qps`` (docs/languages.md) shows every message wrapped in
⟦…⟧. `words_outside_catalog` reads what a person sees in the part of the page under a
CSS selector (its visible text, and the aria-labels, titles and placeholders of it and of
everything in it), takes out every ⟦…⟧ (nested ones too) and the texts a test names as
verbatim (player and engine names, an engine's own error line), and answers what is left
that is more than notation, numbers and punctuation: a word that did not come from a
catalog. `assert_words_from_catalog` fails with it.
"""

from __future__ import annotations

import re

PSEUDO = re.compile(r"⟦[^⟦⟧]*⟧")
# what may stand outside the catalog's words: squares (c3, a10), numbers, move and score
# notation (c3-d4, 32x28, c3:e5:g3, +0.35, 1.), punctuation and symbols
NOTATION = re.compile(r"\b[a-l](?:1[0-2]|[1-9])\b|\d+")

# The page's text under a selector, as a person meets it: innerText (what shows, hidden
# parts left out) and the labels screen readers and tooltips give.
COLLECT = """(selector) => {
  const out = [];
  for (const root of document.querySelectorAll(selector)) {
    out.push(root.innerText || "");
    for (const node of [root, ...root.querySelectorAll("*")]) {
      if (node.closest("[hidden]")) continue;
      for (const name of ["aria-label", "title", "placeholder"]) {
        const value = node.getAttribute(name);
        if (value) out.push(value);
      }
    }
  }
  return out;
}"""


def strip_catalog_words(text: str, verbatim: tuple[str, ...] = ()) -> str:
    """``text`` without its ⟦…⟧ parts (innermost first), the ``verbatim`` texts, the
    notation and the numbers."""
    for name in sorted(verbatim, key=len, reverse=True):
        text = text.replace(name, " ")
    while True:
        stripped = PSEUDO.sub(" ", text)
        if stripped == text:
            break
        text = stripped
    return NOTATION.sub(" ", text)


def leftover_words(texts: list[str], verbatim: tuple[str, ...] = ()) -> list[str]:
    """The words in ``texts`` that no catalog gave: letters left after
    `strip_catalog_words`."""
    found = []
    for text in texts:
        rest = strip_catalog_words(text, verbatim)
        found.extend(re.findall(r"[^\W\d_]+", rest))
    return found


def words_outside_catalog(page, selector: str, verbatim: tuple[str, ...] = ()) -> list[str]:
    """The words shown under ``selector`` on ``page`` (Playwright) that are outside ⟦…⟧
    and not ``verbatim``: empty when every word came from the catalog."""
    return leftover_words(page.evaluate(COLLECT, selector), verbatim)


def assert_words_from_catalog(page, selector: str, verbatim: tuple[str, ...] = ()) -> None:
    """Fail with the words under ``selector`` that did not come from the catalog (the
    page must be open with ``?lang=qps``), and when nothing under it shows at all."""
    texts = page.evaluate(COLLECT, selector)
    assert any(text.strip() for text in texts), f"nothing shows under {selector}"
    left = leftover_words(texts, verbatim)
    assert not left, f"words under {selector} not from a catalog: {left} in {texts}"
