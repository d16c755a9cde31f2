// The page's model for board.js: the same get/on/send as anywidget's, over plain HTTP + JSON.
// POST api/action applies one action and answers with the view; when that view says the best
// move is still being scored, GET api/view answers with it. Actions are sent one at a time,
// in order; while one is out, "busy" is true and the board keeps the last answer.
import board from "./board.js";

// The run's token, from the URL the command printed (the server also sets it as a cookie).
const TOKEN = new URLSearchParams(window.location.search).get("token") || "";

class HttpModel {
  constructor() {
    this.values = { view: null, busy: false };
    this.listeners = {};
    this.queue = Promise.resolve();
  }

  get(name) {
    return this.values[name];
  }

  on(event, callback) {
    (this.listeners[event] ||= []).push(callback);
  }

  set(name, value) {
    this.values[name] = value;
    for (const callback of this.listeners[`change:${name}`] || []) callback();
  }

  async request(path, options = {}) {
    const headers = Object.assign({ "X-Analyzer-Token": TOKEN }, options.headers);
    const response = await fetch(path, Object.assign({}, options, { headers, credentials: "same-origin" }));
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    return body;
  }

  async refresh(view) {
    this.set("view", view);
    if (view.best_pending) this.set("view", await this.request("api/view"));
  }

  send(message) {
    this.queue = this.queue.then(async () => {
      this.set("busy", true);
      try {
        const view = await this.request("api/action", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(message),
        });
        await this.refresh(view);
      } catch (error) {
        const view = Object.assign({}, this.values.view, { note: `the server did not answer: ${error.message}` });
        this.set("view", view);
      } finally {
        this.set("busy", false);
      }
    });
    return this.queue;
  }
}

const model = new HttpModel();
const el = document.getElementById("board");
board.render({ model, el });
model.set("busy", true);
model
  .request("api/view?best=0")
  .then((view) => model.refresh(view))
  .catch((error) => {
    el.textContent = `the analyzer server did not answer: ${error.message}`;
    el.className = "mz-page-error";
  })
  .finally(() => model.set("busy", false));
