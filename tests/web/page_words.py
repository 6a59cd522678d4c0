"""Words on a page that did not come from the catalog, found in the pseudo-language.

With ``?lang=qps`` every message is wrapped in ⟦…⟧ (lists' joiners too, inside the
message that holds them). `stray_words` reads what a person sees (the visible text,
node by node) and what a screen reader or a tooltip says (``aria-label``, ``title``,
``placeholder`` of every element drawn and not hidden, as in a closed ``<details>``),
and the text a style sheet writes (``::before`` and ``::after`` ``content``, which a
person sees and a screen reader reads as the element's text), strips each ⟦…⟧ from
the innermost out, and returns what is left that is neither notation, a number,
punctuation nor one of the names the test set: a word there was written in the page's
code, not in a catalog.
"""

from __future__ import annotations

import re

# What a page may show outside the catalog's brackets: notation and squares (c3, c3-d4,
# g5:c5, 32-28, 1-0, ½-½), the board's file letters, numbers, clock times, punctuation.
VERBATIM = re.compile(r"[\W\d_]*|[a-z]|([a-z]\d{1,2}([-:x][a-z]\d{1,2})*)+[\W]*")
INNERMOST = re.compile(r"⟦[^⟦⟧]*⟧")

# The text a style sheet writes before and after an element (its ``content``'s strings,
# the alternative text after a "/" too), when that pseudo-element is drawn
GENERATED = """
  const generated = (node) => {
    const texts = [];
    for (const pseudo of ["::before", "::after"]) {
      const style = getComputedStyle(node, pseudo);
      if (style.display === "none" || style.visibility !== "visible") continue;
      for (const quoted of style.content.matchAll(/"((?:[^"\\\\]|\\\\.)*)"/g)) {
        if (quoted[1].trim()) texts.push(quoted[1]);
      }
    }
    return texts;
  };
"""

COLLECT = """(skip) => {
  const seen = [];
""" + GENERATED + """
  const shown = (node) => node.checkVisibility({ visibilityProperty: true })
    && node.getClientRects().length && !node.closest(skip);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (text.textContent.trim() && shown(text.parentElement)) seen.push(text.textContent);
  }
  for (const node of document.querySelectorAll("body *")) {
    if (!shown(node)) continue;
    for (const name of ["aria-label", "title", "placeholder"]) {
      const value = node.getAttribute(name);
      if (value) seen.push(value);
    }
    seen.push(...generated(node));
  }
  return seen;
}"""
# Not read: the language switch (each language's name in itself: names, not words).
SKIP = "select[data-words-switch]"
# the language switch shows each language's name in itself: names, not words
SWITCH_TEXT = """() => [...document.querySelectorAll("select[data-words-switch] option")]
  .map((o) => o.textContent)"""


def unwrapped(text: str) -> str:
    """``text`` without its ⟦…⟧ spans (nested ones from the inside out)."""
    while True:
        stripped = INNERMOST.sub(" ", text)
        if stripped == text:
            return text
        text = stripped


def stray_words(page, allowed: set[str] = frozenset()) -> list[str]:
    """The words the page shows outside the catalog (see the module doc); ``allowed``:
    names and tags the test set, and the product's name."""
    names = set(allowed) | set(page.evaluate(SWITCH_TEXT))
    return stray_in(page.evaluate(COLLECT, SKIP), names)


def stray_in(texts: list[str], allowed: set[str] = frozenset()) -> list[str]:
    """The words of ``texts`` (rendered messages, a page's texts) outside the catalog's
    brackets that are not notation, numbers, punctuation, the product's name or one of
    ``allowed``."""
    names = set(allowed) | {"draughtsboard"}
    strays = []
    for text in texts:
        rest = unwrapped(text)
        for name in sorted(names, key=len, reverse=True):
            rest = rest.replace(name, " ")
        strays += [token for token in rest.split() if not VERBATIM.fullmatch(token)]
    return strays
