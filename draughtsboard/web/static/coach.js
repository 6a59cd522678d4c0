// The coach's panel: hints in two stages, hints and warnings on or off, the coach's
// notes, a puzzle's progress and the evaluation curve. It draws from the view that
// app.js receives (the "draughtsboard:view" event) and sends the coach's requests.
// Everything shown is set with textContent; the curve is SVG built with DOM calls.
// Every word comes from the message catalog (words.js: Words.text for the panel's own
// words, Words.render for the messages of the view); nothing is drawn before Words.ready.

import { el } from "/kit/dom.js";
import { currentView } from "/static/app.js";

// words.js, loaded by the page before this script; fetched here if the page did not
// (the same script, once).
function coachWords() {
  if (typeof Words !== "undefined") return Words.ready;
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = "/words/words.js";
    script.onload = () => resolve(Words.ready);
    script.onerror = reject;
    document.head.appendChild(script);
  });
}

coachWords().then(() => {
  const SVG = "http://www.w3.org/2000/svg";
  const CLAMP = 500; // hundredths of a man shown at the top and bottom of the curve
  let coach = null;
  let busy = false;

  const panel = el("section", "coach-panel");
  panel.id = "coach-panel";
  panel.hidden = true;
  const title = el("h2", "", Words.text("coach.panel.title"));
  panel.appendChild(title);
  // The blunder warning sits next to the board (a phone shows the side panels far below)
  const warningBox = el("div", "coach-warning");
  warningBox.id = "coach-warning";
  warningBox.setAttribute("role", "alert");
  warningBox.hidden = true;
  const controls = el("p", "coach-controls");
  const hintButton = el("button", "", Words.text("coach.hint.button.piece"));
  hintButton.id = "hint-button";
  hintButton.type = "button";
  controls.appendChild(hintButton);
  function toggle(id, words) {
    const label = el("label", "coach-toggle");
    const box = el("input");
    box.type = "checkbox";
    box.id = id;
    label.appendChild(box);
    label.appendChild(document.createTextNode(" " + Words.text(words)));
    controls.appendChild(label);
    return box;
  }
  const hintsBox = toggle("hints-on", "coach.toggle.hints");
  const warningsBox = toggle("warnings-on", "coach.toggle.warnings");
  panel.appendChild(controls);
  const note = el("p", "coach-note");
  note.id = "coach-note";
  note.setAttribute("role", "status");
  panel.appendChild(note);
  const puzzle = el("div", "puzzle");
  puzzle.id = "puzzle";
  puzzle.hidden = true;
  panel.appendChild(puzzle);
  const curveTitle = el("h3", "", Words.text("coach.panel.evaluation"));
  panel.appendChild(curveTitle);
  const curve = document.createElementNS(SVG, "svg");
  curve.id = "eval-curve";
  curve.setAttribute("viewBox", "0 0 300 100");
  curve.setAttribute("role", "img");
  curve.setAttribute("aria-label", Words.text("coach.curve.label"));
  panel.appendChild(curve);
  const curveNote = el("p", "coach-curve-note");
  panel.appendChild(curveNote);

  function mount() {
    const side = document.getElementById("side");
    if (side) side.insertBefore(panel, side.firstChild);
    const status = document.getElementById("status");
    if (status) status.parentNode.insertBefore(warningBox, status);
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }
    if (!response.ok) {
      // the refusal's message in the reader's language (its English line: an older board)
      const error = new Error(data.error || String(response.status));
      error.words = data.message || data.error
        || { id: "coach.request_failed", params: { status: String(response.status) } };
      throw error;
    }
    return data;
  }

  // A message of the view (or a plain string of an older record) in the panel's note
  function say(message, isError) {
    note.textContent = Words.render(message);
    note.classList.toggle("error", !!isError);
  }

  function refused(e) {
    say(e.words || { id: "coach.request_failed", params: { status: e.message } }, true);
  }

  hintButton.addEventListener("click", () => {
    if (busy) return;
    busy = true;
    post("/api/coach/hint").then(() => {}, refused)
      .finally(() => { busy = false; });
  });
  hintsBox.addEventListener("change", () => {
    post("/api/coach/options", { hints: hintsBox.checked }).catch(refused);
  });
  warningsBox.addEventListener("change", () => {
    post("/api/coach/options", { warnings: warningsBox.checked }).catch(refused);
  });

  function drawCurve(points, plies) {
    curve.replaceChildren();
    const axis = document.createElementNS(SVG, "line");
    axis.setAttribute("x1", "0"); axis.setAttribute("x2", "300");
    axis.setAttribute("y1", "50"); axis.setAttribute("y2", "50");
    axis.setAttribute("class", "axis");
    curve.appendChild(axis);
    if (!points.length) {
      curveNote.textContent = "";
      return;
    }
    const width = Math.max(plies, points[points.length - 1][0], 1);
    const xy = points.map(([ply, score]) => {
      const s = Math.max(-CLAMP, Math.min(CLAMP, score));
      return (ply / width * 300).toFixed(1) + "," + (50 - s / CLAMP * 48).toFixed(1);
    });
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", xy.join(" "));
    line.setAttribute("class", "curve");
    curve.appendChild(line);
    const [lastPly, lastScore] = points[points.length - 1];
    curveNote.textContent = Words.text("coach.curve.note", {
      ply: lastPly, score: (lastScore >= 0 ? "+" : "") + (lastScore / 100).toFixed(2) });
  }

  function puzzleButton(action, words, enabled) {
    const button = el("button", "", Words.text(words));
    button.type = "button";
    button.id = "puzzle-" + action;
    button.disabled = !enabled;
    button.addEventListener("click", () => {
      post("/api/coach/puzzle", { action }).catch(refused);
    });
    return button;
  }

  function drawPuzzle(p) {
    puzzle.hidden = !p;
    if (!p) return;
    puzzle.replaceChildren();
    puzzle.appendChild(el("p", "puzzle-title", Words.render(p.heading)));
    puzzle.appendChild(el("p", "puzzle-state puzzle-" + p.state,
      (p.state === "solved" ? "✔ " : "") + Words.render(p.note)));
    const buttons = el("p", "puzzle-buttons");
    const open = p.state !== "done";
    buttons.appendChild(puzzleButton("next",
      p.state === "solved" ? "puzzle.button.next" : "puzzle.button.skip", open));
    buttons.appendChild(puzzleButton("retry", "puzzle.button.retry", open));
    buttons.appendChild(puzzleButton("solution", "puzzle.button.solution",
      open && p.state !== "solved"));
    puzzle.appendChild(buttons);
    if (p.setup && p.setup.length) {
      puzzle.appendChild(el("p", "puzzle-columns", Words.text("puzzle.columns.heading")));
      const list = el("ul", "puzzle-setup");
      for (const [square, , column] of p.setup) {
        list.appendChild(el("li", "", square + ": " + Words.render(column)));
      }
      puzzle.appendChild(list);
    }
    puzzle.appendChild(el("p", "puzzle-solved", Words.render(p.solved_count)));
  }

  // The coach's squares on the page's board too (the LEDs there are small).
  function markSquares() {
    const hint = coach && coach.hint ? coach.hint.squares : [];
    const warned = coach && coach.warning ? coach.warning.squares : [];
    for (const cell of document.querySelectorAll("#board .sq.dark")) {
      const n = Number(cell.dataset.square);
      cell.classList.toggle("coach-hint", hint.length > 0 && hint[0] === n);
      cell.classList.toggle("coach-path", hint.indexOf(n) > 0);
      cell.classList.toggle("coach-blunder", warned.includes(n));
    }
  }

  function drawWarning(w) {
    warningBox.hidden = !w;
    if (!w) return;
    const text = Words.render(w.text);
    if (warningBox.dataset.key === text) return;
    warningBox.dataset.key = text;
    warningBox.replaceChildren(el("strong", "", Words.text("coach.warning.title")),
      el("span", "", " " + text));
  }

  function draw(v) {
    coach = v.coach;
    panel.hidden = !coach;
    markSquares();
    drawWarning(coach ? coach.warning : null);
    if (!coach) return;
    // a tournament game with its result: the evaluation only, no coach; the panel is then
    // headed "Evaluation" itself, and the curve's own heading would say it a second time
    controls.hidden = !coach.available;
    note.hidden = !coach.available;
    title.textContent = Words.text(coach.available ? "coach.panel.title" : "coach.panel.evaluation");
    curveTitle.hidden = !coach.available;
    const hint = coach.hint;
    hintButton.disabled = !coach.available || !coach.hints || !!v.result;
    hintButton.textContent = Words.text(!hint || !hint.stage ? "coach.hint.button.piece"
      : hint.stage === 1 ? "coach.hint.button.move" : "coach.hint.button.given");
    hintButton.dataset.stage = hint ? String(hint.stage) : "0";
    hintsBox.checked = coach.hints;
    hintsBox.disabled = !coach.available;
    warningsBox.checked = coach.warnings;
    warningsBox.disabled = !coach.available || v.mode !== "training";
    let said = coach.note;
    if (hint && hint.thinking) said = { id: "coach.thinking" };
    if (coach.warning) said = { id: "coach.panel.see_warning" };
    say(said, !!coach.warning);
    panel.classList.toggle("warned", !!coach.warning);
    drawPuzzle(coach.puzzle);
    drawCurve(coach.curve, coach.plies);
  }

  mount();
  document.addEventListener("draughtsboard:view", (event) => draw(event.detail));
  // app.js connects first: while this file was still loading (a slow phone, a busy
  // board) the first view may have come and gone, and a board at rest sends no other.
  if (currentView()) draw(currentView());
});
