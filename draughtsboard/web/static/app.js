// The board's page: draws the session's view, sends the hands' and the arbiter's actions.
// Everything shown is set with textContent: names and tags are never read as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
let view = null;
let built = "";
let dragFrom = null;
let pressedAt = 0;
let focusSquare = null;
let token = sessionStorage.getItem("arbiterToken") || "";
let tokenAccepted = false;
let serverOffset = 0; // the board's wall clock minus this device's, in seconds
const HOLD_MS = 500; // a press this long reads a square without touching it

const PIECE_WORDS = { w: "white man", b: "black man", W: "white king", B: "black king" };
const TOP_WORDS = { w: "white", b: "black", W: "white king", B: "black king" };
// Lasca and the column games call a crowned piece an officer
const OFFICER_WORDS = { w: "white man", b: "black man", W: "white officer", B: "black officer" };
const OFFICER_TOP_WORDS = { w: "white", b: "black", W: "white officer", B: "black officer" };
const LED_WORDS = { on: "lit", slow_blink: "blinking slowly", fast_blink: "blinking fast" };
const RESULT_WORDS = { "1-0": "1-0 (White wins)", "2-0": "2-0 (White wins)",
  "0-1": "0-1 (Black wins)", "0-2": "0-2 (Black wins)", "1/2-1/2": "½-½ (draw)",
  "1-1": "1-1 (draw)", "0-0": "0-0 (both lose)" };

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Messages: an error from a request that never reached the board ("network") is cleared
// as soon as the live stream is back; other messages stay until the next action.
let messageKind = "";

function say(text, isError, kind) {
  const message = $("message");
  message.textContent = text || "";
  message.className = isError ? "error" : "";
  messageKind = text ? (kind || "action") : "";
}

// -- the board ----------------------------------------------------------------------------

function describeColumn(column) {
  if (!column) return "empty";
  const officers = view && view.officers;
  const pieceWords = officers ? OFFICER_WORDS : PIECE_WORDS;
  const topWords = officers ? OFFICER_TOP_WORDS : TOP_WORDS;
  if (column.length === 1) return pieceWords[column] || "a piece";
  return "column of " + column.length + ", top first: "
    + [...column].map((p) => topWords[p] || "?").join(", ");
}

function labelsMode(v) {
  const saved = localStorage.getItem("labels:" + (v.algebraic ? "algebraic" : "numeric"));
  return saved || (v.algebraic ? "coords" : "numbers");
}

function buildBoard(v) {
  const board = $("board");
  board.replaceChildren();
  $("board-frame").style.setProperty("--size", v.size);
  const bySquare = new Map(v.squares.map((s) => [s[1] + "," + s[2], s]));
  let first = null;
  for (let rank = v.size - 1; rank >= 0; rank--) {
    const row = el("div", "row");
    row.setAttribute("role", "row");
    for (let file = 0; file < v.size; file++) {
      const info = bySquare.get(file + "," + rank);
      if (!info) {
        const light = el("div", "sq light");
        light.setAttribute("aria-hidden", "true");
        row.appendChild(light);
        continue;
      }
      const [number, , , name] = info;
      const cell = el("div", "sq dark");
      cell.dataset.square = number;
      cell.dataset.name = name;
      cell.dataset.file = file;
      cell.dataset.rank = rank;
      cell.setAttribute("role", "gridcell");
      cell.tabIndex = -1;
      cell.appendChild(el("span", "num", String(number)));
      cell.appendChild(el("div", "stack"));
      cell.appendChild(el("span", "led"));
      cell.addEventListener("pointerdown", onPointerDown);
      cell.addEventListener("pointerup", onPointerUp);
      cell.addEventListener("pointerenter", () => inspect(cell));
      cell.addEventListener("focus", () => { focusSquare = number; inspect(cell); });
      cell.addEventListener("keydown", onKey);
      row.appendChild(cell);
      if (first === null) first = cell;
    }
    board.appendChild(row);
  }
  (first || board).tabIndex = 0;
  const files = $("files");
  const ranks = $("ranks");
  files.replaceChildren();
  ranks.replaceChildren();
  for (let file = 0; file < v.size; file++) files.appendChild(el("span", "", "abcdefghijklmnopqrstuvwxyz"[file]));
  for (let rank = v.size; rank >= 1; rank--) ranks.appendChild(el("span", "", String(rank)));
  built = v.variant + ":" + v.size;
  $("labels").value = labelsMode(v);
  applyLabels();
}

