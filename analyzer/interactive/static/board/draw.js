// Drawing the board on its canvas: what a cell shows (its colour, text and description), the cells
// in view in their shapes, the marks around cells, the keyboard's cursor, the labels. A frame is
// drawn at the browser's next paint after one is asked for (schedule), however many are asked for.
import { FLAG, GUESS, SAFE, MINE, SAFE_CPSAT, MINE_CPSAT, LAYOUT_MINE, FATAL, WRONG_FLAG } from "./protocol.js";
import { probabilityColour, textColour, percentText, THEMES, MARK_FILL, MARKS, contrast, mix } from "./colour.js";
import { LABEL_HEIGHT, labelWidth } from "./viewport.js";

// state: the board's shared state (render.js): the view (current), its arrays (codes, probs), the
// colour map's stops, the geometry (geo) and the zoom, all read here; cursor: the keyboard's cell.
export function painter({ root, state, canvas, scroll, cursor }) {
  const ctx = canvas.getContext("2d");
  let lastMs = 0; // how long the last frame took to draw, in ms

  function look(index) {
    const code = state.codes[index];
    const palette = state.current.palette;
    if (code <= 8) return [palette.revealed, code === 0 ? "" : String(code), palette.numbers[code]];
    const p = state.probs[index];
    switch (code) {
      case GUESS: {
        const background = probabilityColour(state.stops, p);
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
    const topology = state.current.topology || {};
    if (topology.name === "graph" && topology.names) return `cell ${topology.names[c]}`;
    if (topology.name === "cube") return `(${r}, ${c}) on face ${Math.floor(r / state.current.width)}`;
    return `(${r}, ${c})`;
  }

  function describe(r, c) {
    const index = r * state.current.width + c;
    const code = state.codes[index];
    const p = state.probs[index];
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
    ctx.fillStyle = state.current.palette.flag;
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
    addShape(ctx, x + state.zoom / 2, y + state.zoom / 2, inset);
  }

  const HEX_CORNERS = [0, 1, 2, 3, 4, 5].map((k) => [Math.cos((Math.PI / 180) * (30 + 60 * k)), Math.sin((Math.PI / 180) * (30 + 60 * k))]);

  // The cell's shape, centred at (cx, cy), as a subpath of the context's current path.
  function addShape(context, cx, cy, inset) {
    if (state.geo.box) {
      const [w, h] = state.geo.box;
      context.rect(cx - w / 2 + inset, cy - h / 2 + inset, w - 1 - 2 * inset, h - 1 - 2 * inset);
    } else if (state.geo.kind === "hex") {
      const radius = (0.97 * state.zoom) / Math.sqrt(3) - inset;
      context.moveTo(cx + radius * HEX_CORNERS[0][0], cy + radius * HEX_CORNERS[0][1]);
      for (let k = 1; k < 6; k++) context.lineTo(cx + radius * HEX_CORNERS[k][0], cy + radius * HEX_CORNERS[k][1]);
      context.closePath();
    } else if (state.geo.kind === "graph") {
      context.moveTo(cx + 0.48 * state.zoom - inset, cy);
      context.arc(cx, cy, 0.48 * state.zoom - inset, 0, 2 * Math.PI);
    }
  }

  // A cell's background (a mark's tint): on a grid a square, elsewhere the cell's shape.
  function fillCell(x, y) {
    if (state.geo.box) {
      const [w, h] = state.geo.box;
      ctx.fillRect(x + (state.zoom - w) / 2, y + (state.zoom - h) / 2, w - 1, h - 1);
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

  // ---- drawing: a frame asked for (schedule), drawn once the browser paints
  let frame = 0;
  function schedule() {
    delete root.dataset.painted; // a frame is due: what the canvas shows (its size too) is about to change
    if (!frame) frame = requestAnimationFrame(draw);
  }

  function draw() {
    const start = performance.now();
    frame = 0;
    if (!state.current) return;
    paint();
    root.dataset.painted = String(state.current.version); // the canvas has its size and this view's cells
    lastMs = performance.now() - start;
  }

  function paint() {
    const { current, codes, geo, zoom } = state;
    const lw = labelWidth(current);
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
    const cursorCell = cursor();
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
        if (index >= state.codes.length) continue;
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
    outline(x, y, state.zoom, textColour(background), width, dashed);
    if (dashed && colour === null) return;
    const inner = Math.max(2, Math.ceil(width / 2));
    ctx.strokeStyle = colour;
    ctx.lineWidth = inner;
    ctx.setLineDash([]);
    cellPath(x, y, width + inner / 2);
    ctx.stroke();
  }

  return { look, describe, cellName, schedule, drawMs: () => lastMs };
}
