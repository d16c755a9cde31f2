// Colours: the probability colour map and text colours as analyzer.render computes them, light and
// dark themes, and the marks drawn around cells (their colours and contrast).

export function hexRgb(hex) {
  return [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
}

// probability_colour of analyzer.render: viridis at 1 - sqrt(p), between the palette's stops.
export function probabilityColour(stops, p) {
  p = Math.min(Math.max(p, 0), 1);
  const x = (1 - Math.sqrt(p)) * (stops.length - 1);
  const i = Math.min(Math.floor(x), stops.length - 2);
  const t = x - i;
  const a = stops[i], b = stops[i + 1];
  return "#" + a.map((u, k) => Math.round(u + (b[k] - u) * t).toString(16).padStart(2, "0")).join("");
}

// text_colour of analyzer.render: black or white, whichever contrasts more (WCAG luminance).
export function textColour(hex) {
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
export const THEMES = {
  light: { background: "#ffffff", labels: "#555555" },
  dark: { background: "#1e1e1e", labels: "#c8c8c8" },
};
export const MARK_FILL = 0.45; // how much of a mark's tint is mixed into the cell's background
// The marks in the order drawn: name, its colour (null: the ring alone), its tint, dashed, extra width.
export const MARKS = [
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

export function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

export function mix(a, b, t) {
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

// Keeps root.dataset.theme (board.css's dark rules) and the canvas in step with the host's theme;
// returns what stops watching (the observer on the page's body and the colour scheme's listener).
export function watchTheme(root, redraw) {
  const apply = () => {
    const theme = themeOf();
    if (root.dataset.theme === theme) return;
    root.dataset.theme = theme;
    redraw();
  };
  root.dataset.theme = themeOf();
  const body = typeof MutationObserver !== "undefined" && document.body ? new MutationObserver(apply) : null;
  if (body) body.observe(document.body, { attributes: true, attributeFilter: ["data-jp-theme-light", "class"] });
  const query = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  if (query && query.addEventListener) query.addEventListener("change", apply);
  return () => {
    if (body) body.disconnect();
    if (query && query.removeEventListener) query.removeEventListener("change", apply);
  };
}

// percent_text of analyzer.render: whole percent, never 0 or 100 for a cell that is neither.
export function percentText(p) {
  const text = (100 * p).toFixed(0);
  if (text === "0") return "<1";
  if (text === "100") return ">99";
  return text;
}
