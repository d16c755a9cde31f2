// The page's model for board.js: the same get/on/send as anywidget's, over plain HTTP.
//
// The protocol is the session's (analyzer/interactive/session.py, module text): every answer is
// JSON lines, the first {view, cells, answer}, then, when the best move was still to score, {view}
// (or {superseded: true}). `cells` holds zlib-compressed base64 typed arrays: all of them, or what
// changed since the version this page holds (sent as ?since=V). This model keeps the full arrays
// (get("codes"), get("probabilities")) and hands query answers to "msg:custom" listeners.
//
// Actions are sent one at a time, in order; while one is out, "busy" is true and the board keeps
// the last answer. An action is done when its board arrives: the best move, read from the rest of
// the same response, is dropped if a later answer came first.
import board from "./board.js";

// The run's token, from the URL the command printed (the server also sets it as a cookie).
const TOKEN = new URLSearchParams(window.location.search).get("token") || "";

function bytes(text) {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

async function inflate(text) {
  if (!text) return new ArrayBuffer(0);
  const stream = new Blob([bytes(text)]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Response(stream).arrayBuffer();
}

class HttpModel {
  constructor() {
    this.values = { view: null, busy: false, codes: new Uint8Array(0), probabilities: new Float32Array(0) };
    this.listeners = {};
    this.queue = Promise.resolve();
    this.version = null;
    this.headers = TOKEN ? { "X-Analyzer-Token": TOKEN } : {}; // the server's token, in one place
  }

  get(name) {
    return this.values[name];
  }

  on(event, callback) {
    (this.listeners[event] ||= []).push(callback);
  }

  emit(event, value) {
    for (const callback of this.listeners[event] || []) callback(value);
  }

  set(name, value) {
    this.values[name] = value;
    this.emit(`change:${name}`);
  }

  // The one function that talks to the server: every request goes through it.
  async request(path, options = {}) {
    const headers = Object.assign({}, this.headers, options.headers || {});
    const response = await fetch(path, Object.assign({}, options, { headers }));
    if (!response.ok) {
      let message = response.statusText;
      try {
        message = (await response.json()).error || message;
      } catch (_) {
        /* not JSON */
      }
      throw new Error(message);
    }
    return response;
  }

  // Read an answer's JSON lines: resolve when the first (the board) is applied; the rest follow.
  async answer(response) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let first = null;
    const lines = [];
    const next = async () => {
      while (true) {
        const cut = text.indexOf("\n");
        if (cut >= 0) {
          const line = text.slice(0, cut);
          text = text.slice(cut + 1);
          if (line.trim()) return JSON.parse(line);
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return text.trim() ? JSON.parse(text) : null;
        text += decoder.decode(value, { stream: true });
      }
    };
    first = await next();
    if (!first) throw new Error("an empty answer");
    await this.apply(first);
    const version = first.view.version;
    const rest = (async () => {
      for (let line = await next(); line; line = await next()) {
        lines.push(line);
        // A best move for a position the page no longer shows is dropped.
        if (line.view && this.version === version && this.values.view.version === version) this.set("view", line.view);
      }
    })();
    rest.catch(() => {});
    return first;
  }

  async apply(message) {
    const cells = message.cells;
    if (cells) {
      const [index, codes, p] = await Promise.all([inflate(cells.index), inflate(cells.codes), inflate(cells.p)]);
      if (cells.full) {
        this.values.codes = new Uint8Array(codes);
        this.values.probabilities = new Float32Array(p);
      } else {
        const at = new Int32Array(index);
        const newCodes = new Uint8Array(codes);
        const newP = new Float32Array(p);
        const allCodes = this.values.codes;
        const allP = this.values.probabilities;
        for (let k = 0; k < at.length; k++) {
          allCodes[at[k]] = newCodes[k];
          allP[at[k]] = newP[k];
        }
      }
      this.version = cells.version;
    }
    if (message.answer) this.emit("msg:custom", { answer: message.answer });
    if (message.view) this.set("view", message.view);
  }

  async post(message) {
    const since = this.version === null ? "" : `?since=${this.version}`;
    const response = await this.request(`api/action${since}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(message),
    });
    return this.answer(response);
  }

  // A screenshot pasted or dropped: its raw bytes to /api/picture (no base64), answered as an action.
  async postPicture(message, buffer) {
    const query = new URLSearchParams();
    if (this.version !== null) query.set("since", String(this.version));
    for (const field of ["name", "mines", "skin"]) {
      if (message[field] !== undefined && message[field] !== null && message[field] !== "") query.set(field, String(message[field]));
    }
    const response = await this.request(`api/picture?${query}`, {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream" },
      body: buffer,
    });
    return this.answer(response);
  }

  // Queries (hover's exact fraction, a picture's thumbnail) skip the queue and change nothing: only their answer is read.
  async ask(message) {
    const since = this.version === null ? "" : `?since=${this.version}`; // the answer's cells stay small
    const response = await this.request(`api/action${since}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(message),
    });
    const text = await response.text();
    const first = JSON.parse(text.slice(0, text.indexOf("\n") >= 0 ? text.indexOf("\n") : undefined));
    if (first.answer) this.emit("msg:custom", { answer: first.answer });
  }

  send(message, _callbacks, buffers) {
    if (message && (message.type === "exact" || message.type === "thumbnail")) {
      return this.ask(message).catch(() => {});
    }
    this.queue = this.queue.then(async () => {
      this.set("busy", true);
      try {
        if (message && message.type === "picture" && buffers && buffers.length) await this.postPicture(message, buffers[0]);
        else await this.post(message);
      } catch (error) {
        const view = Object.assign({}, this.values.view, { note: `the server did not answer: ${error.message}` });
        this.set("view", view);
      } finally {
        this.set("busy", false);
      }
    });
    return this.queue;
  }

  async load() {
    this.set("busy", true);
    try {
      const since = this.version === null ? "" : `?since=${this.version}`;
      await this.answer(await this.request(`api/view${since}`));
    } finally {
      this.set("busy", false);
    }
  }
}

// ---- a position shared by URL: #b=<the .mine text, deflated, base64url>. In the fragment, so the
// server never sees (or logs) it; opening such a URL loads the position in edit mode. A game's hidden
// layout is never in it: only what the board shows.
const SHARE_PREFIX = "#b=";
const MAX_LINK = 8000; // characters of the fragment: links longer than this are cut by mail and chat

function base64url(bytes) {
  let text = "";
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(at, at + 0x8000));
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

async function packPosition(text) {
  const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return SHARE_PREFIX + base64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

async function unpackPosition(fragment) {
  const packed = fragment.slice(SHARE_PREFIX.length);
  if (packed.length > MAX_LINK) throw new Error(`the link's position is ${packed.length.toLocaleString("en")} characters (at most ${MAX_LINK.toLocaleString("en")})`);
  if (!/^[A-Za-z0-9_-]*$/.test(packed)) throw new Error("the link's position is not base64url");
  const raw = packed.replaceAll("-", "+").replaceAll("_", "/");
  const stream = new Blob([bytes(raw + "=".repeat((4 - (raw.length % 4)) % 4))]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}

async function shareLink(model) {
  // The session's .mine text of the position shown (a query: nothing changes).
  const response = await model.request("api/action", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "exact", of: "position" }),
  });
  const text = await response.text();
  const first = JSON.parse(text.slice(0, text.indexOf("\n") >= 0 ? text.indexOf("\n") : undefined));
  if (!first.answer || first.answer.of !== "position") throw new Error(first.view && first.view.note ? first.view.note : "no position to share");
  const fragment = await packPosition(first.answer.text);
  if (fragment.length - SHARE_PREFIX.length > MAX_LINK) {
    throw new Error(
      `this position packs to ${(fragment.length - SHARE_PREFIX.length).toLocaleString("en")} characters, more than a link` +
        ` carries safely (${MAX_LINK.toLocaleString("en")}): save it as a .mine file instead`,
    );
  }
  history.replaceState(null, "", window.location.pathname + window.location.search + fragment);
  const url = window.location.href;
  try {
    await navigator.clipboard.writeText(url);
    return `link copied (${url.length.toLocaleString("en")} characters): opening it shows this position`;
  } catch (_) {
    return "the link is in the address bar (the clipboard was refused): opening it shows this position";
  }
}