function applyLabels() {
  const frame = $("board-frame");
  frame.dataset.labels = $("labels").value;
}

function drawPiece(code, extraClass) {
  const white = code.toLowerCase() === "w";
  const king = code === "W" || code === "B";
  const piece = el("span", "piece " + (white ? "white" : "black") + (king ? " king" : "")
    + (extraClass ? " " + extraClass : ""));
  if (king) piece.appendChild(el("span", "crown", "♛"));
  return piece;
}

function drawStack(stack, column, extraClass) {
  // a column seen from the side: its lower pieces as rims under the top one
  const lower = [...column.slice(1, 6)].reverse();
  stack.classList.toggle("tall", lower.length > 0);
  stack.style.setProperty("--step", "calc(var(--cell) * " + (lower.length ? Math.min(0.13, 0.32 / lower.length) : 0) + ")");
  lower.forEach((code, i) => {
    const rim = drawPiece(code, "rim" + (extraClass ? " " + extraClass : ""));
    rim.style.setProperty("--depth", lower.length - i);
    stack.appendChild(rim);
  });
  stack.appendChild(drawPiece(column[0], extraClass));
  if (column.length > 1) stack.appendChild(el("span", "height", String(column.length)));
}

function squareWords(v, cell) {
  const number = Number(cell.dataset.square);
  const column = v.columns[number] || "";
  const sensed = v.occupied.includes(number);
  const name = v.algebraic ? cell.dataset.name : String(number);
  let words = name + ": ";
  if (column && sensed) words += describeColumn(column);
  else if (column) words += describeColumn(column) + ", lifted";
  else if (sensed) {
    const carried = v.carried[number];
    words += carried ? describeColumn(carried) + " put down here" : "a piece where none should be";
  } else words += "empty";
  const lit = v.leds[number];
  if (lit) words += "; LED " + (lit[1] ? lit[1] + " " : "") + (LED_WORDS[lit[0]] || lit[0]);
  return words;
}

let inspected = null;

function inspect(cell) {
  inspected = cell;
  if (view) setText($("inspect"), squareWords(view, cell));
}

function drawBoard(v) {
  if (built !== v.variant + ":" + v.size) buildBoard(v);
  const occupied = new Set(v.occupied);
  const last = v.last_move || { path: [], captures: [] };
  const intents = {};
  for (const [k, squares] of Object.entries(v.intents)) intents[k] = new Set(squares);
  for (const cell of $("board").querySelectorAll(".sq.dark")) {
    const number = Number(cell.dataset.square);
    const column = v.columns[number] || "";
    const sensed = occupied.has(number);
    const stack = cell.querySelector(".stack");
    stack.replaceChildren();
    if (column && sensed) drawStack(stack, column);
    else if (column) drawStack(stack, column, "lifted");
    else if (sensed && v.carried[number]) drawStack(stack, v.carried[number], "carried");
    else if (sensed) stack.appendChild(el("span", "piece unknown"));
    cell.classList.toggle("is-lifted", !!column && !sensed);
    cell.classList.toggle("is-landing", !column && sensed && !!v.carried[number]);
    cell.classList.toggle("lm", last.path.includes(number));
    cell.classList.toggle("lm-taken", last.captures.includes(number));
    for (const intent of ["illegal", "restore", "must_capture", "ambiguous", "destination",
      "path", "game_over", "take_off", "opponent_from", "opponent_path", "opponent_take"]) {
      cell.classList.toggle("intent-" + intent, !!intents[intent] && intents[intent].has(number));
    }
    const led = cell.querySelector(".led");
    const lit = v.leds[number];
    led.className = "led" + (lit ? " lit " + lit[0] + " " + (lit[1] || "on-colour") : "");
    const words = squareWords(v, cell);
    cell.setAttribute("aria-label", words);
    cell.title = words;
  }
  if (inspected && inspected.isConnected) inspect(inspected);
}

// -- keyboard: arrows move between dark squares, Enter or Space acts (simulator) ------------

