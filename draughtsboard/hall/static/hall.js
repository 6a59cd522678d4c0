// The hall page: every board at a glance, one board in full on click, the arbiter's
// console. Text is only ever set as text (no HTML built from data); CSP forbids inline
// scripts besides. The arbiter's token is kept for this browser tab (sessionStorage):
// a reload does not ask for it again, closing the tab forgets it.
"use strict";

const { el, clock, lastMove, miniBoard, players, listen } = window.HallBoard;
const boards = new Map(); // board number -> summary
let variants = {};
let hall = {};
let selected = null;
let shownGame = null; // the game the board's detail shows: the arbiter's actions name it
let token = "";
const TOKEN_KEY = "draughtsboard-hall-token";

const $ = (id) => document.getElementById(id);

// -- the boards ---------------------------------------------------------------------------

function card(summary) {
  const node = el("article", "card");
  node.dataset.board = summary.board;
  if (summary.needs.length) node.classList.add("needs");
  if (summary.seen && !summary.online) node.classList.add("offline");
  const title = el("h3");
  title.appendChild(el("span", "", "Board " + summary.board));
  title.appendChild(el("span", "result", summary.result || ""));
  node.appendChild(title);
  const who = players(summary);
  const names = el("div", "players" + (who.owed ? " owed" : ""));
  const white = el("div", "name white", who.white);
  const black = el("div", "name black", who.black);
  white.title = who.white;
  black.title = who.black;
  names.append(white, black);
  node.appendChild(names);
  if (summary.pairing && summary.pairing.state !== "delivered") {
    node.appendChild(el("div", "line pairing", "round " + summary.pairing.round + ": " + summary.pairing.note));
  }
  if (summary.game) {
    node.appendChild(miniBoard(summary, variants));
    const side = summary.finished ? "" : summary.white_to_move ? " · White to move" : " · Black to move";
    node.appendChild(el("div", "line move", lastMove(summary) + side));
    if (summary.clocks) {
      node.appendChild(el("div", "line clocks", "clocks " + clock(summary.clocks[0]) + " / " + clock(summary.clocks[1])));
    }
  } else {
    node.appendChild(el("div", "line", "no game yet"));
  }
  if (summary.needs.length) node.appendChild(el("div", "needs-text", summary.needs.join(", ")));
  node.addEventListener("click", () => openDetail(summary.board));
  return node;
}

function matches(summary, words) {
  if (!words) return true;
  const who = players(summary);
  const text = [String(summary.board), who.white, who.black].join(" ").toLowerCase();
  return words.split(/\s+/).every((word) => text.includes(word));
}

const cards = new Map(); // board number -> its card on the page

// All cards again (a new hall, a new filter), or only the boards that changed
function renderCards(changed) {
  const container = $("boards");
  const words = $("filter").value.trim().toLowerCase();
  if (changed && changed.every((n) => cards.has(n) && matches(boards.get(n), words))) {
    for (const n of changed) {
      const fresh = card(boards.get(n));
      cards.get(n).replaceWith(fresh);
      cards.set(n, fresh);
    }
    return;
  }
  const numbers = [...boards.keys()].sort((a, b) => a - b);
  cards.clear();
  for (const n of numbers.filter((m) => matches(boards.get(m), words))) cards.set(n, card(boards.get(n)));
  container.replaceChildren(...cards.values());
}

function render(changed) {
  renderCards(changed);
  const numbers = [...boards.keys()].sort((a, b) => a - b);
  const needing = numbers.filter((n) => boards.get(n).needs.length);
  const count = $("needs-count");
  count.textContent = needing.length ? "arbiter needed: board " + needing.join(", ") : "all boards fine";
  count.className = "status" + (needing.length ? " alert" : "");
  const storage = $("storage");
  storage.hidden = !hall.storage_error;
  storage.textContent = hall.storage_error ? hall.storage_error + " (boards are asked again once it can)" : "";
  const feeds = $("feeds");
  feeds.replaceChildren();
  for (const round of hall.rounds || []) {
    const link = el("a", "", "round " + round + " PDN");
    link.href = "/round/" + encodeURIComponent(round) + "/games.pdn";
    link.download = "round-" + round + ".pdn";
    feeds.appendChild(link);
  }
  renderPairings();
  if (selected !== null && boards.has(selected) && (!changed || changed.includes(selected))) {
    refreshDetail();
  }
}

// -- the console's pairings: each board's state as it comes --------------------------------

