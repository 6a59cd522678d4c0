// What the hall page and the projector view both draw from a board's summary: the
// mini-board, the last move with its number, the players, the live stream. Text is only
// ever set as text, and every word comes from the catalog (words.js, loaded first). The
// clock's format, the names of pieces and el() are the kit's (/kit, shared with the
// board's page): one game shows one time everywhere.

import { el } from "/kit/dom.js";
import { columnMessage } from "/kit/board.js";
import { stream } from "/kit/net.js";

export { el };
import { clockShown, clockText } from "/kit/clock.js";
export { clockText as clock } from "/kit/clock.js";

// A summary (or a detail) as received: stamped with when, on this page's own clock, so
// that its game clock (``clock``: seconds left as of the hall's sending, and the side
// whose time goes) counts down from there, as the board's page counts its own
export function received(summary) {
  if (summary && summary.clock) summary.clockAt = Date.now() / 1000;
  return summary;
}

// The game's clocks now as text, [white, black], or null, as the board's page writes
// them (the kit's clockShown): the board's game clock counted down from when this page
// received it, when the board sends one; else (an older board) the clocks recorded with
// the last move, standing
export function clockTexts(summary) {
  const reading = summary && summary.clock;
  if (!reading) return (summary && summary.clocks && summary.clocks.map(clockText)) || null;
  const elapsed = Date.now() / 1000 - (summary.clockAt || Date.now() / 1000);
  return ["white", "black"].map((side) => clockShown(reading, side, elapsed).text);
}

// The side whose time goes now ("white", "black"), or null (paused, waiting, over)
export function clockRunning(summary) {
  return (summary && summary.clock && summary.clock.running) || null;
}

// A message of the catalog in the reader's language
export function say(id, params) { return Words.text(id, params); }

// A pairing's state (a code: sent, waiting, held, refused, delivered, not started)
export function pairingState(state) {
  const id = "hall.pairing.state." + String(state).replace(/\s+/g, "_");
  return Words.has(id) ? say(id) : String(state);
}

// A command the hall sends a board (new_game, takeback, ...), named for people
export function commandName(cmd) {
  return Words.has("hall.command." + cmd) ? say("hall.command." + cmd) : String(cmd);
}

export function variantName(variant) {
  return Words.has("hall.variant." + String(variant).replace(/-/g, "_")) ? say("hall.variant." + String(variant).replace(/-/g, "_")) : String(variant);
}

// "12. c3-d4" after White's move, "12… f6-g5" after Black's (the side to move now is
// the other one)
export function lastMove(summary) {
  if (!summary.ply) return say("hall.no_move");
  const dots = summary.white_to_move ? "… " : ". ";
  return summary.move_number + dots + summary.last_move;
}

// What stands on a square, as a subject: "white man", "black king", a column's pieces
// top first (in the column games a crowned piece is an officer)
export function pieceName(column, columns) {
  return Words.render(columnMessage(column, columns));
}

// A square's accessible name: "c3, white man" or "c3, empty"
export function squareText(name, column, columns) {
  return column ? say("hall.a11y.square.piece", { square: name, piece: pieceName(column, columns) })
    : say("hall.a11y.square.empty", { square: name });
}

// A board's position, small: a picture for the eye and, for a screen reader, a list of
// the occupied squares by name and contents ("c3, white man"). Made once per variant
// and updated in place (``update(summary)``): a redraw never re-creates it.
export function miniBoard(variants) {
  const grid = el("div", "mini");
  grid.setAttribute("role", "list");
  let shape = null;
  let cells = new Map(); // square number -> [cell, its words]
  function build(variant) {
    const v = variants[variant];
    shape = variant;
    cells = new Map();
    grid.replaceChildren();
    if (!v) return;
    grid.style.setProperty("--size", v.size);
    const bySquare = new Map(v.squares.map((s) => [s[1] + "," + s[2], s]));
    for (let rank = v.size - 1; rank >= 0; rank--) {
      for (let file = 0; file < v.size; file++) {
        const square = bySquare.get(file + "," + rank);
        const cell = el("div", square ? "dark" : "");
        cell.setAttribute("aria-hidden", "true");
        if (square) {
          const told = el("span", "sr-only");
          cell.appendChild(told);
          cells.set(square[0], [cell, told, square[3] || String(square[0])]);
        }
        grid.appendChild(cell);
      }
    }
  }
  function update(summary, label) {
    if (label !== undefined && grid.getAttribute("aria-label") !== label) grid.setAttribute("aria-label", label);
    if (summary.variant !== shape) build(summary.variant);
    const columns = Boolean((variants[summary.variant] || {}).columns);
    for (const [number, [cell, told, name]] of cells) {
      const column = (summary.pieces || {})[String(number)] || "";
      const key = column + "|" + Words.language;
      if (cell.dataset.column === key) continue;
      cell.dataset.column = key;
      cell.classList.remove("piece", "w", "b", "king");
      if (column) {
        const top = column[0];
        cell.classList.add("piece", top.toLowerCase() === "w" ? "w" : "b");
        if (top === "W" || top === "B") cell.classList.add("king");
        told.textContent = squareText(name, column, columns);
        cell.setAttribute("role", "listitem");
        cell.removeAttribute("aria-hidden");
      } else {
        told.textContent = "";
        cell.removeAttribute("role");
        cell.setAttribute("aria-hidden", "true");
      }
    }
  }
  return { node: grid, update };
}

// The players of a board: its game's, else (a game without players: the start-up
// game, or none) the pairing the hall still owes it, marked as owed
export function players(summary) {
  const pairing = summary.pairing;
  const named = summary.game && (summary.white || summary.black);
  if (pairing && !named) {
    return { white: pairing.white || "?", black: pairing.black || "?", owed: true };
  }
  return { white: summary.white || "?", black: summary.black || "?", owed: false };
}

// The hall's live stream: ``onHall(data)`` with everything, ``onBoards(summaries)``
// with the boards that changed, ``onInfo(hall)``; the connection badge kept up to date
export function listen(badge, onHall, onBoards, onInfo) {
  stream("/api/events", {
    hall(event) {
      badge.textContent = say("hall.connection.live");
      badge.className = "status live";
      const data = JSON.parse(event.data);
      for (const summary of data.boards || []) received(summary);
      onHall(data);
    },
    boards: (event) => onBoards(JSON.parse(event.data).map(received)),
    info: (event) => onInfo(JSON.parse(event.data)),
    error() {
      badge.textContent = say("hall.connection.reconnecting");
      badge.className = "status alert";
    },
  });
}
