// The interactive board: one front end for the Jupyter widget (anywidget) and the local page.
//
// It draws the view that analyzer.interactive.session.Session.view() returns and sends the
// user's actions back as small dicts ({type: "cell", cell: [r, c], button: "left"}, ...).
// The host gives it a model with get(name), on("change:name", callback) and send(message):
// anywidget's model in Jupyter, the page's HTTP model (web.js) in a browser.

const MODE_TITLES = {
  edit: "Edit: click a cell to cycle hidden, number, flag; type 0-8, h or f over a cell",
  play: "Play: left click reveals (on a number, chords), right click flags",
  replay: "Replay: step through a recorded game, each click with its exact odds",
};

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

function render({ model, el }) {
  const root = element("div", "mz-root");
  root.tabIndex = 0;
  el.replaceChildren(root);

  let hovered = null;
  let whyMode = false;
  let shownSize = "";
  let cellNodes = [];
  let sized = false;

  const send = (message) => model.send(message);

  // ---- toolbar: modes, the why switch, the working sign
  const modes = element("div", "mz-modes");
  const whyToggle = button("why?", "Then click a certain cell: the clues that force it", () => {
    whyMode = !whyMode;
    whyToggle.classList.toggle("mz-on", whyMode);
    whyToggle.setAttribute("aria-pressed", String(whyMode));
  }, "mz-button mz-why-toggle");
  const busy = element("span", "mz-busy", "working…");
  const toolbar = element("div", "mz-toolbar");
  toolbar.append(modes, whyToggle, busy);

  // ---- controls of each mode
  const [minesWrap, minesInput] = numberField("mines", 0, "mz-mines");
  minesInput.addEventListener("change", () => send({ type: "mines", mines: minesInput.value }));
  const [widthWrap, widthInput] = numberField("width", 9, "mz-width", 1);
  const [heightWrap, heightInput] = numberField("height", 9, "mz-height", 1);
  const [newMinesWrap, newMinesInput] = numberField("mines", 10, "mz-new-mines");
  const editControls = element("div", "mz-controls mz-edit-controls");
  editControls.append(
    minesWrap,
    element("span", "mz-sep", "|"),
    widthWrap,
    heightWrap,
    newMinesWrap,
    button("new board", "An empty board of this size", () =>
      send({ type: "resize", width: widthInput.value, height: heightInput.value, mines: newMinesInput.value }),
    ),
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
  const playControls = element("div", "mz-controls mz-play-controls");
  playControls.append(
    preset,
    firstClick,
    seedWrap,
    button("new game", "A new game of this size (the same seed gives the same layout)", () => {
      const [width, height, mines] = preset.value.split(",");
      send({ type: "new_game", width, height, mines, seed: seedInput.value, first_click: firstClick.value });
    }),
    button("play best move", "Reveal the best move", () => send({ type: "play_best" }), "mz-button mz-play-best"),
  );

  const slider = element("input", "mz-slider");
  slider.type = "range";
  slider.min = "0";
  slider.addEventListener("change", () => send({ type: "step", step: slider.value }));
  const replayControls = element("div", "mz-controls mz-replay-controls");
  let current = null;
  const step = (delta) => current && send({ type: "step", step: current.replay.step + delta });
  const nextGuess = () => {
    if (!current) return;
    const later = current.replay.guess_steps.filter((k) => k > current.replay.step);
    if (later.length) send({ type: "step", step: later[0] });
  };
  replayControls.append(
    button("◀", "Previous click", () => step(-1), "mz-button mz-prev"),
    slider,
    button("▶", "Next click", () => step(1), "mz-button mz-next"),
    button("next guess", "The next click that could hit a mine", nextGuess, "mz-button mz-next-guess"),
  );

  // ---- messages and the board
  const replayText = element("div", "mz-replay-text");
  const error = element("div", "mz-error");
  const note = element("div", "mz-note");
  const why = element("div", "mz-why");
  const best = element("div", "mz-best");
  const caption = element("div", "mz-caption");
  const legend = element(
    "div",
    "mz-legend",
    "✓ certainly safe · ✱ certain mine · other hidden cells: % chance of a mine (hover for the exact fraction)",
  );
  const grid = element("div", "mz-grid");
  root.append(toolbar, editControls, playControls, replayControls, replayText, error, note, grid, caption, legend, best, why);

  grid.addEventListener("contextmenu", (event) => event.preventDefault());
  grid.addEventListener("mousedown", (event) => {
    const node = event.target.closest(".mz-cell");
    if (!node) return;
    event.preventDefault();
    root.focus({ preventScroll: true });
    const cell = node.dataset.cell.split(",").map(Number);
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
  grid.addEventListener("mouseover", (event) => {
    const node = event.target.closest(".mz-cell");
    if (node) hovered = node.dataset.cell.split(",").map(Number);
  });
  grid.addEventListener("mouseenter", () => {
    // Keys typed over the board go to it (a digit sets a number), unless a text field is in use.
    const active = document.activeElement;
    const typing = active && (active.tagName === "INPUT" || active.tagName === "TEXTAREA" || active.isContentEditable);
    if (!typing) root.focus({ preventScroll: true });
  });
  grid.addEventListener("mouseleave", () => {
    hovered = null;
  });
  root.addEventListener("keydown", (event) => {
    if (!current || event.target !== root) return;
    if (current.mode === "replay" && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      step(event.key === "ArrowLeft" ? -1 : 1);
      event.preventDefault();
      return;
    }
    if (current.mode !== "edit" || hovered === null) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (/^[0-8hf ]$/.test(key) || key === "Backspace" || key === "Delete") {
      send({ type: "key", cell: hovered, key });
      event.preventDefault();
      event.stopPropagation();
    }
  });

  function buildGrid(view) {
    grid.replaceChildren();
    grid.style.gridTemplateColumns = `auto repeat(${view.width}, var(--mz-cell))`;
    grid.append(element("div", "mz-head"));
    for (let c = 0; c < view.width; c++) grid.append(element("div", "mz-head", String(c)));
    cellNodes = [];
    for (let r = 0; r < view.height; r++) {
      grid.append(element("div", "mz-head", String(r)));
      for (let c = 0; c < view.width; c++) {
        const node = element("div", "mz-cell");
        node.dataset.cell = `${r},${c}`;
        grid.append(node);
        cellNodes.push(node);
      }
    }
    shownSize = `${view.width}x${view.height}`;
  }

  function draw() {
    const view = model.get("view");
    if (!view || !view.cells) return;
    current = view;
    root.dataset.mode = view.mode;
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
    if (!sized) {
      [widthInput.value, heightInput.value, newMinesInput.value] = [view.width, view.height, view.mines].map(String);
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

    if (`${view.width}x${view.height}` !== shownSize) buildGrid(view);
    const clues = new Set(((view.error && view.error.clues) || []).map((c) => c.join(",")));
    const whyClues = new Set(((view.why && view.why.clues) || []).map((c) => c.cell.join(",")));
    const whyCell = view.why ? view.why.cell.join(",") : null;
    const bestCell = view.best ? view.best.join(",") : null;
    const clicked = view.replay && view.replay.click ? view.replay.click.cell.join(",") : null;
    view.cells.forEach(([text, kind, background, colour, title, p], index) => {
      const node = cellNodes[index];
      const key = node.dataset.cell;
      node.textContent = text;
      node.dataset.kind = kind;
      node.style.background = background;
      node.style.color = colour;
      if (p === null) delete node.dataset.p;
      else node.dataset.p = p;
      let label = `(${key.replace(",", ", ")}): ${title}`;
      node.classList.toggle("mz-conflict", clues.has(key));
      node.classList.toggle("mz-why-clue", whyClues.has(key));
      node.classList.toggle("mz-why-cell", key === whyCell);
      node.classList.toggle("mz-best-cell", key === bestCell);
      node.classList.toggle("mz-clicked", key === clicked);
      if (clues.has(key)) label += "; in conflict";
      if (whyClues.has(key)) label += "; forces the cell asked about";
      if (key === bestCell) label = `${label}; best move`;
      if (key === clicked) label = `${label}; the click of this step`;
      node.title = label;
    });

    caption.textContent = view.caption;
    error.hidden = !view.error;
    error.textContent = view.error ? view.error.message : "";
    note.hidden = !view.note;
    note.textContent = view.note || "";
    why.hidden = !view.why;
    why.textContent = view.why ? view.why.text : "";
    best.textContent = view.best_text
      ? `best move: ${view.best_text}`
      : view.best_pending
        ? "best move: scoring…"
        : "";
  }

  function drawBusy() {
    root.classList.toggle("mz-working", Boolean(model.get("busy")));
  }

  model.on("change:view", draw);
  model.on("change:busy", drawBusy);
  draw();
  drawBusy();
}

export default { render };
