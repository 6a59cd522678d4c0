// The board's page: draws the session's view, sends the hands' and the arbiter's actions.
// Everything shown is set with textContent: names and tags are never read as HTML. Every
// word comes from the message catalog (words.js, loaded first): the view's sentences are
// messages rendered with Words.render, the page's own with Words.text. The board widget,
// the clock's format and the request helpers are the kit's (/kit, shared with the hall).

import { el, setText } from "/kit/dom.js";
import { clockShown } from "/kit/clock.js";
import { boardGrid, columnMessage, resultMessage, resultShown, tagLabel, tagValue } from "/kit/board.js";
import { postJson, stream } from "/kit/net.js";

const $ = (id) => document.getElementById(id);
let view = null;
let built = "";
let dragFrom = null;
let pressedAt = 0;
let token = sessionStorage.getItem("arbiterToken") || "";
let tokenAccepted = false;
let serverOffset = 0; // the board's wall clock minus this device's, in seconds
const HOLD_MS = 500; // a press this long reads a square without touching it

const T = (id, params) => Words.text(id, params);
const R = (message) => Words.render(message);
const resultWords = (code) => R(resultMessage(code));

function listed(items) {
  return { list: items, style: "and" };
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

// What stands on a square as a message: Lasca and the column games call a crowned piece
// an officer
function describeColumn(column) {
  return columnMessage(column, Boolean(view && view.officers));
}

function labelsMode(v) {
  const saved = localStorage.getItem("labels:" + (v.algebraic ? "algebraic" : "numeric"));
  return saved || (v.algebraic ? "coords" : "numbers");
}

// The board is the kit's grid (/kit/board.js: the dark squares, one row per rank, one tab
// stop, the arrow keys, Home and End), each cell named by its square and what stands on
// it; here each cell gets its number, its pieces, its LED and the hands.
const grid = boardGrid($("board"), {
  rowClass: "row", darkClass: "sq dark", lightClass: "sq light",
  dark(cell, number) {
    cell.appendChild(el("span", "num", String(number)));
    cell.appendChild(el("div", "stack"));
    cell.appendChild(el("span", "led"));
    cell.addEventListener("pointerdown", onPointerDown);
    cell.addEventListener("pointerup", onPointerUp);
    cell.addEventListener("pointerenter", () => inspect(cell));
  },
  onFocus: (cell) => inspect(cell),
});

function buildBoard(v) {
  grid.build(v);
  $("board-frame").style.setProperty("--size", v.size);
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
  const square = v.algebraic ? cell.dataset.name : String(number);
  let said;
  if (column && sensed) said = { id: "square.contents", params: { square, contents: describeColumn(column) } };
  else if (column) said = { id: "square.lifted", params: { square, contents: describeColumn(column) } };
  else if (sensed) {
    const carried = v.carried[number];
    said = carried ? { id: "square.put_down", params: { square, contents: describeColumn(carried) } }
      : { id: "square.unknown", params: { square } };
  } else said = { id: "square.empty", params: { square } };
  const lit = v.leds[number];
  if (lit) {
    const state = { id: "led." + lit[0] };
    said = lit[1] && Words.has("square.colour." + lit[1])
      ? { id: "square.led", params: { words: said, colour: { id: "square.colour." + lit[1] }, state } }
      : { id: "square.led_plain", params: { words: said, state } };
  }
  for (const mark of marksOf(v, number)) said = { id: "page.a11y.square.marked", params: { words: said, mark } };
  return R(said);
}

// What the board (its intents) and the coach mark on a square, each as the legend's words
const MARKS = [["illegal", "page.legend.square.illegal"], ["restore", "page.legend.square.restore"],
  ["must_capture", "page.legend.square.must_capture"], ["ambiguous", "page.legend.square.ambiguous"],
  ["destination", "page.legend.square.destination"], ["path", "page.legend.square.path"],
  ["opponent_from", "page.legend.square.opponent"], ["opponent_path", "page.legend.square.opponent"],
  ["take_off", "page.legend.square.take_off"], ["opponent_take", "page.legend.square.take_off"]];

function marksOf(v, number) {
  const marks = [];
  const intents = v.intents || {};
  for (const [intent, id] of MARKS) {
    const words = { id };
    if ((intents[intent] || []).includes(number) && !marks.some((m) => m.id === id)) marks.push(words);
  }
  const coach = v.coach || {};
  const hint = coach.hint ? coach.hint.squares || [] : [];
  if (hint.length && hint[0] === number) marks.push({ id: "page.a11y.mark.hint" });
  else if (hint.indexOf(number) > 0) marks.push({ id: "page.a11y.mark.hint_path" });
  if (coach.warning && (coach.warning.squares || []).includes(number)) marks.push({ id: "page.a11y.mark.blunder" });
  return marks;
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
    // attributes changed in place, and only when they change: the focused cell stays
    // the same element, and a screen reader is not told its name again for nothing
    const words = squareWords(v, cell);
    if (cell.getAttribute("aria-label") !== words) {
      cell.setAttribute("aria-label", words);
      cell.title = words;
    }
  }
  if (inspected && inspected.isConnected) inspect(inspected);
}

