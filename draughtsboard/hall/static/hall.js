// The hall page: every board at a glance, one board in full on click, the arbiter's
// console. Text is only ever set as text (no HTML built from data); CSP forbids inline
// scripts besides. The arbiter's token is kept for this browser tab (sessionStorage):
// a reload does not ask for it again, closing the tab forgets it. Every word comes from
// the catalog (words.js): the hall sends messages, the page renders them.
"use strict";

const { el, clock, lastMove, miniBoard, players, listen, say: words, pairingState, commandName, variantName } = window.HallBoard;
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
  title.appendChild(el("span", "", words("hall.card.board", { board: summary.board })));
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
    node.appendChild(el("div", "line pairing", pairingLine(summary.pairing)));
  }
  if (summary.game) {
    node.appendChild(miniBoard(summary, variants));
    const move = lastMove(summary);
    node.appendChild(el("div", "line move", summary.finished ? move
      : words(summary.white_to_move ? "hall.card.move_white_to_move" : "hall.card.move_black_to_move", { move })));
    if (summary.clocks) {
      node.appendChild(el("div", "line clocks", words("hall.card.clocks",
        { white: clock(summary.clocks[0]), black: clock(summary.clocks[1]) })));
    }
  } else {
    node.appendChild(el("div", "line", words("hall.card.no_game")));
  }
  if (summary.needs.length) node.appendChild(el("div", "needs-text", Words.join(summary.needs.map(Words.render))));
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
  count.textContent = needing.length
    ? words("hall.needs_count", { count: needing.length, boards: { list: needing.map(String) } })
    : words("hall.all_fine");
  count.className = "status" + (needing.length ? " alert" : "");
  const storage = $("storage");
  storage.hidden = !hall.storage_error;
  storage.textContent = hall.storage_error ? words("hall.storage_note", { error: Words.render(hall.storage_error) }) : "";
  const feeds = $("feeds");
  feeds.replaceChildren();
  for (const round of hall.rounds || []) {
    const link = el("a", "", words("hall.round_pdn", { round }));
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
    for (const text of [row.board, row.white, row.black, row.time_control || "", stateWithNote(row)]) {
      tr.appendChild(el("td", "", String(text)));
    }
    const actions = el("td");
    if (row.state === "held") {
      actions.appendChild(button(words("console.close_and_start"), () => closeAndStart(row.board, row.round, false, row.game, row.moves)));
    } else if (row.state === "refused" || row.state === "not started") {
      actions.appendChild(button(words("console.start_pairing"), () => startPairing(row.board, row.round, false)));
    }
    tr.appendChild(actions);
    return tr;
  }));
}

// A pairing's state and what it says about it: "held: game … has 3 moves: …"
function stateWithNote(row) {
  const state = pairingState(row.state);
  return row.note ? words("hall.pairing.with_note", { state, note: Words.render(row.note) }) : state;
}

function pairingLine(pairing) {
  return words("hall.card.pairing", { round: pairing.round, state: stateWithNote(pairing) });
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
  const question = summary.game
    ? words("console.ask.close_and_start_players", { board, game, round, count: moves || 0, white: summary.white || "?", black: summary.black || "?" })
    : words("console.ask.close_and_start", { board, game, round, count: moves || 0 });
  if (!window.confirm(question)) return;
  await startPairing(board, round, restart, game);
}

