"""The keyboard as the only hand on the board's page: helpers for the tests that play
without a mouse. Each press is a real key press (page.keyboard); the page's state is read
only to choose the next key and to check where the focus went."""

from __future__ import annotations

FOCUSED = """() => {
  const node = document.activeElement;
  return node === document.body || !node ? null : {
    id: node.id, tag: node.tagName.toLowerCase(), role: node.getAttribute("role"),
    square: node.dataset.square ? Number(node.dataset.square) : null,
    file: Number(node.dataset.file), rank: Number(node.dataset.rank),
    name: node.getAttribute("aria-label"), inDialog: !!node.closest("dialog"),
    shown: node.getClientRects().length > 0 };
}"""


def focused(page) -> dict | None:
    """What has the focus (``None``: nothing, the page's body)."""
    return page.evaluate(FOCUSED)


def square_at(page, number: int) -> tuple[int, int]:
    cell = page.locator(f'#board [data-square="{number}"]')
    return int(cell.get_attribute("data-file")), int(cell.get_attribute("data-rank"))


def go_to(page, number: int) -> None:
    """Move the focus on the board to square ``number`` with the arrow keys: up or down
    (a diagonal step to the next rank), then left or right along the rank."""
    file, rank = square_at(page, number)
    for _ in range(40):
        here = focused(page)
        assert here and here["role"] == "gridcell", f"the focus left the board: {here}"
        if here["square"] == number:
            return
        if here["rank"] != rank:
            page.keyboard.press("ArrowUp" if here["rank"] < rank else "ArrowDown")
        else:
            page.keyboard.press("ArrowRight" if here["file"] < file else "ArrowLeft")
    raise AssertionError(f"the arrow keys did not reach square {number}")


def press_on(page, *numbers: int) -> None:
    """Go to each square and press Enter on it (a piece lifted or put down)."""
    for number in numbers:
        go_to(page, number)
        page.keyboard.press("Enter")


def tab_to(page, selector: str, limit: int = 60, backwards: bool = False) -> None:
    """Press Tab (Shift+Tab) until the element of ``selector`` has the focus; the focus
    never falls back to the page's body on the way."""
    key = "Shift+Tab" if backwards else "Tab"
    for _ in range(limit):
        page.keyboard.press(key)
        assert focused(page) is not None, "the focus was lost"
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")
