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
// analyzer.render draws them (geometry.js).
//
// It is written as the modules of static/board/, one concern each, and served as one module
// (anywidget's _esm is one string, it cannot import a file beside it): analyzer.interactive.frontend
// joins them in its BOARD_PARTS order. This one: the view protocol's state codes and arrays.

// A cell's state code in model.get("codes"): 0-8 a revealed number, 9 a hidden cell (what a code
// not named here is drawn as), then these; the view's palette names each (palette.kinds).
export const FLAG = 10;
export const GUESS = 11;
export const SAFE = 12;
export const MINE = 13;
export const SAFE_CPSAT = 14;
export const MINE_CPSAT = 15;
export const LAYOUT_MINE = 16;
export const FATAL = 17;
export const WRONG_FLAG = 18;
// The actions that only ask (change nothing): answered, not acknowledged, never "working".
export const QUERIES = new Set(["exact", "thumbnail"]);

export function asBytes(value, Type) {
  // anywidget gives bytes traitlets as a DataView, the page's model as typed arrays.
  if (!value) return new Type(0);
  if (value instanceof Type) return value;
  if (value instanceof DataView) return new Type(value.buffer, value.byteOffset, value.byteLength / Type.BYTES_PER_ELEMENT);
  if (value instanceof ArrayBuffer) return new Type(value);
  if (value.buffer instanceof ArrayBuffer) return new Type(value.buffer, value.byteOffset, value.byteLength / Type.BYTES_PER_ELEMENT);
  return new Type(0);
}
