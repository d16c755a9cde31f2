"""An independent reading of the variant rules, by enumeration, for the tests.

Written from the rule cards (see :mod:`analyzer.variants.rules`) without the package's
regions or constraint builders: each clue rule is a predicate on the offset from the
clue, each board rule a predicate on a whole layout. :func:`layouts` lists every
layout of a position's hidden cells that meets a chosen subset of its clues, its
board rules and (optionally) its mine total.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable, Iterator
from fractions import Fraction

Cell = tuple[int, int]
HIDDEN, FLAG, NO_CLUE = -1, -2, -3


def in_region(rules: str, dr: int, dc: int) -> bool:
    """Whether a cell at offset (dr, dc) from a clue counts in it."""
    a, b = abs(dr), abs(dc)
    if "X'" in rules:
        return a + b == 1
    if "X" in rules:
        return (a == 0 and 1 <= b <= 2) or (b == 0 and 1 <= a <= 2)
    if "K" in rules:
        return {a, b} == {1, 2}
    return max(a, b) == 1


@functools.cache
def counted_cells(rules: str, cell: Cell, width: int, height: int) -> tuple[tuple[Cell, bool], ...]:
    """The cells the clue at ``cell`` counts, each with whether it is coloured (the game's
    checkerboard: the top-left cell is not)."""
    # No rule's region reaches past two rows or columns from its clue.
    return tuple(
        ((r, c), (r + c) % 2 == 1)
        for r in range(max(0, cell[0] - 2), min(height, cell[0] + 3))
        for c in range(max(0, cell[1] - 2), min(width, cell[1] + 3))
        if in_region(rules, r - cell[0], c - cell[1])
    )


def shows(rules: str, mines: set[Cell], cell: Cell, width: int, height: int) -> set[int]:
    """Every number the clue at ``cell`` may show on this layout."""
    coloured = uncoloured = 0
    for where, is_coloured in counted_cells(rules, cell, width, height):
        if where in mines:
            if is_coloured:
                coloured += 1
            else:
                uncoloured += 1
    if "M" in rules and "N" in rules:  # the game's MN (the fan remake's 1M1N)
        true = abs(2 * coloured - uncoloured)
    elif "M" in rules:
        true = 2 * coloured + uncoloured
    elif "N" in rules:
        true = abs(coloured - uncoloured)
    else:
        true = coloured + uncoloured
    if "L" in rules:
        return {v for v in (true - 1, true + 1) if v >= 0}
    return {true}


def _connected(members: set[Cell], steps: Iterable[Cell], starts: set[Cell]) -> bool:
    steps = list(steps)
    seen = set(starts)
    todo = list(starts)
    while todo:
        r, c = todo.pop()
        for dr, dc in steps:
            n = (r + dr, c + dc)
            if n in members and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == members


KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
ORTH = [(-1, 0), (1, 0), (0, -1), (0, 1)]
KNIGHT = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]


def board_rule_holds(letter: str, mines: set[Cell], width: int, height: int) -> bool:
    if letter == "Q":
        return all(
            {(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} & mines
            for r in range(height - 1)
            for c in range(width - 1)
        )
    if letter == "C":
        return not mines or _connected(mines, KING, {min(mines)})
    if letter == "T":
        for r, c in mines:
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if (r + dr, c + dc) in mines and (r + 2 * dr, c + 2 * dc) in mines:
                    return False
        return True
    if letter == "O":
        safe = {(r, c) for r in range(height) for c in range(width)} - mines
        if safe and not _connected(safe, ORTH, {min(safe)}):
            return False
        border = {(r, c) for r, c in mines if r in (0, height - 1) or c in (0, width - 1)}
        return _connected(mines, ORTH, border)
    if letter == "D":
        return all(sum((r + dr, c + dc) in mines for dr, dc in ORTH) == 1 for r, c in mines)
    if letter == "B":
        counts = {sum((r, c) in mines for c in range(width)) for r in range(height)}
        counts |= {sum((r, c) in mines for r in range(height)) for c in range(width)}
        return len(counts) == 1
    if letter == "A":
        return not any((r + dr, c + dc) in mines for r, c in mines for dr, dc in KNIGHT)
    if letter == "H":
        return all((r, c - 1) in mines or (r, c + 1) in mines for r, c in mines)
    if letter == "S":
        return is_snake(mines)
    raise ValueError(letter)


def is_snake(mines: set[Cell]) -> bool:
    """One orthogonal path: connected, at most two orthogonal contacts a mine, no loop."""
    if not mines:
        return True
    degrees = [sum((r + dr, c + dc) in mines for dr, dc in ORTH) for r, c in mines]
    if max(degrees) > 2 or not _connected(mines, ORTH, {min(mines)}):
        return False
    return sum(degrees) // 2 == len(mines) - 1  # a tree of degree at most 2 is a path


# The 8 cells around a clue, walked around (each step to an orthogonal neighbour of the last).
AROUND = [(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]


@functools.cache
def ring(cell: Cell, width: int, height: int) -> tuple[Cell | None, ...]:
    """The 8 cells around ``cell`` in :data:`AROUND`'s order, None where off the board."""
    return tuple(
        (r, c) if 0 <= r < height and 0 <= c < width else None
        for r, c in ((cell[0] + dr, cell[1] + dc) for dr, dc in AROUND)
    )


