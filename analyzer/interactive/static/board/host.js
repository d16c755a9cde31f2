// The board inside its host: the widget's border in a notebook (keys, clicks and the focus), and
// a kernel that no longer answers.
import { QUERIES } from "./protocol.js";

// ---- the widget's border in a notebook. JupyterLab's command-mode keys (m, a, b, d d, x,
// Shift+Enter...) act on whatever holds the focus inside the notebook, not on what is under the
// pointer; its right click opens a menu; its mousedown and focusin make a cell active. So: over
// any part of the widget (toolbar, status, board, inputs) the widget holds the focus and every key,
// right click, press and focus change stops at its border (data-lm-suppress-shortcuts tells
// JupyterLab's own dispatcher the same); once the pointer leaves, the focus goes back where it
// was (the notebook's active cell), so the notebook's keys work again without a click. A text
// field of the widget the person is typing in keeps the focus. On analyzer web's own page
// (ownPage) nothing else wants the keys: the board keeps the focus, and with it the cell cursor.
const TEXT_INPUTS = new Set(["text", "number", "search", "email", "url", "tel", "password", ""]);
const SCROLL_KEYS = new Set([" ", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "PageUp", "PageDown", "Home", "End"]);

function isTyping(node) {
  if (!node) return false;
  if (node.tagName === "INPUT") return TEXT_INPUTS.has(node.type);
  return node.tagName === "TEXTAREA" || Boolean(node.isContentEditable);
}

export function guardNotebook(root, ownPage) {
  let before = null; // what held the focus when the pointer came in: it gets it back on the way out
  const stop = (event) => event.stopPropagation();
  for (const type of ["keydown", "keyup", "keypress", "mousedown", "pointerdown", "dblclick", "focusin"]) {
    root.addEventListener(type, stop);
  }
  root.addEventListener("contextmenu", (event) => {
    event.preventDefault();
    event.stopPropagation();
  });
  root.addEventListener("keydown", (event) => {
    if (isTyping(event.target)) return;
    // The browser's own action of these keys would scroll the notebook under the board (Space,
    // arrows, pages) or open the "save page" dialog (Ctrl+S, which JupyterLab no longer takes here).
    const scrolls = event.target === root && SCROLL_KEYS.has(event.key) && !event.ctrlKey && !event.metaKey;
    const saves = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s";
    if (scrolls || saves) event.preventDefault();
  });
  // The pointer over the widget (come in, or moving in it after the notebook took the focus back).
  const claim = () => {
    const active = document.activeElement;
    if (isTyping(active) || root.contains(active)) return; // a cell being edited keeps its editor
    before = active;
    root.focus({ preventScroll: true });
  };
  root.addEventListener("mouseenter", claim);
  root.addEventListener("mousemove", claim, { passive: true });
  root.addEventListener("mouseleave", () => {
    const active = document.activeElement;
    if (!root.contains(active) || isTyping(active)) return;
    let back = before && before.isConnected && before !== document.body ? before : null;
    if (!back) {
      // JupyterLab (and Notebook 7) in command mode: its shortcuts need the focus on the notebook,
      // the active cell's node as JupyterLab puts it there itself.
      const notebook = root.closest(".jp-Notebook");
      back = notebook && (notebook.querySelector(".jp-Cell.jp-mod-active") || notebook);
    }
    before = null;
    if (back) back.focus({ preventScroll: true });
    else if (!ownPage) active.blur();
  });
}

// ---- a widget whose kernel is gone (restarted or shut down) keeps its old view on the page, and
// the clicks it sends go nowhere. The widget acknowledges each action at once (analyzer.interactive
// .jupyter: {ack}); an action without an answer within SILENT_MS, or the kernel seen restarting,
// says so in the status area instead of ignoring the click in silence.
const SILENT_MS = 4000;

export function watchKernel(model, say) {
  const acknowledges = Boolean(model.get("acknowledges")); // the page's HTTP model answers each request itself
  let timer = null;
  let gone = false;
  const heard = () => {
    clearTimeout(timer);
    timer = null;
    if (!gone) say("");
  };
  const dead = () => {
    gone = true;
    clearTimeout(timer);
    say("the kernel that drew this board is gone (restarted or shut down): re-run its cell for a live board");
  };
  if (acknowledges) {
    model.on("msg:custom", heard);
    model.on("change:view", heard);
    model.on("change:busy", heard);
    // JupyterLab's widget manager knows the kernel: a restart ends this board's model at once.
    const kernel = model.widget_manager && model.widget_manager.kernel;
    if (kernel && kernel.statusChanged && typeof kernel.statusChanged.connect === "function") {
      kernel.statusChanged.connect((_, status) => {
        if (status === "restarting" || status === "autorestarting" || status === "dead") dead();
      });
    }
  }
  return {
    sent(message) {
      if (!acknowledges || (message && QUERIES.has(message.type))) return;
      if (gone) return dead();
      if (timer === null) {
        timer = setTimeout(() => {
          timer = null;
          say(`the kernel has not answered for ${SILENT_MS / 1000} s: it is busy running another cell, or it is gone (restarted or shut down) and this board with it: then re-run its cell`);
        }, SILENT_MS);
      }
    },
  };
}
