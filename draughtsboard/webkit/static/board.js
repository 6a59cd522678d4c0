// The board widget: a board as an ARIA grid of its dark squares, the keys that walk it,
// and the names of what stands on a square and of a game's PDN tags. The board's page
// (its board, played on) and the hall's board detail (a diagram, read) draw their grids
// with it, so both are walked with the same keys.
//
// The grid has one row per rank (the highest at the top) and one cell per dark square,
// named by the page (the page decorates each cell). Light squares, where no piece ever
// stands, are drawn but kept from screen readers. One tab stop (a roving tabindex): the
// cell last focused. The keys, as an ARIA grid has them:
//   ArrowLeft / ArrowRight  the next dark square along the row; at the row's end the focus
//                           stays (a grid's focus does not wrap to another row)
//   ArrowUp / ArrowDown     the nearest dark square of the row above or below (a
//                           diagonal step: right first going up, left first going down)
//   Home / End              the row's first or last dark square
//   Ctrl+Home / Ctrl+End    the board's first (top left) or last (bottom right)
// A geometry is {size, squares: [[number, file, rank, name], ...]} (files and ranks from
// 0 at White's bottom left; the name as the variant writes the square, else its number).

import { el } from "./dom.js";

// Where the keys lead from (file, rank): the cell, null (nowhere: the focus stays), or
// undefined for a key the grid does not take. ``at(file, rank)``: the dark cell there.
export function gridStep(at, size, file, rank, key, ctrl) {
  const along = (r, step, start) => {
    for (let f = start; f >= 0 && f < size; f += step) if (at(f, r)) return at(f, r);
    return null;
  };
  switch (key) {
    case "ArrowRight": return along(rank, 1, file + 1);
    case "ArrowLeft": return along(rank, -1, file - 1);
    case "ArrowUp": return at(file + 1, rank + 1) || at(file - 1, rank + 1) || null;
    case "ArrowDown": return at(file - 1, rank - 1) || at(file + 1, rank - 1) || null;
    case "Home": return ctrl ? along(size - 1, 1, 0) : along(rank, 1, 0);
    case "End": return ctrl ? along(0, -1, size - 1) : along(rank, -1, size - 1);
    default: return undefined;
  }
}

// A grid on ``grid`` (the element with role=grid; its rows go into ``body``, the grid
// itself by default). ``options``: ``rowTag``/``cellTag`` ("div"), ``rowClass``,
// ``darkClass`` ("dark"), ``lightClass`` (""), ``light(node)`` to keep a light square
// from screen readers (aria-hidden by default), ``dark(cell, number, name)`` to fill a
// dark square's cell, ``onFocus(cell)`` when a cell takes the focus.
export function boardGrid(grid, options = {}) {
  const body = options.body || grid;
  const rowTag = options.rowTag || "div";
  const cellTag = options.cellTag || "div";
  let size = 0;
  let cells = new Map(); // square number -> cell
  let places = new Map(); // "file,rank" -> cell
  const at = (file, rank) => places.get(file + "," + rank);

  // the roving tab stop: the cell with the focus is the grid's one stop in the Tab order
  function rove(cell) {
    for (const other of grid.querySelectorAll('[tabindex="0"]')) if (other !== cell) other.tabIndex = -1;
    cell.tabIndex = 0;
  }

  function build(geometry) {
    const active = document.activeElement;
    const had = grid.contains(active) && active.dataset ? active.dataset.square : undefined;
    size = geometry.size;
    cells = new Map();
    places = new Map();
    body.replaceChildren();
    grid.setAttribute("aria-rowcount", String(size));
    grid.setAttribute("aria-colcount", String(size));
    const bySquare = new Map(geometry.squares.map((s) => [s[1] + "," + s[2], s]));
    let first = null;
    for (let rank = size - 1; rank >= 0; rank--) {
      const row = el(rowTag, options.rowClass);
      row.setAttribute("role", "row");
      row.setAttribute("aria-rowindex", String(size - rank));
      for (let file = 0; file < size; file++) {
        const square = bySquare.get(file + "," + rank);
        if (!square) {
          const light = el(cellTag, options.lightClass);
          if (options.light) options.light(light);
          else light.setAttribute("aria-hidden", "true");
          row.appendChild(light);
          continue;
        }
        const number = square[0];
        const name = square[3] || String(number);
        const cell = el(cellTag, options.darkClass === undefined ? "dark" : options.darkClass);
        cell.dataset.square = number;
        cell.dataset.name = name;
        cell.dataset.file = file;
        cell.dataset.rank = rank;
        cell.setAttribute("role", "gridcell");
        cell.setAttribute("aria-colindex", String(file + 1));
        cell.tabIndex = -1;
        if (options.dark) options.dark(cell, number, name);
        cells.set(number, cell);
        places.set(file + "," + rank, cell);
        row.appendChild(cell);
        if (first === null) first = cell;
      }
      body.appendChild(row);
    }
    const kept = had === undefined ? null : cells.get(Number(had));
    (kept || first || grid).tabIndex = 0;
    if (kept) kept.focus();
  }

  grid.addEventListener("focusin", (event) => {
    const cell = event.target.closest('[role="gridcell"]');
    if (!cell || !grid.contains(cell)) return;
    rove(cell);
    if (options.onFocus) options.onFocus(cell);
  });

  grid.addEventListener("keydown", (event) => {
    const from = event.target.closest('[role="gridcell"]');
    if (!from || !grid.contains(from)) return;
    const to = gridStep(at, size, Number(from.dataset.file), Number(from.dataset.rank),
      event.key, event.ctrlKey);
    if (to === undefined) return;
    event.preventDefault();
    if (!to) return;
    rove(to);
    to.focus();
  });

  return {
    build,
    cell: (number) => cells.get(Number(number)),
    cells: () => [...cells.values()],
    get size() { return size; },
  };
}