// -- keyboard: the grid's keys are the kit's; Enter or Space acts (simulator) ------------

$("board").addEventListener("keydown", (event) => {
  const cell = event.target.closest(".sq.dark");
  if (!cell) return;
  if ((event.key === "Enter" || event.key === " ") && view && view.hands) {
    event.preventDefault();
    hand([["toggle", Number(cell.dataset.square)]]);
  }
});

// -- the rest of the view -------------------------------------------------------------------

function drawClocks() {
  for (const side of ["white", "black"]) {
    const node = $(side + "-clock");
    const player = $(side + "-player");
    const c = view && view.clocks;
    node.hidden = !c;
    if (!c) { player.className = "player"; continue; }
    const elapsed = c.since ? Date.now() / 1000 + serverOffset - c.since : 0;
    const { text, flagged } = clockShown(c, side, elapsed);
    node.textContent = text;
    node.title = T(flagged ? "clock.title.flagged" : "clock.title." + c.status);
    player.className = "player" + (c.running === side ? " running" : "")
      + (flagged ? " flagged" : "") + " clock-" + c.status;
  }
}

let shownFlags = "";

function drawFlags(v) {
  const flags = $("flags");
  const items = v.guidance.slice();
  if (v.draw_claim) {
    items.push({ kind: "draw", title: { id: "flag.draw" },
      steps: [{ id: "flag.draw.step", params: { reasons: listed(v.draw_claim.reasons) } }] });
  }
  if (v.clocks) {
    for (const side of v.clocks.flagged) {
      items.push({ kind: "flag", title: { id: "flag.flag_fell." + side },
        steps: [{ id: "flag.flag_fell.step" }] });
    }
  }
  if (v.held && v.held.length) {
    items.push({ kind: "error", title: { id: "flag.not_recorded", params: { moves: listed(v.held) } },
      steps: [v.recording_error ? { id: "flag.not_recorded.step_error", params: { error: v.recording_error } }
        : { id: "flag.not_recorded.step" }] });
  }
  if (v.damage) {
    items.push({ kind: "error", title: { id: "flag.damaged" },
      steps: [v.damage.text, { id: v.damage.resumable ? "flag.damaged.resumable" : "flag.damaged.new_game" }] });
  }
  if (v.link_problem) {
    items.push({ kind: "error", title: { id: "flag.link_down" },
      steps: [v.link_problem, { id: "flag.link_down.step" }] });
  }
  if (v.error) items.push({ kind: "error", title: { id: "flag.stopped" }, steps: [v.error] });
  const key = Words.language + JSON.stringify(items);
  if (key === shownFlags) return;
  shownFlags = key;
  flags.replaceChildren();
  for (const flag of items) {
    const li = el("li", "flag flag-" + flag.kind);
    li.appendChild(el("strong", "", R(flag.title)));
    for (const step of flag.steps) li.appendChild(el("span", "step", R(step)));
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
      irregular.has(ply) ? T("page.move.irregular", { move: v.moves[ply] }) : v.moves[ply]);
  for (let i = 0; i < list.length; i += 2) {
    const li = el("li");
    li.appendChild(moveSpan(list[i]));
    if (i + 1 < list.length) li.appendChild(moveSpan(list[i + 1]));
    moves.appendChild(li);
  }
  moves.scrollTop = moves.scrollHeight;
  $("result").textContent = !v.result ? "" : v.result_reason
    ? T("page.result", { result: v.result, reason: v.result_reason }) : v.result;
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
    row.appendChild(el("th", "", R(tagLabel(key))));
    row.appendChild(el("td", "", R(tagValue(key, value))));
    body.appendChild(row);
  }
  const log = $("log");
  log.replaceChildren();
  for (const entry of v.log.slice().reverse()) {
    const kind = Words.has("log.kind." + entry.kind) ? { id: "log.kind." + entry.kind } : entry.kind;
    log.appendChild(el("li", "log-" + entry.kind,
      T("page.log.entry", { kind, text: entry.text })));
  }
  $("unacknowledged").textContent = v.unacknowledged ? String(v.unacknowledged) : "";
  $("unacknowledged").title = v.unacknowledged ? T("page.unacknowledged", { count: v.unacknowledged }) : "";
}