function cellAt(file, rank) {
  return $("board").querySelector(`.sq.dark[data-file="${file}"][data-rank="${rank}"]`);
}

function onKey(event) {
  const cell = event.currentTarget;
  const file = Number(cell.dataset.file);
  const rank = Number(cell.dataset.rank);
  const moves = { ArrowUp: [[1, 1], [-1, 1]], ArrowDown: [[-1, -1], [1, -1]],
    ArrowLeft: [[-2, 0], [-1, 1], [-1, -1]], ArrowRight: [[2, 0], [1, 1], [1, -1]] };
  if (moves[event.key]) {
    event.preventDefault();
    for (const [df, dr] of moves[event.key]) {
      const next = cellAt(file + df, rank + dr);
      if (next) { cell.tabIndex = -1; next.tabIndex = 0; next.focus(); break; }
    }
  } else if ((event.key === "Enter" || event.key === " ") && view && view.hands) {
    event.preventDefault();
    hand([["toggle", Number(cell.dataset.square)]]);
  }
}

// -- the rest of the view -------------------------------------------------------------------

function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds - 1e-6));
  const h = Math.floor(s / 3600);
  const m = Math.floor(s / 60) % 60;
  const rest = String(s % 60).padStart(2, "0");
  return h ? h + ":" + String(m).padStart(2, "0") + ":" + rest : m + ":" + rest;
}

function drawClocks() {
  for (const side of ["white", "black"]) {
    const node = $(side + "-clock");
    const player = $(side + "-player");
    const c = view && view.clocks;
    node.hidden = !c;
    if (!c) { player.className = "player"; continue; }
    let left = c[side];
    if (c.running === side && c.since) left -= Date.now() / 1000 + serverOffset - c.since;
    const flagged = c.flagged.includes(side) || (c.running === side && left <= 0);
    node.textContent = (flagged ? "⚑ " : "") + formatClock(left);
    node.title = flagged ? "flag fell: time is up" : c.status === "waiting"
      ? "the clock starts with the first move" : c.status;
    player.className = "player" + (c.running === side ? " running" : "")
      + (flagged ? " flagged" : "") + " clock-" + c.status;
  }
}

// Live regions are read out when they change: set them only when their words change.
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

let shownFlags = "";

function drawFlags(v) {
  const flags = $("flags");
  const items = v.guidance.slice();
  if (v.draw_claim) {
    const why = v.draw_claim.reasons.join("; ");
    items.push({ kind: "draw", title: "Draw by the rules",
      steps: [why[0].toUpperCase() + why.slice(1) + ": the arbiter may declare the draw"] });
  }
  if (v.clocks) {
    for (const side of v.clocks.flagged) {
      items.push({ kind: "flag", title: side[0].toUpperCase() + side.slice(1) + "'s flag fell",
        steps: ["The time is up; play goes on until the arbiter rules"] });
    }
  }
  if (v.held && v.held.length) {
    items.push({ kind: "error", title: "Not recorded: " + v.held.join(", "),
      steps: ["The moves could not be written" + (v.recording_error ? " (" + v.recording_error + ")" : "")
        + "; they are kept in order and written as soon as the disk allows it"] });
  }
  if (v.damage) {
    items.push({ kind: "error", title: "The game's journal is damaged",
      steps: [v.damage.text, v.damage.resumable
        ? "The arbiter resumes from the last good record, or starts a new game"
        : "The arbiter starts a new game (the damaged file is kept)"] });
  }
  if (v.link_problem) {
    items.push({ kind: "error", title: "The board's link is down",
      steps: [v.link_problem, "Moves are not seen until it is back"] });
  }
  if (v.error) items.push({ kind: "error", title: "The board stopped", steps: [v.error] });
  const key = JSON.stringify(items);
  if (key === shownFlags) return;
  shownFlags = key;
  flags.replaceChildren();
  for (const flag of items) {
    const li = el("li", "flag flag-" + flag.kind);
    li.appendChild(el("strong", "", flag.title));
    for (const step of flag.steps) li.appendChild(el("span", "step", step));
    flags.appendChild(li);
  }
}

