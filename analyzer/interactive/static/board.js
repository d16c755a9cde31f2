// The interactive board: one front end for the Jupyter widget (anywidget) and the local page.
//
// It draws the view protocol of analyzer.interactive.session (module text there): the small fields
// in model.get("view"), the per-cell arrays in model.get("codes") (Uint8, state codes) and
// model.get("probabilities") (Float32, NaN for none), and sends the user's actions back as small
// dicts ({type: "cell", cell: [r, c], button: "left"}, ...). Query answers ({answer}) arrive as
// "msg:custom". The host gives it a model with get(name), on(event, callback) and send(message):
// anywidget's model in Jupyter, the page's HTTP model (web.js) in a browser.
//
// The board is drawn on one canvas the size of what is visible (the cells in view, the row and
// column labels stuck to the edges), so a 1000x1000 board scrolls as fast as an expert one.
// Keys and right clicks over the widget stop at its border: they never reach JupyterLab.
// Tests read what is drawn through root.mz (info, rect: a cell's box and centre, hit: the cell under a
// point, exact, scrollToCell). Hexagonal boards, the cube (its unfolded net) and graphs are drawn as
// analyzer.render draws them (geometryOf below).

const MODE_TITLES = {
  edit: "Edit: click a cell to cycle hidden, number, flag; type 0-8, h or f over a cell",
  play: "Play: left click reveals (on a number, chords), right click flags",
  replay: "Replay: step through a recorded game, each click with its exact odds",
};
const ZOOMS = [8, 12, 16, 20, 24, 28, 34, 40];
const TOPOLOGIES = ["square", "torus", "hex", "cube", "knight", "cross", "graph"]; // analyzer.board.topology
const HIDDEN = 9, FLAG = 10, GUESS = 11, SAFE = 12, MINE = 13, SAFE_CPSAT = 14, MINE_CPSAT = 15;
const LAYOUT_MINE = 16, FATAL = 17, WRONG_FLAG = 18;

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(label, title, onClick, className) {
  const node = element("button", className || "mz-button", label);
  node.type = "button";
  node.title = title;
  node.addEventListener("click", onClick);
  return node;
}

function numberField(label, value, className, min) {
  const wrap = element("label", "mz-field");
  wrap.append(label + " ");
  const input = element("input", className);
  input.type = "number";
  input.min = String(min === undefined ? 0 : min);
  input.value = String(value);
  wrap.append(input);
  return [wrap, input];
}

function asBytes(value, Type) {
  // anywidget gives bytes traitlets as a DataView, the page's model as typed arrays.
  if (!value) return new Type(0);
  if (value instanceof Type) return value;
  if (value instanceof DataView) return new Type(value.buffer, value.byteOffset, value.byteLength / Type.BYTES_PER_ELEMENT);
  if (value instanceof ArrayBuffer) return new Type(value);
  if (value.buffer instanceof ArrayBuffer) return new Type(value.buffer, value.byteOffset, value.byteLength / Type.BYTES_PER_ELEMENT);
  return new Type(0);
}