function drawArbiter(v) {
  const select = $("result-value");
  if (select.options.length === 1) {
    for (const r of v.results) {
      const option = el("option", "", resultWords(r));
      option.value = r;
      select.appendChild(option);
    }
  }
  $("result-form").hidden = !!v.result;
  $("withdraw-box").hidden = !v.result_withdrawable;
  $("repair-box").hidden = !(v.damage && v.damage.resumable);
  if (v.damage) $("repair-text").textContent = R(v.damage.text);
  $("draw-offer").hidden = !v.draw_claim;
  if (v.draw_claim) {
    $("draw-offer-text").textContent = T("arbiter.draw_offer", { reasons: listed(v.draw_claim.reasons) });
  }
  const c = v.clocks;
  $("clock-box").hidden = !c || !!v.result;
  $("clock-start").disabled = !c || c.status !== "waiting";
  $("clock-pause").disabled = !c || c.status !== "running";
  $("clock-resume").disabled = !c || c.status !== "paused";
}

function drawNotices(v) {
  const box = $("notices");
  const key = v.game_id + ":" + JSON.stringify(v.notices);
  box.hidden = !v.notices.length || sessionStorage.getItem("dismissed") === key;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  if (!v.notices.length) return; // (nothing stale left behind the hidden box)
  for (const notice of v.notices) box.appendChild(el("p", "", R(notice)));
  const close = el("button", "", T("page.ok"));
  close.type = "button";
  close.addEventListener("click", () => { sessionStorage.setItem("dismissed", key); box.hidden = true; });
  box.appendChild(close);
}

function drawOpponent(v) {
  const o = v.opponent;
  $("opponent-box").hidden = !o || !o.error;
  // the seat's error is a whole sentence already ("The opponent could not be started: ...")
  setText($("opponent-error"), o && o.error ? Words.render(o.error) : "");
  $("opponent-continue").hidden = !o || !o.can_continue;
}

function draw(v) {
  view = v;
  drawBoard(v);
  const tags = v.tags || {};
  $("white-name").textContent = tags.White || T("side.white");
  $("black-name").textContent = tags.Black || T("side.black");
  const variant = v.variant.replace(/[^a-z0-9]+/g, "_");
  const mode = Words.has("board.mode." + v.mode) ? { id: "board.mode." + v.mode } : v.mode;
  const short = Words.has("board.variant." + variant) ? { id: "board.variant." + variant } : v.title;
  const full = Words.has("board.variant_title." + variant) ? { id: "board.variant_title." + variant } : v.title;
  $("summary").textContent = T(v.backend === "sim" ? "page.summary.simulator" : "page.summary",
    { variant: short, mode });
  $("summary").title = T("page.summary.title", { variant: full, mode, backend: v.backend });
  const number = v.game_id.split("-")[0].replace(/^0+/, "");
  $("game-id").textContent = T("page.game_id", { number });
  $("game-id").title = T("page.game_id.title", { game_id: v.game_id });
  setText($("status"), R(v.status));
  $("status").dataset.state = v.result ? "result" : v.state;
  drawFlags(v);
  drawMoves(v);
  drawSide(v);
  drawArbiter(v);
  drawNotices(v);
  drawOpponent(v);
  $("hands-panel").hidden = !v.hands;
  drawClocks();
  keepFocus();
}

// A control the view hides (the result form once a result stands, a repaired journal's
// button) would take the focus with it: the focus goes to the nearest control still
// shown before it (else the board), never to the page's start.
let lastFocused = null;
document.addEventListener("focusin", (event) => { lastFocused = event.target; });

function shown(node) {
  return node.isConnected && node.getClientRects().length > 0 && !node.closest("[hidden]");
}

