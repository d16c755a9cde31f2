// Where the cells are: one geometry per topology, in pixels of the board's area (the labels'
// strips aside), laid out as analyzer.render.cell_centres draws the static picture. A cell size z is
// a square's side, a hexagon's width, a graph cell's diameter. Each geometry gives the area's size,
// a cell's centre, the cell under a point (hit testing), and the cells in a rectangle (drawing only
// what is visible), so the drawing and the mouse agree on every topology.
const CUBE_NET = [[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [3, 2]]; // analyzer.board.topology.CUBE_NET

export function squareGeometry(width, height, z) {
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

export function geometryOf(view, z) {
  const topology = (view.topology && view.topology.name) || "square";
  if (topology === "hex") return hexGeometry(view.width, view.height, z);
  if (topology === "cube" && view.height === 6 * view.width) return cubeGeometry(view.width, z);
  if (topology === "graph" && view.topology.centres && view.topology.centres.length === view.width) {
    return graphGeometry(view.topology, z);
  }
  return squareGeometry(view.width, view.height, z); // square, torus, knight, cross: a grid
}
