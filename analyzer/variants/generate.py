"""Seeded variant positions: a mine layout meeting the board rules, then a start position.

The layout comes from the CP-SAT model of the rules themselves (:mod:`analyzer.models.variants`,
built by :func:`~analyzer.variants.constraints.build_spec` from an all-hidden board), steered
towards a random suggestion (random cells, or under C and O a random blob grown to meet
them): so every board rule, alone or combined, is met by construction (connectivity as a
flow, which CP-SAT satisfies faster than the solver's lazy cuts), and a rule added to
:data:`~analyzer.variants.rules.RULES` is generated with no change here. The same seed
gives the same layout and the same position (CP-SAT runs single-threaded and is
deterministic).

>>> from analyzer.variants.generate import random_position
>>> position, layout = random_position("QX", 5, 5, seed=7)
>>> position.mines == len(layout), position == random_position("QX", 5, 5, seed=7)[0]
(True, True)
"""

from __future__ import annotations

import random

from ortools.sat.python import cp_model

from analyzer.board.board import FLAG, HIDDEN, Cell
from analyzer.errors import InconsistentBoardError, OptionError
from analyzer.models.variants import VariantModel, add_flow, is_connected
from analyzer.variants.constraints import build_spec, clue_value, ring_runs
from analyzer.variants.position import NO_CLUE, Position
from analyzer.variants.rules import RuleSet, parse_rules

__all__ = ["GAME_DENSITY", "default_mines", "random_layout", "random_position"]

#: Mines per cell on the game's boards: 10 on 5x5, 14 on 6x6, 20 on 7x7, 26 on 8x8.
GAME_DENSITY = 0.4

_ORTHOGONAL = ((-1, 0), (0, -1), (0, 1), (1, 0))
_KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


def default_mines(rules: str | RuleSet, width: int, height: int) -> int:
    """The game's mine total for a board of this size (``round(0.4 * cells)``).

    Under B (balance) the total is rounded to a multiple of the rows (every row and
    column holds the same count, so 0 unless the board is square), under D (dual) down
    to an even number.

    >>> default_mines("V", 8, 8), default_mines("B", 8, 8), default_mines("D", 5, 5)
    (26, 24, 10)
    """
    ruleset = parse_rules(rules)
    cells = width * height
    mines = round(GAME_DENSITY * cells)
    if "B" in ruleset.board:
        # k mines in every row and every column: k * height == k * width mines.
        mines = round(mines / height) * height if width == height else 0
    if "D" in ruleset.board and mines % 2:
        mines -= 1
    return mines


def _totals(wanted: int, cells: int) -> list[int]:
    """Mine totals to try, nearest to ``wanted`` first (below before above on a tie)."""
    order = [wanted]
    for step in range(1, cells + 1):
        order += [t for t in (wanted - step, wanted + step) if 0 <= t <= cells]
    return order


def random_layout(
    rules: str | RuleSet,
    width: int,
    height: int,
    *,
    seed: int,
    mines: int | None = None,
    effort: float = 2.0,
) -> frozenset[Cell]:
    """A random set of mines meeting every board rule of ``rules``.

    Parameters
    ----------
    rules : str or RuleSet
        Rule letters; the clue rules play no part in the layout.
    width, height : int
    seed : int
        The same seed gives the same layout.
    mines : int, optional
        The mine total (default :func:`default_mines`). When no layout of the board
        rules holds that many, the nearest total that one holds (fewer first).
    effort : float
        CP-SAT's deterministic time (about seconds) for each total tried: past it the
        next total is tried, so the answer does not depend on the machine's load.

    Raises
    ------
    InconsistentBoardError
        No layout meets the board rules at any total (or none was found within ``effort``).

    Examples
    --------
    >>> layout = random_layout("D", 4, 4, seed=1, mines=6)
    >>> len(layout), all(sum((r + dr, c + dc) in layout for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))) == 1
    ...                  for r, c in layout)
    (6, True)
    """
    ruleset = parse_rules(rules)
    if width < 1 or height < 1:
        raise OptionError(f"a board must be at least 1x1, got {width}x{height}")
    cells = width * height
    wanted = default_mines(ruleset, width, height) if mines is None else mines
    if not 0 <= wanted <= cells:
        raise OptionError(f"mines must be between 0 and {cells}, got {wanted}")
    rng = random.Random(seed)
    for total in _totals(wanted, cells):
        position = Position(width, height, total, (HIDDEN,) * cells)
        spec, _ = build_spec(position, RuleSet(ruleset.board, ()))
        # Without the rules' implied local constraints: the same layouts, and the search (so
        # the layout a seed gives) stays what it was before they were added.
        model = VariantModel(spec, implied=False)
        for lit in model.lits:  # every member holds: presolve may use them
            model.model.add(lit == 1)
        for rule in spec.rules:
            for conn in rule.connected:
                add_flow(model.model, model.x, conn, None)
        chosen = _hint(ruleset, width, height, total, rng)
        if not ruleset.board:
            return frozenset(divmod(i, width) for i in chosen)  # any layout: a uniform one
        for i, xi in enumerate(model.x):
            model.model.add_hint(xi, i in chosen)
        # The first layout CP-SAT finds near the suggestion (an objective keeps the hint through presolve).
        model.model.maximize(sum(model.x[i] if i in chosen else model.safe[i] for i in range(cells)))
        layout = _solve(model, seed, effort)
        if layout is not None:
            return frozenset(divmod(i, width) for i, v in enumerate(layout) if v)
    raise InconsistentBoardError(f"no mine layout of {width}x{height} meets the rules {str(ruleset)!r}")


