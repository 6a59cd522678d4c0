// The coach's panel: hints in two stages, hints and warnings on or off, the coach's
// notes, a puzzle's progress and the evaluation curve. It draws from the view that
// app.js receives (the "draughtsboard:view" event) and sends the coach's requests.
// Everything shown is set with textContent; the curve is SVG built with DOM calls.
"use strict";

(() => {
  const SVG = "http://www.w3.org/2000/svg";
  const CLAMP = 500; // hundredths of a man shown at the top and bottom of the curve
  let coach = null;
  let busy = false;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const panel = el("section", "coach-panel");
  panel.id = "coach-panel";
  panel.hidden = true;
  const title = el("h2", "", "Coach");
  panel.appendChild(title);
  // The blunder warning sits next to the board (a phone shows the side panels far below)
  const warningBox = el("div", "coach-warning");
  warningBox.id = "coach-warning";
  warningBox.setAttribute("role", "alert");
  warningBox.hidden = true;
  const controls = el("p", "coach-controls");
  const hintButton = el("button", "", "Hint");
  hintButton.id = "hint-button";
  hintButton.type = "button";
  controls.appendChild(hintButton);
  function toggle(id, text) {
    const label = el("label", "coach-toggle");
    const box = el("input");
    box.type = "checkbox";
    box.id = id;
    label.appendChild(box);
    label.appendChild(document.createTextNode(" " + text));
    controls.appendChild(label);
    return box;
  }
  const hintsBox = toggle("hints-on", "hints");
  const warningsBox = toggle("warnings-on", "blunder warnings");
  panel.appendChild(controls);
  const note = el("p", "coach-note");
  note.id = "coach-note";
  note.setAttribute("role", "status");
  panel.appendChild(note);
  const puzzle = el("div", "puzzle");
  puzzle.id = "puzzle";
  puzzle.hidden = true;
  panel.appendChild(puzzle);
  const curveTitle = el("h3", "", "Evaluation");
  panel.appendChild(curveTitle);
  const curve = document.createElementNS(SVG, "svg");
  curve.id = "eval-curve";
  curve.setAttribute("viewBox", "0 0 300 100");
  curve.setAttribute("role", "img");
  curve.setAttribute("aria-label", "evaluation curve, White above the line");
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
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  function say(text, isError) {
    note.textContent = text || "";
    note.classList.toggle("error", !!isError);
  }

  hintButton.addEventListener("click", () => {
    if (busy) return;
    busy = true;
    post("/api/coach/hint").then(() => {}, (e) => say(e.message, true))
      .finally(() => { busy = false; });
  });
  hintsBox.addEventListener("change", () => {
    post("/api/coach/options", { hints: hintsBox.checked }).catch((e) => say(e.message, true));
  });
  warningsBox.addEventListener("change", () => {
    post("/api/coach/options", { warnings: warningsBox.checked })
      .catch((e) => say(e.message, true));
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
    curveNote.textContent = "after ply " + lastPly + ": " + (lastScore >= 0 ? "+" : "")
      + (lastScore / 100).toFixed(2) + " (White's view)";
  }

  function puzzleButton(action, text, enabled) {
    const button = el("button", "", text);
    button.type = "button";
    button.id = "puzzle-" + action;
    button.disabled = !enabled;
    button.addEventListener("click", () => {
      post("/api/coach/puzzle", { action }).catch((e) => say(e.message, true));
    });
    return button;
  }

  function drawPuzzle(p) {
    puzzle.hidden = !p;
    if (!p) return;
    puzzle.replaceChildren();
    puzzle.appendChild(el("p", "puzzle-title",
      "Puzzle " + p.number + " of " + p.count + ": " + p.title));
    puzzle.appendChild(el("p", "puzzle-state puzzle-" + p.state,
      (p.state === "solved" ? "✔ " : "") + p.note));
    const buttons = el("p", "puzzle-buttons");
    const open = p.state !== "done";
    buttons.appendChild(puzzleButton("next", p.state === "solved" ? "Next puzzle" : "Skip",
      open));
    buttons.appendChild(puzzleButton("retry", "Try again", open));
    buttons.appendChild(puzzleButton("solution", "Show the solution",
      open && p.state !== "solved"));
    puzzle.appendChild(buttons);
    if (p.setup && p.setup.length) {
      puzzle.appendChild(el("p", "puzzle-columns", "Columns, top first (w, b: men; "
        + "W, B: officers):"));
      const list = el("ul", "puzzle-setup");
      for (const [square, column] of p.setup) {
        list.appendChild(el("li", "", square + ": " + column));
      }
      puzzle.appendChild(list);
    }
    puzzle.appendChild(el("p", "puzzle-solved", "Solved so far: " + p.solved.length));
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
    const key = w.text;
    if (warningBox.dataset.key === key) return;
    warningBox.dataset.key = key;
    warningBox.replaceChildren(el("strong", "", "Blunder"), el("span", "", " " + w.text));
  }

  function draw(v) {
    coach = v.coach;
    panel.hidden = !coach;
    markSquares();
    drawWarning(coach ? coach.warning : null);
    if (!coach) return;
    // a tournament game with its result: the evaluation only, no coach
    controls.hidden = !coach.available;
    note.hidden = !coach.available;
    title.textContent = coach.available ? "Coach" : "Evaluation";
    const hint = coach.hint;
    hintButton.disabled = !coach.available || !coach.hints || !!v.result;
    hintButton.textContent = !hint || !hint.stage ? "Hint: which piece?"
      : hint.stage === 1 ? "Hint: which move?" : "Hint given";
    hintButton.dataset.stage = hint ? String(hint.stage) : "0";
    hintsBox.checked = coach.hints;
    hintsBox.disabled = !coach.available;
    warningsBox.checked = coach.warnings;
    warningsBox.disabled = !coach.available || v.mode !== "training";
    let text = coach.note;
    if (hint && hint.thinking) text = "Thinking…";
    if (coach.warning) text = "Blunder: see the warning beside the board.";
    say(text, !!coach.warning);
    panel.classList.toggle("warned", !!coach.warning);
    drawPuzzle(coach.puzzle);
    drawCurve(coach.curve, coach.plies);
  }

  mount();
  document.addEventListener("draughtsboard:view", (event) => draw(event.detail));
  // app.js connects first: while this file was still loading (a slow phone, a busy
  // board) the first view may have come and gone, and a board at rest sends no other.
  if (typeof view !== "undefined" && view) draw(view);
})();