function chosenRound() {
  const rounds = Object.keys(hall.pairings || {});
  const select = $("round");
  const keep = select.value;
  if (select.dataset.rounds !== rounds.join(",")) {
    select.replaceChildren(...rounds.map((r) => { const o = el("option", "", r); o.value = r; return o; }));
    select.dataset.rounds = rounds.join(",");
    select.value = rounds.includes(keep) ? keep : rounds[rounds.length - 1] || "";
  }
  return select.value;
}

function renderPairings() {
  const round = chosenRound();
  const rows = (hall.pairings || {})[round] || [];
  $("pairings-table").tBodies[0].replaceChildren(...rows.map((row) => {
    const tr = el("tr", "pairing-" + row.state.replace(/\s+/g, "-"));
    tr.dataset.board = row.board;
    for (const text of [row.board, row.white, row.black, row.time_control || "", row.state + (row.note ? ": " + row.note : "")]) {
      tr.appendChild(el("td", "", String(text)));
    }
    const actions = el("td");
    if (row.state === "held") {
      actions.appendChild(button("Close its game and start", () => closeAndStart(row.board, row.round, false, row.game, row.moves)));
    } else if (row.state === "refused" || row.state === "not started") {
      actions.appendChild(button("Start this pairing", () => startPairing(row.board, row.round, false)));
    }
    tr.appendChild(actions);
    return tr;
  }));
}

function button(label, action) {
  const node = el("button", "", label);
  node.type = "button";
  node.addEventListener("click", action);
  return node;
}

// A game with moves is closed only when the arbiter names the board and the game
async function closeAndStart(board, round, restart, game, moves) {
  const summary = boards.get(board) || {};
  const who = summary.game ? (summary.white || "?") + " – " + (summary.black || "?") + ", " : "";
  if (!window.confirm("Board " + board + " plays game " + game + " (" + who + moves + " move(s)). Close it and start round " + round + "'s pairing on board " + board + "?")) return;
  await startPairing(board, round, restart, game);
}

async function startPairing(board, round, restart, close) {
  try {
    const row = await post("/api/arbiter/start-pairing", { board, round, restart, close: close || null });
    if (row.state === "held") {
      await closeAndStart(board, round, restart, row.game, row.moves);
      return;
    }
    say("board " + board + ", round " + round + ": " + row.state + (row.note ? " (" + row.note + ")" : ""));
  } catch (error) { say("refused: " + error.message); }
}

// -- one board in full --------------------------------------------------------------------

async function openDetail(number) {
  selected = number;
  $("detail").hidden = false;
  await refreshDetail();
}

function option(value, text) {
  const node = el("option", "", text);
  node.value = value;
  return node;
}

async function refreshDetail() {
  const number = selected;
  const response = await fetch("/api/board/" + number);
  if (!response.ok || number !== selected) return;
  const d = await response.json();
  shownGame = d.game || null;
  const who = players(d);
  $("detail-title").textContent = "Board " + d.board + (d.result ? " · " + d.result : "");
  $("detail-players").textContent = who.white + " – " + who.black + (d.game ? " (round " + (d.round || "?") + ", " + d.variant + ")" : " (no game yet)");
  $("detail-status").textContent = (d.online ? "online" : "offline") + (d.software ? " · software " + d.software : "") + (d.uptime ? " · up " + Math.round(d.uptime) + " s" : "");
  $("detail-needs").replaceChildren(...d.needs.map((n) => el("li", "", n)),
    ...(d.health_notes || []).map((n) => el("li", "", n)),
    ...(d.asked_again || []).map((a) => el("li", "", "game " + a.game + " asked for again: " + a.why)));
  $("detail-claims").replaceChildren(...(d.claims || []).map((claim) => claimItem(d.board, claim)));
  $("detail-refused").replaceChildren(...(d.refused || []).map((r) => el("li", "refusal", r.cmd + " refused by the board: " + r.error)));
  $("detail-moves").tBodies[0].replaceChildren(...(d.numbered_moves || []).map((row) => {
    const tr = el("tr");
    tr.append(el("th", "", row.number + "."), el("td", "", row.white || "…"), el("td", "", row.black));
    return tr;
  }));
  const tags = $("detail-tags");
  tags.replaceChildren();
  for (const [key, value] of Object.entries(d.tags || {})) {
    tags.appendChild(el("dt", "", key));
    tags.appendChild(el("dd", "", value));
  }
  $("detail-events").replaceChildren(...[...(d.events || []), ...(d.problems || []).map((p) => ({ kind: "message", text: p }))].map((e) => el("li", "", e.kind + ": " + e.text)));
  $("detail-games").replaceChildren(...(d.games || []).slice().reverse().map((g) => {
    const item = el("li", "", "game " + g.game + (g.round ? " · round " + g.round : "") + " · " + g.ply + " plies · " + g.state);
    if (g.round) {
      const link = el("a", "", " PDN");
      link.href = "/round/" + encodeURIComponent(g.round) + "/" + d.board + ".pdn";
      item.appendChild(link);
    }
    return item;
  }));
  const pdn = $("detail-pdn");
  pdn.href = d.round ? "/round/" + encodeURIComponent(d.round) + "/" + d.board + ".pdn" : "#";
  const choice = $("result-choice");
  const results = d.results || [];
  if (choice.dataset.results !== results.join(",")) {
    choice.replaceChildren(option("", "choose…"), ...results.map((r) => option(r, r)));
    choice.dataset.results = results.join(",");
  }
  // take back to the start or to after any move, by the score sheet's numbers
  const takeback = $("takeback-choice");
  const points = [option("0", "the start")];
  let ply = 0;
  for (const row of d.numbered_moves || []) {
    if (row.white) { ply += 1; points.push(option(String(ply), "after " + row.number + ". " + row.white)); }
    if (row.black) { ply += 1; points.push(option(String(ply), "after " + row.number + "… " + row.black)); }
  }
  const kept = takeback.value;
  takeback.replaceChildren(...points.reverse());
  if ([...takeback.options].some((o) => o.value === kept)) takeback.value = kept;
  const rounds = Object.entries(hall.pairings || {}).filter(([, rows]) => rows.some((r) => r.board === d.board)).map(([r]) => r);
  const roundChoice = $("pairing-round");
  if (roundChoice.dataset.rounds !== rounds.join(",")) {
    roundChoice.replaceChildren(...rounds.map((r) => option(r, r)));
    roundChoice.dataset.rounds = rounds.join(",");
    if (d.round && rounds.includes(d.round)) roundChoice.value = d.round;
  }
}