def _hint(rules: RuleSet, width: int, height: int, total: int, rng: random.Random) -> set[int]:
    """Cells to suggest as mines: a random blob meeting C and O when they are asked, else random cells.

    Under O the blob grows orthogonally from a border cell and never cuts the safe cells apart;
    under C alone it grows through the 8 neighbours from a random cell. Other rules are left to
    CP-SAT, which repairs the suggestion.
    """
    cells = width * height
    if "O" not in rules.board and "C" not in rules.board or total == 0:
        return set(rng.sample(range(cells), total))
    steps = _ORTHOGONAL if "O" in rules.board else _KING

    def around(i: int) -> list[int]:
        r, c = divmod(i, width)
        return [(r + dr) * width + c + dc for dr, dc in steps if 0 <= r + dr < height and 0 <= c + dc < width]

    def safe_connected(mines: set[int]) -> bool:
        safe = [i for i in range(cells) if i not in mines]
        if not safe:
            return True
        seen = {safe[0]}
        todo = [safe[0]]
        while todo:
            for j in around(todo.pop()):
                if j not in mines and j not in seen:
                    seen.add(j)
                    todo.append(j)
        return len(seen) == len(safe)

    border = [i for i in range(cells) if i // width in (0, height - 1) or i % width in (0, width - 1)]
    mines = {rng.choice(border if "O" in rules.board else range(cells))}
    while len(mines) < total:
        frontier = sorted({j for i in mines for j in around(i)} - mines)
        rng.shuffle(frontier)
        for j in frontier:
            if "O" not in rules.board or safe_connected(mines | {j}):
                mines.add(j)
                break
        else:
            break  # stuck: CP-SAT completes the layout
    return mines


def _solve(model: VariantModel, seed: int, effort: float) -> list[int] | None:
    """A layout, or ``None`` when there is none or CP-SAT's deterministic time ran out."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False
    solver.parameters.random_seed = seed % 2**31
    solver.parameters.max_deterministic_time = effort
    solver.parameters.stop_after_first_solution = True
    status = solver.solve(model.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    layout = [int(solver.boolean_value(v)) for v in model.x]
    assert all(is_connected(layout, c) for rule in model.spec.rules for c in rule.connected)
    return layout


def random_position(
    rules: str | RuleSet,
    width: int,
    height: int,
    *,
    seed: int,
    mines: int | None = None,
    reveal: float = 0.5,
    unclued: float = 0.1,
    flagged: float = 0.1,
) -> tuple[Position, frozenset[Cell]]:
    """A start position on a random layout (:func:`random_layout`), and that layout.

    Each safe cell is revealed with probability ``reveal``, showing its clue under
    ``rules`` (under L the lie is +1 or -1 at random) or, with probability ``unclued``,
    no number (``?``); each mine is flagged with probability ``flagged``.

    Examples
    --------
    >>> position, layout = random_position("LM", 6, 6, seed=3, reveal=0.6)
    >>> position.mines, sum(v >= 0 for v in position.cells) > 0
    (14, True)
    """
    for name, share in (("reveal", reveal), ("unclued", unclued), ("flagged", flagged)):
        if not 0 <= share <= 1:
            raise OptionError(f"{name} must be between 0 and 1, got {share!r}")
    ruleset = parse_rules(rules)
    layout = random_layout(ruleset, width, height, seed=seed, mines=mines)
    rng = random.Random(f"position {seed}")
    values = []
    runs: list[tuple[int, tuple[int, ...]]] = []  # Wall clues of several runs
    for r in range(height):
        for c in range(width):
            if (r, c) in layout:
                values.append(FLAG if rng.random() < flagged else HIDDEN)
            elif rng.random() < reveal:
                lie = rng.choice((-1, 1))
                shown = clue_value(ruleset, set(layout), (r, c), width, height, lie)
                if rng.random() < unclued:
                    shown = NO_CLUE
                elif ruleset.pattern == "W":
                    lengths = ring_runs(set(layout), (r, c), width, height)
                    if len(lengths) > 1:
                        runs.append((len(values), lengths))
                values.append(shown)
            else:
                values.append(HIDDEN)
    return Position(width, height, len(layout), tuple(values), runs=tuple(runs)), layout
