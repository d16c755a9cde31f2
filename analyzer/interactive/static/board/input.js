// The board's own input: the pointer over the canvas (a click on a cell, why?, hover), Ctrl + wheel and
// Ctrl +/- zoom, the keys over the board (the cursor's, a replay's arrows, edit's digits), and the
// hover line: the short figure at once, the exact fraction asked for when the pointer rests. Keys,
// right clicks and focus stop at the widget's border (host.js: guardNotebook).
import { FLAG, GUESS, SAFE, MINE } from "./protocol.js";

// state: the board's shared state (render.js); view: the viewport's cellAt and setZoom; draw: the
// painter's schedule, cellName and describe; controls: the why switch, replay steps, the status lines.
export function boardInput({ root, model, state, send, canvas, scroll, view, draw, controls, pass }) {
  const { hoverLine } = controls;
  let hovered = null;
  let hoverTimer = null;
  const waiting = new Map(); // "r,c" -> resolvers of the exact fraction asked for
  const exactText = new Map(); // "version:r,c" -> the answer's text

  scroll.addEventListener("scroll", draw.schedule, { passive: true });
  scroll.addEventListener(
    "wheel",
    (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      view.setZoom(event.deltaY < 0 ? 1 : -1);
    },
    { passive: false },
  );
  canvas.addEventListener("mousedown", (event) => {
    const cell = view.cellAt(event);
    if (!cell) return;
    event.preventDefault();
    root.focus({ preventScroll: true });
    if (event.button === 2) {
      send({ type: "cell", cell, button: "right" });
    } else if (event.button === 0) {
      if (controls.takeWhy()) {
        send({ type: "why", cell });
      } else {
        send({ type: "cell", cell, button: "left" });
      }
    }
  });
  canvas.addEventListener("mousemove", (event) => {
    const cell = view.cellAt(event);
    const key = cell ? cell.join(",") : null;
    if (key === (hovered && hovered.join(","))) return;
    hovered = cell;
    showHover();
  });
  canvas.addEventListener("mouseenter", () => {
    // Keys typed over the board go to it (a digit sets a number), unless a text field is in use.
    const active = document.activeElement;
    const typing = active && (active.tagName === "INPUT" || active.tagName === "TEXTAREA" || active.isContentEditable);
    if (!typing) root.focus({ preventScroll: true });
  });
  canvas.addEventListener("mouseleave", () => {
    hovered = null;
    showHover();
  });
  root.addEventListener("keydown", (event) => {
    if (!state.current || event.target !== root) return;
    if (event.ctrlKey && (event.key === "+" || event.key === "=" || event.key === "-")) {
      view.setZoom(event.key === "-" ? -1 : 1);
      event.preventDefault();
      return;
    }
    if (event.target === root && pass.key(event)) {
      event.preventDefault();
      return;
    }
    if (state.current.mode === "replay" && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      controls.step(event.key === "ArrowLeft" ? -1 : 1);
      event.preventDefault();
      return;
    }
    const keyCell = hovered || pass.cursor(); // the cell under the pointer, else the cursor's
    if (state.current.mode !== "edit" || !keyCell) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (/^[0-8hf ]$/.test(key) || key === "Backspace" || key === "Delete") {
      send({ type: "key", cell: keyCell, key });
      event.preventDefault();
    }
  });

  // ---- hover: the short figure at once, the exact fraction asked for when the pointer rests
  function showHover() {
    clearTimeout(hoverTimer);
    if (!hovered || !state.current) {
      hoverLine.textContent = " ";
      canvas.title = "";
      return;
    }
    const [r, c] = hovered;
    const key = `${state.current.version}:${r},${c}`;
    const known = exactText.get(key);
    hoverLine.textContent = `${draw.cellName(r, c)}: ${known || draw.describe(r, c)}`;
    hoverLine.title = hoverLine.textContent;
    canvas.title = hoverLine.textContent; // the tooltip beside the pointer too
    const code = state.codes[r * state.current.width + c];
    const mark = code === FLAG && !state.current.trust_flags && state.current.mode === "play"; // a flag not trusted has a P
    if (!known && (code === GUESS || code === SAFE || code === MINE || mark)) {
      hoverTimer = setTimeout(() => send({ type: "exact", cell: [r, c] }), 120);
    }
  }

  // The exact answers: a cell's fraction (the hover line, root.mz.exact), a count's or the luck's.
  model.on("msg:custom", (message) => {
    const answer = message && message.answer;
    if (!answer || answer.type !== "exact") return;
    if (answer.cell) {
      const key = answer.cell.join(",");
      exactText.set(`${answer.version}:${key}`, answer.text);
      if (exactText.size > 500) exactText.delete(exactText.keys().next().value);
      for (const resolve of waiting.get(key) || []) resolve(answer);
      waiting.delete(key);
      if (hovered && hovered.join(",") === key) showHover();
    } else {
      for (const resolve of waiting.get(answer.of) || []) resolve(answer);
      waiting.delete(answer.of);
      controls.showExact(answer);
    }
  });

  // The exact fraction of a cell, as a promise (root.mz.exact).
  function exact(r, c) {
    return new Promise((resolve) => {
      const key = `${r},${c}`;
      if (!waiting.has(key)) waiting.set(key, []);
      waiting.get(key).push(resolve);
      send({ type: "exact", cell: [r, c] });
    });
  }

  return { showHover, exact };
}