// What a board said that the hall cannot prove: the arbiter confirms it (the hall then
// follows the board) or dismisses it (the hall's record stays as it is).
function claimItem(board, claim) {
  const item = el("li", "claim", claim.text);
  const actions = el("span", "arbiter-only");
  if (claim.confirmable) actions.appendChild(claimButton("Confirm", "confirm", board, claim));
  actions.appendChild(claimButton("Dismiss", "dismiss", board, claim));
  item.appendChild(actions);
  return item;
}

function claimButton(label, action, board, claim) {
  return button(label, async () => {
    if (!window.confirm(label + " on board " + board + ": " + claim.text + "?")) return;
    try {
      say(await post("/api/arbiter/" + action, { board, kind: claim.kind, game: claim.game, claim: claim.id }));
      refreshDetail();
    } catch (error) { say("refused: " + error.message); }
  });
}

// -- talking to the hall ------------------------------------------------------------------

function say(text) { $("arbiter-message").textContent = text; }

async function post(path, body, type = "application/json") {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": type, Authorization: "Bearer " + token },
    body: type === "application/json" ? JSON.stringify(body) : body,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data.result;
}

function outcome(result) {
  const recorded = result && result.recorded ? result.recorded + "; " : "";
  if (result && result.ok === false) return recorded + "refused by the board: " + result.error;
  if (result && result.ok === null) return recorded + result.error;
  return recorded + "done";
}

// One board action, about the game on the board's card (the arbiter acts on the game
// they looked at): asked, confirmed where it changes the record, its outcome said
async function boardAction(path, body, what, question) {
  if (question && !window.confirm(question)) return;
  try {
    say(what + " on board " + selected + ": " + outcome(await post(path, { board: selected, game: shownGame, ...body })));
    refreshDetail();
  } catch (error) { say("refused: " + error.message); }
}

async function useToken(value, quiet) {
  token = value;
  try {
    await post("/api/arbiter/check", {});
    document.body.classList.add("arbiter");
    sessionStorage.setItem(TOKEN_KEY, value);
    if (!quiet) say("arbiter: token accepted");
  } catch (error) {
    document.body.classList.remove("arbiter");
    sessionStorage.removeItem(TOKEN_KEY);
    say("refused: " + error.message);
  }
}

