// The hall page: every board at a glance, one board in full on click, the arbiter's
// console. Text is only ever set as text (no HTML built from data); CSP forbids inline
// scripts besides. The arbiter's token is kept for this browser tab (sessionStorage):
// a reload does not ask for it again, closing the tab forgets it. Every word comes from
// the catalog (words.js): the hall sends messages, the page renders them.
// It is read by a screen reader and used by keyboard as well as seen (docs/hall.md, "With
// a screen reader or the keyboard alone"): what is drawn once is updated in place, never
// re-made, so the focus stays put; what changed is said once through the live regions.
// The board's diagram in the detail is the kit's board widget (/kit/board.js), walked
// with the same keys as the board's own page.

import { el, setText } from "/kit/dom.js";
import { boardGrid, resultMessage, resultShown, tagLabel, tagValue } from "/kit/board.js";
import { getJson, postJson } from "/kit/net.js";
import { clockTexts, lastMove, miniBoard, squareText, players, listen, say as words, pairingState, commandName, variantName } from "/static/board.js";

const boards = new Map(); // board number -> summary
let variants = {};
let hall = {};
let selected = null;
let shownGame = null; // the game the board's detail shows: the arbiter's actions name it
let token = "";
const TOKEN_KEY = "draughtsboard-hall-token";

const $ = (id) => document.getElementById(id);

// -- small helpers: lists updated in place (text set only when it changed: the kit's) -----

// ``container``'s children made to be ``items``, in order: a child whose key is still
// there is kept (updated), never re-created, so what holds the focus stays; a child that
// goes while it holds the focus hands it to ``fallback``
function syncList(container, items, keyOf, make, update, fallback) {
  const old = new Map([...container.children].map((child) => [child.dataset.key, child]));
  const seen = new Map();
  const nodes = items.map((item) => {
    const base = keyOf(item);
    const n = (seen.get(base) || 0) + 1;
    seen.set(base, n);
    const key = base + "#" + n;
    let node = old.get(key);
    if (node) old.delete(key);
    else { node = make(item); node.dataset.key = key; }
    if (update) update(node, item);
    return node;
  });
  let lost = false;
  for (const node of old.values()) {
    if (node.contains(document.activeElement)) lost = true;
    node.remove();
  }
  let cursor = container.firstElementChild;
  for (const node of nodes) {
    if (node === cursor) cursor = cursor.nextElementSibling;
    else container.insertBefore(node, cursor);
  }
  if (lost && fallback) fallback.focus();
}

// -- what happens, said once: news politely, what needs the arbiter at once ---------------

const told = new Map(); // board number -> what was last said about it
const NEWS_KEPT = 20;
// what needs the arbiter now (an illegal move, a board gone, a command refused): said at
// once; claims, health and the rest politely
const URGENT = /^hall\.need\.(flag\.|offline$|refused$)/;

function news(texts) {
  if (!texts.length) return;
  const log = $("hall-news");
  for (const text of texts) log.appendChild(el("p", "", text));
  while (log.children.length > NEWS_KEPT) log.firstElementChild.remove();
}

function alerts(texts) {
  if (texts.length) $("hall-alerts").replaceChildren(...texts.map((text) => el("p", "", text)));
}

// What changed on a board since it was last told (nothing on the first sight of it)
function tell(summary, quiet, polite, urgent) {
  const before = told.get(summary.board);
  const now = { game: summary.game, ply: summary.ply || 0, result: summary.result || "",
    needs: new Set(summary.needs.map((need) => JSON.stringify(need))) };
  told.set(summary.board, now);
  if (quiet || !before) return;
  const board = summary.board;
  if (now.ply && summary.last_move && (now.game !== before.game || now.ply > before.ply)) {
    polite.push(words("hall.a11y.news.move", { board, move: lastMove(summary) }));
  }
  if (now.result && now.result !== "*" && now.result !== before.result) {
    polite.push(words("hall.a11y.news.result", { board, result: now.result }));
  }
  for (const need of summary.needs) {
    if (before.needs.has(JSON.stringify(need))) continue;
    if (URGENT.test(need.id || "")) urgent.push(words("hall.a11y.alert.need", { board, need: Words.render(need) }));
    else polite.push(words("hall.a11y.news.need", { board, need: Words.render(need) }));
  }
  if (before.needs.size && !now.needs.size) polite.push(words("hall.a11y.news.fine", { board }));
}