def ring_mines(mines: set[Cell], cell: Cell, width: int, height: int) -> list[bool]:
    return [where is not None and where in mines for where in ring(cell, width, height)]


def wall(mines: set[Cell], cell: Cell, width: int, height: int) -> tuple[int, ...]:
    """Run lengths around the ring: each run starts where a mine follows a non-mine."""
    ring = ring_mines(mines, cell, width, height)
    if all(ring):
        return (8,)
    lengths = []
    for k in range(8):
        if ring[k] and not ring[k - 1]:
            n = 0
            while ring[(k + n) % 8]:
                n += 1
            lengths.append(n)
    return tuple(sorted(lengths))


def eyesight(mines: set[Cell], cell: Cell, width: int, height: int) -> int:
    seen = 1
    for dr, dc in ORTH:
        r, c = cell[0] + dr, cell[1] + dc
        while 0 <= r < height and 0 <= c < width and (r, c) not in mines:
            seen += 1
            r, c = r + dr, c + dc
    return seen


def pattern_shows(rules: str, mines: set[Cell], cell: Cell, width: int, height: int) -> set:
    """What a W, P or E clue may show: a tuple of runs under W, a number under P and E."""
    if "W" in rules:
        return {wall(mines, cell, width, height)}
    true = len(wall(mines, cell, width, height)) if "P" in rules else eyesight(mines, cell, width, height)
    if "L" in rules:
        return {v for v in (true - 1, true + 1) if v >= 0}
    return {true}


def is_pattern(rules: str) -> bool:
    return any(ch in rules for ch in "WPE")


BOARD_LETTERS = "QCTODBAHS"


def split(rules: str) -> tuple[str, list[str]]:
    """(the clue-rule letters, the board-rule letters)."""
    board = [ch for ch in rules if ch in BOARD_LETTERS]
    clue = "".join(ch for ch in rules if ch not in BOARD_LETTERS)
    return clue, board


def layouts(
    cells: tuple[int, ...],
    width: int,
    height: int,
    mines: int,
    rules: str,
    *,
    clues: Iterable[Cell] | None = None,
    board_rules: Iterable[str] | None = None,
    total: bool = True,
    runs: dict[Cell, tuple[int, ...]] | None = None,
) -> list[set[Cell]]:
    """Every set of mines meeting the chosen members (all of them by default).

    ``runs``: the Wall clues of several runs (the others read as one run of their value).
    """
    return list(
        each_layout(
            cells, width, height, mines, rules, clues=clues, board_rules=board_rules, total=total, runs=runs
        )
    )


def each_layout(
    cells: tuple[int, ...],
    width: int,
    height: int,
    mines: int,
    rules: str,
    *,
    clues: Iterable[Cell] | None = None,
    board_rules: Iterable[str] | None = None,
    total: bool = True,
    runs: dict[Cell, tuple[int, ...]] | None = None,
) -> Iterator[set[Cell]]:
    """:func:`layouts` one at a time, for a caller that stops at the first it needs."""
    clue_rules, all_board = split(rules)
    board_rules = all_board if board_rules is None else list(board_rules)
    grid = {divmod(i, width): v for i, v in enumerate(cells)}
    hidden = [c for c, v in grid.items() if v == HIDDEN]
    flags = {c for c, v in grid.items() if v == FLAG}
    use = [c for c, v in grid.items() if v >= 0] if clues is None else list(clues)
    if is_pattern(clue_rules):
        shown = {}
        for c in use:
            if "W" in clue_rules:
                shown[c] = (runs or {}).get(c) or ((grid[c],) if grid[c] else ())
            else:
                shown[c] = grid[c]

        def meets(placed: set[Cell]) -> bool:
            return all(shown[c] in pattern_shows(clue_rules, placed, c, width, height) for c in use)
    else:

        def meets(placed: set[Cell]) -> bool:
            return all(grid[c] in shows(clue_rules, placed, c, width, height) for c in use)

    if total:  # only the layouts of the mine total: the hidden cells hold the total less the flags
        left = mines - len(flags)
        chosen: Iterable[tuple[Cell, ...]] = itertools.combinations(hidden, left) if left >= 0 else ()
    else:  # every subset of the hidden cells, by size
        chosen = itertools.chain.from_iterable(
            itertools.combinations(hidden, k) for k in range(len(hidden) + 1)
        )
    for mined in chosen:
        placed = flags | set(mined)
        if meets(placed) and all(board_rule_holds(letter, placed, width, height) for letter in board_rules):
            yield placed