function describe(record) {
  const when = record.t_wall ? new Date(record.t_wall * 1000).toLocaleTimeString() + " " : "";
  const board = record.board ? "board " + record.board + ": " : "";
  if (record.type === "command") return when + board + "sent " + record.cmd + (record.result ? " " + record.result : "") + (record.ply !== undefined ? " to ply " + record.ply : "") + (record.tags && record.tags.Round ? " (round " + record.tags.Round + ")" : "");
  if (record.type === "reply") return when + board + (record.ok ? "done" + (record.result ? ": " + record.result : "") : "refused: " + record.error);
  if (record.type === "start") return when + "round " + record.round + (record.restart ? " restarted on board " : " started on board(s) ") + (record.boards || []).join(", ");
  if (record.type === "confirm" || record.type === "dismiss") return when + board + record.type + " " + record.claim + " claim on game " + record.game;
  return when + board + record.type;
}

function wire() {
  $("close-detail").addEventListener("click", () => { selected = null; $("detail").hidden = true; });
  $("filter").addEventListener("input", () => render());
  $("use-token").addEventListener("click", () => useToken($("token").value.trim(), false));
  $("forget-token").addEventListener("click", () => {
    token = "";
    sessionStorage.removeItem(TOKEN_KEY);
    document.body.classList.remove("arbiter");
    say("token forgotten on this page");
  });
  $("declare-result").addEventListener("click", () => {
    const chosen = $("result-choice").value;
    if (!chosen) { say("choose the result first"); return; }
    const reason = $("result-reason").value.trim();
    // a result closes the game in the feed: confirmed, never a default
    boardAction("/api/arbiter/result", { result: chosen, reason }, "result",
      "Declare " + chosen + (reason ? " (" + reason + ")" : "") + " on board " + selected + "?");
  });
  $("withdraw-result").addEventListener("click", () => boardAction("/api/arbiter/withdraw", {},
    "result withdrawn", "Withdraw the result on board " + selected + "?"));
  $("take-back").addEventListener("click", () => {
    const choice = $("takeback-choice");
    const label = choice.options[choice.selectedIndex] ? choice.options[choice.selectedIndex].textContent : "";
    boardAction("/api/arbiter/takeback", { ply: Number(choice.value) }, "takeback",
      "Take board " + selected + "'s game back to " + label + "?");
  });
  $("accept-position").addEventListener("click", () => {
    const fen = $("position-fen").value.trim();
    if (!fen) { say("give the position first"); return; }
    boardAction("/api/arbiter/position", { fen }, "position", "Board " + selected + " goes on from " + fen + "?");
  });
  for (const node of document.querySelectorAll(".clock-action")) {
    node.addEventListener("click", () => boardAction("/api/arbiter/clock", { action: node.dataset.action }, "clock " + node.dataset.action));
  }
  $("acknowledge").addEventListener("click", () => boardAction("/api/arbiter/acknowledge", {}, "flags"));
  $("clear-board").addEventListener("click", () => boardAction("/api/arbiter/clear", {}, "seen"));
  $("start-pairing").addEventListener("click", () => startPairing(selected, $("pairing-round").value, false));
  $("restart-game").addEventListener("click", () => {
    const round = $("pairing-round").value;
    if (!window.confirm("Restart board " + selected + "'s game for round " + round + "'s pairing?")) return;
    startPairing(selected, round, true);
  });
  $("import-pairings").addEventListener("click", async () => {
    try {
      const rows = await post("/api/arbiter/pairings", $("pairings").value, "text/plain");
      say(rows.length + " pairing(s) imported");
    } catch (error) { say("refused: " + error.message); }
  });
  $("round").addEventListener("change", () => renderPairings());
  $("start-round").addEventListener("click", async () => {
    const round = $("round").value;
    try {
      const rows = await post("/api/arbiter/start-round", { round });
      const counts = {};
      for (const row of rows) counts[row.state] = (counts[row.state] || 0) + 1;
      say("round " + round + ": " + Object.entries(counts).map(([state, n]) => n + " " + state).join(", ") + " (each board's answer shows below as it comes)");
    } catch (error) { say("refused: " + error.message); }
  });
  $("show-log").addEventListener("click", async () => {
    try {
      const records = await post("/api/arbiter/log", {});
      $("arbiter-log").replaceChildren(...records.slice().reverse().map((r) => el("li", "", describe(r))));
    } catch (error) { say("refused: " + error.message); }
  });
  const kept = sessionStorage.getItem(TOKEN_KEY);
  if (kept) useToken(kept, true);
}

function connect() {
  listen($("connection"), (data) => {
    variants = data.variants;
    hall = data.hall;
    boards.clear();
    for (const summary of data.boards) boards.set(summary.board, summary);
    render();
  }, (changed) => {
    for (const summary of changed) boards.set(summary.board, summary);
    render(changed.map((summary) => summary.board));
  }, (info) => { hall = info; render([]); });
}

wire();
connect();
