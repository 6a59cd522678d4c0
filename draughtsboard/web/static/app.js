// The board's page: draws the session's view, sends the hands' and the arbiter's actions.
// Everything shown is set with textContent: names and tags are never read as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
let view = null;
let built = "";
let dragFrom = null;
let token = sessionStorage.getItem("arbiterToken") || "";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function say(text, isError) {
  const message = $("message");
  message.textContent = text || "";
  message.className = isError ? "error" : "";
}

// -- the board ----------------------------------------------------------------------------

function buildBoard(v) {
  const board = $("board");
  board.replaceChildren();
  board.style.setProperty("--size", v.size);
  const bySquare = new Map(v.squares.map((s) => [s[1] + "," + s[2], s]));
  for (let rank = v.size - 1; rank >= 0; rank--) {
    for (let file = 0; file < v.size; file++) {
      const info = bySquare.get(file + "," + rank);
      if (!info) {
        board.appendChild(el("div", "sq light"));
        continue;
      }
      const [number, , , name] = info;
      const cell = el("div", "sq dark");
      cell.dataset.square = number;
      cell.setAttribute("role", "gridcell");
      cell.title = name + " (" + number + ")";
      cell.appendChild(el("span", "num", String(number)));
      cell.appendChild(el("span", "led"));
      cell.appendChild(el("div", "stack"));
      cell.addEventListener("pointerdown", onPointerDown);
      cell.addEventListener("pointerup", onPointerUp);
      board.appendChild(cell);
    }
  }
  built = v.variant + ":" + v.size;
}

function drawPiece(code, extraClass) {
  const white = code.toLowerCase() === "w";
  const king = code === "W" || code === "B";
  const piece = el("span", "piece " + (white ? "white" : "black") + (king ? " king" : "")
    + (extraClass ? " " + extraClass : ""));
  if (king) piece.appendChild(el("span", "crown", "♛"));
  return piece;
}

function drawBoard(v) {
  if (built !== v.variant + ":" + v.size) buildBoard(v);
  const occupied = new Set(v.occupied);
  const switches = v.switches ? new Set(v.switches) : null;
  for (const cell of $("board").querySelectorAll(".sq.dark")) {
    const number = cell.dataset.square;
    const column = v.columns[number] || "";
    const sensed = occupied.has(Number(number));
    const stack = cell.querySelector(".stack");
    stack.replaceChildren();
    cell.classList.toggle("occupied", sensed);
    if (column && sensed) {
      // a column (Lasca) shows top first; a single piece is a column of one
      const shown = column.slice(0, 4);
      [...shown].reverse().forEach((code, i) => {
        const piece = drawPiece(code);
        piece.style.setProperty("--level", i);
        stack.appendChild(piece);
      });
      if (column.length > 1) stack.appendChild(el("span", "height", String(column.length)));
    } else if (column && !sensed) {
      stack.appendChild(drawPiece(column[0], "lifted"));
    } else if (!column && sensed) {
      stack.appendChild(el("span", "piece unknown"));
    }
    const led = cell.querySelector(".led");
    const lit = v.leds[number];
    led.className = "led" + (lit ? " " + lit[0] + " " + (lit[1] || "on-colour") : "");
    cell.classList.toggle("in-hand", !!switches && !switches.has(Number(number)) && !!column);
    for (const intent of ["illegal", "restore", "must_capture", "ambiguous", "destination",
      "path", "last_move"]) {
      cell.classList.toggle("intent-" + intent,
        (v.intents[intent] || []).includes(Number(number)));
    }
  }
}

// -- the rest of the view -------------------------------------------------------------------

function formatClock(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, Math.floor(seconds));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function drawClocks() {
  if (!view || !view.clocks) {
    $("white-clock").textContent = "";
    $("black-clock").textContent = "";
    return;
  }
  const c = view.clocks;
  const spent = c.running && c.since ? Date.now() / 1000 - c.since : 0;
  $("white-clock").textContent = formatClock(c.white - (c.running === "white" ? spent : 0));
  $("black-clock").textContent = formatClock(c.black - (c.running === "black" ? spent : 0));
}

