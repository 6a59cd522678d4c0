// Words in the browser: the server's message catalog (/words/catalog.json) and the one
// renderer of its messages, the same rules as draughtsboard/words/render.py: placeholders
// {name}, the plural form picked by the parameter "count" (Intl.PluralRules, CLDR, matched
// to the catalog's forms by their categories), lists joined by CLDR's patterns. No word
// is written here: every word a page shows comes from the catalog.
//
// A page loads this script first and waits for Words.ready before drawing. In its HTML,
// data-words="id" fills an element's text, data-words-label / -title / -placeholder its
// aria-label, title and placeholder. A <select data-words-switch> becomes the language
// switch: the choice is remembered on this device (localStorage) and the page reloads
// (at once with the mouse; with the keys, on Enter or when the focus leaves it). A switch
// chosen with the focus on it has the focus again after the reload, so a keyboard or
// screen reader user is not thrown back to the top of the page.
"use strict";

const Words = (() => {
  const STORAGE_KEY = "language";
  const FOCUS_KEY = "language:focus"; // (sessionStorage: this tab, across the reload)
  const venue = document.documentElement.dataset.wordsVenue === "1";
  const storageKey = venue ? "language:venue" : STORAGE_KEY;
  let catalog = { messages: {}, lists: {}, plural: { categories: [] }, languages: [] };
  let plurals = null;

  function remembered() {
    const fromUrl = new URLSearchParams(location.search).get("lang");
    if (fromUrl) return fromUrl;
    try { return localStorage.getItem(storageKey) || ""; } catch (e) { return ""; }
  }

  async function load() {
    const query = new URLSearchParams();
    const asked = remembered();
    if (asked) query.set("lang", asked);
    if (venue) query.set("venue", "1");
    const response = await fetch("/words/catalog.json?" + query.toString(), { cache: "no-cache" });
    if (!response.ok) throw new Error("catalog " + response.status);
    catalog = await response.json();
    try { plurals = new Intl.PluralRules(catalog.language); } catch (e) { plurals = new Intl.PluralRules("en"); }
    document.documentElement.lang = catalog.language;
    apply(document);
    return catalog;
  }

  function pluralForm(forms, count) {
    const categories = catalog.plural.categories;
    let index = categories.indexOf(plurals.select(typeof count === "number" ? count : 0));
    if (index < 0) index = categories.indexOf("other");
    if (index < 0) index = forms.length - 1;
    return forms[Math.min(index, forms.length - 1)];
  }

  function fill(pattern, first, second) {
    return pattern.split("{0}").join(first).split("{1}").join(second);
  }

  function join(items, style) {
    const patterns = catalog.lists[style || "and"];
    if (!items.length) return "";
    if (items.length === 1) return items[0];
    if (items.length === 2) return fill(patterns["2"], items[0], items[1]);
    let result = fill(patterns.end, items[items.length - 2], items[items.length - 1]);
    for (let i = items.length - 3; i >= 1; i--) result = fill(patterns.middle, items[i], result);
    return fill(patterns.start, items[0], result);
  }

  function param(value) {
    if (value === null || value === undefined) return "";
    if (typeof value === "object" && Array.isArray(value.list)) {
      return join(value.list.map(param), value.style);
    }
    if (typeof value === "object" && typeof value.id === "string") return render(value);
    return String(value);
  }

  // A message ({id, params}) in words; a plain string (an older record) as it is.
  function render(message) {
    if (message === null || message === undefined) return "";
    if (typeof message === "string") return message;
    let entry = catalog.messages[message.id];
    if (entry === undefined) return message.id;
    const params = message.params || {};
    if (Array.isArray(entry)) entry = pluralForm(entry, params.count);
    // {name:spec}: a number said in words in speech (draughtsboard/words/numbers.py);
    // a page shows its digits
    return entry.replace(/\{([a-z_][a-z0-9_]*)(?::[a-z-]+)?\}/g, (whole, name) =>
      Object.prototype.hasOwnProperty.call(params, name) ? param(params[name]) : whole);
  }

  function text(id, params) {
    return render({ id: id, params: params || {} });
  }

  function has(id) {
    return Object.prototype.hasOwnProperty.call(catalog.messages, id);
  }

  function apply(root) {
    for (const node of root.querySelectorAll("[data-words]")) node.textContent = text(node.dataset.words);
    for (const node of root.querySelectorAll("[data-words-label]")) node.setAttribute("aria-label", text(node.dataset.wordsLabel));
    for (const node of root.querySelectorAll("[data-words-title]")) node.title = text(node.dataset.wordsTitle);
    for (const node of root.querySelectorAll("[data-words-placeholder]")) node.placeholder = text(node.dataset.wordsPlaceholder);
    for (const select of root.querySelectorAll("select[data-words-switch]")) buildSwitch(select);
  }

  function buildSwitch(select) {
    select.replaceChildren();
    const choices = catalog.languages.slice();
    if (!choices.some((l) => l.code === catalog.language)) choices.push({ code: catalog.language, name: catalog.name });
    for (const language of choices) {
      const option = document.createElement("option");
      option.value = language.code;
      option.textContent = language.name;
      option.lang = language.code;
      option.selected = language.code === catalog.language;
      select.appendChild(option);
    }
    select.setAttribute("aria-label", text("language.choose"));
    if (!select.dataset.wordsBound) {
      select.dataset.wordsBound = "1";
      bindSwitch(select);
      refocus(select);
    }
  }

  function refocus(select) {
    let had = null;
    try {
      had = sessionStorage.getItem(FOCUS_KEY);
      sessionStorage.removeItem(FOCUS_KEY);
    } catch (e) { had = null; }
    if (had === "1") select.focus();
  }

  // A choice made with the mouse or touch takes effect at once. One made with the keys
  // waits for Enter or for the focus to leave: arrows on a closed <select> change its
  // value at every press, and a reload each time would keep a keyboard user from ever
  // reaching the language they want.
  function bindSwitch(select) {
    let byKeys = false;
    const applyIfChanged = () => {
      if (select.value === catalog.language) return;
      if (document.activeElement === select) {
        try { sessionStorage.setItem(FOCUS_KEY, "1"); } catch (e) { /* private mode */ }
      }
      choose(select.value);
    };
    select.addEventListener("pointerdown", () => { byKeys = false; });
    select.addEventListener("keydown", (event) => {
      if (event.key === "Enter") applyIfChanged();
      else if (event.key !== "Tab") byKeys = true;
    });
    select.addEventListener("change", () => { if (!byKeys) applyIfChanged(); });
    select.addEventListener("blur", applyIfChanged);
  }

  function choose(code) {
    let saved = false;
    try { localStorage.setItem(storageKey, code); saved = true; } catch (e) { /* private mode */ }
    const url = new URL(location.href);
    if (saved) url.searchParams.delete("lang"); else url.searchParams.set("lang", code);
    location.replace(url.toString());
  }

  const ready = load();
  return {
    ready, render, text, has, join, apply, choose,
    get language() { return catalog.language; },
  };
})();
