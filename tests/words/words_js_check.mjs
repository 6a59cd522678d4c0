// Runs draughtsboard/words/static/words.js in Node with the few browser objects it uses,
// fed a catalog on standard input, and prints each message of argv[3] (a JSON file) as
// rendered: the browser's half of tests/words/test_words_js.py.
import fs from "node:fs";
import vm from "node:vm";

const [script, casesFile] = process.argv.slice(2);
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const context = {
  URLSearchParams, URL, Intl, Object, Array, String, Math, console,
  document: { documentElement: { dataset: {}, lang: "" }, querySelectorAll: () => [] },
  location: { search: "", href: "http://board/" },
  localStorage: { getItem: () => null, setItem: () => {} },
  fetch: async () => ({ ok: true, json: async () => input.catalog }),
};
vm.createContext(context);
vm.runInContext(fs.readFileSync(script, "utf8") + "\nthis.Words = Words;", context);
await context.Words.ready;
const cases = JSON.parse(fs.readFileSync(casesFile, "utf8"));
process.stdout.write(JSON.stringify(cases.map((m) => context.Words.render(m))));