function hexRgb(hex) {
  return [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
}

// probability_colour of analyzer.render: viridis at 1 - sqrt(p), between the palette's stops.
function probabilityColour(stops, p) {
  p = Math.min(Math.max(p, 0), 1);
  const x = (1 - Math.sqrt(p)) * (stops.length - 1);
  const i = Math.min(Math.floor(x), stops.length - 2);
  const t = x - i;
  const a = stops[i], b = stops[i + 1];
  return "#" + a.map((u, k) => Math.round(u + (b[k] - u) * t).toString(16).padStart(2, "0")).join("");
}

// text_colour of analyzer.render: black or white, whichever contrasts more (WCAG luminance).
function textColour(hex) {
  const l = luminance(hex);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
}

// ---- light and dark, and the contrast of what is drawn. The widget follows JupyterLab's theme
// (body[data-jp-theme-light]) and, on the page (no JupyterLab), the system's prefers-color-scheme;
// the cells look the same in both (their colours carry the figures), the rest follows the theme.
// Every mark is a ring in black or white, whichever contrasts more with the cell under it (at least
// 4.58:1 on any colour), around a line of the mark's own colour that tells the marks apart; a
// mark's tint is mixed into the cell's background, and the cell's text takes an ink that contrasts
// at least 4.5:1 with the mixed colour. tests/test_interactive_widget_browser.py measures it all.
const THEMES = {
  light: { background: "#ffffff", labels: "#555555" },
  dark: { background: "#1e1e1e", labels: "#c8c8c8" },
};
const MARK_FILL = 0.45; // how much of a mark's tint is mixed into the cell's background
// The marks in the order drawn: name, its colour (null: the ring alone), its tint, dashed, extra width.
const MARKS = [
  ["conflict", "#d50000", "#ff8a80", false, 0],
  ["why_clues", "#e65100", "#ffd54f", false, 0],
  ["why_cell", "#1565c0", null, false, 0],
  ["clicked", "#ff6f00", null, true, 0],
  ["best", "#e6007e", null, false, 1],
  ["fifty", "#6a1b9a", "#ce93d8", false, 0], // the analyst's marks (the marks action)
  ["unsure", "#00838f", "#80deea", false, 0], // a picture's cells read unsurely, until the person sets them
  ["dead", null, null, true, -1],
];

function luminance(hex) {
  const linear = hexRgb(hex).map((c) => {
    c /= 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
}

function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

function mix(a, b, t) {
  const [p, q] = [hexRgb(a), hexRgb(b)];
  return "#" + p.map((u, k) => Math.round(u + (q[k] - u) * t).toString(16).padStart(2, "0")).join("");
}

function themeOf() {
  const body = document.body;
  const lab = body && body.getAttribute("data-jp-theme-light");
  if (lab === "false") return "dark";
  if (lab === "true") return "light";
  if (body && body.classList.contains("vscode-dark")) return "dark"; // VS Code's notebooks
  return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

// Keeps root.dataset.theme (board.css's dark rules) and the canvas in step with the host's theme.
function watchTheme(root, redraw) {
  const apply = () => {
    const theme = themeOf();
    if (root.dataset.theme === theme) return;
    root.dataset.theme = theme;
    redraw();
  };
  root.dataset.theme = themeOf();
  if (typeof MutationObserver !== "undefined" && document.body) {
    new MutationObserver(apply).observe(document.body, { attributes: true, attributeFilter: ["data-jp-theme-light", "class"] });
  }
  if (window.matchMedia) {
    const query = window.matchMedia("(prefers-color-scheme: dark)");
    if (query.addEventListener) query.addEventListener("change", apply);
  }
}

// percent_text of analyzer.render: whole percent, never 0 or 100 for a cell that is neither.
function percentText(p) {
  const text = (100 * p).toFixed(0);
  if (text === "0") return "<1";
  if (text === "100") return ">99";
  return text;
}

// ---- where the cells are: one geometry per topology, in pixels of the board's area (the labels'
// strips aside), laid out as analyzer.render.cell_centres draws the static picture. A cell size z is
// a square's side, a hexagon's width, a graph cell's diameter. Each geometry gives the area's size,
// a cell's centre, the cell under a point (hit testing), and the cells in a rectangle (drawing only
// what is visible), so the drawing and the mouse agree on every topology.
const CUBE_NET = [[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [3, 2]]; // analyzer.board.topology.CUBE_NET

function squareGeometry(width, height, z) {
  return {
    kind: "square",
    box: [z, z], // cells drawn as rectangles this size around their centres (no box: their shape)
    width: width * z,
    height: height * z,
    centre: (r, c) => [c * z + z / 2, r * z + z / 2],
    at(x, y) {
      const c = Math.floor(x / z), r = Math.floor(y / z);
      return r < 0 || c < 0 || r >= height || c >= width ? null : [r, c];
    },
    each(x0, y0, x1, y1, visit) {
      const c0 = Math.max(0, Math.floor(x0 / z)), c1 = Math.min(width, Math.ceil(x1 / z));
      const r0 = Math.max(0, Math.floor(y0 / z)), r1 = Math.min(height, Math.ceil(y1 / z));
      for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) visit(r, c);
      return [r0, r1, c0, c1];
    },
  };
}

// Pointy-top hexagons in offset rows, as minesweepr draws them: odd rows half a cell to the left.
// Below 14 pixels a hexagon (no text in it) is drawn as the brick of its offset row, z wide and
// `rise` high around its centre: the bricks tile the plane with the same six neighbours, and
// fill as fast as a grid's squares (a polygon a cell is ten times slower); hit testing follows.
function hexGeometry(width, height, z) {
  const rise = (z * Math.sqrt(3)) / 2;
  const centre = (r, c) => [z * (c + (r % 2 === 0 ? 1 : 0.5)), rise * (r + 2 / 3)];
  const bricks = z < 14;
  return {
    kind: "hex",
    box: bricks ? [z, rise] : null,
    width: z * (width + 0.5),
    height: rise * (height + 1 / 3),
    centre,
    at(x, y) {
      if (bricks) {
        const r = Math.floor(y / rise - 1 / 6);
        const c = Math.floor(x / z + 0.5 - (r % 2 === 0 ? 1 : 0.5));
        return r < 0 || c < 0 || r >= height || c >= width ? null : [r, c];
      }
      // The hexagons of a regular tiling are the cells nearest their centres: the nearest centre
      // among the rows and columns around the point, off-board ones included (then no cell).
      const row = Math.round(y / rise - 2 / 3);
      let best = null, bestDistance = Infinity;
      for (let r = row - 1; r <= row + 1; r++) {
        const col = Math.round(x / z - (r % 2 === 0 ? 1 : 0.5));
        for (let c = col - 1; c <= col + 1; c++) {
          const [cx, cy] = centre(r, c);
          const distance = (x - cx) ** 2 + (y - cy) ** 2;
          if (distance < bestDistance) [best, bestDistance] = [[r, c], distance];
        }
      }
      const [r, c] = best;
      return r < 0 || c < 0 || r >= height || c >= width ? null : best;
    },
    each(x0, y0, x1, y1, visit) {
      const r0 = Math.max(0, Math.floor(y0 / rise - 1)), r1 = Math.min(height, Math.ceil(y1 / rise + 1));
      const c0 = Math.max(0, Math.floor(x0 / z - 1.5)), c1 = Math.min(width, Math.ceil(x1 / z + 0.5));
      for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) visit(r, c);
      return [r0, r1, c0, c1];
    },
  };
}

// The cube of n x n faces (a board n wide, 6n high, the faces stacked) as its unfolded net, a
// quarter cell between the faces so that the folds show.
function cubeGeometry(n, z) {
  const gap = 0.25 * z;
  const origin = CUBE_NET.map(([top, left]) => [left * (n * z + gap), top * (n * z + gap)]);
  return {
    kind: "cube",
    box: [z, z],
    faces: origin.map(([x, y]) => [x, y, n * z]), // each face's square, to draw its grid lines under it
    width: 3 * n * z + 2 * gap,
    height: 4 * n * z + 3 * gap,
    centre(r, c) {
      const face = Math.floor(r / n);
      return [origin[face][0] + (c + 0.5) * z, origin[face][1] + ((r % n) + 0.5) * z];
    },
    at(x, y) {
      for (let face = 0; face < 6; face++) {
        const c = Math.floor((x - origin[face][0]) / z), r = Math.floor((y - origin[face][1]) / z);
        if (r >= 0 && c >= 0 && r < n && c < n) return [face * n + r, c];
      }
      return null;
    },
    each(x0, y0, x1, y1, visit) {
      for (let face = 0; face < 6; face++) {
        const [ox, oy] = origin[face];
        const c0 = Math.max(0, Math.floor((x0 - ox) / z)), c1 = Math.min(n, Math.ceil((x1 - ox) / z));
        const r0 = Math.max(0, Math.floor((y0 - oy) / z)), r1 = Math.min(n, Math.ceil((y1 - oy) / z));
        for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) visit(face * n + r, c);
      }
      return null;
    },
  };
}

// A graph: its cells (circles) where the view places them (centres in cell sizes), its edges.
function graphGeometry(picture, z) {
  const centres = picture.centres.map(([x, y]) => [x * z, y * z]);
  const right = Math.max(...centres.map((p) => p[0])) + z;
  const bottom = Math.max(...centres.map((p) => p[1])) + z;
  return {
    kind: "graph",
    box: null,
    width: right,
    height: bottom,
    edges: picture.edges,
    centre: (r, c) => centres[c],
    at(x, y) {
      let best = null, bestDistance = (0.5 * z) ** 2;
      centres.forEach(([cx, cy], c) => {
        const distance = (x - cx) ** 2 + (y - cy) ** 2;
        if (distance <= bestDistance) [best, bestDistance] = [[0, c], distance];
      });
      return best;
    },
    each(x0, y0, x1, y1, visit) {
      centres.forEach(([cx, cy], c) => {
        if (cx + z > x0 && cx - z < x1 && cy + z > y0 && cy - z < y1) visit(0, c);
      });
      return null;
    },
  };
}

function geometryOf(view, z) {
  const topology = (view.topology && view.topology.name) || "square";
  if (topology === "hex") return hexGeometry(view.width, view.height, z);
  if (topology === "cube" && view.height === 6 * view.width) return cubeGeometry(view.width, z);
  if (topology === "graph" && view.topology.centres && view.topology.centres.length === view.width) {
    return graphGeometry(view.topology, z);
  }
  return squareGeometry(view.width, view.height, z); // square, torus, knight, cross: a grid
}

// ---- the analyst's tools: open (picker, drop, paste), save, undo/redo, painting, the wheel,
// auto-play, dead cells and 50/50s, the chance to win, a replay's timeline. Built beside the
// board by render(); they only send actions (analyzer.interactive.session: open, paste, save,
// undo, redo, paint, wheel, autoplay, marks, win) and read the view's fields for them.
const OPENABLE = ".mine,.txt,.json,.mbf,.avf,.rmv,.evf,.mvf,.png,.jpg,.jpeg,.gif,.bmp,.webp";
// A screenshot pasted, dropped or picked is sent as its bytes (the picture action; the page posts them
// raw to /api/picture, the widget as a buffer), known by its magic number as the server knows it
// (analyzer.interactive.screenshot.picture_format), and at most as large as the server reads.
const MAX_PICTURE_BYTES = 20 * 1024 * 1024;

function isPicture(bytes) {
  const starts = (...magic) => magic.every((b, i) => bytes[i] === b);
  const text = (at, word) => [...word].every((ch, i) => bytes[at + i] === ch.charCodeAt(0));
  return (
    starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a) ||
    starts(0xff, 0xd8, 0xff) ||
    text(0, "GIF87a") ||
    text(0, "GIF89a") ||
    text(0, "BM") ||
    (text(0, "RIFF") && text(8, "WEBP"))
  );
}

function toBase64(buffer) {
  const bytes = new Uint8Array(buffer);
  let text = "";
  for (let at = 0; at < bytes.length; at += 0x8000) {
    text += String.fromCharCode.apply(null, bytes.subarray(at, at + 0x8000));
  }
  return btoa(text);
}

function saveBlob(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  setTimeout(() => {
    URL.revokeObjectURL(link.href);
    link.remove();
  }, 1000);
}

function analystTools({ root, send, cellAt, view, codeAt, canvas, scroll, minesInput, showNote }) {
  let acted = false; // a note or a file of a view from before this page was opened is not shown
  let lastDownload = null;
  const act = (message, buffers) => {
    acted = true;
    send(message, buffers);
  };

  // Open: a file picker, drag and drop onto the board, Ctrl+V of a board's text, a file or a
  // screenshot (a picture's board is read by the session: its unsure cells are marked to set by hand).
  const picker = element("input", "mz-file");
  picker.type = "file";
  picker.accept = OPENABLE;
  picker.hidden = true;
  async function openFile(file) {
    if (!file) return;
    const buffer = await file.arrayBuffer();
    if (isPicture(new Uint8Array(buffer, 0, Math.min(16, buffer.byteLength)))) {
      if (buffer.byteLength > MAX_PICTURE_BYTES) {
        showNote(`${file.name || "the picture"} is ${(buffer.byteLength / 2 ** 20).toFixed(1)} MiB: a picture opened here is at most ${MAX_PICTURE_BYTES / 2 ** 20} MiB`);
        return;
      }
      // No mine total is sent: the reader takes the picture's counter or its client's preset.
      act({ type: "picture", name: file.name || "picture" }, [buffer]);
      return;
    }
    const data = toBase64(buffer);
    act({ type: "open", name: file.name, data, mines: minesInput.value });
  }
  picker.addEventListener("change", () => {
    openFile(picker.files[0]);
    picker.value = "";
  });
  root.addEventListener("dragover", (event) => {
    event.preventDefault();
    event.stopPropagation();
    root.classList.add("mz-drop");
  });
  root.addEventListener("dragleave", () => root.classList.remove("mz-drop"));
  root.addEventListener("drop", (event) => {
    event.preventDefault();
    event.stopPropagation(); // JupyterLab would upload the file into its file browser
    root.classList.remove("mz-drop");
    const files = event.dataTransfer && event.dataTransfer.files;
    if (files && files.length) openFile(files[0]);
    else if (event.dataTransfer) pasteText(event.dataTransfer.getData("text/plain"));
  });
  function pasteText(text) {
    if (text && text.trim()) act({ type: "paste", text, mines: minesInput.value });
  }
  root.addEventListener("paste", (event) => {
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    event.preventDefault();
    event.stopPropagation(); // not JupyterLab's paste of cells
    const data = event.clipboardData;
    if (data && data.files && data.files.length) openFile(data.files[0]);
    else if (data) pasteText(data.getData("text/plain"));
  });

  // Save: the position's files come from the session (view.download), the picture from the canvas.
  const saveMenu = element("select", "mz-save");
  saveMenu.title = "Save the position (.mine, minesweepr text), the layout (.mbf) or a picture (.png, .svg)";
  for (const [value, label] of [
    ["", "save…"],
    ["mine", ".mine position"],
    ["minesweepr", "minesweepr text"],
    ["mbf", ".mbf layout"],
    ["png", ".png picture (the view)"],
    ["svg", ".svg picture (the whole board)"],
  ]) {
    const option = element("option", "", label);
    option.value = value;
    saveMenu.append(option);
  }
  saveMenu.addEventListener("change", () => {
    const format = saveMenu.value;
    saveMenu.value = "";
    if (format === "png") {
      canvas.toBlob((blob) => saveBlob(blob, `${(view() && view().name) || "board"}.png`), "image/png");
    } else if (format) {
      act({ type: "save", format });
    }
  });

  const undo = button("↶ undo", "Undo the last edit or move (Ctrl+Z)", () => act({ type: "undo" }), "mz-button mz-undo");
  const redo = button("↷ redo", "Redo (Ctrl+Y or Ctrl+Shift+Z)", () => act({ type: "redo" }), "mz-button mz-redo");
  const marks = button("dead · 50/50", "Mark dead cells (revealing one tells nothing) and forced 50/50s", () =>
    act({ type: "marks", on: !(view() && view().shown && view().shown.marks) }), "mz-button mz-marks");
  const win = button("win %", "The exact chance to win from here with best play (small end games)", () =>
    act({ type: "win", on: !(view() && view().shown && view().shown.win) }), "mz-button mz-win");
  // Play mode: the player's flags are marks, not facts, unless trusted (JSMinesweeper's "flags are mines").
  const trust = button("trust my flags", "Play: take your flags as mines in the analysis, auto-play and the win chance", () =>
    act({ type: "trust_flags", on: !(view() && view().shown && view().shown.trust_flags) }), "mz-button mz-trust-flags");
  const tools = element("div", "mz-controls mz-analyst");
  tools.append(
    button("open…", "Open a board, layout, replay or screenshot (or drop a file or a screenshot on the board, or paste a board's text or a screenshot with Ctrl+V)", () => picker.click(), "mz-button mz-open"),
    picker,
    saveMenu,
    undo,
    redo,
    element("span", "mz-sep", "|"),
    marks,
    win,
    trust,
  );
  const autoGuess = button("play to next guess", "Play every certainly safe cell, again and again, and stop at the next guess", () =>
    act({ type: "autoplay", until: "guess" }), "mz-button mz-auto-guess");
  const autoEnd = button("play to the end", "Play the best move again and again until the game ends", () =>
    act({ type: "autoplay", until: "end" }), "mz-button mz-auto-end");

  // The status of the tools: the marks found, the chance to win.
  const marksLine = element("div", "mz-marks-text");
  const winLine = element("div", "mz-win-text");

  // A replay's timeline: one tick a click, its height the risk taken; click one to go there.
  const timeline = element("div", "mz-timeline");
  timeline.setAttribute("role", "list");
  timeline.title = "Each click of the game: the taller, the riskier (guesses in colour); click to go there";
  timeline.addEventListener("mousedown", (event) => {
    const tick = event.target.closest(".mz-tick");
    if (!tick) return;
    event.preventDefault();
    act({ type: "step", step: Number(tick.dataset.step) });
  });
  let shownTimeline = null;

  // Painting in edit mode: press on a cell, drag over others: they take the first cell's new value.
  let painting = null;
  canvas.addEventListener("mousedown", (event) => {
    acted = true;
    const current = view();
    const cell = cellAt(event);
    if (!current || current.mode !== "edit" || !cell || (event.button !== 0 && event.button !== 2)) return;
    painting = { first: cell, seen: new Set([cell.join(",")]), cells: [] };
  });
  canvas.addEventListener("mousemove", (event) => {
    if (!painting || !(event.buttons & 3)) return;
    const cell = cellAt(event);
    if (!cell || painting.seen.has(cell.join(","))) return;
    painting.seen.add(cell.join(","));
    painting.cells.push(cell);
  });
  window.addEventListener("mouseup", () => {
    if (painting && painting.cells.length) {
      act({ type: "paint", cells: painting.cells, value: "like", like: painting.first });
    }
    painting = null;
  });

  // The wheel in edit mode: over a number it steps the number (Alt over a hidden cell makes one).
  scroll.addEventListener(
    "wheel",
    (event) => {
      const current = view();
      if (!current || current.mode !== "edit" || event.ctrlKey) return;
      const cell = cellAt(event);
      if (!cell) return;
      const code = codeAt(cell[0], cell[1]);
      if (code > 8 && !event.altKey) return; // an ordinary scroll
      event.preventDefault();
      act({ type: "wheel", cell, delta: event.deltaY < 0 ? 1 : -1 });
    },
    { passive: false },
  );

  root.addEventListener("keydown", (event) => {
    if (!(event.ctrlKey || event.metaKey)) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    const key = event.key.toLowerCase();
    if (key === "z" || key === "y") {
      act({ type: key === "y" || event.shiftKey ? "redo" : "undo" });
      event.preventDefault();
    }
  });
  root.addEventListener("mousedown", () => {
    acted = true;
  });
  root.addEventListener("mz-acted", () => {
    acted = true; // the host acted for the person (the page loading a shared link): its notes show
  });

  function update(current, controls) {
    if (autoGuess.parentNode !== controls.play) controls.play.append(autoGuess, autoEnd);
    if (timeline.parentNode !== controls.replay) controls.replay.append(timeline);
    const history = current.history || { undo: 0, redo: 0 };
    undo.disabled = !history.undo;
    redo.disabled = !history.redo;
    undo.title = `Undo the last edit or move (Ctrl+Z): ${history.undo} to undo`;
    const shown = current.shown || {};
    marks.classList.toggle("mz-on", Boolean(shown.marks));
    marks.setAttribute("aria-pressed", String(Boolean(shown.marks)));
    win.classList.toggle("mz-on", Boolean(shown.win));
    win.setAttribute("aria-pressed", String(Boolean(shown.win)));
    trust.classList.toggle("mz-on", Boolean(shown.trust_flags));
    trust.setAttribute("aria-pressed", String(Boolean(shown.trust_flags)));
    trust.disabled = current.mode !== "play";
    trust.title = current.mode === "play"
      ? `Take your flags as mines in the analysis, auto-play and the win chance (now: ${shown.trust_flags ? "trusted" : "your marks, not facts"})`
      : "Play mode only: in edit mode the flags are the position's facts";
    marksLine.hidden = !current.marks_text;
    marksLine.textContent = current.marks_text ? `marks: ${current.marks_text} (dead: dashed outline, forced 50/50: purple)` : "";
    marksLine.title = marksLine.textContent;
    winLine.hidden = !current.win;
    winLine.textContent = current.win ? current.win.text : "";
    if (current.win && current.win.cell) winLine.textContent += `; best first move (${current.win.cell.join(", ")})`;
    winLine.title = winLine.textContent;
    // The timeline, built once a replay, its current tick marked at each step.
    const line = current.timeline;
    const key = line ? `${line.risk.join(",")}|${line.guess.join(",")}` : null;
    if (line && key !== shownTimeline) {
      timeline.replaceChildren(
        ...line.risk.map((risk, k) => {
          const tick = element("span", "mz-tick");
          tick.dataset.step = String(k);
          tick.dataset.risk = String(risk);
          tick.setAttribute("role", "listitem");
          tick.style.height = `${Math.max(3, Math.round(4 + 22 * Math.sqrt(risk)))}px`;
          tick.style.background = line.guess[k] ? current.palette.viridis[Math.round(8 * (1 - Math.sqrt(risk)))] : "#9e9e9e";
          tick.title = `click ${k + 1}: ${line.guess[k] ? "a guess" : "certain"}, ${(100 * risk).toFixed(risk < 0.001 && risk > 0 ? 4 : 1)}% mine (${line.exact[k]})`;
          return tick;
        }),
      );
    }
    shownTimeline = key;
    timeline.hidden = !line;
    if (line && current.replay) {
      for (const tick of timeline.querySelectorAll(".mz-on")) tick.classList.remove("mz-on");
      const now = timeline.children[current.replay.step];
      if (now) now.classList.add("mz-on");
    }
    // A file the session made for "save": once, for this page's own request.
    const file = current.download;
    if (file && file.id !== lastDownload && acted) {
      const raw = atob(file.data);
      const bytes = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
      saveBlob(new Blob([bytes], { type: file.mime }), file.name);
    }
    if (file) lastDownload = file.id;
    if (!acted) showNote("");
  }

  return { tools, status: [marksLine, winLine], update, hasActed: () => acted };
}

// ---- the analyst's tools: a keyboard cell cursor with a live region, the ranked
// candidate guesses, numbers that follow flags (edit), replay keys between guesses, the end game's
// winning line. Built beside the board by render(); it sends the session's actions (cell, key, why,
// step, guess, candidates, adjust_numbers) and reads the view's fields for them.
const KEY_HELP =
  "Keys: arrows (h j k l in play and replay) move the cell cursor; Enter or r reveals (edit: cycles), " +
  "f flags, c chords, ? or w asks why?; edit: 0-8, h, Backspace; replay: ← → a click, " +
  "Shift+← → or [ ] a guess, Home End the first and last step; over the board the keys act on the cell under the pointer";

function analystPass({ root, send, view, codeAt, canvas, cellAt, scrollToCell, describe, cellName, redraw }) {
  let cursor = null; // [r, c]: the cell the keys act on (it follows the pointer over the board)
  let shown = false; // drawn once the keyboard or the pointer has put it somewhere
  const exact = new Map(); // "version:r,c" -> the exact text the session gave

  // The live region: what a screen reader says of the cursor's cell (visually hidden, never display: none).
  const live = element("div", "mz-live");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("role", "status");
  const help = element("div", "mz-keys", KEY_HELP);

  function say() {
    const current = view();
    if (!current || !cursor) return;
    const [r, c] = cursor;
    const known = exact.get(`${current.version}:${r},${c}`);
    const where = current.topology && current.topology.name === "graph" ? cellName(r, c) : `row ${r}, column ${c}`;
    let text = `${where}: ${describe(r, c)}`;
    if (known && known.p && known.p !== "0/1" && known.p !== "1/1") text += ` (${known.p})`; // certain: said above
    live.textContent = text;
    root.dataset.cursor = `${r},${c}`;
  }

  function ask() {
    const current = view();
    if (!current || !cursor) return;
    const code = codeAt(cursor[0], cursor[1]);
    if (code === GUESS || code === SAFE || code === MINE || code === FLAG) send({ type: "exact", cell: cursor });
  }

  function moveTo(r, c, scroll) {
    const current = view();
    if (!current) return;
    const rows = current.topology && current.topology.name === "graph" ? 1 : current.height;
    r = Math.min(Math.max(r, 0), rows - 1);
    c = Math.min(Math.max(c, 0), current.width - 1);
    cursor = [r, c];
    shown = true;
    if (scroll) scrollToCell(r, c, false);
    say();
    ask();
    redraw();
  }

  // A key is the person acting, as a press is: the notes of what it did (a refusal) show.
  root.addEventListener("keydown", () => root.dispatchEvent(new Event("mz-acted")));

  canvas.addEventListener("mousemove", (event) => {
    const cell = cellAt(event);
    if (!cell || (cursor && cell[0] === cursor[0] && cell[1] === cursor[1])) return;
    cursor = cell;
    shown = true;
    say();
    redraw();
  });

  // Keys on the cursor's cell; true when the key was the cursor's (the caller stops it there).
  function key(event) {
    const current = view();
    if (!current || event.ctrlKey || event.metaKey || event.altKey) return false;
    const mode = current.mode;
    const k = event.key;
    if (mode === "replay") {
      if ((event.shiftKey && (k === "ArrowLeft" || k === "ArrowRight")) || k === "[" || k === "]") {
        send({ type: "guess", direction: k === "ArrowLeft" || k === "[" ? -1 : 1 });
        return true;
      }
      if (k === "Home" || k === "End") {
        send({ type: "step", step: k === "Home" ? 0 : current.replay.steps - 1 });
        return true;
      }
    }
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (mode !== "edit") Object.assign(moves, { k: [-1, 0], j: [1, 0], h: [0, -1], l: [0, 1] });
    if (mode === "replay") {
      delete moves.ArrowLeft; // a replay's ← → step through its clicks
      delete moves.ArrowRight;
    }
    if (moves[k]) {
      const [dr, dc] = moves[k];
      const [r, c] = cursor || [0, 0];
      if (!cursor) moveTo(0, 0, true);
      else moveTo(r + dr, c + dc, true);
      return true;
    }
    if (!cursor) return false;
    const cell = cursor;
    if (k === "?" || k === "w") {
      send({ type: "why", cell });
      return true;
    }
    if (mode === "play") {
      if (k === "Enter" || k === "r" || (k === "c" && codeAt(cell[0], cell[1]) <= 8)) {
        send({ type: "cell", cell, button: "left" }); // on a number: a chord
        return true;
      }
      if (k === "f") {
        send({ type: "cell", cell, button: "right" });
        return true;
      }
    } else if (mode === "edit" && k === "Enter") {
      send({ type: "cell", cell, button: "left" });
      return true;
    } else if (mode === "replay" && k === "Enter") {
      send({ type: "cell", cell, button: "left" }); // the step of this cell's click
      return true;
    }
    return false;
  }

  // The ranked candidate guesses: a toggle, and a table below the board (the board never moves).
  const candidatesButton = button("candidates", "The ranked candidate guesses: safety, progress, secondary safety (the expert player's)", () =>
    send({ type: "candidates", on: !(view() && view().shown && view().shown.candidates) }), "mz-button mz-candidates-toggle");
  const table = element("table", "mz-candidates");
  table.hidden = true;
  const caption = element("caption", "mz-candidates-caption");
  const head = element("thead");
  const headRow = element("tr");
  for (const [label, title] of [
    ["cell", "Click a row to put the cursor on the cell"],
    ["safety", "The chance the cell holds no mine"],
    ["progress", "The chance it is safe and the number it shows proves another cell safe"],
    ["secondary", "Secondary safety: the chance it and the next click (a proved-safe cell, else the safest guess) are both safe"],
  ]) {
    const th = element("th", "", label);
    th.title = title;
    th.scope = "col";
    headRow.append(th);
  }
  head.append(headRow);
  const body = element("tbody");
  table.append(caption, head, body);
  table.addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-cell]");
    if (!row) return;
    const [r, c] = row.dataset.cell.split(",").map(Number);
    moveTo(r, c, false);
    scrollToCell(r, c, true);
    root.focus({ preventScroll: true });
  });

  // Edit: the numbers around a flag follow it (on by default, as JSMinesweeper's analysis mode).
  const adjust = button("numbers follow flags", "Edit: a flag placed or removed adds one to or takes one from each number around it", () =>
    send({ type: "adjust_numbers", on: !(view() && view().shown && view().shown.adjust_numbers) }), "mz-button mz-adjust-numbers");

  // Replay: the previous guess (the next one is the "next guess" button).
  const previousGuess = button("previous guess", "The previous click that could hit a mine (Shift+← or [)", () =>
    send({ type: "guess", direction: -1 }), "mz-button mz-previous-guess");

  // The end game's winning line: the move, and the best replies on expanding it.
  const line = element("details", "mz-win-line");
  line.hidden = true;
  const lineSummary = element("summary", "", "winning line");
  const lineText = element("pre", "mz-win-line-text");
  line.append(lineSummary, lineText);

  const fraction = (text) => text;
  const pct = (x) => `${x.toFixed(x > 0 && x < 0.1 ? 3 : 1)}%`;

  function update(current, controls) {
    if (candidatesButton.parentNode !== controls.tools) controls.tools.append(candidatesButton);
    if (adjust.parentNode !== controls.edit) controls.edit.append(adjust);
    if (previousGuess.parentNode !== controls.replay) controls.replayGuess.before(previousGuess);
    const on = current.shown || {};
    candidatesButton.classList.toggle("mz-on", Boolean(on.candidates));
    candidatesButton.setAttribute("aria-pressed", String(Boolean(on.candidates)));
    adjust.classList.toggle("mz-on", Boolean(on.adjust_numbers));
    adjust.setAttribute("aria-pressed", String(Boolean(on.adjust_numbers)));
    const found = current.candidates;
    table.hidden = !found;
    if (found) {
      caption.textContent = found.text;
      body.replaceChildren(
        ...found.rows.map((row) => {
          const tr = element("tr");
          tr.dataset.cell = row.cell.join(",");
          tr.tabIndex = 0;
          tr.classList.toggle("mz-wider", !row.expert); // past the expert player's own margin
          tr.title = row.expert
            ? "One of the expert player's candidates: click to put the cursor on this cell"
            : "Past the expert player's own margin, weighed the same way: click to put the cursor on this cell";
          tr.append(
            element("td", "", `(${row.cell.join(", ")})`),
            ...["safety", "progress", "secondary"].map((name) => {
              const td = element("td", `mz-${name}`, pct(row.percent[name]));
              td.title = `${name}: exactly ${fraction(row[name])}`;
              td.dataset.exact = row[name];
              return td;
            }),
          );
          return tr;
        }),
      );
    }
    const win = current.win;
    line.hidden = !(win && win.line);
    if (win && win.line) {
      const cell = win.line.cell;
      lineSummary.textContent = `winning line: reveal (${cell.join(", ")}), then… (expand for the best replies)`;
      lineText.textContent = win.line_text;
      line.title = win.line_text;
    }
    if (cursor && (cursor[0] >= (current.topology && current.topology.name === "graph" ? 1 : current.height) || cursor[1] >= current.width)) {
      cursor = null;
      shown = false;
    }
    say();
  }

  function answered(answer) {
    if (!answer || answer.type !== "exact" || !answer.cell) return;
    exact.set(`${answer.version}:${answer.cell.join(",")}`, answer);
    if (exact.size > 500) exact.delete(exact.keys().next().value);
    if (cursor && answer.cell.join(",") === cursor.join(",")) say();
  }

  return {
    key,
    update,
    answered,
    cursor: () => (shown ? cursor : null),
    moveTo,
    below: [line, table, help, live],
  };
}

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

