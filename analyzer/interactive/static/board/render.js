// render({model, el}): the board put together from its parts, kept in step with the model's view,
// and the hook the tests read it through (root.mz). The module's one export (anywidget's and web.js's).
import { element } from "./dom.js";
import { QUERIES, asBytes } from "./protocol.js";
import { hexRgb, THEMES, watchTheme } from "./colour.js";
import { squareGeometry, geometryOf } from "./geometry.js";
import { guardNotebook, watchKernel } from "./host.js";
import { picturePanel } from "./files.js";
import { analystTools } from "./tools.js";
import { analystPass } from "./analyst.js";
import { viewport } from "./viewport.js";
import { painter } from "./draw.js";
import { boardControls } from "./controls.js";
import { boardInput } from "./input.js";

function render({ model, el }) {
  const root = element("div", "mz-root");
  root.tabIndex = 0;
  // JupyterLab: no context menu and no command-mode shortcut from inside the board.
  root.setAttribute("data-jp-suppress-context-menu", "");
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  el.replaceChildren(root);
  guardNotebook(root, !model.get("acknowledges")); // only a kernel's widget acknowledges (watchKernel)
  const unwatchTheme = watchTheme(root, () => draw.schedule());
  const goneLine = element("div", "mz-gone"); // the kernel behind this board is gone (watchKernel)
  goneLine.hidden = true;
  const kernelWatch = watchKernel(model, (text) => {
    goneLine.hidden = !text;
    goneLine.textContent = text;
    goneLine.title = text;
  });

  // What the parts share: the view shown (current) and its arrays, the colour map's stops, the
  // zoom and the geometry (geometryOf, renewed with the view and the zoom), and scrollNext ("best"
  // after play best: show the cell that matters once it arrives).
  const state = {
    current: null,
    codes: new Uint8Array(0),
    probs: new Float32Array(0),
    stops: [],
    zoom: 24,
    geo: squareGeometry(0, 0, 24),
    scrollNext: null,
  };
  let lastVersion = null;

  // An action is "working" from the moment it leaves, not only once the host says so: a kernel's
  // busy flag comes back a round trip later, and a click in between must not look answered.
  // "start": sent while the host was idle, waiting for its busy; "end": waiting for it to clear.
  let sent = "none";
  const send = (message, buffers) => {
    if (message && !QUERIES.has(message.type)) {
      sent = model.get("busy") ? "end" : "start";
      drawBusy();
    }
    kernelWatch.sent(message);
    return buffers ? model.send(message, undefined, buffers) : model.send(message);
  };

  // ---- the board: a canvas the size of the view, stuck to the scrolled area's corner
  const scroll = element("div", "mz-scroll");
  const inner = element("div", "mz-inner");
  const canvas = element("canvas", "mz-canvas");
  canvas.setAttribute("role", "img");
  inner.append(canvas);
  scroll.append(inner);
  const legend = element(
    "div",
    "mz-legend",
    "✓ certainly safe · ✱ certain mine · other hidden cells: % chance of a mine (hover for the exact fraction) · ✕ a wrong flag",
  );
  const view = viewport({ root, state, canvas, scroll, inner, redraw: () => draw.schedule() });
  const draw = painter({ root, state, canvas, scroll, cursor: () => pass.cursor() });
  const controls = boardControls({ state, send, canvas, goneLine, setZoom: view.setZoom, scrollToCell: view.scrollToCell });
  const picture = picturePanel(send);
  model.on("msg:custom", (message) => picture.answered(message && message.answer));
  root.append(controls.toolbar, controls.edit, controls.play, controls.replay, controls.status, picture.box, scroll, legend);
  const codeAt = (r, c) => state.codes[r * state.current.width + c];
  const analyst = analystTools({
    root,
    send,
    cellAt: view.cellAt,
    view: () => state.current,
    codeAt,
    canvas,
    scroll,
    minesInput: controls.minesInput,
    showNote: controls.showNote,
  });
  controls.toolbar.after(analyst.tools);
  controls.status.append(...analyst.status);
  const pass = analystPass({
    root,
    send,
    view: () => state.current,
    codeAt,
    canvas,
    cellAt: view.cellAt,
    scrollToCell: view.scrollToCell,
    describe: draw.describe,
    cellName: draw.cellName,
    redraw: draw.schedule,
  });
  legend.after(...pass.below);
  model.on("msg:custom", (message) => pass.answered(message && message.answer));
  const input = boardInput({ root, model, state, send, canvas, scroll, view, draw, controls, pass });

  // ---- the view
  function update() {
    const current = model.get("view");
    if (!current || current.protocol === undefined) return;
    state.current = current;
    state.geo = geometryOf(current, state.zoom);
    state.codes = asBytes(model.get("codes"), Uint8Array);
    state.probs = asBytes(model.get("probabilities"), Float32Array);
    state.stops = current.palette.viridis.map(hexRgb);
    root.dataset.mode = current.mode;
    root.dataset.version = String(current.version);
    root.dataset.rows = String(current.height);
    root.dataset.cols = String(current.width);
    root.dataset.bestPending = String(Boolean(current.best_pending));
    root.dataset.topology = (current.topology && current.topology.name) || "square";
    controls.update(current);
    view.layout(); // the size of the area: the grid's, the hexagons', the net's or the graph's
    // Scroll to the cell that matters: the replay's click, the best move after "play best".
    const fresh = current.version !== lastVersion;
    lastVersion = current.version;
    const marks = current.marks || {};
    if (fresh && marks.clicked && marks.clicked.length) {
      view.scrollToCell(Math.floor(marks.clicked[0] / current.width), marks.clicked[0] % current.width, false);
    }
    if (state.scrollNext === "best" && current.best) {
      state.scrollNext = null;
      view.scrollToCell(current.best[0], current.best[1], false);
    }
    draw.schedule();
    input.showHover();
    analyst.update(current, { play: controls.play, replay: controls.replay });
    picture.update(current);
    pass.update(current, { tools: analyst.tools, edit: controls.edit, replay: controls.replay, replayGuess: controls.replayGuess });
  }

  function drawBusy() {
    const hostBusy = Boolean(model.get("busy"));
    if (hostBusy && sent === "start") sent = "end";
    else if (!hostBusy && sent === "end") sent = "none";
    root.classList.toggle("mz-working", hostBusy || sent !== "none");
  }

  // ---- the hook the tests (and a curious user) read the board through
  root.mz = {
    view: () => state.current,
    info(r, c) {
      const current = state.current;
      const index = r * current.width + c;
      const code = state.codes[index];
      const [background, text] = draw.look(index);
      const p = state.probs[index];
      return {
        code,
        kind: current.palette.kinds[code],
        p: Number.isNaN(p) ? null : p,
        text,
        background,
        describe: draw.describe(r, c),
        marks: Object.keys(current.marks || {}).filter((name) => current.marks[name].includes(index)),
      };
    },
    rect(r, c) {
      // The cell's box on the screen (zoom x zoom around its centre: a hexagon's, a graph cell's too).
      view.scrollToCell(r, c, false);
      const box = canvas.getBoundingClientRect();
      const [x, y] = view.corner(r, c);
      const zoom = state.zoom;
      return { x: box.left + x, y: box.top + y, width: zoom, height: zoom, cx: box.left + x + zoom / 2, cy: box.top + y + zoom / 2 };
    },
    hit: (x, y) => view.cellAt({ clientX: x, clientY: y }), // the cell under a point of the page (null: none)
    geometry: () => state.geo.kind,
    theme: () => Object.assign({ name: root.dataset.theme }, THEMES[root.dataset.theme] || THEMES.light),
    exact: input.exact,
    find(code, limit = 10) {
      // Cells showing a state code, row-major (e.g. 12: the certainly safe ones).
      const found = [];
      const codes = state.codes;
      for (let i = 0; i < codes.length && found.length < limit; i++) {
        if (codes[i] === code) found.push([Math.floor(i / state.current.width), i % state.current.width]);
      }
      return found;
    },
    visible: (r, c) => view.isVisible(r, c),
    drawMs: draw.drawMs, // how long the last frame took to draw
    scrollToCell: view.scrollToCell,
    setZoom: view.setZoom,
    zoom: () => state.zoom,
    cursor: () => pass.cursor(), // the keyboard's cell cursor ([r, c] or null)
  };

  model.on("change:view", update);
  model.on("change:codes", update);
  model.on("change:probabilities", update);
  model.on("change:busy", drawBusy);
  const resized = typeof ResizeObserver !== "undefined" ? new ResizeObserver(draw.schedule) : null;
  if (resized) resized.observe(scroll);
  update();
  drawBusy();
  // The clean-up anywidget calls when the view goes (a cell re-run or cleared): what was hung
  // outside the board's own elements comes off, so that a long-lived notebook does not gather them.
  return () => {
    analyst.dispose();
    unwatchTheme();
    if (resized) resized.disconnect();
  };
}

export default { render };