function keepFocus() {
  if ($("confirm").open) return;
  const active = document.activeElement;
  if (active && active !== document.body && shown(active)) return;
  // the control that had the focus, now hidden (a click elsewhere leaves it shown: no move)
  const lost = active && active !== document.body ? active : lastFocused;
  if (!lost || shown(lost)) return;
  const order = [...document.querySelectorAll("a[href], button, input, select, summary, [tabindex='0']")];
  const at = order.indexOf(lost);
  const before = order.slice(0, at < 0 ? 0 : at).reverse().find((n) => shown(n) && !n.disabled);
  (before || $("board").querySelector('[tabindex="0"]'))?.focus();
}

// -- requests -------------------------------------------------------------------------------

async function post(url, body, withToken) {
  let answer;
  try {
    answer = await postJson(url, body, withToken ? { token } : {});
  } catch (e) {
    const error = new Error(T("arbiter.error.network", { error: e.message }));
    error.network = true;
    throw error;
  }
  if (!answer.ok) {
    const error = new Error(refusal(answer.status, answer.data));
    error.status = answer.status;
    throw error;
  }
  return answer.data;
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
  $("token-status").textContent = T("arbiter.token.refused");
}

// A refusal in the page's words: the board's message when it sends one, else by its
// status (the server's English text shown as the detail it is).
function refusal(status, data) {
  if (data.message && typeof data.message === "object") return T("arbiter.error.refused", { error: data.message });
  if (status === 401) return T("arbiter.error.token");
  if (status === 409 && !data.error) return T("arbiter.error.busy");
  if (status === 503) return T("arbiter.error.storage", { error: data.error || "" });
  if (data.error) return T("arbiter.error.refused", { error: data.error });
  return T("arbiter.error.status", { status: String(status), error: "" });
}

function checkToken() {
  if (!token) {
    tokenAccepted = false;
    $("token-status").textContent = "";
    return Promise.resolve(false);
  }
  return post("/api/arbiter/check", {}, true).then(
    () => { tokenAccepted = true; $("token-status").textContent = T("arbiter.token.accepted"); return true; },
    (e) => {
      if (e.network) return tokenAccepted;
      refused();
      return false;
    });
}

function needToken() {
  if (tokenAccepted) return true;
  say(T("arbiter.token.needed"), true, "arbiter");
  $("arbiter").open = true;
  $("token").focus();
  return false;
}

// An in-page confirmation (a <dialog>): resolves true when OK is chosen. The dialog's
// close event comes a moment after it closes: a second confirmation opened in between (a
// quick Enter after Escape) must not take the first one's close for its own.
let confirming = null; // { resolve, opener } of the confirmation open or just closed

function settleConfirm() {
  if (!confirming) return;
  const { resolve, opener } = confirming;
  confirming = null;
  // the focus back on the control that opened it (Escape and Cancel too)
  if (opener && opener !== document.body && opener.isConnected
    && !$("confirm").contains(document.activeElement)) opener.focus();
  resolve($("confirm").returnValue === "ok");
}

export function confirmAction(title, text, okText, withNewGame) {
  const dialog = $("confirm");
  settleConfirm(); // one closed, its close event still to come: settled now, as it closed
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = okText;
  $("new-game-fields").hidden = !withNewGame;
  const opener = document.activeElement;
  return new Promise((resolve) => {
    confirming = { resolve, opener };
    dialog.returnValue = "";
    dialog.showModal();
    $(withNewGame ? "new-white" : "confirm-ok").focus();
  });
}

