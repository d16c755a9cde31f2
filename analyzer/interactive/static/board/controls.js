// The controls around the board: the toolbar (modes, the why switch, zoom, the working sign), each
// mode's controls (edit: the mine total, a new board; play: a new game, the best move; replay: the
// steps) and the status lines above the board, each kept in step with the view by update().
import { element, button, numberField, textInput, addOptions } from "./dom.js";

const MODE_TITLES = {
  edit: "Edit: click a cell to cycle hidden, number, flag; type 0-8, h or f over a cell",
  play: "Play: left click reveals (on a number, chords), right click flags",
  replay: "Replay: step through a recorded game, each click with its exact odds",
};
const TOPOLOGIES = ["square", "torus", "hex", "cube", "knight", "cross", "graph"]; // analyzer.board.topology

// state: the board's shared state (render.js): its view (current), and scrollNext, set here
// ("best" after play best) for the view that brings the cell that matters.
export function boardControls({ state, send, canvas, goneLine, setZoom, scrollToCell }) {
  let whyMode = false;
  let sized = false;

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
  const sizeInput = textInput("mz-size", 14, "WxHxM or expert", "A size as `analyzer web --new` takes it: beginner, intermediate, expert or WxHxM (e.g. 300x300x14400)");
  const sizeWrap = element("label", "mz-field");
  sizeWrap.append("new board ", sizeInput);
  // The topology of a new board or game: the one shown unless another is chosen (or named after
  // the size, "9x9x10 hex"); a graph comes from its file, so it is offered only while one is shown.
  const topologyMenu = (className) => {
    const menu = element("select", `mz-topology ${className}`);
    menu.title = "How the cells touch: a new board or game takes this topology (a cube of n x n faces is n wide and 6n high)";
    return addOptions(menu, TOPOLOGIES.map((name) => [name, name]));
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
  addOptions(firstClick, ["safe", "opening", "none"].map((rule) => [rule, `first click ${rule}`]));
  const [seedWrap, seedInput] = numberField("seed", "", "mz-seed");
  seedInput.placeholder = "next";
  const customInput = textInput("mz-game-size", 12, "or WxHxM", "A custom size (WxHxM, e.g. 100x100x1600); empty: the size chosen on the left");
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
      state.scrollNext = "best";
      send({ type: "play_best" });
    }, "mz-button mz-play-best"),
  );

  const slider = element("input", "mz-slider");
  slider.type = "range";
  slider.min = "0";
  slider.addEventListener("change", () => send({ type: "step", step: slider.value }));
  const replayControls = element("div", "mz-controls mz-replay-controls");
  const step = (delta) => state.current && state.current.replay && send({ type: "step", step: state.current.replay.step + delta });
  const nextGuess = () => {
    const current = state.current;
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
  best.addEventListener("click", () => state.current && state.current.best && scrollToCell(state.current.best[0], state.current.best[1], true));
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

  caption.addEventListener("click", () => state.current && state.current.counts && state.current.counts.layouts && send({ type: "exact", of: "layouts" }));
  replayText.addEventListener("click", () => state.current && state.current.replay && !state.current.replay.click && send({ type: "exact", of: "luck" }));

  function showNote(text) {
    note.hidden = !text;
    note.textContent = text;
    note.title = text; // a long one is cut short on its line: the whole of it
  }

  // A click in why mode asks why of its cell, once: true when it did (the mode is then off).
  function takeWhy() {
    if (!whyMode) return false;
    whyMode = false;
    whyToggle.classList.remove("mz-on");
    whyToggle.setAttribute("aria-pressed", "false");
    return true;
  }

  // The long exact value of a count or the luck, as the session answered it.
  function showExact(answer) {
    exactLabel.textContent = answer.of === "layouts" ? "layouts, exactly: " : "luck, exactly: ";
    exactValue.textContent = answer.text;
    exactBox.hidden = false;
  }

  let exactVersion = null;
  const newVersion = (view) => {
    const changed = view.version !== exactVersion;
    exactVersion = view.version;
    return changed;
  };

  function update(view) {
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
    for (const menu of [editTopology, playTopology]) {
      menu.querySelector("option[value=graph]").hidden = topology !== "graph";
      if (document.activeElement !== menu) menu.value = topology;
    }
    if (!sized) {
      sizeInput.value = `${view.width}x${view.height}x${view.mines}`;
      sized = true;
    }
    if (!preset.options.length) {
      addOptions(preset, Object.entries(view.presets).map(([name, size]) => [size.join(","), `${name} ${size[0]}x${size[1]}/${size[2]}`]));
    }
    if (view.game) {
      const size = [view.game.width, view.game.height, view.game.mines].join(",");
      if (![...preset.options].some((o) => o.value === size)) {
        addOptions(preset, [[size, `this size ${size.replaceAll(",", "x").replace(/x(\d+)$/, "/$1")}`]]);
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
  }

  return {
    toolbar,
    edit: editControls,
    play: playControls,
    replay: replayControls,
    replayGuess: nextGuessButton,
    status,
    hoverLine,
    minesInput,
    showNote,
    showExact,
    takeWhy,
    step,
    update,
  };
}