// -- names ----------------------------------------------------------------------------------

// A piece as a message: its letter (w, b a man; W, B crowned), as the top of a column or
// alone. In Lasca and the column games (``officers``) a crowned piece is an officer.
export function pieceMessage(code, officers, top) {
  const colour = code.toLowerCase() === "w" ? "white" : "black";
  if (code === code.toLowerCase()) return { id: (top ? "piece.top." : "piece.man.") + colour };
  return { id: "piece." + (officers ? "officer." : "king.") + colour };
}

// What stands on a square (its column's letters, top first) as a message: one piece, or
// a column of them, top first
export function columnMessage(column, officers) {
  if (column.length === 1) return pieceMessage(column, officers, false);
  return { id: "piece.column", params: { count: column.length,
    pieces: { list: [...column].map((p) => pieceMessage(p, officers, true)), style: "and" } } };
}

// A PDN tag's name for people, as a message (tag.event for Event, tag.time_control for
// TimeControl); a tag the catalog does not name (one of the arbiter's own) as it is.
// The PDN itself keeps the standard names.
export function tagLabel(name) {
  const id = "tag." + String(name).replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
  return Words.has(id) ? { id } : String(name);
}

// A tag's value for people, as a message where it is a code of the board's (the
// Irregularities tag: fmjd, restore); any other value (a name, a date, a number) as the
// PDN holds it.
const CODED_TAGS = new Set(["Irregularities"]);

export function tagValue(name, value) {
  const id = tagLabel(name).id + "." + String(value).toLowerCase();
  return CODED_TAGS.has(name) && Words.has(id) ? { id } : String(value);
}

// A result code as the pages name it, the board's and the hall's alike: the code itself
// stays (1-0, ½-½ ...) with who won in words, as a message; a code of no game's as it is
const RESULT_MESSAGES = { "1-0": "white_wins", "2-0": "white_wins", "0-1": "black_wins",
  "0-2": "black_wins", "1/2-1/2": "draw", "1-1": "draw", "0-0": "both_lose" };

export const resultShown = (code) => (code === "1/2-1/2" ? "½-½" : code);

export function resultMessage(code) {
  const kind = RESULT_MESSAGES[code];
  return kind ? { id: "result." + kind, params: { result: resultShown(code) } } : String(code);
}