async function startPairing(board, round, restart, close) {
  try {
    const row = await post("/api/arbiter/start-pairing", { board, round, restart, close: close || null });
    if (row.state === "held") {
      await closeAndStart(board, round, restart, row.game, row.moves);
      return;
    }
    say(words("console.said.pairing", { board, round, state: stateWithNote(row) }));
  } catch (error) { refused(error); }
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
  $("detail-title").textContent = d.result ? words("hall.detail.title_result", { board: d.board, result: d.result })
    : words("hall.card.board", { board: d.board });
  $("detail-players").textContent = d.game
    ? words("hall.detail.players", { white: who.white, black: who.black, round: d.round || "?", variant: variantName(d.variant) })
    : words("hall.detail.players_no_game", { white: who.white, black: who.black });
  const status = [words(d.online ? "hall.detail.online" : "hall.detail.offline")];
  if (d.software) status.push(words("hall.detail.software", { version: d.software }));
  if (d.uptime) status.push(words("hall.detail.uptime", { count: Math.round(d.uptime) }));
  $("detail-status").textContent = status.join(" · ");
  $("detail-needs").replaceChildren(...d.needs.map((n) => el("li", "", Words.render(n))),
    ...(d.health_notes || []).map((n) => el("li", "", Words.render(n))),
    ...(d.asked_again || []).map((a) => el("li", "", words("hall.detail.asked_again", { game: a.game, why: Words.render(a.why) }))));
  $("detail-claims").replaceChildren(...(d.claims || []).map((claim) => claimItem(d.board, claim)));
  $("detail-refused").replaceChildren(...(d.refused || []).map((r) => el("li", "refusal",
    words("hall.detail.refused", { command: commandName(r.cmd), error: Words.render(r.error) }))));
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
  $("detail-events").replaceChildren(...[...(d.events || []), ...(d.problems || []).map((p) => ({ kind: "message", text: p }))].map((e) =>
    el("li", "", words("hall.detail.event", { kind: eventKind(e.kind), text: Words.render(e.text) }))));
  $("detail-games").replaceChildren(...(d.games || []).slice().reverse().map((g) => {
    const item = el("li", "", g.round
      ? words("hall.detail.game_round", { game: g.game, round: g.round, count: g.ply, state: Words.render(g.state) })
      : words("hall.detail.game", { game: g.game, count: g.ply, state: Words.render(g.state) }));
    if (g.round) {
      item.appendChild(document.createTextNode(" "));
      const link = el("a", "", words("hall.detail.pdn_link"));
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
    choice.replaceChildren(option("", words("console.board.choose_result")), ...results.map((r) => option(r, r)));
    choice.dataset.results = results.join(",");
  }
  // take back to the start or to after any move, by the score sheet's numbers
  const takeback = $("takeback-choice");
  const points = [option("0", words("console.takeback.start"))];
  let ply = 0;
  for (const row of d.numbered_moves || []) {
    if (row.white) { ply += 1; points.push(option(String(ply), words("console.takeback.after", { move: row.number + ". " + row.white }))); }
    if (row.black) { ply += 1; points.push(option(String(ply), words("console.takeback.after", { move: row.number + "… " + row.black }))); }
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
  const item = el("li", "claim", Words.render(claim.text));
  const actions = el("span", "arbiter-only");
  if (claim.confirmable) actions.appendChild(claimButton("confirm", board, claim));
  actions.appendChild(claimButton("dismiss", board, claim));
  item.appendChild(actions);
  return item;
}

function claimButton(action, board, claim) {
  return button(words("console.claim." + action), async () => {
    if (!window.confirm(words("console.ask." + action, { board, claim: Words.render(claim.text) }))) return;
    try {
      say(Words.render(await post("/api/arbiter/" + action, { board, kind: claim.kind, game: claim.game, claim: claim.id })));
      refreshDetail();
    } catch (error) { refused(error); }
  });
}

// What a board's event is (its kind, as the board's log names it)
function eventKind(kind) {
  return Words.has("hall.event." + kind) ? words("hall.event." + kind) : String(kind);
}

// -- talking to the hall ------------------------------------------------------------------

function say(text) { $("arbiter-message").textContent = text; }

// The hall's refusal in the reader's language (its message), else as it came
function refused(error) {
  say(words("console.refused", { why: error.said !== undefined ? Words.render(error.said) : String(error.message) }));
}

async function post(path, body, type = "application/json") {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": type, Authorization: "Bearer " + token },
    body: type === "application/json" ? JSON.stringify(body) : body,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.error || String(response.status));
    error.said = data.message || data.error || String(response.status);
    throw error;
  }
  return data.result;
}

function outcome(result) {
  let said = words("console.outcome.done");
  if (result && result.ok === false) said = words("console.outcome.refused", { error: Words.render(result.error) });
  if (result && result.ok === null) said = Words.render(result.error);
  if (result && result.recorded) said = words("console.outcome.recorded", { recorded: Words.render(result.recorded), outcome: said });
  return said;
}

// One board action, about the game on the board's card (the arbiter acts on the game
// they looked at): asked, confirmed where it changes the record, its outcome said
async function boardAction(path, body, what, question) {
  if (question && !window.confirm(question)) return;
  try {
    say(words("console.action." + what, { board: selected, outcome: outcome(await post(path, { board: selected, game: shownGame, ...body })) }));
    refreshDetail();
  } catch (error) { refused(error); }
}

async function useToken(value, quiet) {
  token = value;
  try {
    await post("/api/arbiter/check", {});
    document.body.classList.add("arbiter");
    sessionStorage.setItem(TOKEN_KEY, value);
    if (!quiet) say(words("console.token_accepted"));
  } catch (error) {
    document.body.classList.remove("arbiter");
    sessionStorage.removeItem(TOKEN_KEY);
    refused(error);
  }
}

// One record of the arbiter's log (codes and values, never words) in the reader's
// language: what it was, then on which board, then when
function what(record) {
  const claim = (kind) => Words.has("claim.kind." + kind) ? words("claim.kind." + kind) : String(kind);
  switch (record.type) {
    case "command": {
      const details = [];
      if (record.result) details.push(words("hallog.detail.result", { result: record.result }));
      if (record.ply !== undefined) details.push(words("hallog.detail.ply", { ply: record.ply }));
      if (record.tags && record.tags.Round) details.push(words("hallog.detail.round", { round: record.tags.Round }));
      const command = commandName(record.cmd);
      return details.length ? words("hallog.command_details", { command, details: Words.join(details) })
        : words("hallog.command", { command });
    }
    case "reply":
      if (!record.ok) return words("hallog.reply.refused", { error: Words.render(record.error) });
      return record.result ? words("hallog.reply.done_result", { result: record.result }) : words("hallog.reply.done");
    case "start":
      return words(record.restart ? "hallog.restart" : "hallog.start",
        { round: record.round, count: (record.boards || []).length, boards: { list: (record.boards || []).map(String) } });
    case "confirm": return words("hallog.confirm", { claim: claim(record.claim), game: record.game });
    case "dismiss": return words("hallog.dismiss", { claim: claim(record.claim), game: record.game });
    case "pairings": return words("hallog.pairings");
    case "cancel": return words("hallog.cancel", { round: record.round });
    case "clear": return words("hallog.clear");
    case "round_game": return words("hallog.round_game", { round: record.round, game: record.game });
    default: return String(record.type);
  }
}

function describe(record) {
  let said = what(record);
  if (record.board) said = words("hallog.on_board", { board: record.board, what: said });
  if (record.t_wall) said = words("hallog.at", { time: new Date(record.t_wall * 1000).toLocaleTimeString(Words.language), what: said });
  return said;
}

function wire() {
  $("close-detail").addEventListener("click", () => { selected = null; $("detail").hidden = true; });
  $("filter").addEventListener("input", () => render());
  $("use-token").addEventListener("click", () => useToken($("token").value.trim(), false));
  $("forget-token").addEventListener("click", () => {
    token = "";
    sessionStorage.removeItem(TOKEN_KEY);
    document.body.classList.remove("arbiter");
    say(words("console.token_forgotten"));
  });
  $("declare-result").addEventListener("click", () => {
    const chosen = $("result-choice").value;
    if (!chosen) { say(words("console.choose_result_first")); return; }
    const reason = $("result-reason").value.trim();
    // a result closes the game in the feed: confirmed, never a default
    boardAction("/api/arbiter/result", { result: chosen, reason }, "result", reason
      ? words("console.ask.declare_reason", { result: chosen, reason, board: selected })
      : words("console.ask.declare", { result: chosen, board: selected }));
  });
  $("withdraw-result").addEventListener("click", () => boardAction("/api/arbiter/withdraw", {},
    "withdraw", words("console.ask.withdraw", { board: selected })));
  $("take-back").addEventListener("click", () => {
    const choice = $("takeback-choice");
    const label = choice.options[choice.selectedIndex] ? choice.options[choice.selectedIndex].textContent : "";
    boardAction("/api/arbiter/takeback", { ply: Number(choice.value) }, "takeback",
      words("console.ask.takeback", { board: selected, point: label }));
  });
  $("accept-position").addEventListener("click", () => {
    const fen = $("position-fen").value.trim();
    if (!fen) { say(words("console.give_position_first")); return; }
    boardAction("/api/arbiter/position", { fen }, "position", words("console.ask.position", { board: selected, fen }));
  });
  for (const node of document.querySelectorAll(".clock-action")) {
    node.addEventListener("click", () => boardAction("/api/arbiter/clock", { action: node.dataset.action }, "clock_" + node.dataset.action));
  }
  $("acknowledge").addEventListener("click", () => boardAction("/api/arbiter/acknowledge", {}, "flags"));
  $("clear-board").addEventListener("click", () => boardAction("/api/arbiter/clear", {}, "seen"));
  $("start-pairing").addEventListener("click", () => startPairing(selected, $("pairing-round").value, false));
  $("restart-game").addEventListener("click", () => {
    const round = $("pairing-round").value;
    if (!window.confirm(words("console.ask.restart", { board: selected, round }))) return;
    startPairing(selected, round, true);
  });
  $("import-pairings").addEventListener("click", async () => {
    try {
      const rows = await post("/api/arbiter/pairings", $("pairings").value, "text/plain");
      say(words("console.pairings.imported", { count: rows.length }));
    } catch (error) { refused(error); }
  });
  $("round").addEventListener("change", () => renderPairings());
  $("start-round").addEventListener("click", async () => {
    const round = $("round").value;
    try {
      const rows = await post("/api/arbiter/start-round", { round });
      const counts = {};
      for (const row of rows) counts[row.state] = (counts[row.state] || 0) + 1;
      const states = Object.entries(counts).map(([state, count]) => words("console.state_count", { state: pairingState(state), count }));
      say(words("console.said.round_started", { round, states: Words.join(states) }));
    } catch (error) { refused(error); }
  });
  $("show-log").addEventListener("click", async () => {
    try {
      const records = await post("/api/arbiter/log", {});
      $("arbiter-log").replaceChildren(...records.slice().reverse().map((r) => el("li", "", describe(r))));
    } catch (error) { refused(error); }
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

// The page draws once the catalog is here (every word comes from it)
Words.ready.catch(() => null).then(() => { wire(); connect(); });
