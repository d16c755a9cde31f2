// The board's area on the screen: the labels' strips, the scrolled area's size, the cell under the
// pointer, a cell scrolled into view, and the zoom (the cell size) kept centred.
import { geometryOf } from "./geometry.js";

const ZOOMS = [8, 12, 16, 20, 24, 28, 34, 40];
export const LABEL_HEIGHT = 16; // the column labels' strip, above the cells

// The row labels' strip, left of the cells: as wide as the last row's number.
export function labelWidth(current) {
  if (!current) return 24;
  return Math.max(18, 7 * String(current.height - 1).length + 8);
}

// state: the board's shared state (render.js); it reads the view (current) and the geometry (geo),
// and sets the zoom and, with it, the geometry.
export function viewport({ root, state, canvas, scroll, inner, redraw }) {
  function layout() {
    if (!state.current) return;
    const lw = labelWidth(state.current);
    const width = Math.ceil(lw + state.geo.width);
    const height = Math.ceil(LABEL_HEIGHT + state.geo.height);
    inner.style.width = `${width}px`;
    inner.style.height = `${height}px`;
    scroll.style.width = `${width}px`;
    scroll.style.height = `${height}px`;
    redraw();
  }

  function cellAt(event) {
    const box = canvas.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    const lw = labelWidth(state.current);
    if (!state.current || x < lw || y < LABEL_HEIGHT) return null;
    return state.geo.at(x - lw + scroll.scrollLeft, y - LABEL_HEIGHT + scroll.scrollTop);
  }

  // The top left corner of the cell's box (zoom x zoom around its centre) on the canvas.
  function corner(r, c) {
    const [cx, cy] = state.geo.centre(r, c);
    return [labelWidth(state.current) + cx - state.zoom / 2 - scroll.scrollLeft, LABEL_HEIGHT + cy - state.zoom / 2 - scroll.scrollTop];
  }

  function isVisible(r, c) {
    const lw = labelWidth(state.current);
    const [x, y] = corner(r, c);
    return x >= lw && y >= LABEL_HEIGHT && x + state.zoom <= scroll.clientWidth && y + state.zoom <= scroll.clientHeight;
  }

  function scrollToCell(r, c, always) {
    if (!state.current) return;
    const [cx, cy] = state.geo.centre(r, c);
    if (!isVisible(r, c) || always) {
      const lw = labelWidth(state.current);
      scroll.scrollLeft = Math.max(0, cx - (scroll.clientWidth - lw) / 2);
      scroll.scrollTop = Math.max(0, cy - (scroll.clientHeight - LABEL_HEIGHT) / 2);
    }
    // The page may need to scroll too (a tall board in a notebook).
    const box = scroll.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      const y = box.top + LABEL_HEIGHT + cy - state.zoom / 2 - scroll.scrollTop;
      if (y < 0 || y > window.innerHeight) window.scrollBy(0, y - window.innerHeight / 2);
    }
    redraw();
  }

  function setZoom(direction) {
    const at = ZOOMS.indexOf(state.zoom);
    const next = ZOOMS[Math.min(Math.max(at + direction, 0), ZOOMS.length - 1)];
    if (next === state.zoom) return;
    // Keep the cell in the middle of the view where it is.
    const middle = [
      (scroll.scrollTop + scroll.clientHeight / 2) / state.zoom,
      (scroll.scrollLeft + scroll.clientWidth / 2) / state.zoom,
    ];
    state.zoom = next;
    if (state.current) state.geo = geometryOf(state.current, state.zoom);
    root.style.setProperty("--mz-zoom", String(state.zoom));
    root.dataset.zoom = String(state.zoom);
    layout();
    scroll.scrollTop = middle[0] * state.zoom - scroll.clientHeight / 2;
    scroll.scrollLeft = middle[1] * state.zoom - scroll.clientWidth / 2;
  }

  return { layout, cellAt, corner, isVisible, scrollToCell, setZoom };
}