def probabilities(found: list[set[Cell]], hidden: list[Cell]) -> dict[Cell, Fraction]:
    return {c: Fraction(sum(c in m for m in found), len(found)) for c in hidden}


@functools.cache
def board_layout(board: str, width: int, height: int, seed: int, mines: int) -> frozenset[Cell] | None:
    """The package's seeded layout of the board rules ``board`` (None if no layout meets them).

    The clue rules play no part in a layout (:func:`analyzer.variants.generate.random_layout`;
    tests/test_variant_generate.py checks it), so the positions drawn under rule sets with the
    same board rules, size and seed share one draw, made once a process.
    """
    from analyzer.errors import InconsistentBoardError
    from analyzer.variants.generate import random_layout

    try:
        return random_layout(board or "V", width, height, seed=seed, mines=mines)
    except InconsistentBoardError:
        return None


def random_position(
    rules: str, width: int, height: int, seed: int, *, fill: float = 0.35, reveal: float = 0.5
) -> tuple[tuple[int, ...], int, set[Cell]]:
    """A position on a layout from the package's seeded generator, read with this module's clues.

    Returns the cells, the mine total and the layout. The total is drawn as ``fill`` of
    the cells (the generator takes the nearest total its board rules allow). Safe cells
    are revealed at random, each showing one of the numbers :func:`shows` allows (a
    random lie under L), some as ``?``; a few mines are flagged. One position in eight
    has a clue raised by one, which may leave no layout, as does a board no layout of
    the board rules fits (the tests then expect the error that names the conflict).
    """
    rng = random.Random(seed)
    clue_rules, board = split(rules)
    cells_all = [(r, c) for r in range(height) for c in range(width)]
    wanted = sum(rng.random() < fill for _ in cells_all)
    layout = board_layout("".join(board), width, height, seed, wanted)
    # None: no layout meets the board rules (QB off the square), any will do
    mines = set(rng.sample(cells_all, wanted)) if layout is None else set(layout)
    values = []
    for cell in cells_all:
        if cell in mines:
            values.append(FLAG if rng.random() < 0.1 else HIDDEN)
        elif rng.random() < reveal:
            options = sorted(shows(clue_rules, mines, cell, width, height))
            values.append(NO_CLUE if rng.random() < 0.1 else rng.choice(options))
        else:
            values.append(HIDDEN)
    clued = [k for k, v in enumerate(values) if v >= 0]
    if clued and rng.random() < 1 / 8:
        values[rng.choice(clued)] += 1
    return tuple(values), len(mines), mines


def random_snake(width: int, height: int, rng: random.Random, length: int) -> set[Cell]:
    """A random snake (:func:`is_snake`) of at most ``length`` mines: a walk that never touches itself."""
    head = (rng.randrange(height), rng.randrange(width))
    body = [head]
    while len(body) < length:
        steps = []
        for dr, dc in ORTH:
            n = (head[0] + dr, head[1] + dc)
            if not (0 <= n[0] < height and 0 <= n[1] < width) or n in body:
                continue
            if sum((n[0] + a, n[1] + b) in body for a, b in ORTH) == 1:
                steps.append(n)
        if not steps:
            break
        head = rng.choice(steps)
        body.append(head)
    return set(body)


def random_pattern_position(
    rules: str, width: int, height: int, seed: int, *, fill: float = 0.35, reveal: float = 0.5
) -> tuple[tuple[int, ...], int, dict[Cell, tuple[int, ...]], set[Cell]]:
    """A position under rules with W, P, E or S (cells, mine total, Wall clues of several runs, layout).

    Under S the layout is a random snake; otherwise as :func:`random_position`.
    """
    rng = random.Random(seed)
    clue_rules, board = split(rules)
    cells_all = [(r, c) for r in range(height) for c in range(width)]
    mines: set[Cell] = set()
    for _ in range(300):
        if "S" in board:
            mines = random_snake(width, height, rng, rng.randint(1, max(1, int(fill * width * height))))
        else:
            mines = {c for c in cells_all if rng.random() < fill}
        if all(board_rule_holds(letter, mines, width, height) for letter in board):
            break
    values = []
    runs: dict[Cell, tuple[int, ...]] = {}
    for cell in cells_all:
        if cell in mines:
            values.append(FLAG if rng.random() < 0.1 else HIDDEN)
        elif rng.random() < reveal:
            if rng.random() < 0.1:
                values.append(NO_CLUE)
            elif "W" in clue_rules:
                lengths = wall(mines, cell, width, height)
                values.append(sum(lengths))
                if len(lengths) > 1:
                    runs[cell] = lengths
            elif is_pattern(clue_rules):
                values.append(rng.choice(sorted(pattern_shows(clue_rules, mines, cell, width, height))))
            else:
                values.append(rng.choice(sorted(shows(clue_rules, mines, cell, width, height))))
        else:
            values.append(HIDDEN)
    return tuple(values), len(mines), runs, mines