function draw(v) {
  view = v;
  drawBoard(v);
  const tags = v.tags || {};
  $("white-name").textContent = tags.White || "White";
  $("black-name").textContent = tags.Black || "Black";
  $("summary").textContent = v.title + " · " + v.mode + " · " + v.backend
    + " · game " + v.game_id;
  $("turn").textContent = v.result ? "Game over: " + v.result
    + (v.result_reason ? " (" + v.result_reason + ")" : "")
    : (v.white_to_move ? "White" : "Black") + " to move · " + v.state;
  $("turn").dataset.state = v.state;

  const flags = $("flags");
  flags.replaceChildren();
  for (const flag of v.flags) flags.appendChild(el("li", "flag flag-" + flag.replace(/ /g, "-"), flag));
  if (v.draw_reason) flags.appendChild(el("li", "flag flag-draw", v.draw_reason));
  if (v.error) flags.appendChild(el("li", "flag flag-error", "controller stopped: " + v.error));

  const moves = $("moves");
  moves.replaceChildren();
  for (let i = 0; i < v.moves.length; i += 2) {
    const li = el("li");
    li.appendChild(el("span", "move", v.moves[i]));
    if (i + 1 < v.moves.length) li.appendChild(el("span", "move", v.moves[i + 1]));
    moves.appendChild(li);
  }
  moves.scrollTop = moves.scrollHeight;
  $("result").textContent = v.result ? v.result : "";

  const body = $("tags").tBodies[0];
  body.replaceChildren();
  for (const [key, value] of Object.entries(tags)) {
    const row = el("tr");
    row.appendChild(el("th", "", key));
    row.appendChild(el("td", "", value));
    body.appendChild(row);
  }

  const log = $("log");
  log.replaceChildren();
  for (const entry of v.log.slice().reverse()) {
    log.appendChild(el("li", "log-" + entry.kind, entry.kind + ": " + entry.text));
  }
  $("unacknowledged").textContent = v.unacknowledged ? String(v.unacknowledged) : "";

  $("hands-panel").hidden = !v.hands;
  const select = $("result-value");
  if (!select.options.length) {
    for (const r of resultsOf(v)) select.appendChild(el("option", "", r));
  }
  drawClocks();
}

function resultsOf(v) {
  return v.variant === "international" ? ["2-0", "1-1", "0-2", "0-0", "*"]
    : ["1-0", "1/2-1/2", "0-1", "0-0", "*"];
}

// -- the hands (simulator) --------------------------------------------------------------------

async function post(url, body, withToken) {
  const headers = { "Content-Type": "application/json" };
  if (withToken) headers.Authorization = "Bearer " + token;
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  let data = {};
  try { data = await response.json(); } catch (e) { data = {}; }
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// One request at a time, in order: a quick second click must not overtake the first.
let handQueue = Promise.resolve();

function hand(actions) {
  if (!view || !view.hands) return;
  handQueue = handQueue.then(() => post("/api/hands", { actions }))
    .then(() => say(""), (e) => say(e.message, true));
}

function onPointerDown(event) {
  if (!view || !view.hands) return;
  dragFrom = Number(event.currentTarget.dataset.square);
  event.currentTarget.releasePointerCapture?.(event.pointerId);
}

function onPointerUp(event) {
  if (!view || !view.hands || dragFrom === null) return;
  const to = Number(event.currentTarget.dataset.square);
  const from = dragFrom;
  dragFrom = null;
  if (from === to) {
    // the board knows best whether a piece is there now: lift it, or put one down
    hand([["toggle", to]]);
  } else {
    hand([["lift", from], ["place", to]]);
  }
}

// -- the arbiter --------------------------------------------------------------------------------

function arbiter(path, body) {
  return post("/api/arbiter/" + path, body || {}, true)
    .then((data) => { say(""); return data; }, (e) => { say(e.message, true); throw e; });
}

function setUpForms() {
  $("token").value = token;
  $("token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    token = $("token").value.trim();
    sessionStorage.setItem("arbiterToken", token);
    arbiter("check").then(() => { $("token-status").textContent = "accepted"; },
      () => { $("token-status").textContent = "refused"; });
  });
  $("tags-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const key = $("tag-key").value.trim();
    if (key) arbiter("tags", { tags: { [key]: $("tag-value").value } }).catch(() => {});
  });
  $("result-form").addEventListener("submit", (e) => {
    e.preventDefault();
    arbiter("result", { result: $("result-value").value, reason: $("result-reason").value })
      .catch(() => {});
  });
  $("acknowledge").addEventListener("click", () => arbiter("acknowledge").catch(() => {}));
  $("new-game").addEventListener("click", () => {
    if (confirm("Start a new game? The current one is closed as unfinished.")) {
      arbiter("new-game", {}).catch(() => {});
    }
  });
  $("setup").addEventListener("click", () => hand([["setup", null]]));
  document.addEventListener("pointerup", () => { dragFrom = null; });
}

// -- live updates -------------------------------------------------------------------------------

function connect() {
  const source = new EventSource("/api/events");
  source.onopen = () => {
    $("connection").textContent = "live";
    $("connection").className = "badge live";
  };
  source.onmessage = (event) => {
    const v = JSON.parse(event.data);
    draw(v);
    document.dispatchEvent(new CustomEvent("draughtsboard:view", { detail: v }));
    document.body.dataset.version = v.version;
  };
  source.onerror = () => {
    $("connection").textContent = "reconnecting…";
    $("connection").className = "badge down";
  };
}

setUpForms();
connect();
setInterval(drawClocks, 1000);
