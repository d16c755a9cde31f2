// The analyst's tools: open (picker, drop, paste), save, undo/redo, painting, the wheel,
// auto-play, dead cells and 50/50s, the chance to win, a replay's timeline. Built beside the
// board by render(); they only send actions (analyzer.interactive.session: open, paste, save,
// undo, redo, paint, wheel, autoplay, marks, win) and read the view's fields for them.
import { element, button, addOptions } from "./dom.js";
import { fileOpener, saveBlob } from "./files.js";

export function analystTools({ root, send, cellAt, view, codeAt, canvas, scroll, minesInput, showNote }) {
  let acted = false; // a note or a file of a view from before this page was opened is not shown
  let lastDownload = null;
  const act = (message, buffers) => {
    acted = true;
    send(message, buffers);
  };

  const [openButton, picker] = fileOpener({ root, act, minesInput, showNote });

  // Save: the position's files come from the session (view.download), the picture from the canvas.
  const saveMenu = element("select", "mz-save");
  saveMenu.title = "Save the position (.mine, minesweepr text), the layout (.mbf) or a picture (.png, .svg)";
  addOptions(saveMenu, [
    ["", "save…"],
    ["mine", ".mine position"],
    ["minesweepr", "minesweepr text"],
    ["mbf", ".mbf layout"],
    ["png", ".png picture (the view)"],
    ["svg", ".svg picture (the whole board)"],
  ]);
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
    openButton,
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
  // On the window, so that a drag ended off the board still paints; taken off by dispose().
  const endPainting = () => {
    if (painting && painting.cells.length) {
      act({ type: "paint", cells: painting.cells, value: "like", like: painting.first });
    }
    painting = null;
  };
  window.addEventListener("mouseup", endPainting);

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

  const dispose = () => window.removeEventListener("mouseup", endPainting);
  return { tools, status: [marksLine, winLine], update, hasActed: () => acted, dispose };
}