function drawMoves(v) {
  const moves = $("moves");
  moves.replaceChildren();
  const blackFirst = v.moves.length > 0 && startsWithBlack(v);
  const irregular = new Set(v.irregular_moves || []);
  // the move list with a gap before Black's first move when Black started
  const list = blackFirst ? [null, ...v.moves.map((_, i) => i)] : v.moves.map((_, i) => i);
  const moveSpan = (ply) => ply === null ? el("span", "move", "…")
    : el("span", irregular.has(ply) ? "move irregular" : "move",
      v.moves[ply] + (irregular.has(ply) ? " (irregular)" : ""));
  for (let i = 0; i < list.length; i += 2) {
    const li = el("li");
    li.appendChild(moveSpan(list[i]));
    if (i + 1 < list.length) li.appendChild(moveSpan(list[i + 1]));
    moves.appendChild(li);
  }
  moves.scrollTop = moves.scrollHeight;
  $("result").textContent = v.result ? v.result + (v.result_reason ? " (" + v.result_reason + ")" : "") : "";
}

function startsWithBlack(v) {
  // the side to move now and the number of moves say who moved first
  return (v.moves.length % 2 === 0) !== v.white_to_move;
}

function drawSide(v) {
  const tags = v.tags || {};
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
  $("unacknowledged").title = v.unacknowledged ? v.unacknowledged + " flags not acknowledged" : "";
}

function drawArbiter(v) {
  const select = $("result-value");
  if (select.options.length === 1) {
    for (const r of v.results) {
      const option = el("option", "", RESULT_WORDS[r] || r);
      option.value = r;
      select.appendChild(option);
    }
  }
  $("result-form").hidden = !!v.result;
  $("withdraw-box").hidden = !v.result_withdrawable;
  $("repair-box").hidden = !(v.damage && v.damage.resumable);
  if (v.damage) $("repair-text").textContent = v.damage.text;
  $("draw-offer").hidden = !v.draw_claim;
  if (v.draw_claim) {
    $("draw-offer-text").textContent = "The rules declare a draw (" + v.draw_claim.reasons.join("; ")
      + "). Declare it, or let play go on.";
  }
  const c = v.clocks;
  $("clock-box").hidden = !c || !!v.result;
  $("clock-start").disabled = !c || c.status !== "waiting";
  $("clock-pause").disabled = !c || c.status !== "running";
  $("clock-resume").disabled = !c || c.status !== "paused";
}

function drawNotices(v) {
  const box = $("notices");
  const key = v.game_id + ":" + v.notices.join("|");
  box.hidden = !v.notices.length || sessionStorage.getItem("dismissed") === key;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  for (const text of v.notices) box.appendChild(el("p", "", text));
  const close = el("button", "", "OK");
  close.type = "button";
  close.addEventListener("click", () => { sessionStorage.setItem("dismissed", key); box.hidden = true; });
  box.appendChild(close);
}

function drawOpponent(v) {
  const o = v.opponent;
  $("opponent-box").hidden = !o || !o.error;
  if (o && o.error) setText($("opponent-error"), "The opponent failed: " + o.error);
  $("opponent-continue").hidden = !o || !o.can_continue;
}

function draw(v) {
  view = v;
  drawBoard(v);
  const tags = v.tags || {};
  $("white-name").textContent = tags.White || "White";
  $("black-name").textContent = tags.Black || "Black";
  $("summary").textContent = v.title.split(" (")[0] + " · " + v.mode
    + (v.backend === "sim" ? " · simulator" : "");
  $("summary").title = v.title + ", " + v.mode + " mode, " + v.backend + " board";
  const number = v.game_id.split("-")[0].replace(/^0+/, "");
  $("game-id").textContent = "game " + number;
  $("game-id").title = "game " + v.game_id;
  setText($("status"), v.status);
  $("status").dataset.state = v.result ? "result" : v.state;
  drawFlags(v);
  drawMoves(v);
  drawSide(v);
  drawArbiter(v);
  drawNotices(v);
  drawOpponent(v);
  $("hands-panel").hidden = !v.hands;
  drawClocks();
}

// -- requests -------------------------------------------------------------------------------

