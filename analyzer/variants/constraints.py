"""From a variant position and its rules to constraints: clue regions, weights, board rules.

The clue regions and the checkerboard are rule semantics (they are defined on rows and
columns whatever the board's neighbourhood), so they live here, not in the board's
topology. :func:`clue_value` computes what a clue shows on a full layout (the
independent reading used to reveal cells and to check answers).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from analyzer.board.board import FLAG, HIDDEN, Cell
from analyzer.errors import RuleError
from analyzer.models.variants import (
    KNOWN_MINE,
    KNOWN_SAFE,
    BoardRuleSpec,
    ClueSpec,
    Connectivity,
    VariantSpec,
    check_building,
    symmetries,
)
from analyzer.variants.position import Position
from analyzer.variants.rules import RuleSet, is_coloured

__all__ = [
    "region",
    "weight",
    "allowed_values",
    "clue_value",
    "build_spec",
    "grid_turns",
    "Members",
    "ring",
    "ring_runs",
    "sight",
    "pattern_cubes",
]

_KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
_ORTHOGONAL = ((-1, 0), (0, -1), (0, 1), (1, 0))
_CROSS = ((-2, 0), (-1, 0), (0, -2), (0, -1), (0, 1), (0, 2), (1, 0), (2, 0))
_KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
_OFFSETS = {"V": _KING, "X": _CROSS, "X'": _ORTHOGONAL, "K": _KNIGHT}
#: The 8 cells around a cell in ring order (clockwise from the top-left), for W and P.
_RING = ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1))


def region(rules: RuleSet, cell: Cell, width: int, height: int) -> tuple[Cell, ...]:
    """The cells a clue at ``cell`` counts under ``rules`` (row-major order).

    >>> from analyzer.variants.rules import parse_rules
    >>> region(parse_rules("X'"), (0, 0), 3, 3)
    ((0, 1), (1, 0))
    >>> len(region(parse_rules("K"), (2, 2), 5, 5)), len(region(parse_rules("X"), (2, 2), 5, 5))
    (8, 8)
    """
    row, col = cell
    found = [(row + dr, col + dc) for dr, dc in _OFFSETS[rules.region]]
    return tuple(sorted((r, c) for r, c in found if 0 <= r < height and 0 <= c < width))


def weight(rules: RuleSet, cell: Cell) -> int:
    """How much a mine on ``cell`` adds to a clue: 2 on a coloured cell under M, -1 on an
    uncoloured one under N (the clue shows the absolute value), both under MN (the clue shows
    ``|2 x coloured - uncoloured|``), 1 otherwise."""
    if rules.colour is None:
        return 1
    coloured = is_coloured(*cell)
    if coloured:
        return 2 if "M" in rules.colour else 1
    return -1 if "N" in rules.colour else 1


def allowed_values(rules: RuleSet, shown: int) -> tuple[int, ...]:
    """The weighted sums of a clue's region that make it show ``shown``.

    >>> from analyzer.variants.rules import parse_rules
    >>> allowed_values(parse_rules("L"), 2), allowed_values(parse_rules("N"), 2)
    ((1, 3), (-2, 2))
    >>> allowed_values(parse_rules("LN"), 1)
    (-2, 0, 2)
    >>> mn = parse_rules("MN")
    >>> allowed_values(mn, 3), weight(mn, (0, 1)), weight(mn, (0, 0))
    ((-3, 3), 2, -1)
    """
    raw = (shown - 1, shown + 1) if rules.liar else (shown,)
    counts = tuple(c for c in raw if c >= 0)
    if rules.colour is not None and "N" in rules.colour:
        return tuple(sorted({s * c for c in counts for s in (1, -1)}))
    return counts


def clue_value(rules: RuleSet, mines: set[Cell], cell: Cell, width: int, height: int, lie: int = 1) -> int:
    """What a clue at ``cell`` shows when the mines are ``mines`` (``lie``: +1 or -1 under L).

    >>> from analyzer.variants.rules import parse_rules
    >>> clue_value(parse_rules("M"), {(0, 0), (0, 1)}, (1, 1), 3, 3)
    3

    Under W it is the number of mines around the cell (:func:`ring_runs` gives the runs);
    under P the number of runs; under E the safe cells in sight.

    >>> clue_value(parse_rules("P"), {(0, 0), (0, 2)}, (1, 1), 3, 3)
    2
    """
    if rules.pattern is not None:
        runs = ring_runs(mines, cell, width, height)
        if rules.pattern == "W":
            return sum(runs)
        true = len(runs) if rules.pattern == "P" else sight(mines, cell, width, height)
        if rules.liar:
            true += lie
            if true < 0:
                true = 1
        return true
    total = sum(weight(rules, c) for c in region(rules, cell, width, height) if c in mines)
    if rules.colour is not None and "N" in rules.colour:
        total = abs(total)
    if rules.liar:
        total += lie
        if total < 0:
            total = 1  # a count of 0 can only be shown as 1
    return total


def ring(cell: Cell) -> tuple[Cell, ...]:
    """The 8 cells around ``cell`` in ring order (clockwise from the top-left), on or off the board."""
    row, col = cell
    return tuple((row + dr, col + dc) for dr, dc in _RING)


def _runs(bits: tuple[int, ...]) -> tuple[int, ...]:
    """The lengths of the runs of 1s of a closed ring, in increasing order."""
    if all(bits):
        return (len(bits),)
    start = bits.index(0)  # read from a 0 so that no run wraps around
    lengths = []
    run = 0
    for k in range(1, len(bits) + 1):
        if bits[(start + k) % len(bits)]:
            run += 1
        elif run:
            lengths.append(run)
            run = 0
    return tuple(sorted(lengths))


#: Every ring of 8 cells (1: a mine) with its runs.
_RING_PATTERNS = tuple(
    (bits, _runs(bits)) for bits in (tuple((code >> k) & 1 for k in range(8)) for code in range(256))
)


def ring_runs(mines: set[Cell], cell: Cell, width: int, height: int) -> tuple[int, ...]:
    """The Wall clue at ``cell``: lengths of the runs of mines around it (cells off the board are safe).

    >>> ring_runs({(0, 0), (0, 1), (2, 2), (1, 0)}, (1, 1), 3, 3)
    (1, 3)
    >>> ring_runs(set(), (0, 0), 2, 2), ring_runs({(0, 1), (1, 0), (1, 1)}, (0, 0), 2, 2)
    ((), (3,))
    """
    bits = tuple(int(0 <= r < height and 0 <= c < width and (r, c) in mines) for r, c in ring(cell))
    return _runs(bits)


def _rays(cell: Cell, width: int, height: int) -> tuple[tuple[Cell, ...], ...]:
    """The cells seen from ``cell`` up, down, left and right, nearest first, up to the border."""
    row, col = cell
    return (
        tuple((r, col) for r in range(row - 1, -1, -1)),
        tuple((r, col) for r in range(row + 1, height)),
        tuple((row, c) for c in range(col - 1, -1, -1)),
        tuple((row, c) for c in range(col + 1, width)),
    )


def sight(mines: set[Cell], cell: Cell, width: int, height: int) -> int:
    """The Eyesight clue at ``cell``: itself and the safe cells it sees before a mine or the border.

    >>> sight({(0, 1)}, (0, 0), 3, 2), sight(set(), (1, 1), 3, 3)
    (2, 5)
    """
    seen = 1
    for ray in _rays(cell, width, height):
        for other in ray:
            if other in mines:
                break
            seen += 1
    return seen


Cube = tuple[tuple[Cell, int], ...]


def pattern_cubes(
    rules: RuleSet, shown: int, runs: tuple[int, ...], cell: Cell, width: int, height: int
) -> tuple[Cube, ...]:
    """The ways a W, P or E clue can hold: each a set of cells with their values (1: a mine).

    The clue holds exactly when one of them matches; they exclude each other (each fixes
    every cell the clue reads, or for E each line of sight up to its blocking mine).

    >>> from analyzer.variants.rules import parse_rules
    >>> len(pattern_cubes(parse_rules("W"), 4, (1, 3), (1, 1), 3, 3))
    24
    >>> len(pattern_cubes(parse_rules("P"), 1, (), (0, 0), 2, 2))
    6
    >>> pattern_cubes(parse_rules("E"), 2, (), (0, 0), 2, 1)
    ((((0, 1), 0),),)
    """
    kind = rules.pattern
    if kind == "E":
        return _sight_cubes(rules, shown, cell, width, height)
    around = ring(cell)
    inside = [0 <= r < height and 0 <= c < width for r, c in around]
    wanted = set(allowed_values(rules, shown)) if kind == "P" else None
    cubes = []
    for bits, found in _RING_PATTERNS:
        if any(b and not ok for b, ok in zip(bits, inside, strict=True)):
            continue
        if (len(found) in wanted) if wanted is not None else found == runs:
            cubes.append(tuple((c, b) for c, b, ok in zip(around, bits, inside, strict=True) if ok))
    return tuple(cubes)


def _sight_cubes(rules: RuleSet, shown: int, cell: Cell, width: int, height: int) -> tuple[Cube, ...]:
    rays = _rays(cell, width, height)
    # For each direction, (cells seen, the cube): k safe cells, then a mine unless the border.
    options = [
        [
            (k, tuple((c, 0) for c in ray[:k]) + (((ray[k], 1),) if k < len(ray) else ()))
            for k in range(len(ray) + 1)
        ]
        for ray in rays
    ]
    wanted = set(allowed_values(rules, shown))
    cubes = []
    for choice in itertools.product(*options):
        if 1 + sum(k for k, _ in choice) in wanted:
            cubes.append(tuple(sorted(pair for _, cube in choice for pair in cube)))
    return tuple(cubes)


@dataclass(frozen=True, slots=True)
class Members:
    """What each member of a :class:`VariantSpec` is: clue cells, then rule letters, then the total."""

    clues: tuple[Cell, ...]
    rules: tuple[str, ...]


def _rule_spec(letter: str, width: int, height: int, deadline: float | None = None) -> BoardRuleSpec:
    def idx(r: int, c: int) -> int:
        return r * width + c

    def inside(r: int, c: int) -> bool:
        return 0 <= r < height and 0 <= c < width

    def checked(n: int) -> Iterator[int]:
        """``range(n)`` over rows, the deadline looked at once a row."""
        for r in range(n):
            check_building(deadline)
            yield r

    def rows() -> Iterator[tuple[int, int]]:
        return ((r, c) for r in checked(height) for c in range(width))

    def pairs(offsets: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        out = set()
        for r, c in rows():
            for dr, dc in offsets:
                if inside(r + dr, c + dc):
                    a, b = idx(r, c), idx(r + dr, c + dc)
                    out.add((min(a, b), max(a, b)))
        return tuple(sorted(out))

    if letter == "Q":
        windows = tuple(
            ((idx(r, c), idx(r, c + 1), idx(r + 1, c), idx(r + 1, c + 1)), 1, 4)
            for r in checked(height - 1)
            for c in range(width - 1)
        )
        return BoardRuleSpec("Q", sums=windows)
    if letter == "T":
        lines = []
        for r, c in rows():
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if inside(r + 2 * dr, c + 2 * dc):
                    lines.append(((idx(r, c), idx(r + dr, c + dc), idx(r + 2 * dr, c + 2 * dc)), 0, 2))
        return BoardRuleSpec("T", sums=tuple(lines))
    if letter == "A":
        return BoardRuleSpec("A", sums=tuple(((a, b), 0, 1) for a, b in pairs(_KNIGHT)))
    if letter == "D":
        implied = []
        for r, c in rows():
            around = tuple(idx(r + dr, c + dc) for dr, dc in _ORTHOGONAL if inside(r + dr, c + dc))
            implied.append((idx(r, c), around, 1, 1))
        return BoardRuleSpec("D", implied=tuple(implied))
    if letter == "H":
        implied = []
        for r, c in rows():
            beside = tuple(idx(r, c + dc) for dc in (-1, 1) if inside(r, c + dc))
            implied.append((idx(r, c), beside, 1, 2))
        return BoardRuleSpec("H", implied=tuple(implied))
    if letter == "B":
        in_rows = tuple(tuple(idx(r, c) for c in range(width)) for r in checked(height))
        cols = tuple(tuple(idx(r, c) for r in range(height)) for c in range(width))
        return BoardRuleSpec("B", equal=in_rows + cols)
    if letter == "C":
        return BoardRuleSpec("C", connected=(Connectivity(pairs(_KING), of_mines=True),))
    if letter == "S":
        return _snake(pairs(_ORTHOGONAL), list(rows()), idx, inside)
    if letter == "O":
        border = tuple(idx(r, c) for r, c in rows() if r in (0, height - 1) or c in (0, width - 1))
        squares = [
            (idx(r, c), idx(r, c + 1), idx(r + 1, c), idx(r + 1, c + 1))
            for r in checked(height - 1)
            for c in range(width - 1)
        ]
        return _outside(pairs(_ORTHOGONAL), border, squares)
    raise RuleError(f"rule {letter!r} is not a board rule")  # pragma: no cover - parse_rules checks


def _snake(
    orthogonal: tuple[tuple[int, int], ...],
    cells: list[tuple[int, int]],
    idx: Callable[[int, int], int],
    inside: Callable[[int, int], bool],
) -> BoardRuleSpec:
    """S: at most two mines beside a mine, the mines connected and one contact fewer than mines."""
    at_most_two = []
    for r, c in cells:
        around = tuple(idx(r + dr, c + dc) for dr, dc in _ORTHOGONAL if inside(r + dr, c + dc))
        at_most_two.append((idx(r, c), around, 0, 2))
    return BoardRuleSpec(
        "S",
        implied=tuple(at_most_two),
        connected=(Connectivity(orthogonal, of_mines=True),),
        path=orthogonal,
    )


def _outside(
    orthogonal: tuple[tuple[int, int], ...],
    border: tuple[int, ...],
    windows: list[tuple[int, int, int, int]],
) -> BoardRuleSpec:
    """O: the safe cells connected, every mine joined to the border, and no 2x2 checkerboard in
    ``windows`` (each a 2x2 area: top left, top right, bottom left, bottom right)."""
    # No 2x2 checkerboard: a path of safe cells joining its two safe cells closes, through
    # their shared corner, a loop around one of its mines, which no orthogonal path of
    # mines can leave, and no border cell lies inside a loop of board cells.
    checkerboards = tuple(
        tuple(zip(window, values, strict=True))
        for window in windows
        for values in ((1, 0, 0, 1), (0, 1, 1, 0))
    )
    return BoardRuleSpec(
        "O",
        connected=(
            Connectivity(orthogonal, of_mines=False),
            Connectivity(orthogonal, of_mines=True, border=border),
        ),
        forbidden=checkerboards,
    )


def _pattern_spec(position: Position, rules: RuleSet, cell: Cell) -> ClueSpec:
    """A W, P or E clue over the hidden cells (known cells folded in).

    W: its cubes (the ring patterns with these runs). P: the ring, one entry a cell
    (its index if hidden, :data:`KNOWN_SAFE` off the board or revealed, :data:`KNOWN_MINE`
    flagged). E: the four lines of sight, each up to its first flag (hidden cells by index,
    revealed ones :data:`KNOWN_SAFE`).
    """
    width, height = position.width, position.height
    index = cell[0] * width + cell[1]

    def code(other: Cell) -> int:
        r, c = other
        if not (0 <= r < height and 0 <= c < width):
            return KNOWN_SAFE
        value = position[other]
        if value == HIDDEN:
            return r * width + c
        return KNOWN_MINE if value == FLAG else KNOWN_SAFE

    allowed = allowed_values(rules, position[cell])
    if rules.pattern == "P":
        return ClueSpec(index, (), allowed, ring=tuple(code(other) for other in ring(cell)))
    if rules.pattern == "E":
        rays = []
        for ray in _rays(cell, width, height):
            codes = []
            for other in ray:
                if code(other) == KNOWN_MINE:
                    break
                codes.append(code(other))
            rays.append(tuple(codes))
        return ClueSpec(index, (), allowed, rays=tuple(rays))
    runs = position.runs_at(cell) or ()
    cubes = []
    for cube in pattern_cubes(rules, position[cell], runs, cell, width, height):
        kept = []
        for other, bit in cube:
            known = code(other)
            if known >= 0:
                kept.append((known, bit))
            elif (known == KNOWN_MINE) != bool(bit):
                break  # the cube contradicts a revealed cell or a flag
        else:
            cubes.append(tuple(kept))
    return ClueSpec(index, (), (), cubes=tuple(cubes))


def check_topology(position: Position, rules: RuleSet) -> None:
    """Raise :class:`RuleError` unless the board is the plain square grid the rules are defined on."""
    if position.topology != "square":
        first = next(iter(rules), "V")
        raise RuleError(
            f"rule {first!r} needs the square grid; this board's topology is {position.topology!r}"
        )


def build_spec(
    position: Position, rules: RuleSet, *, deadline: float | None = None
) -> tuple[VariantSpec, Members]:
    """The constraints of a position under ``rules``, and what each member is.

    Raises :class:`~analyzer.errors.SolverTimeoutError` if ``deadline`` (``time.monotonic()``)
    passes while they are built.
    """
    check_topology(position, rules)
    width, height = position.width, position.height
    fixed = []
    unknown = []
    for i, value in enumerate(position.cells):
        if value == HIDDEN:
            unknown.append(i)
        else:
            fixed.append((i, 1 if value == FLAG else 0))
    if position.runs and rules.pattern != "W":
        index, lengths = position.runs[0]
        shown = ",".join(map(str, lengths))
        raise RuleError(
            f"clue {shown!r} at {divmod(index, width)} lists runs of mines: only rule W reads such clues"
        )
    clues = []
    clue_cells = []
    for i, value in enumerate(position.cells):
        if i % width == 0:
            check_building(deadline)
        if value < 0:
            continue
        cell = divmod(i, width)
        if rules.pattern is not None:
            clues.append(_pattern_spec(position, rules, cell))
        else:
            terms = tuple(
                (r * width + c, weight(rules, (r, c))) for r, c in region(rules, cell, width, height)
            )
            clues.append(ClueSpec(i, terms, allowed_values(rules, value)))
        clue_cells.append(cell)
    board_rules = tuple(_rule_spec(letter, width, height, deadline) for letter in rules.board)
    spec = VariantSpec(
        size=width * height,
        fixed=tuple(fixed),
        clues=tuple(clues),
        rules=board_rules,
        total=position.mines,
        unknown=tuple(unknown),
    )
    check_building(deadline)
    turns = grid_turns(width, height, deadline)
    spec = replace(spec, symmetries=symmetries(spec, turns, deadline=deadline))
    check_building(deadline)
    return spec, Members(tuple(clue_cells), rules.board)


def grid_turns(width: int, height: int, deadline: float | None = None) -> list[tuple[int, ...]]:
    """The turns and flips of a ``width`` x ``height`` grid onto itself, each as where every
    cell (row by row) goes: the two flips and the half turn, and on a square the quarter
    turns and the two diagonal flips too (the identity left out).

    >>> grid_turns(3, 2)  # cells 0 1 2 / 3 4 5
    [(2, 1, 0, 5, 4, 3), (3, 4, 5, 0, 1, 2), (5, 4, 3, 2, 1, 0)]
    >>> len(grid_turns(8, 8)), len(set(grid_turns(8, 8)))
    (7, 7)
    """
    w, h = width - 1, height - 1
    maps = [lambda r, c: (r, w - c), lambda r, c: (h - r, c), lambda r, c: (h - r, w - c)]
    if width == height:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (w - c, h - r),
            lambda r, c: (c, h - r),
            lambda r, c: (w - c, r),
        ]
    cells = [divmod(i, width) for i in range(width * height)]
    found = []
    for move in maps:
        check_building(deadline)
        found.append(tuple(row * width + col for row, col in (move(r, c) for r, c in cells)))
    return found
