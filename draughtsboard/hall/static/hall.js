// The hall page: every board at a glance, one board in full on click, the arbiter's
// console. Text is only ever set as text (no HTML built from data); CSP forbids inline
// scripts besides.
"use strict";

const boards = new Map(); // board number -> summary
let variants = {};
let hall = {};
let selected = null;
let shownGame = null; // the game the board's detail shows
let token = "";

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function clock(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, Math.round(seconds));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function miniBoard(summary) {
  const v = variants[summary.variant];
  const grid = el("div", "mini");
  if (!v) return grid;
  grid.style.setProperty("--size", v.size);
  const bySquare = new Map(v.squares.map((s) => [s[1] + "," + s[2], s[0]]));
  for (let rank = v.size - 1; rank >= 0; rank--) {
    for (let file = 0; file < v.size; file++) {
      const number = bySquare.get(file + "," + rank);
      const cell = el("div", number ? "dark" : "");
      const column = number ? summary.pieces[String(number)] : null;
      if (column) {
        const top = column[0];
        cell.classList.add("piece", top.toLowerCase() === "w" ? "w" : "b");
        if (top === "W" || top === "B") cell.classList.add("king");
      }
      grid.appendChild(cell);
    }
  }
  return grid;
}

function card(summary) {
  const node = el("article", "card");
  node.dataset.board = summary.board;
  if (summary.needs.length) node.classList.add("needs");
  if (summary.seen && !summary.online) node.classList.add("offline");
  const title = el("h3");
  title.appendChild(el("span", "", "Board " + summary.board));
  title.appendChild(el("span", "result", summary.result || ""));
  node.appendChild(title);
  if (summary.game) {
    node.appendChild(el("div", "players", (summary.white || "?") + " – " + (summary.black || "?")));
    node.appendChild(miniBoard(summary));
    const move = summary.ply ? "move " + summary.move_number + " · " + summary.last_move : "no move yet";
    node.appendChild(el("div", "line move", move));
    if (summary.clocks) {
      node.appendChild(el("div", "line", "⏱ " + clock(summary.clocks[0]) + " / " + clock(summary.clocks[1])));
    }
  } else {
    node.appendChild(el("div", "line", "no game yet"));
  }
  if (summary.needs.length) node.appendChild(el("div", "needs-text", summary.needs.join(", ")));
  node.addEventListener("click", () => openDetail(summary.board));
  return node;
}

function render() {
  const container = $("boards");
  const numbers = [...boards.keys()].sort((a, b) => a - b);
  container.replaceChildren(...numbers.map((n) => card(boards.get(n))));
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
  const list = $("pairings-list");
  list.replaceChildren();
  for (const [round, rows] of Object.entries(hall.pairings || {})) {
    for (const row of rows) {
      list.appendChild(el("li", "", "round " + round + ", board " + row.board + ": " + row.white + " – " + row.black));
    }
  }
  if (selected !== null && boards.has(selected)) refreshDetail();
}

async function openDetail(number) {
  selected = number;
  $("detail").hidden = false;
  await refreshDetail();
}