async function post(url, body, withToken) {
  const headers = { "Content-Type": "application/json" };
  if (withToken) headers.Authorization = "Bearer " + token;
  let response;
  try {
    response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  } catch (e) {
    const error = new Error("the board did not answer: is it running? (" + e.message + ")");
    error.network = true;
    throw error;
  }
  let data = {};
  try { data = await response.json(); } catch (e) { data = {}; }
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
}

// One request at a time, in order: a quick second click must not overtake the first.
let handQueue = Promise.resolve();

function hand(actions) {
  if (!view || !view.hands) return;
  handQueue = handQueue.then(() => post("/api/hands", { actions }))
    .then(() => { if (messageKind !== "arbiter") say(""); },
      (e) => say(e.message, true, e.network ? "network" : "action"));
}

function onPointerDown(event) {
  pressedAt = Date.now();
  dragFrom = Number(event.currentTarget.dataset.square);
  event.currentTarget.releasePointerCapture?.(event.pointerId);
}

function onPointerUp(event) {
  const cell = event.currentTarget;
  const to = Number(cell.dataset.square);
  const from = dragFrom;
  dragFrom = null;
  inspect(cell);
  if (!view || !view.hands || from === null) return;
  if (from === to) {
    if (Date.now() - pressedAt >= HOLD_MS) return; // held: read it, do not touch it
    // the board knows best whether a piece is there now: lift it, or put one down
    hand([["toggle", to]]);
  } else {
    hand([["lift", from], ["place", to]]);
  }
}

// -- the arbiter --------------------------------------------------------------------------------

function arbiter(path, body) {
  return post("/api/arbiter/" + path, body || {}, true)
    .then((data) => { say(""); return data; },
      (e) => {
        if (e.status === 401) refused();
        say(e.message, true, e.network ? "network" : "arbiter");
        throw e;
      });
}

function refused() {
  tokenAccepted = false;
  $("token-status").textContent = "refused: enter the current token";
}

function checkToken() {
  if (!token) {
    tokenAccepted = false;
    $("token-status").textContent = "";
    return Promise.resolve(false);
  }
  return post("/api/arbiter/check", {}, true).then(
    () => { tokenAccepted = true; $("token-status").textContent = "accepted"; return true; },
    (e) => {
      if (e.network) return tokenAccepted;
      refused();
      return false;
    });
}

function needToken() {
  if (tokenAccepted) return true;
  say("Enter the arbiter token first (it is printed when the board starts; "
    + "`draughtsboard token` shows it).", true, "arbiter");
  $("arbiter").open = true;
  $("token").focus();
  return false;
}

// An in-page confirmation (a <dialog>): resolves true when OK is chosen.
function confirmAction(title, text, okText, withNewGame) {
  const dialog = $("confirm");
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = okText;
  $("new-game-fields").hidden = !withNewGame;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
    $(withNewGame ? "new-white" : "confirm-ok").focus();
  });
}

