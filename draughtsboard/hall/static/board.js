// What the hall page and the projector view both draw from a board's summary: the
// mini-board, the last move with its number, clocks. Text is only ever set as text, and
// every word comes from the catalog (words.js, loaded first).
"use strict";

window.HallBoard = (() => {
  // A message of the catalog in the reader's language
  function say(id, params) { return Words.text(id, params); }

  // A pairing's state (a code: sent, waiting, held, refused, delivered, not started)
  function pairingState(state) {
    const id = "hall.pairing.state." + String(state).replace(/\s+/g, "_");
    return Words.has(id) ? say(id) : String(state);
  }

  // A command the hall sends a board (new_game, takeback, ...), named for people
  function commandName(cmd) {
    return Words.has("hall.command." + cmd) ? say("hall.command." + cmd) : String(cmd);
  }

  function variantName(variant) {
    return Words.has("hall.variant." + String(variant).replace(/-/g, "_")) ? say("hall.variant." + String(variant).replace(/-/g, "_")) : String(variant);
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function clock(seconds) {
    if (seconds === null || seconds === undefined) return "";
    const s = Math.max(0, Math.round(seconds));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const rest = String(s % 60).padStart(2, "0");
    return h ? h + ":" + String(m).padStart(2, "0") + ":" + rest : m + ":" + rest;
  }

  // "12. c3-d4" after White's move, "12… f6-g5" after Black's (the side to move now is
  // the other one)
  function lastMove(summary) {
    if (!summary.ply) return say("hall.no_move");
    const dots = summary.white_to_move ? "… " : ". ";
    return summary.move_number + dots + summary.last_move;
  }

  // What stands on a square, as a subject: "white man", "black king", a column's pieces
  // top first (in the column games a crowned piece is an officer)
  function pieceName(column, columns) {
    const crowned = columns ? "officer" : "king";
    const one = (letter) => "piece." + (letter === letter.toUpperCase() ? crowned : "man") + "."
      + (letter.toLowerCase() === "w" ? "white" : "black");
    if (column.length === 1) return say(one(column));
    const tops = [...column].map((letter) => letter === letter.toUpperCase()
      ? say("piece.officer." + (letter === "W" ? "white" : "black"))
      : say("piece.top." + (letter === "w" ? "white" : "black")));
    return say("piece.column", { count: column.length, pieces: { list: tops } });
  }

  // A square's accessible name: "c3, white man" or "c3, empty"
  function squareText(name, column, columns) {
    return column ? say("hall.a11y.square.piece", { square: name, piece: pieceName(column, columns) })
      : say("hall.a11y.square.empty", { square: name });
  }

  // A board's position, small: a picture for the eye and, for a screen reader, a list of
  // the occupied squares by name and contents ("c3, white man"). Made once per variant
  // and updated in place (``update(summary)``): a redraw never re-creates it.
  function miniBoard(variants) {
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
  function players(summary) {
    const pairing = summary.pairing;
    const named = summary.game && (summary.white || summary.black);
    if (pairing && !named) {
      return { white: pairing.white || "?", black: pairing.black || "?", owed: true };
    }
    return { white: summary.white || "?", black: summary.black || "?", owed: false };
  }

  // The hall's live stream: ``onHall(data)`` with everything, ``onBoards(summaries)``
  // with the boards that changed, ``onInfo(hall)``; the connection badge kept up to date
  function listen(badge, onHall, onBoards, onInfo) {
    const source = new EventSource("/api/events");
    source.addEventListener("hall", (event) => {
      badge.textContent = say("hall.connection.live");
      badge.className = "status live";
      onHall(JSON.parse(event.data));
    });
    source.addEventListener("boards", (event) => onBoards(JSON.parse(event.data)));
    source.addEventListener("info", (event) => onInfo(JSON.parse(event.data)));
    source.onerror = () => {
      badge.textContent = say("hall.connection.reconnecting");
      badge.className = "status alert";
    };
  }

  return { el, clock, lastMove, miniBoard, pieceName, squareText, players, listen, say, pairingState, commandName, variantName };
})();