// -- the boards: a row of the boards' table each, made once and updated in place ----------

const cards = new Map(); // board number -> its row and the parts that change

function cell(className, role) {
  const node = el("div", className);
  node.setAttribute("role", role || "cell");
  return node;
}

function makeCard(number) {
  const node = el("div", "card");
  node.setAttribute("role", "row");
  node.dataset.board = number;
  const head = cell("head", "rowheader");
  const title = el("h3");
  const open = el("button", "open");
  open.type = "button";
  open.setAttribute("aria-controls", "detail");
  open.addEventListener("click", (event) => { event.stopPropagation(); openDetail(number, open); });
  const result = el("span", "result");
  title.append(open, result);
  head.appendChild(title);
  const white = cell("name white");
  const black = cell("name black");
  const game = cell("game");
  const pairing = el("div", "line pairing");
  const move = el("div", "line move");
  const clocks = el("div", "line clocks");
  game.append(pairing, move, clocks);
  const position = cell("position");
  const mini = miniBoard(variants);
  position.appendChild(mini.node);
  const needs = cell("needs-text");
  node.append(head, white, black, game, position, needs);
  node.addEventListener("click", () => openDetail(number, open));
  return { node, open, result, white, black, pairing, move, clocks, mini, needs };
}

function updateCard(parts, summary) {
  const { node } = parts;
  const offline = Boolean(summary.seen && !summary.online);
  node.classList.toggle("needs", summary.needs.length > 0);
  node.classList.toggle("offline", offline);
  setText(parts.open, words("hall.card.board", { board: summary.board }));
  setText(parts.result, summary.result || "");
  const who = players(summary);
  node.classList.toggle("owed", who.owed);
  for (const [part, name] of [[parts.white, who.white], [parts.black, who.black]]) {
    setText(part, name);
    if (part.title !== name) part.title = name;
  }
  const pairing = summary.pairing && summary.pairing.state !== "delivered";
  parts.pairing.hidden = !pairing;
  setText(parts.pairing, pairing ? pairingLine(summary.pairing) : "");
  parts.mini.node.hidden = !summary.game;
  parts.clocks.hidden = !(summary.game && clockTexts(summary));
  if (summary.game) {
    parts.mini.update(summary, words("hall.a11y.position", { board: summary.board }));
    const move = lastMove(summary);
    setText(parts.move, summary.finished ? move
      : words(summary.white_to_move ? "hall.card.move_white_to_move" : "hall.card.move_black_to_move", { move }));
    drawCardClocks(parts, summary);
  } else {
    setText(parts.move, words("hall.card.no_game"));
    setText(parts.clocks, "");
  }
  setText(parts.needs, Words.join(summary.needs.map(Words.render)));
}

function matches(summary, words) {
  if (!words) return true;
  const who = players(summary);
  const text = [String(summary.board), who.white, who.black].join(" ").toLowerCase();
  return words.split(/\s+/).every((word) => text.includes(word));
}

// A card's clocks as they stand now (the running side's counts down: see tickClocks)
function drawCardClocks(parts, summary) {
  const now = clockTexts(summary);
  setText(parts.clocks, now ? words("hall.card.clocks", { white: now[0], black: now[1] }) : "");
}

// Four times a second, as the board's page: the cards whose game clock runs, redrawn
function tickClocks() {
  for (const [n, parts] of cards) {
    const summary = boards.get(n);
    if (summary && summary.game && summary.clock && summary.clock.running) drawCardClocks(parts, summary);
  }
}

// The boards that changed updated (all of them without ``changed``); the rows the filter
// lets through shown in board order: a row already there is never moved or re-made
function renderCards(changed) {
  const container = $("boards");
  for (const n of [...cards.keys()]) if (!boards.has(n)) cards.delete(n);
  for (const n of changed || [...boards.keys()]) {
    if (!boards.has(n)) continue;
    if (!cards.has(n)) cards.set(n, makeCard(n));
    updateCard(cards.get(n), boards.get(n));
  }
  const words = $("filter").value.trim().toLowerCase();
  const shown = [...boards.keys()].sort((a, b) => a - b)
    .filter((n) => matches(boards.get(n), words)).map((n) => cards.get(n).node);
  const wanted = new Set(shown);
  for (const row of container.querySelectorAll(":scope > .card")) if (!wanted.has(row)) row.remove();
  let cursor = container.querySelector(":scope > .card");
  for (const row of shown) {
    if (row === cursor) cursor = cursor.nextElementSibling;
    else container.insertBefore(row, cursor);
  }
  return shown.length;
}