function setUpForms() {
  // Cancel is not a submit button: Enter in the dialog's fields means OK
  $("confirm-cancel").addEventListener("click", () => $("confirm").close("cancel"));
  $("token").value = token;
  $("token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    token = $("token").value.trim();
    sessionStorage.setItem("arbiterToken", token);
    checkToken().then((ok) => { if (ok) say(""); });
  });
  $("tags-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const key = $("tag-key").value.trim();
    if (key && needToken()) arbiter("tags", { tags: { [key]: $("tag-value").value } }).catch(() => {});
  });
  $("result-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const result = $("result-value").value;
    if (!result) { say("Choose the result first.", true, "arbiter"); $("result-value").focus(); return; }
    if (!needToken()) return;
    const reason = $("result-reason").value.trim();
    const ok = await confirmAction("Declare " + (RESULT_WORDS[result] || result) + "?",
      (reason ? "Reason: " + reason + ". " : "") + "It goes into the record at once; "
      + "you can withdraw it until the next game starts.", "Declare " + result);
    if (!ok) return;
    arbiter("result", { result, reason }).then(() => {
      $("result-value").value = "";
      $("result-reason").value = "";
    }, () => {});
  });
  $("withdraw").addEventListener("click", async () => {
    if (!needToken() || !view) return;
    const ok = await confirmAction("Withdraw the result " + view.result + "?",
      "The game is open again and goes on once the board shows its position.", "Withdraw");
    if (ok) arbiter("withdraw-result").catch(() => {});
  });
  $("repair").addEventListener("click", async () => {
    if (!needToken() || !view || !view.damage) return;
    const ok = await confirmAction("Resume from the last good record?",
      "The damaged file is kept as a copy; moves after the damage must be played again.",
      "Resume");
    if (ok) arbiter("repair", { action: "resume" }).catch(() => {});
  });
  $("accept-draw").addEventListener("click", async () => {
    if (!needToken() || !view || !view.draw_claim) return;
    const ok = await confirmAction("Declare the draw " + view.draw_claim.result + "?",
      view.draw_claim.reasons.join("; ") + ".", "Declare the draw");
    if (ok) arbiter("accept-draw").catch(() => {});
  });
  for (const action of ["start", "pause", "resume"]) {
    $("clock-" + action).addEventListener("click", () => {
      if (needToken()) arbiter("clock", { action }).catch(() => {});
    });
  }
  $("accept-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!needToken()) return;
    const fen = $("accept-fen").value.trim();
    const side = $("accept-side").value;
    const ok = await confirmAction("Accept the position, " + side + " to move?",
      (fen ? "The position " + fen : "The position the board shows")
      + " becomes the game's position (an arbiter correction in the record).", "Accept");
    if (ok) arbiter("accept-position", { white_to_move: side === "white", fen: fen || null })
      .catch(() => {});
  });
  $("takeback-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!needToken()) return;
    const ply = parseInt($("takeback-ply").value, 10);
    if (Number.isNaN(ply) || ply < 0) { say("Give the ply to go back to (0: the start).", true, "arbiter"); return; }
    const ok = await confirmAction("Take the game back to ply " + ply + "?",
      "The moves after it leave the move list (the record keeps the take-back); the board "
      + "lights what differs until it shows that position.", "Take back");
    if (ok) arbiter("take-back", { ply }).catch(() => {});
  });
  $("acknowledge").addEventListener("click", () => {
    if (needToken()) arbiter("acknowledge").catch(() => {});
  });
  $("new-game").addEventListener("click", async () => {
    if (!needToken()) return;
    const unfinished = view && !view.result;
    const ok = await confirmAction("Start a new game?", unfinished
      ? "The current game has no result: it is closed as unfinished (*)."
      : "The current game keeps its result " + view.result + ".", "Start the new game", true);
    if (!ok) return;
    const tags = {};
    for (const [key, id] of [["White", "new-white"], ["Black", "new-black"], ["Round", "new-round"]]) {
      const value = $(id).value.trim();
      if (value) tags[key] = value;
    }
    arbiter("new-game", { tags }).then(() => {
      for (const id of ["new-white", "new-black", "new-round"]) $(id).value = "";
    }, () => {});
  });
  $("setup").addEventListener("click", () => hand([["setup", null]]));
  $("opponent-continue").addEventListener("click", () => {
    const level = Number($("opponent-continue-level").value);
    post("/api/opponent/continue", { level }).then(() => say(""),
      (e) => say(e.message, true, e.network ? "network" : "action"));
  });
  $("labels").addEventListener("change", () => {
    if (view) localStorage.setItem("labels:" + (view.algebraic ? "algebraic" : "numeric"), $("labels").value);
    applyLabels();
  });
  document.addEventListener("pointerup", () => { dragFrom = null; });
}

// -- live updates -------------------------------------------------------------------------------

function connect() {
  const source = new EventSource("/api/events");
  source.onopen = () => {
    $("connection").textContent = "live";
    $("connection").className = "badge live";
    if (messageKind === "network") say("");
    checkToken(); // a restarted board, or a rotated token: the status tells the truth
  };
  source.onmessage = (event) => {
    const v = JSON.parse(event.data);
    draw(v);
    document.dispatchEvent(new CustomEvent("draughtsboard:view", { detail: v }));
    document.body.dataset.version = v.version;
  };
  source.addEventListener("now", (event) => {
    serverOffset = Number(event.data) - Date.now() / 1000;
  });
  source.onerror = () => {
    $("connection").textContent = "reconnecting…";
    $("connection").className = "badge down";
  };
}

setUpForms();
connect();
setInterval(drawClocks, 250);
