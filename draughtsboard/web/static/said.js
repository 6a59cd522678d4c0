// What is new, said once: the board page's live regions and this device's speech.
// The board's stream sends, after a view, what there is to say about it (app.js hands it
// on as the "draughtsboard:spoken" event): the board's own sentences
// (draughtsboard/speech/spoken.py) as messages, each thing once. An illegal move, squares
// to put right (a knocked piece) and the opponent's move to carry out interrupt
// (#said-alert, role=alert); the rest (moves, a required capture, the result) waits its
// turn (#said, role=log). The same sentences are
// spoken aloud by the browser (speechSynthesis) in the page's language when the switch
// (#speak) is on: off unless turned on, kept in this browser's localStorage.
"use strict";

(() => {
  const SPEECH_KEY = "speech";
  const INTERRUPTS = /^spoken\.(flag\.illegal|flag\.restore|opponent\.)/;
  const LOG_KEPT = 5; // the latest sentences kept in the log region
  const byId = (id) => document.getElementById(id);

  function canSpeak() {
    return "speechSynthesis" in window && typeof window.SpeechSynthesisUtterance === "function";
  }

  function setUpSpeech() {
    const box = byId("speak");
    const can = canSpeak();
    box.disabled = !can;
    byId("speech-none").hidden = can;
    let saved = null;
    try { saved = localStorage.getItem(SPEECH_KEY); } catch (e) { saved = null; }
    box.checked = can && saved === "on";
    box.addEventListener("change", () => {
      try { localStorage.setItem(SPEECH_KEY, box.checked ? "on" : "off"); } catch (e) { /* private mode */ }
      if (!box.checked && can) window.speechSynthesis.cancel();
    });
  }

  // An announcement's messages as sentences one after the other, as the board says them
  function sentences(messages) {
    const said = messages.map((m) => Words.render(m).trim().replace(/[.]$/, "")).filter(Boolean);
    return said.length ? said.join(". ") + "." : "";
  }

  function speak(text, urgent) {
    if (!byId("speak").checked || !canSpeak()) return;
    if (urgent) window.speechSynthesis.cancel();
    const utterance = new window.SpeechSynthesisUtterance(text);
    utterance.lang = Words.language === "qps" ? "en" : Words.language;
    window.speechSynthesis.speak(utterance);
  }

  function paragraph(text) {
    const p = document.createElement("p");
    p.textContent = text;
    return p;
  }

  function announce(announcements) {
    for (const announcement of announcements) {
      const text = sentences(announcement.messages);
      if (!text) continue;
      const urgent = announcement.messages.some((m) => INTERRUPTS.test(m.id || ""));
      if (urgent) {
        byId("said-alert").replaceChildren(paragraph(text));
      } else {
        const log = byId("said");
        // a space before each announcement, so that the region's text read whole keeps
        // its sentences apart ("…d4. Black wins.", not "…d4.Black wins.")
        log.append(" ", paragraph(text));
        while (log.children.length > LOG_KEPT) {
          const oldest = log.firstElementChild;
          if (oldest.previousSibling) oldest.previousSibling.remove();
          oldest.remove();
        }
      }
      speak(text, urgent);
    }
  }

  // An alert put right (the position restored, the opponent's move carried out) is not
  // left behind for someone reading the page later
  function clearAlert(v) {
    const intents = v.intents || {};
    const flagged = (intents.illegal || []).length + (intents.restore || []).length;
    const pending = v.opponent && v.opponent.pending;
    const alert = byId("said-alert");
    if (!flagged && !pending && alert.firstChild) alert.replaceChildren();
  }

  Words.ready.then(() => {
    setUpSpeech();
    document.addEventListener("draughtsboard:spoken", (event) => announce(event.detail));
    document.addEventListener("draughtsboard:view", (event) => clearAlert(event.detail));
  });
})();