let storageTold = "";
let mirrorTold = "";

export function render(changed) {
  renderCards(changed);
  const numbers = [...boards.keys()].sort((a, b) => a - b);
  const needing = numbers.filter((n) => boards.get(n).needs.length);
  const count = $("needs-count");
  setText(count, needing.length
    ? words("hall.needs_count", { count: needing.length, boards: { list: needing.map(String) } })
    : words("hall.all_fine"));
  count.className = "status" + (needing.length ? " alert" : "");
  const storage = $("storage");
  storage.hidden = !hall.storage_error;
  setText(storage, hall.storage_error ? words("hall.storage_note", { error: Words.render(hall.storage_error) }) : "");
  if (storage.textContent && storage.textContent !== storageTold) alerts([storage.textContent]);
  storageTold = storage.textContent;
  // the public mirror (hall --mirror): shown only while it cannot deliver
  const mirror = $("mirror");
  const mirrorError = hall.mirror && !hall.mirror.connected && hall.mirror.error;
  mirror.hidden = !mirrorError;
  setText(mirror, mirrorError ? Words.render(hall.mirror.error) : "");
  if (mirror.textContent && mirror.textContent !== mirrorTold) alerts([mirror.textContent]);
  mirrorTold = mirror.textContent;
  const feeds = $("feeds");
  const rounds = (hall.rounds || []).join("\n");
  if (feeds.dataset.rounds !== rounds || feeds.dataset.language !== Words.language) {
    feeds.dataset.rounds = rounds;
    feeds.dataset.language = Words.language;
    feeds.replaceChildren();
    for (const round of hall.rounds || []) {
      const link = el("a", "", words("hall.round_pdn", { round }));
      link.href = "/round/" + encodeURIComponent(round) + "/hall.pdn";  // the hall's own file: column games too
      link.download = "round-" + round + ".pdn";
      feeds.appendChild(link);
    }
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
  syncList($("pairings-table").tBodies[0], rows, (row) => row.round + "/" + row.board, () => {
    const tr = el("tr");
    tr.append(el("td"), el("td"), el("td"), el("td"), el("td"), el("td"));
    return tr;
  }, (tr, row) => {
    tr.className = "pairing-" + row.state.replace(/\s+/g, "-");
    tr.dataset.board = row.board;
    [row.board, row.white, row.black, row.time_control || "", stateWithNote(row)]
      .forEach((text, i) => setText(tr.cells[i], String(text)));
    const actions = tr.cells[5];
    const action = row.state === "held" ? "close_and_start"
      : (row.state === "refused" || row.state === "not started") ? "start_pairing" : "";
    tr.pairing = row; // the button acts on the row as it stands now
    if (actions.dataset.action !== action + "|" + Words.language) {
      actions.dataset.action = action + "|" + Words.language;
      actions.replaceChildren();
      if (action) {
        actions.appendChild(button(words("console." + action), () => {
          const now = tr.pairing;
          if (now.state === "held") closeAndStart(now.board, now.round, false, now.game, now.moves);
          else startPairing(now.board, now.round, false);
        }));
      }
    }
  }, $("round"));
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

let returnTo = null; // what had the focus when the board was opened: it gets it back

async function openDetail(number, from) {
  selected = number;
  returnTo = from || null;
  $("detail").hidden = false;
  await refreshDetail();
  if (selected === number) $("detail-title").focus();
}

function closeDetail() {
  selected = null;
  $("detail").hidden = true;
  const back = returnTo && returnTo.isConnected ? returnTo : null;
  returnTo = null;
  if (back) back.focus();
}

function option(value, text) {
  const node = el("option", "", text);
  node.value = value;
  return node;
}

// The board's position as a grid a screen reader walks: the kit's grid (one tab stop, the
// arrow keys move between its dark squares, Home and End), each square named by its
// square and what stands there ("c3, white man"). Made once per variant, its squares
// updated in place.
const diagram = { variant: null };
let diagramGrid = null;

function buildDiagram(variant) {
  const v = variants[variant];
  diagram.variant = variant;
  if (!diagramGrid) {
    diagramGrid = boardGrid($("detail-board"), {
      body: $("detail-board").tBodies[0], rowTag: "tr", cellTag: "td",
      light: (td) => td.setAttribute("role", "presentation"),
      dark: (td) => td.appendChild(el("span", "sr-only")),
    });
  }
  diagramGrid.build(v || { size: 0, squares: [] });
}

function drawDiagram(d) {
  $("detail-diagram").hidden = !d.game;
  if (!d.game) return;
  const table = $("detail-board");
  const label = words("hall.a11y.position", { board: d.board });
  if (table.getAttribute("aria-label") !== label) table.setAttribute("aria-label", label);
  if (diagram.variant !== d.variant) buildDiagram(d.variant);
  const columns = Boolean((variants[d.variant] || {}).columns);
  for (const td of diagramGrid.cells()) {
    const column = (d.pieces || {})[td.dataset.square] || "";
    const key = column + "|" + Words.language;
    if (td.dataset.column === key) continue;
    td.dataset.column = key;
    td.classList.remove("piece", "w", "b", "king");
    if (column) {
      td.classList.add("piece", column[0].toLowerCase() === "w" ? "w" : "b");
      if (column[0] === "W" || column[0] === "B") td.classList.add("king");
    }
    td.firstChild.textContent = squareText(td.dataset.name, column, columns);
  }
}

async function refreshDetail() {
  const number = selected;
  const d = await getJson("/api/board/" + number);
  if (!d || number !== selected) return;
  shownGame = d.game || null;
  const who = players(d);
  const title = $("detail-title");
  setText($("detail-title"), d.result ? words("hall.detail.title_result", { board: d.board, result: d.result })
    : words("hall.card.board", { board: d.board }));
  setText($("detail-players"), d.game
    ? words("hall.detail.players", { white: who.white, black: who.black, round: d.round || "?", variant: variantName(d.variant) })
    : words("hall.detail.players_no_game", { white: who.white, black: who.black }));
  const status = [words(d.online ? "hall.detail.online" : "hall.detail.offline")];
  if (d.software) status.push(words("hall.detail.software", { version: d.software }));
  if (d.uptime) status.push(words("hall.detail.uptime", { count: Math.round(d.uptime) }));
  setText($("detail-status"), status.join(" · "));
  $("detail-status").classList.toggle("offline", !d.online);
  const texts = (list) => list.map((text) => ({ text }));
  const plain = (item) => item.text;
  const line = (className) => () => el("li", className);
  const fill = (node, item) => setText(node, item.text);
  syncList($("detail-needs"), texts([...d.needs.map((n) => Words.render(n)),
    ...(d.health_notes || []).map((n) => Words.render(n)),
    ...(d.asked_again || []).map((a) => words("hall.detail.asked_again", { game: a.game, why: Words.render(a.why) }))]),
  plain, line(""), fill);
  syncList($("detail-claims"), d.claims || [], (claim) => claim.id + "|" + JSON.stringify(claim.text) + "|" + Words.language,
    (claim) => claimItem(d.board, claim), null, title);
  syncList($("detail-refused"), texts((d.refused || []).map((r) =>
    words("hall.detail.refused", { command: commandName(r.cmd), error: Words.render(r.error) }))), plain, line("refusal"), fill);
  drawDiagram(d);
  syncList($("detail-moves").tBodies[0], d.numbered_moves || [], (row) => String(row.number), () => {
    const tr = el("tr");
    const th = el("th");
    th.scope = "row";
    tr.append(th, el("td"), el("td"));
    return tr;
  }, (tr, row) => {
    setText(tr.cells[0], row.number + ".");
    setText(tr.cells[1], row.white || "…");
    setText(tr.cells[2], row.black || "");
  });
  const tags = $("detail-tags");
  tags.replaceChildren();
  for (const [key, value] of Object.entries(d.tags || {})) {
    tags.appendChild(el("dt", "", Words.render(tagLabel(key))));
    tags.appendChild(el("dd", "", Words.render(tagValue(key, value))));
  }
  syncList($("detail-events"), texts([...(d.events || []), ...(d.problems || []).map((p) => ({ kind: "message", text: p }))].map((e) =>
    words("hall.detail.event", { kind: eventKind(e.kind), text: Words.render(e.message || e.text) }))), plain, line(""), fill);
  syncList($("detail-games"), (d.games || []).slice().reverse(), (g) => g.game + "|" + Words.language, (g) => {
    const item = el("li");
    item.appendChild(el("span"));
    if (g.round) {
      item.appendChild(document.createTextNode(" "));
      const link = el("a", "", words("hall.detail.pdn_link"));
      link.href = "/round/" + encodeURIComponent(g.round) + "/" + d.board + ".pdn";
      item.appendChild(link);
    }
    return item;
  }, (item, g) => setText(item.firstChild, g.round
    ? words("hall.detail.game_round", { game: g.game, round: g.round, count: g.ply, state: Words.render(g.state) })
    : words("hall.detail.game", { game: g.game, count: g.ply, state: Words.render(g.state) })), title);
  const pdn = $("detail-pdn");
  pdn.href = d.round ? "/round/" + encodeURIComponent(d.round) + "/" + d.board + ".pdn" : "#";
  const choice = $("result-choice");
  const results = d.results || [];
  if (choice.dataset.results !== results.join(",")) {
    choice.replaceChildren(option("", words("console.board.choose_result")), ...results.map((r) => option(r, Words.render(resultMessage(r)))));
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
  points.reverse();
  const shape = points.map((o) => o.value + "=" + o.textContent).join("\n");
  if (takeback.dataset.shape !== shape) {
    const kept = takeback.value;
    takeback.dataset.shape = shape;
    takeback.replaceChildren(...points);
    if ([...takeback.options].some((o) => o.value === kept)) takeback.value = kept;
  }
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
// The record's kinds that the catalog names under a wider word (the clock's start, pause
// and resume are all the clock's)
const EVENT_KINDS = { "clock-start": "clock", "clock-pause": "clock", "clock-resume": "clock",
  "draw-offer": "draw", "result-withdrawn": "result" };

function eventKind(kind) {
  const name = EVENT_KINDS[kind] || kind;
  return Words.has("hall.event." + name) ? words("hall.event." + name) : String(kind);
}

// -- talking to the hall ------------------------------------------------------------------

function say(text) { $("arbiter-message").textContent = text; }

// The hall's refusal in the reader's language (its message), else as it came
function refused(error) {
  say(words("console.refused", { why: error.said !== undefined ? Words.render(error.said) : String(error.message) }));
}

async function post(path, body, type = "application/json") {
  const { ok, status, data } = await postJson(path, body, { token, type });
  if (!ok) {
    const error = new Error(data.error || String(status));
    error.said = data.message || data.error || String(status);
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
  $("close-detail").addEventListener("click", closeDetail);
  $("detail").addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !event.target.closest("select")) { event.preventDefault(); closeDetail(); }
  });
  $("filter").addEventListener("input", () => {
    setText($("filter-count"), words("hall.a11y.filter.shown", { count: renderCards() }));
  });
  $("use-token").addEventListener("click", () => useToken($("token").value.trim(), false));
  // Enter in the field gives the token, as it does in the board page's form
  $("token").addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); useToken($("token").value.trim(), false); }
  });
  $("forget-token").addEventListener("click", () => {
    token = "";
    sessionStorage.removeItem(TOKEN_KEY);
    document.body.classList.remove("arbiter");
    say(words("console.token_forgotten"));
    $("token").focus(); // the button goes with the arbiter's controls: the focus stays near
  });
  $("declare-result").addEventListener("click", () => {
    const chosen = $("result-choice").value;
    if (!chosen) { say(words("console.choose_result_first")); return; }
    const reason = $("result-reason").value.trim();
    // a result closes the game in the feed: confirmed, never a default
    boardAction("/api/arbiter/result", { result: chosen, reason }, "result", reason
      ? words("console.ask.declare_reason", { result: resultShown(chosen), reason, board: selected })
      : words("console.ask.declare", { result: resultShown(chosen), board: selected }));
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
    told.clear();
    for (const summary of data.boards) {
      boards.set(summary.board, summary);
      tell(summary, true);
    }
    render();
  }, (changed) => {
    const polite = [];
    const urgent = [];
    for (const summary of changed) {
      boards.set(summary.board, summary);
      tell(summary, false, polite, urgent);
    }
    render(changed.map((summary) => summary.board));
    news(polite);
    alerts(urgent);
  }, (info) => { hall = info; render([]); });
}

// The page draws once the catalog is here (every word comes from it)
Words.ready.catch(() => null).then(() => { wire(); connect(); setInterval(tickClocks, 250); });