function note(model, text) {
  acted();
  model.set("view", Object.assign({}, model.values.view, { note: text }));
}

function acted() {
  const root = document.querySelector(".mz-root");
  if (root) root.dispatchEvent(new Event("mz-acted"));
}

const model = new HttpModel();
const el = document.getElementById("board");
board.render({ model, el });
const copy = document.createElement("button");
copy.type = "button";
copy.className = "mz-button mz-copy-link";
copy.textContent = "copy link";
copy.title = "A link to this position (in the URL's #fragment, never sent to a server): opening it loads the position";
copy.addEventListener("click", () => {
  shareLink(model).then(
    (text) => note(model, text),
    (error) => note(model, `no link: ${error.message}`),
  );
});
const tools = el.querySelector(".mz-analyst");
if (tools) tools.append(copy);
// Open the position of the URL's fragment, on load and when a link is pasted into the open page.
async function openShared() {
  if (!window.location.hash.startsWith(SHARE_PREFIX)) return;
  let text;
  try {
    text = await unpackPosition(window.location.hash);
  } catch (error) {
    note(model, `the link's position could not be read: ${error.message}`);
    return;
  }
  acted();
  await model.send({ type: "paste", text });
}
window.addEventListener("hashchange", () => openShared());
model
  .load()
  .then(openShared)
  .catch((error) => {
    el.textContent = `the analyzer server did not answer: ${error.message}`;
    el.className = "mz-page-error";
  });
