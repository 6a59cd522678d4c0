// Talking to the page's server: a JSON (or text) POST answered with JSON, and the live
// stream (server-sent events). Each page turns a refusal into its own words: the helper
// only says what came back.

// POST ``body`` to ``url``: {ok, status, data} (``data`` {} when the answer was not
// JSON). ``token``: sent as the arbiter's bearer token (when given, even empty);
// ``type``: "text/plain" sends ``body`` as it is. A request that never reached the server
// rejects (fetch's TypeError), for the page to say so.
export async function postJson(url, body, { token, type = "application/json" } = {}) {
  const headers = { "Content-Type": type };
  if (token !== undefined) headers.Authorization = "Bearer " + token;
  const response = await fetch(url, {
    method: "POST", headers,
    body: type === "application/json" ? JSON.stringify(body === undefined ? {} : body) : body,
  });
  let data = {};
  try { data = await response.json(); } catch (e) { data = {}; }
  return { ok: response.ok, status: response.status, data: data === null ? {} : data };
}

// GET ``url`` as JSON: the data, or null when the server refused
export async function getJson(url) {
  const response = await fetch(url);
  if (!response.ok) return null;
  return response.json();
}

// The live stream at ``url``: ``handlers`` by event name ("open" and "error" for the
// connection, "message" for unnamed events, any other name for its events); each is
// given the event. The browser reconnects by itself.
export function stream(url, handlers) {
  const source = new EventSource(url);
  for (const [name, handle] of Object.entries(handlers)) {
    if (name === "open") source.onopen = handle;
    else if (name === "error") source.onerror = handle;
    else source.addEventListener(name, handle);
  }
  return source;
}