async function refreshDetail() {
  const number = selected;
  const response = await fetch("/api/board/" + number);
  if (!response.ok || number !== selected) return;
  const d = await response.json();
  shownGame = d.game || null;
  $("detail-title").textContent = "Board " + d.board + (d.result ? " · " + d.result : "");
  $("detail-players").textContent = d.game ? (d.white || "?") + " – " + (d.black || "?") + " (round " + (d.round || "?") + ", " + d.variant + ")" : "no game";
  $("detail-status").textContent = (d.online ? "online" : "offline") + (d.software ? " · software " + d.software : "") + (d.uptime ? " · up " + Math.round(d.uptime) + " s" : "");
  $("detail-needs").replaceChildren(...d.needs.map((n) => el("li", "", n)),
    ...(d.health_notes || []).map((n) => el("li", "", n)),
    ...(d.asked_again || []).map((a) => el("li", "", "game " + a.game + " asked for again: " + a.why)));
  $("detail-claims").replaceChildren(...(d.claims || []).map((claim) => claimItem(d.board, claim)));
  $("detail-moves").replaceChildren(...(d.moves || []).map((m) => el("li", "", m)));
  const tags = $("detail-tags");
  tags.replaceChildren();
  for (const [key, value] of Object.entries(d.tags || {})) {
    tags.appendChild(el("dt", "", key));
    tags.appendChild(el("dd", "", value));
  }
  $("detail-events").replaceChildren(...[...(d.events || []), ...(d.problems || []).map((p) => ({ kind: "message", text: p }))].map((e) => el("li", "", e.kind + ": " + e.text)));
  $("detail-games").replaceChildren(...(d.games || []).slice().reverse().map((g) => {
    const item = el("li", "", "game " + g.game + (g.round ? " · round " + g.round : "") + " · " + g.ply + " plies · " + (g.result || "in play"));
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
  const results = d.variant === "international" ? ["2-0", "1-1", "0-2"] : ["1-0", "1/2-1/2", "0-1"];
  if (choice.dataset.variant !== d.variant) {
    const none = el("option", "", "choose…");
    none.value = "";
    choice.replaceChildren(none, ...results.map((r) => { const o = el("option", "", r); o.value = r; return o; }));
    choice.dataset.variant = d.variant || "";
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
  const button = el("button", "", label);
  button.type = "button";
  button.addEventListener("click", async () => {
    if (!window.confirm(label + " on board " + board + ": " + claim.text + "?")) return;
    try {
      say(await post("/api/arbiter/" + action, { board, kind: claim.kind, game: claim.game, claim: claim.id }));
      refreshDetail();
    } catch (error) { say("refused: " + error.message); }
  });
  return button;
}

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

function wire() {
  $("close-detail").addEventListener("click", () => { selected = null; $("detail").hidden = true; });
  $("use-token").addEventListener("click", async () => {
    token = $("token").value.trim();
    try {
      await post("/api/arbiter/check", {});
      document.body.classList.add("arbiter");
      say("arbiter: token accepted");
    } catch (error) {
      document.body.classList.remove("arbiter");
      say("refused: " + error.message);
    }
  });
  $("declare-result").addEventListener("click", async () => {
    const chosen = $("result-choice").value;
    if (!chosen) { say("choose the result first"); return; }
    // a result closes the game in the feed: confirmed, never a default
    if (!window.confirm("Declare " + chosen + " on board " + selected + "?")) return;
    try {
      // the game on the card: the result is for the game the arbiter looked at
      const result = await post("/api/arbiter/result", { board: selected, game: shownGame, result: chosen });
      say("result on board " + selected + ": " + outcome(result));
    } catch (error) { say("refused: " + error.message); }
  });
  $("acknowledge").addEventListener("click", async () => {
    try {
      const result = await post("/api/arbiter/acknowledge", { board: selected });
      say("flags on board " + selected + ": " + outcome(result));
    } catch (error) { say("refused: " + error.message); }
  });
  $("import-pairings").addEventListener("click", async () => {
    try {
      const rows = await post("/api/arbiter/pairings", $("pairings").value, "text/plain");
      say(rows.length + " pairing(s) imported");
    } catch (error) { say("refused: " + error.message); }
  });
  $("start-round").addEventListener("click", async () => {
    try {
      const rows = await post("/api/arbiter/start-round", { round: $("round").value });
      say(rows.map((r) => "board " + r.board + ": " + outcome(r)).join("; "));
    } catch (error) { say("refused: " + error.message); }
  });
}

function connect() {
  const source = new EventSource("/api/events");
  source.addEventListener("hall", (event) => {
    const data = JSON.parse(event.data);
    variants = data.variants;
    hall = data.hall;
    boards.clear();
    for (const summary of data.boards) boards.set(summary.board, summary);
    $("connection").textContent = "live";
    $("connection").className = "status live";
    render();
  });
  source.addEventListener("boards", (event) => {
    for (const summary of JSON.parse(event.data)) boards.set(summary.board, summary);
    render();
  });
  source.addEventListener("info", (event) => { hall = JSON.parse(event.data); render(); });
  source.onerror = () => {
    $("connection").textContent = "reconnecting";
    $("connection").className = "status alert";
  };
}

wire();
connect();