function guardNotebook(root, ownPage) {
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
const QUERIES = new Set(["exact", "thumbnail"]); // change nothing: answered, not acknowledged

function watchKernel(model, say) {
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

// ---- a picture read as the board: its thumbnail (the thumbnail query) beside what was read, the
// summary and the transcription (analyzer.pictures' describe(): unsure cells "?"). The unsure cells
// themselves are marked on the board (marks.unsure) until the person sets each.
function picturePanel(send) {
  const box = element("div", "mz-picture");
  box.hidden = true;
  const thumb = element("img", "mz-picture-thumb");
  thumb.alt = "the picture the board was read from";
  thumb.hidden = true;
  const text = element("div", "mz-picture-text");
  const summary = element("div", "mz-picture-summary");
  const read = element("pre", "mz-picture-read");
  read.title = "The board as read: ? an unsure cell (outlined on the board until you set it)";
  text.append(summary, read);
  box.append(thumb, text);
  let shown = null; // the number of the picture shown
  return {
    box,
    update(view) {
      const picture = view.picture;
      box.hidden = !picture;
      if (!picture) {
        shown = null;
        return;
      }
      summary.textContent = picture.summary;
      read.textContent = picture.text;
      if (picture.id !== shown) {
        shown = picture.id;
        thumb.hidden = true;
        thumb.removeAttribute("src");
        if (picture.thumbnail) send({ type: "thumbnail" });
      }
    },
    answered(answer) {
      if (!answer || answer.type !== "thumbnail" || answer.id !== shown) return;
      thumb.src = `data:${answer.mime};base64,${answer.data}`;
      thumb.width = answer.width;
      thumb.height = answer.height;
      thumb.hidden = false;
    },
  };
}

function render({ model, el }) {
  const root = element("div", "mz-root");
  root.tabIndex = 0;
  // JupyterLab: no context menu and no command-mode shortcut from inside the board.
  root.setAttribute("data-jp-suppress-context-menu", "");
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  el.replaceChildren(root);
  guardNotebook(root, !model.get("acknowledges")); // only a kernel's widget acknowledges (watchKernel)
  watchTheme(root, () => scheduleDraw());
  const goneLine = element("div", "mz-gone"); // the kernel behind this board is gone (watchKernel)
  goneLine.hidden = true;
  const kernelWatch = watchKernel(model, (text) => {
    goneLine.hidden = !text;
    goneLine.textContent = text;
    goneLine.title = text;
  });

  let whyMode = false;
  let sized = false;
  let current = null;
  let zoom = 24;
  let geo = squareGeometry(0, 0, zoom); // where the cells are (geometryOf), renewed with the view and the zoom
  let hovered = null;
  let hoverTimer = null;
  let lastVersion = null;
  let scrollNext = null; // "best" after play best: show the cell that matters once it arrives
  const waiting = new Map(); // "r,c" -> resolvers of the exact fraction asked for
  const exactText = new Map(); // "version:r,c" -> the answer's text
  let codes = new Uint8Array(0);
  let probs = new Float32Array(0);
  let stops = [];
  let frame = 0;

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

  // ---- toolbar: modes, the why switch, zoom, the working sign
  const modes = element("div", "mz-modes");
  const whyToggle = button("why?", "Then click a certain cell: the clues that force it", () => {
    whyMode = !whyMode;
    whyToggle.classList.toggle("mz-on", whyMode);
    whyToggle.setAttribute("aria-pressed", String(whyMode));
  }, "mz-button mz-why-toggle");
  const zoomOut = button("−", "Smaller cells (Ctrl + wheel over the board)", () => setZoom(-1), "mz-button mz-zoom-out");
  const zoomIn = button("+", "Larger cells (Ctrl + wheel over the board)", () => setZoom(1), "mz-button mz-zoom-in");
  const busy = element("span", "mz-busy", "working…");
  const toolbar = element("div", "mz-toolbar");
  toolbar.append(modes, whyToggle, element("span", "mz-sep", "|"), element("span", "mz-label", "zoom"), zoomOut, zoomIn, busy);

  // ---- controls of each mode
  const [minesWrap, minesInput] = numberField("mine total", 0, "mz-mines");
  minesInput.addEventListener("change", () => send({ type: "mines", mines: minesInput.value }));
  const sizeInput = element("input", "mz-size");
  sizeInput.type = "text";
  sizeInput.size = 14;
  sizeInput.placeholder = "WxHxM or expert";
  sizeInput.title = "A size as `analyzer web --new` takes it: beginner, intermediate, expert or WxHxM (e.g. 300x300x14400)";
  const sizeWrap = element("label", "mz-field");
  sizeWrap.append("new board ", sizeInput);
  // The topology of a new board or game: the one shown unless another is chosen (or named after
  // the size, "9x9x10 hex"); a graph comes from its file, so it is offered only while one is shown.
  const topologyMenu = (className) => {
    const menu = element("select", `mz-topology ${className}`);
    menu.title = "How the cells touch: a new board or game takes this topology (a cube of n x n faces is n wide and 6n high)";
    for (const name of TOPOLOGIES) {
      const option = element("option", "", name);
      option.value = name;
      menu.append(option);
    }
    return menu;
  };
  const editTopology = topologyMenu("mz-edit-topology");
  const playTopology = topologyMenu("mz-play-topology");
  const newBoard = () => send({ type: "resize", size: sizeInput.value, topology: editTopology.value });
  sizeInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") newBoard();
  });
  const editControls = element("div", "mz-controls mz-edit-controls");
  editControls.append(
    minesWrap,
    element("span", "mz-sep", "|"),
    sizeWrap,
    editTopology,
    button("new board", "An empty board of this size and topology", newBoard, "mz-button mz-new-board"),
  );

  const preset = element("select", "mz-preset");
  const firstClick = element("select", "mz-first-click");
  for (const rule of ["safe", "opening", "none"]) {
    const option = element("option", "", `first click ${rule}`);
    option.value = rule;
    firstClick.append(option);
  }
  const [seedWrap, seedInput] = numberField("seed", "", "mz-seed");
  seedInput.placeholder = "next";
  const customInput = element("input", "mz-game-size");
  customInput.type = "text";
  customInput.size = 12;
  customInput.placeholder = "or WxHxM";
  customInput.title = "A custom size (WxHxM, e.g. 100x100x1600); empty: the size chosen on the left";
  const playControls = element("div", "mz-controls mz-play-controls");
  playControls.append(
    preset,
    customInput,
    playTopology,
    firstClick,
    seedWrap,
    button("new game", "A new game of this size (the same seed gives the same layout)", () => {
      const size = customInput.value.trim() || preset.value.replaceAll(",", "x");
      send({ type: "new_game", size, seed: seedInput.value, first_click: firstClick.value, topology: playTopology.value });
    }),
    button("play best move", "Reveal the best move", () => {
      scrollNext = "best";
      send({ type: "play_best" });
    }, "mz-button mz-play-best"),
  );

  const slider = element("input", "mz-slider");
  slider.type = "range";
  slider.min = "0";
  slider.addEventListener("change", () => send({ type: "step", step: slider.value }));
  const replayControls = element("div", "mz-controls mz-replay-controls");
  const step = (delta) => current && current.replay && send({ type: "step", step: current.replay.step + delta });
  const nextGuess = () => {
    if (!current || !current.replay) return;
    const later = current.replay.guess_steps.filter((k) => k > current.replay.step);
    if (later.length) send({ type: "step", step: later[0] });
    else showNote("no guess after this click");
  };
  const nextGuessButton = button("next guess", "The next click that could hit a mine (Shift+→ or ])", nextGuess, "mz-button mz-next-guess");
  replayControls.append(
    button("◀", "Previous click", () => step(-1), "mz-button mz-prev"),
    slider,
    button("▶", "Next click", () => step(1), "mz-button mz-next"),
    nextGuessButton,
  );

  // ---- the status, above the board, in space kept for it (board.css): no line that appears moves the board
  const caption = element("div", "mz-caption");
  const replayText = element("div", "mz-replay-text");
  const error = element("div", "mz-error");
  const note = element("div", "mz-note");
  const best = element("div", "mz-best");
  best.title = "Click to show the cell";
  best.addEventListener("click", () => current && current.best && scrollToCell(current.best[0], current.best[1], true));
  const why = element("div", "mz-why");
  const flagLine = element("div", "mz-flag-text"); // play: the flags that are not certain mines
  const hoverLine = element("div", "mz-hover", " ");
  // The long exact value of a count or the luck, asked for by a click on its short figure.
  const exactBox = element("div", "mz-exact");
  exactBox.hidden = true;
  const exactLabel = element("span", "mz-exact-label");
  const exactValue = element("span", "mz-exact-value");
  exactBox.append(
    button("×", "Close", () => (exactBox.hidden = true), "mz-button mz-exact-close"),
    exactLabel,
    exactValue,
  );
  const status = element("div", "mz-status");
  status.append(goneLine, caption, replayText, exactBox, hoverLine, best, error, note, flagLine, why);

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
  const picture = picturePanel(send);
  model.on("msg:custom", (message) => picture.answered(message && message.answer));
  root.append(toolbar, editControls, playControls, replayControls, status, picture.box, scroll, legend);
  const ctx = canvas.getContext("2d");
  const analyst = analystTools({
    root,
    send,
    cellAt,
    view: () => current,
    codeAt: (r, c) => codes[r * current.width + c],
    canvas,
    scroll,
    minesInput,
    showNote,
  });
  toolbar.after(analyst.tools);
  status.append(...analyst.status);
  const pass = analystPass({
    root,
    send,
    view: () => current,
    codeAt: (r, c) => codes[r * current.width + c],
    canvas,
    cellAt,
    scrollToCell,
    describe: (r, c) => describe(r, c),
    cellName: (r, c) => cellName(r, c),
    redraw: () => scheduleDraw(),
  });
  legend.after(...pass.below);

  function showNote(text) {
    note.hidden = !text;
    note.textContent = text;
    note.title = text; // a long one is cut short on its line: the whole of it
  }

  // ---- geometry
  function labelWidth() {
    if (!current) return 24;
    return Math.max(18, 7 * String(current.height - 1).length + 8);
  }
  const LABEL_HEIGHT = 16;

  function layout() {
    if (!current) return;
    const lw = labelWidth();
    const width = Math.ceil(lw + geo.width);
    const height = Math.ceil(LABEL_HEIGHT + geo.height);
    inner.style.width = `${width}px`;
    inner.style.height = `${height}px`;
    scroll.style.width = `${width}px`;
    scroll.style.height = `${height}px`;
    scheduleDraw();
  }

  function cellAt(event) {
    const box = canvas.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    const lw = labelWidth();
    if (!current || x < lw || y < LABEL_HEIGHT) return null;
    return geo.at(x - lw + scroll.scrollLeft, y - LABEL_HEIGHT + scroll.scrollTop);
  }

  // The top left corner of the cell's box (zoom x zoom around its centre) on the canvas.
  function corner(r, c) {
    const [cx, cy] = geo.centre(r, c);
    return [labelWidth() + cx - zoom / 2 - scroll.scrollLeft, LABEL_HEIGHT + cy - zoom / 2 - scroll.scrollTop];
  }

  function isVisible(r, c) {
    const lw = labelWidth();
    const [x, y] = corner(r, c);
    return x >= lw && y >= LABEL_HEIGHT && x + zoom <= scroll.clientWidth && y + zoom <= scroll.clientHeight;
  }

  function scrollToCell(r, c, always) {
    if (!current) return;
    const [cx, cy] = geo.centre(r, c);
    if (!isVisible(r, c) || always) {
      const lw = labelWidth();
      scroll.scrollLeft = Math.max(0, cx - (scroll.clientWidth - lw) / 2);
      scroll.scrollTop = Math.max(0, cy - (scroll.clientHeight - LABEL_HEIGHT) / 2);
    }
    // The page may need to scroll too (a tall board in a notebook).
    const box = scroll.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      const y = box.top + LABEL_HEIGHT + cy - zoom / 2 - scroll.scrollTop;
      if (y < 0 || y > window.innerHeight) window.scrollBy(0, y - window.innerHeight / 2);
    }
    scheduleDraw();
  }

  function setZoom(direction) {
    const at = ZOOMS.indexOf(zoom);
    const next = ZOOMS[Math.min(Math.max(at + direction, 0), ZOOMS.length - 1)];
    if (next === zoom) return;
    // Keep the cell in the middle of the view where it is.
    const middle = [
      (scroll.scrollTop + scroll.clientHeight / 2) / zoom,
      (scroll.scrollLeft + scroll.clientWidth / 2) / zoom,
    ];
    zoom = next;
    if (current) geo = geometryOf(current, zoom);
    root.style.setProperty("--mz-zoom", String(zoom));
    root.dataset.zoom = String(zoom);
    layout();
    scroll.scrollTop = middle[0] * zoom - scroll.clientHeight / 2;
    scroll.scrollLeft = middle[1] * zoom - scroll.clientWidth / 2;
  }

  // ---- what a cell shows
  function look(index) {
    const code = codes[index];
    const palette = current.palette;
    if (code <= 8) return [palette.revealed, code === 0 ? "" : String(code), palette.numbers[code]];
    const p = probs[index];
    switch (code) {
      case GUESS: {
        const background = probabilityColour(stops, p);
        return [background, percentText(p), textColour(background)];
      }
      case SAFE:
      case SAFE_CPSAT:
        return [palette.viridis[8], "✓", "#000000"];
      case MINE:
      case MINE_CPSAT:
        return [palette.viridis[0], "✱", "#ffffff"];
      case FATAL:
        return [palette.fatal, "", "#ffffff"];
      default:
        return [palette.hidden, "", "#000000"];
    }
  }

  // How the hover line names a cell: (row, column), on the cube with its face, on a graph its name.
  function cellName(r, c) {
    const topology = current.topology || {};
    if (topology.name === "graph" && topology.names) return `cell ${topology.names[c]}`;
    if (topology.name === "cube") return `(${r}, ${c}) on face ${Math.floor(r / current.width)}`;
    return `(${r}, ${c})`;
  }

  function describe(r, c) {
    const index = r * current.width + c;
    const code = codes[index];
    const p = probs[index];
    if (code <= 8) return `revealed ${code}`;
    switch (code) {
      case GUESS:
        return `${(100 * p).toFixed(p < 0.001 ? 4 : 1)}% mine`;
      case SAFE:
        return "certainly safe";
      case MINE:
        return "certainly a mine";
      case SAFE_CPSAT:
        return "certainly safe (CP-SAT)";
      case MINE_CPSAT:
        return "certainly a mine (CP-SAT)";
      case FLAG:
        return "flag";
      case LAYOUT_MINE:
        return "mine";
      case FATAL:
        return "the mine that was hit";
      case WRONG_FLAG:
        return "a wrong flag: no mine here";
      default:
        return "hidden";
    }
  }

  function drawMine(x, y, size, colour) {
    const cx = x + size / 2, cy = y + size / 2, radius = size * 0.26;
    ctx.strokeStyle = colour;
    ctx.lineWidth = Math.max(1, size / 12);
    ctx.beginPath();
    for (let k = 0; k < 4; k++) {
      const a = (k * Math.PI) / 4;
      ctx.moveTo(cx - Math.cos(a) * radius * 1.45, cy - Math.sin(a) * radius * 1.45);
      ctx.lineTo(cx + Math.cos(a) * radius * 1.45, cy + Math.sin(a) * radius * 1.45);
    }
    ctx.stroke();
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(cx, cy, radius, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(cx - radius * 0.45, cy - radius * 0.45, Math.max(1, radius * 0.35), Math.max(1, radius * 0.35));
  }

  function drawFlag(x, y, size) {
    ctx.fillStyle = "#000000";
    ctx.fillRect(x + size * 0.52, y + size * 0.2, Math.max(1, size * 0.07), size * 0.6);
    ctx.fillRect(x + size * 0.3, y + size * 0.76, size * 0.44, Math.max(1, size * 0.08));
    ctx.fillStyle = current.palette.flag;
    ctx.beginPath();
    ctx.moveTo(x + size * 0.59, y + size * 0.18);
    ctx.lineTo(x + size * 0.22, y + size * 0.35);
    ctx.lineTo(x + size * 0.59, y + size * 0.52);
    ctx.closePath();
    ctx.fill();
    ctx.strokeStyle = "#000000"; // red is no contrast on grey: the flag's black edge is
    ctx.lineWidth = Math.max(1, size / 20);
    ctx.stroke();
  }

  // The outline of a cell whose box (zoom x zoom) has its top left corner at (x, y), drawn
  // `inset` pixels inside: a square, a hexagon as analyzer.render draws it (or its brick when
  // small), a circle (a graph's cell).
  function cellPath(x, y, inset) {
    ctx.beginPath();
    addShape(ctx, x + zoom / 2, y + zoom / 2, inset);
  }

  const HEX_CORNERS = [0, 1, 2, 3, 4, 5].map((k) => [Math.cos((Math.PI / 180) * (30 + 60 * k)), Math.sin((Math.PI / 180) * (30 + 60 * k))]);

  // The cell's shape, centred at (cx, cy), as a subpath of the context's current path.
  function addShape(context, cx, cy, inset) {
    if (geo.box) {
      const [w, h] = geo.box;
      context.rect(cx - w / 2 + inset, cy - h / 2 + inset, w - 1 - 2 * inset, h - 1 - 2 * inset);
    } else if (geo.kind === "hex") {
      const radius = (0.97 * zoom) / Math.sqrt(3) - inset;
      context.moveTo(cx + radius * HEX_CORNERS[0][0], cy + radius * HEX_CORNERS[0][1]);
      for (let k = 1; k < 6; k++) context.lineTo(cx + radius * HEX_CORNERS[k][0], cy + radius * HEX_CORNERS[k][1]);
      context.closePath();
    } else if (geo.kind === "graph") {
      context.moveTo(cx + 0.48 * zoom - inset, cy);
      context.arc(cx, cy, 0.48 * zoom - inset, 0, 2 * Math.PI);
    }
  }

  // A cell's background (a mark's tint): on a grid a square, elsewhere the cell's shape.
  function fillCell(x, y) {
    if (geo.box) {
      const [w, h] = geo.box;
      ctx.fillRect(x + (zoom - w) / 2, y + (zoom - h) / 2, w - 1, h - 1);
      return;
    }
    cellPath(x, y, 0);
    ctx.fill();
  }

  function outline(x, y, size, colour, width, dashed) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.setLineDash(dashed ? [4, 3] : []);
    cellPath(x, y, width / 2);
    ctx.stroke();
    ctx.setLineDash([]);
  }

  // ---- drawing
  function scheduleDraw() {
    delete root.dataset.painted; // a frame is due: what the canvas shows (its size too) is about to change
    if (!frame) frame = requestAnimationFrame(draw);
  }

  let drawMs = 0;
  function draw() {
    const start = performance.now();
    frame = 0;
    if (!current) return;
    paint();
    root.dataset.painted = String(current.version); // the canvas has its size and this view's cells
    drawMs = performance.now() - start;
  }

  function paint() {
    const lw = labelWidth();
    const fullW = Math.ceil(lw + geo.width), fullH = Math.ceil(LABEL_HEIGHT + geo.height);
    const viewW = Math.min(scroll.clientWidth || fullW, fullW);
    const viewH = Math.min(scroll.clientHeight || fullH, fullH);
    const ratio = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(viewW * ratio) || canvas.height !== Math.round(viewH * ratio)) {
      canvas.width = Math.round(viewW * ratio);
      canvas.height = Math.round(viewH * ratio);
      canvas.style.width = `${viewW}px`;
      canvas.style.height = `${viewH}px`;
    }
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    // A grid's lines are the background between its cells; hexagons and a graph's cells stand on
    // white with an edge each, the cube's faces each on their own grid.
    const theme = THEMES[root.dataset.theme] || THEMES.light;
    ctx.fillStyle = geo.box && geo.kind !== "cube" ? current.palette.grid : theme.background;
    ctx.fillRect(0, 0, viewW, viewH);
    const left = scroll.scrollLeft, top = scroll.scrollTop;
    const showText = zoom >= 14 && codes.length === current.width * current.height;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    const width = current.width;
    const numberFont = `bold ${Math.round(zoom * 0.62)}px monospace`;
    const smallFont = `bold ${Math.round(zoom * 0.46)}px monospace`;
    // The area in view, in the geometry's pixels; a graph's edges first, under its cells.
    const x0 = left, y0 = top, x1 = left + viewW - lw, y1 = top + viewH - LABEL_HEIGHT;
    if (geo.edges) {
      ctx.strokeStyle = "#999999";
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (const [i, j] of geo.edges) {
        const [ax, ay] = geo.centre(0, i), [bx, by] = geo.centre(0, j);
        ctx.moveTo(lw + ax - left, LABEL_HEIGHT + ay - top);
        ctx.lineTo(lw + bx - left, LABEL_HEIGHT + by - top);
      }
      ctx.stroke();
    }
    ctx.fillStyle = current.palette.grid;
    for (const [fx, fy, side] of geo.faces || []) ctx.fillRect(lw + fx - left - 1, LABEL_HEIGHT + fy - top - 1, side + 1, side + 1);
    const marks = current.marks || {};
    const drawn = tinted(marks); // the cells a mark tints, and their colours as drawn
    const shownRange = geo.each(x0, y0, x1, y1, (r, c) => {
      const index = r * width + c;
      if (index >= codes.length) return;
      const [cx, cy] = geo.centre(r, c);
      const x = lw + cx - zoom / 2 - left, y = LABEL_HEIGHT + cy - zoom / 2 - top;
      let [background, text, ink] = look(index);
      if (drawn.has(index)) [background, ink] = drawn.get(index);
      ctx.fillStyle = background;
      if (geo.box) fillCell(x, y);
      else {
        cellPath(x, y, 0);
        ctx.fill();
        ctx.strokeStyle = current.palette.grid;
        ctx.lineWidth = 1;
        ctx.stroke();
      }
      drawContent(index, x, y, text, ink);
    });

    // What a cell holds over its background: a flag, a mine, its number or percent.
    function drawContent(index, x, y, text, ink) {
      const code = codes[index];
      if (code === FLAG || code === WRONG_FLAG) {
        drawFlag(x, y, zoom);
        if (code === WRONG_FLAG) {
          // The red cross over an edge in black or white, whichever contrasts more with the cell.
          const width = Math.max(1.5, zoom / 9);
          ctx.beginPath();
          ctx.moveTo(x + zoom * 0.15, y + zoom * 0.15);
          ctx.lineTo(x + zoom * 0.85, y + zoom * 0.85);
          ctx.moveTo(x + zoom * 0.85, y + zoom * 0.15);
          ctx.lineTo(x + zoom * 0.15, y + zoom * 0.85);
          ctx.strokeStyle = textColour(look(index)[0]);
          ctx.lineWidth = width + Math.max(3, zoom / 8);
          ctx.lineCap = "round";
          ctx.stroke();
          ctx.lineCap = "butt";
          ctx.strokeStyle = "#d00000";
          ctx.lineWidth = width;
          ctx.stroke();
        }
      } else if (code === LAYOUT_MINE || code === FATAL) {
        drawMine(x, y, zoom, code === FATAL ? "#ffffff" : current.palette.mine);
      } else if (showText && text) {
        ctx.font = code <= 8 || code !== GUESS ? numberFont : smallFont;
        ctx.fillStyle = ink;
        ctx.fillText(text, x + zoom / 2, y + zoom / 2 + 1);
      }
    }
    // Marks: the clues in conflict, why's clues and cell, the replay's click, the best move.
    const mark = (name, colour, lineWidth, dashed) => {
      for (const index of marks[name] || []) {
        const r = Math.floor(index / width), c = index % width;
        if (r >= current.height) continue;
        const [cx, cy] = geo.centre(r, c);
        if (cx + zoom < x0 || cx - zoom > x1 || cy + zoom < y0 || cy - zoom > y1) continue;
        const x = lw + cx - zoom / 2 - left, y = LABEL_HEIGHT + cy - zoom / 2 - top;
        const background = drawn.has(index) ? drawn.get(index)[0] : look(index)[0];
        ring(x, y, background, colour, lineWidth, dashed);
      }
    };
    const thick = Math.max(2, Math.round(zoom / 8));
    for (const [name, colour, , dashed, extra] of MARKS) mark(name, colour, thick + extra, dashed);
    // The keyboard's cell cursor: white under black dashes, seen on every background.
    const cursorCell = pass.cursor();
    if (cursorCell && cursorCell[0] * width + cursorCell[1] < codes.length) {
      const [cx, cy] = geo.centre(cursorCell[0], cursorCell[1]);
      const x = lw + cx - zoom / 2 - left, y = LABEL_HEIGHT + cy - zoom / 2 - top;
      outline(x, y, zoom, "#ffffff", thick + 2, false);
      outline(x, y, zoom, "#000000", Math.max(1.5, thick - 1), true);
    }
    // The labels, stuck to the top and the left edges.
    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, viewW, LABEL_HEIGHT);
    ctx.fillRect(0, 0, lw, viewH);
    ctx.fillStyle = theme.labels;
    ctx.font = "10px monospace";
    const every = zoom >= 20 ? 1 : zoom >= 12 ? 5 : 10;
    if (shownRange) {
      // A grid's (and the hexagons') columns over their even rows' cells, rows at their centres;
      // the cube's net and a graph have no rows and columns to label (hover names each cell).
      const [r0, r1, c0, c1] = shownRange;
      for (let c = c0; c < c1; c++) {
        if (c % every) continue;
        ctx.fillText(String(c), lw + geo.centre(0, c)[0] - left, LABEL_HEIGHT / 2);
      }
      ctx.textAlign = "right";
      for (let r = r0; r < r1; r++) {
        if (r % every) continue;
        ctx.fillText(String(r), lw - 4, LABEL_HEIGHT + geo.centre(r, 0)[1] - top);
      }
    }
    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, lw, LABEL_HEIGHT);
  }

  // The cells a mark tints (conflict, why's clues, 50/50s): [background, ink] as drawn, the tint
  // mixed in, the text's ink kept when it still contrasts 4.5:1, else black or white.
  function tinted(marks) {
    const out = new Map();
    for (const [name, , fill] of MARKS) {
      if (!fill) continue;
      for (const index of marks[name] || []) {
        if (index >= codes.length) continue;
        const [background, , ink] = look(index);
        const mixed = mix(background, fill, MARK_FILL);
        out.set(index, [mixed, contrast(ink, mixed) >= 4.5 ? ink : textColour(mixed)]);
      }
    }
    return out;
  }

  // A mark around a cell: a ring in black or white (whichever contrasts more with the cell's
  // background), then inside it a line of the mark's colour (a dashed mark: the ring alone, dashed).
  function ring(x, y, background, colour, width, dashed) {
    outline(x, y, zoom, textColour(background), width, dashed);
    if (dashed && colour === null) return;
    const inner = Math.max(2, Math.ceil(width / 2));
    ctx.strokeStyle = colour;
    ctx.lineWidth = inner;
    ctx.setLineDash([]);
    cellPath(x, y, width + inner / 2);
    ctx.stroke();
  }

  // ---- events: the board's own (keys, right clicks and focus stop at the widget's border: guardNotebook)
  scroll.addEventListener("scroll", scheduleDraw, { passive: true });
  scroll.addEventListener(
    "wheel",
    (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      setZoom(event.deltaY < 0 ? 1 : -1);
    },
    { passive: false },
  );
  canvas.addEventListener("mousedown", (event) => {
    const cell = cellAt(event);
    if (!cell) return;
    event.preventDefault();
    root.focus({ preventScroll: true });
    if (event.button === 2) {
      send({ type: "cell", cell, button: "right" });
    } else if (event.button === 0) {
      if (whyMode) {
        whyMode = false;
        whyToggle.classList.remove("mz-on");
        whyToggle.setAttribute("aria-pressed", "false");
        send({ type: "why", cell });
      } else {
        send({ type: "cell", cell, button: "left" });
      }
    }
  });
  canvas.addEventListener("mousemove", (event) => {
    const cell = cellAt(event);
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
    if (!current || event.target !== root) return;
    if (event.ctrlKey && (event.key === "+" || event.key === "=" || event.key === "-")) {
      setZoom(event.key === "-" ? -1 : 1);
      event.preventDefault();
      return;
    }
    if (event.target === root && pass.key(event)) {
      event.preventDefault();
      return;
    }
    if (current.mode === "replay" && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      step(event.key === "ArrowLeft" ? -1 : 1);
      event.preventDefault();
      return;
    }
    const keyCell = hovered || pass.cursor(); // the cell under the pointer, else the cursor's
    if (current.mode !== "edit" || !keyCell) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (/^[0-8hf ]$/.test(key) || key === "Backspace" || key === "Delete") {
      send({ type: "key", cell: keyCell, key });
      event.preventDefault();
    }
  });

  // ---- hover: the short figure at once, the exact fraction asked for when the pointer rests
  function showHover() {
    clearTimeout(hoverTimer);
    if (!hovered || !current) {
      hoverLine.textContent = " ";
      canvas.title = "";
      return;
    }
    const [r, c] = hovered;
    const key = `${current.version}:${r},${c}`;
    const known = exactText.get(key);
    hoverLine.textContent = `${cellName(r, c)}: ${known || describe(r, c)}`;
    hoverLine.title = hoverLine.textContent;
    canvas.title = hoverLine.textContent; // the tooltip beside the pointer too
    const code = codes[r * current.width + c];
    const mark = code === FLAG && !current.trust_flags && current.mode === "play"; // a flag not trusted has a P
    if (!known && (code === GUESS || code === SAFE || code === MINE || mark)) {
      hoverTimer = setTimeout(() => send({ type: "exact", cell: [r, c] }), 120);
    }
  }

  model.on("msg:custom", (message) => pass.answered(message && message.answer));
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
      exactLabel.textContent = answer.of === "layouts" ? "layouts, exactly: " : "luck, exactly: ";
      exactValue.textContent = answer.text;
      exactBox.hidden = false;
    }
  });

  // ---- the view
  let exactVersion = null;
  const newVersion = (view) => {
    const changed = view.version !== exactVersion;
    exactVersion = view.version;
    return changed;
  };

  function update() {
    const view = model.get("view");
    if (!view || view.protocol === undefined) return;
    current = view;
    geo = geometryOf(view, zoom);
    codes = asBytes(model.get("codes"), Uint8Array);
    probs = asBytes(model.get("probabilities"), Float32Array);
    stops = view.palette.viridis.map(hexRgb);
    root.dataset.mode = view.mode;
    root.dataset.version = String(view.version);
    root.dataset.rows = String(view.height);
    root.dataset.cols = String(view.width);
    root.dataset.bestPending = String(Boolean(view.best_pending));
    modes.replaceChildren(
      ...view.modes.map((mode) => {
        const node = button(mode, MODE_TITLES[mode], () => send({ type: "mode", mode }), "mz-button mz-mode");
        node.dataset.mode = mode;
        node.classList.toggle("mz-on", mode === view.mode);
        return node;
      }),
    );
    editControls.hidden = view.mode !== "edit";
    playControls.hidden = view.mode !== "play";
    replayControls.hidden = view.mode !== "replay";
    if (document.activeElement !== minesInput) minesInput.value = String(view.mines);
    const topology = (view.topology && view.topology.name) || "square";
    root.dataset.topology = topology;
    for (const menu of [editTopology, playTopology]) {
      menu.querySelector("option[value=graph]").hidden = topology !== "graph";
      if (document.activeElement !== menu) menu.value = topology;
    }
    if (!sized) {
      sizeInput.value = `${view.width}x${view.height}x${view.mines}`;
      sized = true;
    }
    if (!preset.options.length) {
      for (const [name, size] of Object.entries(view.presets)) {
        const option = element("option", "", `${name} ${size[0]}x${size[1]}/${size[2]}`);
        option.value = size.join(",");
        preset.append(option);
      }
    }
    if (view.game) {
      const size = [view.game.width, view.game.height, view.game.mines].join(",");
      if (![...preset.options].some((o) => o.value === size)) {
        const option = element("option", "", `this size ${size.replaceAll(",", "x").replace(/x(\d+)$/, "/$1")}`);
        option.value = size;
        preset.append(option);
      }
      preset.value = size;
    }
    if (view.replay) {
      slider.max = String(view.replay.steps - 1);
      slider.value = String(view.replay.step);
      replayText.textContent = view.replay.text;
    }
    replayText.hidden = view.mode !== "replay";
    let text = view.caption;
    if (view.mode !== "replay") text += ` · ${view.mines_left} mines left`;
    caption.textContent = text;
    canvas.setAttribute("aria-label", `the board: ${text}; hover a cell for its figures`);
    caption.title = view.counts && view.counts.layouts ? `${text} (click for the exact number of layouts)` : text;
    caption.classList.toggle("mz-asks", Boolean(view.counts && view.counts.layouts));
    replayText.title = replayText.textContent + (view.replay && !view.replay.click ? " (click for the exact luck)" : "");
    replayText.classList.toggle("mz-asks", Boolean(view.replay && !view.replay.click));
    if (newVersion(view)) exactBox.hidden = true;
    error.hidden = !view.error;
    error.textContent = view.error ? view.error.message : "";
    error.title = error.textContent;
    showNote(view.note || "");
    flagLine.hidden = !view.flag_text;
    flagLine.textContent = view.flag_text || "";
    flagLine.title = flagLine.textContent;
    why.hidden = !view.why;
    why.textContent = view.why ? view.why.text : "";
    why.title = why.textContent;
    best.textContent = view.best_text
      ? `best move: ${view.best_text}`
      : view.best_pending
        ? "best move: scoring…"
        : "";
    best.title = best.textContent ? `${best.textContent} (click to show the cell)` : "";
    layout(); // the size of the area: the grid's, the hexagons', the net's or the graph's
    // Scroll to the cell that matters: the replay's click, the best move after "play best".
    const fresh = view.version !== lastVersion;
    lastVersion = view.version;
    const marks = view.marks || {};
    if (fresh && marks.clicked && marks.clicked.length) {
      scrollToCell(Math.floor(marks.clicked[0] / view.width), marks.clicked[0] % view.width, false);
    }
    if (scrollNext === "best" && view.best) {
      scrollNext = null;
      scrollToCell(view.best[0], view.best[1], false);
    }
    scheduleDraw();
    showHover();
    analyst.update(view, { play: playControls, replay: replayControls });
    picture.update(view);
    pass.update(view, { tools: analyst.tools, edit: editControls, replay: replayControls, replayGuess: nextGuessButton });
  }

  caption.addEventListener("click", () => current && current.counts && current.counts.layouts && send({ type: "exact", of: "layouts" }));
  replayText.addEventListener("click", () => current && current.replay && !current.replay.click && send({ type: "exact", of: "luck" }));

  function drawBusy() {
    const hostBusy = Boolean(model.get("busy"));
    if (hostBusy && sent === "start") sent = "end";
    else if (!hostBusy && sent === "end") sent = "none";
    root.classList.toggle("mz-working", hostBusy || sent !== "none");
  }

  // ---- the hook the tests (and a curious user) read the board through
  root.mz = {
    view: () => current,
    info(r, c) {
      const index = r * current.width + c;
      const code = codes[index];
      const [background, text] = look(index);
      const p = probs[index];
      return {
        code,
        kind: current.palette.kinds[code],
        p: Number.isNaN(p) ? null : p,
        text,
        background,
        describe: describe(r, c),
        marks: Object.keys(current.marks || {}).filter((name) => current.marks[name].includes(index)),
      };
    },
    rect(r, c) {
      // The cell's box on the screen (zoom x zoom around its centre: a hexagon's, a graph cell's too).
      scrollToCell(r, c, false);
      const box = canvas.getBoundingClientRect();
      const [x, y] = corner(r, c);
      return { x: box.left + x, y: box.top + y, width: zoom, height: zoom, cx: box.left + x + zoom / 2, cy: box.top + y + zoom / 2 };
    },
    hit: (x, y) => cellAt({ clientX: x, clientY: y }), // the cell under a point of the page (null: none)
    geometry: () => geo.kind,
    theme: () => Object.assign({ name: root.dataset.theme }, THEMES[root.dataset.theme] || THEMES.light),
    exact(r, c) {
      return new Promise((resolve) => {
        const key = `${r},${c}`;
        if (!waiting.has(key)) waiting.set(key, []);
        waiting.get(key).push(resolve);
        send({ type: "exact", cell: [r, c] });
      });
    },
    find(code, limit = 10) {
      // Cells showing a state code, row-major (e.g. 12: the certainly safe ones).
      const found = [];
      for (let i = 0; i < codes.length && found.length < limit; i++) {
        if (codes[i] === code) found.push([Math.floor(i / current.width), i % current.width]);
      }
      return found;
    },
    visible: (r, c) => isVisible(r, c),
    drawMs: () => drawMs, // how long the last frame took to draw
    scrollToCell,
    setZoom,
    zoom: () => zoom,
    cursor: () => pass.cursor(), // the keyboard's cell cursor ([r, c] or null)
  };

  model.on("change:view", update);
  model.on("change:codes", update);
  model.on("change:probabilities", update);
  model.on("change:busy", drawBusy);
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(scheduleDraw).observe(scroll);
  update();
  drawBusy();
}

export default { render };
