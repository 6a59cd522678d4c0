// The projector view: one round's boards, big, twenty a page (the page turns by itself),
// for the playing hall's screen. ?round=3 picks the round (default: the latest),
// ?per_page=12 and ?seconds=20 change the page and its time. Text is only set as text;
// every word comes from the catalog, in the venue's language unless someone chose
// another on this screen (data-words-venue on the page).

import { el, clockTexts, clockRunning, lastMove, miniBoard, players, listen, say } from "/static/board.js";
// the wall is read from afar and turns its pages by itself: nothing on it is live but one
// polite line, a result as it comes
const params = new URLSearchParams(location.search);
const PER_PAGE = Math.max(1, Math.min(40, Number(params.get("per_page")) || 20));
const SECONDS = Math.max(5, Number(params.get("seconds")) || 15);
const boards = new Map();
let variants = {};
let hall = {};
let page = 0;
const results = new Map(); // board -> the result last told

// A result new since the last look is said once (the first look only remembers)
function tellResults(summaries, quiet) {
  const said = [];
  for (const summary of summaries) {
    const result = summary.result && summary.result !== "*" ? summary.result : "";
    if (!quiet && result && results.get(summary.board) !== result) {
      said.push(say("hall.a11y.news.result", { board: summary.board, result }));
    }
    results.set(summary.board, result);
  }
  if (said.length) $("wall-news").textContent = said.join(" ");
}

const $ = (id) => document.getElementById(id);

function round() {
  const rounds = hall.rounds || [];
  return params.get("round") || rounds[rounds.length - 1] || "";
}

// The round's boards: its pairings', else the boards whose game is of the round
function roundBoards(name) {
  const paired = ((hall.pairings || {})[name] || []).map((row) => row.board);
  const numbers = paired.length ? paired : [...boards.values()].filter((s) => s.round === name).map((s) => s.board);
  return numbers.filter((n) => boards.has(n)).sort((a, b) => a - b);
}

// A player's line: the side told for the eye by a piece of its colour (a white disc, a
// black one ringed so that it shows on the dark screen; ◀ for the side to move) and in
// words for a screen reader
function player(name, time, toMove, colour) {
  const line = el("div", "player " + colour + (toMove ? " to-move" : ""));
  const who = el("span", "who");
  const mark = el("span", "piece " + colour, "● ");
  mark.setAttribute("aria-hidden", "true");
  who.append(mark, el("span", "sr-only", say("side." + colour) + ": "), document.createTextNode(name));
  line.appendChild(who);
  if (toMove) {
    const turn = el("span", "turn", "◀");
    turn.setAttribute("aria-hidden", "true");
    line.append(turn, el("span", "sr-only", " " + say("hall.a11y.to_move")));
  }
  if (time) line.appendChild(el("span", "time", time));
  return line;
}

// The board's players in the round shown: its game's when it plays the round's game,
// else the round's pairing (the board is not there yet)
function roundPlayers(summary, name) {
  if (summary.game && summary.round === name) return { ...players(summary), here: true };
  const row = ((hall.pairings || {})[name] || []).find((r) => r.board === summary.board);
  if (row) return { white: row.white || "?", black: row.black || "?", owed: true, here: false };
  return { ...players(summary), here: Boolean(summary.game) };
}

function table(summary) {
  const who = roundPlayers(summary, round());
  const shown = who.here && !who.owed; // its game is the round's
  const node = el("article", "table" + (shown && summary.finished ? " finished" : ""));
  node.dataset.board = summary.board;
  const running = summary.game && !summary.finished && shown;
  const clocks = (shown && clockTexts(summary)) || ["", ""];
  node.appendChild(player(who.black, clocks[1], running && !summary.white_to_move, "black"));
  const left = el("div", "side");
  node.appendChild(left);
  const info = el("div", "info");
  info.appendChild(el("h2", "number", say("projector.board", { board: summary.board })));
  if (summary.game && shown) {
    const mini = miniBoard(variants);
    mini.update(summary, say("hall.a11y.position", { board: summary.board }));
    left.appendChild(mini.node);
    info.appendChild(el("div", "last", lastMove(summary)));
    if (summary.result) info.appendChild(el("div", "result", summary.result === "*" ? "–" : summary.result));
  } else {
    info.appendChild(el("div", "waiting", say("projector.waiting")));
  }
  node.appendChild(info);
  node.appendChild(player(who.white, clocks[0], running && summary.white_to_move, "white"));
  return node;
}

