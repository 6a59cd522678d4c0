"""Words in the hall's tests: what a message the hall sends says in English, and the
check that a page shown in the pseudo-language has no word outside the catalogs.

`in_english(value)` renders a `Message`, a message's JSON or a plain string (an older
record's text) in English, so a test can say what the arbiter reads.

`stray_words(page, allowed)` collects what a person can read on a Playwright page (the
body's visible text, every aria-label, title, placeholder and alt, and the text a style
sheet writes: ``::before`` and ``::after`` ``content``), strips each
⟦…⟧ span (a message from the catalog, in the pseudo-language ``qps``) and returns what
is left that is not allowed: only numbers, punctuation, notation (``c3-d4``, ``12.``,
``1-0``, ``½-½``, game ids, times) and the ``allowed`` words (player names, tags the
test set) may stand outside the brackets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..rendered import rendered

# What may stand outside ⟦…⟧: no letters but notation. Square names (c3, h8), moves
# (c3-d4, c3:e5, 32x28), a score sheet's "12." and "12…", results, clocks, ids, and the
# one-letter sides of a FEN (W:W21,22:B1,2) are notation, not words.
NOTATION = re.compile(r"^(?:[a-h](?:10|[1-9])(?:[-:x][a-h](?:10|[1-9]))*|PDN|FEN|CSV)$")
FEN = re.compile(r"\b[WB](?::[WB]?[\dK,-]+)+")  # W:W21,22:B1,2: a position, not words
BRACKETED = re.compile(r"⟦[^⟦⟧]*⟧")

COLLECT = """() => {
  const seen = [];
  const visible = (node) => {
    const element = node.nodeType === 1 ? node : node.parentElement;
    return element && element.getClientRects().length > 0
      && getComputedStyle(element).visibility !== "hidden";
  };
  seen.push(document.title);
  seen.push(document.body.innerText);
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    if (!visible(node) && node.getAttribute("aria-label") === null) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const value = node.getAttribute(name);
      if (value) seen.push(value);
    }
  }
  // what a style sheet writes before and after a drawn element (its content's strings)
  for (const node of document.querySelectorAll("body *")) {
    if (!visible(node)) continue;
    for (const pseudo of ["::before", "::after"]) {
      const style = getComputedStyle(node, pseudo);
      if (style.display === "none" || style.visibility !== "visible") continue;
      for (const quoted of style.content.matchAll(/"((?:[^"\\\\]|\\\\.)*)"/g)) {
        if (quoted[1].trim()) seen.push(quoted[1]);
      }
    }
  }
  for (const option of document.querySelectorAll("select[data-words-switch] option")) {
    seen.push("\\u0000" + option.textContent);  // a language's name in itself: allowed
  }
  return seen;
}"""


def in_english(value: Any) -> str:
    """What ``value`` (a Message, its JSON, or plain text) says in English, as text."""
    return str(rendered(value, "en"))


def leftover(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` outside ⟦…⟧ that are neither notation nor ``allowed``."""
    rest, before = text, None
    while rest != before:  # a message's parameter may be a message: brackets nest
        before, rest = rest, BRACKETED.sub(" ", rest)
    for word in sorted(allowed, key=len, reverse=True):  # names of several words first
        if any(c.isalpha() for c in word):
            rest = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", " ", rest)
    rest = FEN.sub(" ", rest)
    return [token for token in re.split(r"[\s()\[\],;«»\"'·–—/]+", rest)
            if any(c.isalpha() for c in token) and not NOTATION.match(token.rstrip(".:…?!"))]


def stray_words(page, allowed: Iterable[str] = ()) -> list[str]:
    """Words a person can read on ``page`` that came from no catalog (see the module)."""
    seen = page.evaluate(COLLECT)
    # the language switch's options: each language named in itself, in every language
    languages = [text[1:] for text in seen if text.startswith("\u0000")]
    allowed = [*allowed, *languages]
    stray = []
    for text in seen:
        if not text.startswith("\u0000"):
            stray += leftover(text, allowed)
    return stray
