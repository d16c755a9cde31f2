// The analyst's pass over the board: a keyboard cell cursor with a live region, the ranked
// candidate guesses, numbers that follow flags (edit), replay keys between guesses, the end game's
// winning line. Built beside the board by render(); it sends the session's actions (cell, key, why,
// step, guess, candidates, adjust_numbers) and reads the view's fields for them.
import { element, button } from "./dom.js";
import { FLAG, GUESS, SAFE, MINE } from "./protocol.js";

const KEY_HELP =
  "Keys: arrows (h j k l in play and replay) move the cell cursor; Enter or r reveals (edit: cycles), " +
  "f flags, c chords, ? or w asks why?; edit: 0-8, h, Backspace; replay: ← → a click, " +
  "Shift+← → or [ ] a guess, Home End the first and last step; over the board the keys act on the cell under the pointer";

export function analystPass({ root, send, view, codeAt, canvas, cellAt, scrollToCell, describe, cellName, redraw }) {
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