// Columns and rows for ``count`` boards: each table as near 3:2 as the screen allows
function layout(count, width, height) {
  let best = [1, count];
  let score = Infinity;
  for (let columns = 1; columns <= count; columns++) {
    const rows = Math.ceil(count / columns);
    const shape = (width / columns) / (height / rows);
    const miss = Math.abs(Math.log(shape / 1.5));
    if (miss < score) { score = miss; best = [columns, rows]; }
  }
  return best;
}

// A long name gets a little smaller, then a second line, then smaller letters (down to
// three quarters) before it loses its end
function fitNames(wall) {
  for (const name of wall.querySelectorAll(".who")) {
    const base = parseFloat(getComputedStyle(name).fontSize);
    let size = base;
    while (name.scrollWidth > name.clientWidth && size > base * 0.86) {
      size *= 0.95;
      name.style.fontSize = size + "px";
    }
    if (name.scrollWidth <= name.clientWidth) continue;
    name.classList.add("long");
    while (name.scrollHeight > name.clientHeight + 1 && size > base * 0.75) {
      size *= 0.95;
      name.style.fontSize = size + "px";
    }
  }
}

function render() {
  const name = round();
  const numbers = roundBoards(name);
  const pages = Math.max(1, Math.ceil(numbers.length / PER_PAGE));
  page %= pages;
  const shown = numbers.slice(page * PER_PAGE, (page + 1) * PER_PAGE);
  const wall = $("wall");
  const [columns, rows] = layout(Math.max(1, pages > 1 ? PER_PAGE : shown.length),
                                 wall.clientWidth || 1920, wall.clientHeight || 1000);
  wall.style.setProperty("--columns", columns);
  wall.style.setProperty("--rows", rows);
  wall.replaceChildren(...shown.map((n) => table(boards.get(n))));
  fitNames(wall);
  const first = shown.length ? boards.get(shown[0]) : null;
  const event = (first && first.event) || ((hall.pairings || {})[name] || [{}])[0].event || "";
  const headline = name ? say("projector.round", { round: name }) : say("hall.title");
  $("title").textContent = event ? say("projector.event", { event, headline }) : headline;
  $("page").textContent = pages > 1 && shown.length
    ? say("projector.pages", { first: shown[0], last: shown[shown.length - 1], page: page + 1, pages }) : "";
}

// Four times a second, as the board's page: the clocks that run, redrawn in place
function tickClocks() {
  for (const node of document.querySelectorAll(".table[data-board]")) {
    const summary = boards.get(Number(node.dataset.board));
    if (!clockRunning(summary)) continue;
    const now = clockTexts(summary);
    for (const [index, side] of [[0, "white"], [1, "black"]]) {
      const time = node.querySelector(".player." + side + " .time");
      if (time) time.textContent = now[index];
    }
  }
}

function connect() {
  listen($("connection"), (data) => {
    variants = data.variants;
    hall = data.hall;
    boards.clear();
    for (const summary of data.boards) boards.set(summary.board, summary);
    tellResults(data.boards, true);
    render();
  }, (changed) => {
    for (const summary of changed) boards.set(summary.board, summary);
    tellResults(changed, false);
    render();
  }, (info) => { hall = info; render(); });
}

Words.ready.catch(() => null).then(() => {
  setInterval(() => { page += 1; render(); }, SECONDS * 1000);
  setInterval(tickClocks, 250);
  connect();
});