function setUpForms() {
  // Cancel is not a submit button: Enter in the dialog's fields means OK
  $("confirm-cancel").addEventListener("click", () => $("confirm").close("cancel"));
  // a late close event of an earlier opening finds the dialog open again: not its own
  $("confirm").addEventListener("close", () => { if (!$("confirm").open) settleConfirm(); });
  // the dialog keeps the focus: Tab from its last control goes to its first, and back
  $("confirm").addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    const controls = [...$("confirm").querySelectorAll("button, input")].filter(shown);
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
  });
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
    if (!result) { say(T("arbiter.choose_result"), true, "arbiter"); $("result-value").focus(); return; }
    if (!needToken()) return;
    const reason = $("result-reason").value.trim();
    const ok = await confirmAction(T("arbiter.confirm.declare", { result: resultWords(result) }),
      reason ? T("arbiter.confirm.declare.reason", { reason }) : T("arbiter.confirm.declare.text"),
      T("arbiter.confirm.declare.ok", { result: resultShown(result) }));
    if (!ok) return;
    arbiter("result", { result, reason }).then(() => {
      $("result-value").value = "";
      $("result-reason").value = "";
    }, () => {});
  });
  $("withdraw").addEventListener("click", async () => {
    if (!needToken() || !view) return;
    const ok = await confirmAction(T("arbiter.confirm.withdraw", { result: view.result }),
      T("arbiter.confirm.withdraw.text"), T("arbiter.confirm.withdraw.ok"));
    if (ok) arbiter("withdraw-result").catch(() => {});
  });
  $("repair").addEventListener("click", async () => {
    if (!needToken() || !view || !view.damage) return;
    const ok = await confirmAction(T("arbiter.confirm.repair"), T("arbiter.confirm.repair.text"),
      T("arbiter.confirm.repair.ok"));
    if (ok) arbiter("repair", { action: "resume" }).catch(() => {});
  });
  $("accept-draw").addEventListener("click", async () => {
    if (!needToken() || !view || !view.draw_claim) return;
    const ok = await confirmAction(T("arbiter.confirm.draw", { result: view.draw_claim.result }),
      T("arbiter.confirm.draw.text", { reasons: listed(view.draw_claim.reasons) }),
      T("arbiter.accept_draw"));
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
    const ok = await confirmAction(T("arbiter.confirm.accept." + side),
      fen ? T("arbiter.confirm.accept.fen", { fen }) : T("arbiter.confirm.accept.board"),
      T("arbiter.confirm.accept.ok"));
    if (ok) arbiter("accept-position", { white_to_move: side === "white", fen: fen || null })
      .catch(() => {});
  });
  $("takeback-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!needToken()) return;
    const ply = parseInt($("takeback-ply").value, 10);
    if (Number.isNaN(ply) || ply < 0) { say(T("arbiter.ply_needed"), true, "arbiter"); return; }
    const ok = await confirmAction(T("arbiter.confirm.takeback", { ply: String(ply) }),
      T("arbiter.confirm.takeback.text"), T("arbiter.confirm.takeback.ok"));
    if (ok) arbiter("take-back", { ply }).catch(() => {});
  });
  $("acknowledge").addEventListener("click", () => {
    if (needToken()) arbiter("acknowledge").catch(() => {});
  });
  $("new-game").addEventListener("click", async () => {
    if (!needToken()) return;
    const unfinished = view && !view.result;
    const ok = await confirmAction(T("arbiter.confirm.new_game"), unfinished
      ? T("arbiter.confirm.new_game.unfinished")
      : T("arbiter.confirm.new_game.result", { result: view.result }),
      T("arbiter.confirm.new_game.ok"), true);
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
    post("/api/opponent/continue", { level }, !!token).then(() => say(""),
      (e) => say(e.message, true, e.network ? "network" : "action"));
  });
  $("labels").addEventListener("change", () => {
    if (view) localStorage.setItem("labels:" + (view.algebraic ? "algebraic" : "numeric"), $("labels").value);
    applyLabels();
  });
  document.addEventListener("pointerup", () => { dragFrom = null; });
  $("skip").addEventListener("click", (e) => {
    const cell = $("board").querySelector('[tabindex="0"]');
    if (cell) { e.preventDefault(); cell.focus(); }
  });
}

// -- live updates -------------------------------------------------------------------------------

function connect() {
  stream("/api/events", {
    open() {
      $("connection").textContent = T("page.connection.live");
      $("connection").className = "badge live";
      if (messageKind === "network") say("");
      checkToken(); // a restarted board, or a rotated token: the status tells the truth
    },
    message(event) {
      const v = JSON.parse(event.data);
      draw(v);
      document.dispatchEvent(new CustomEvent("draughtsboard:view", { detail: v }));
      document.body.dataset.version = v.version;
    },
    // what the board says about the view just drawn (said.js: live regions, speech)
    spoken: (event) => document.dispatchEvent(
      new CustomEvent("draughtsboard:spoken", { detail: JSON.parse(event.data) })),
    now(event) {
      serverOffset = Number(event.data) - Date.now() / 1000;
    },
    error() {
      $("connection").textContent = T("page.connection.down");
      $("connection").className = "badge down";
    },
  });
}

// The view drawn last (the coach's panel reads it if it came before the panel was ready)
export function currentView() {
  return view;
}

Words.ready.then(() => {
  $("full-strength").textContent = T("page.opponent.full_strength", { level: "10" });
  setUpForms();
  connect();
  setInterval(drawClocks, 250);
});
