"""From a variant position and its rules to constraints: clue regions, weights, board rules.

The clue regions and the checkerboard are rule semantics (they are defined on rows and
columns whatever the board's neighbourhood), so they live here, not in the board's
topology. :func:`clue_value` computes what a clue shows on a full layout (the
independent reading used to reveal cells and to check answers).
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.board.board import FLAG, HIDDEN, Cell
from analyzer.errors import RuleError
from analyzer.models.variants import BoardRuleSpec, ClueSpec, Connectivity, VariantSpec
from analyzer.variants.position import Position
from analyzer.variants.rules import RuleSet, is_coloured

__all__ = ["region", "weight", "allowed_values", "clue_value", "build_spec", "Members"]

_KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
_ORTHOGONAL = ((-1, 0), (0, -1), (0, 1), (1, 0))
_CROSS = ((-2, 0), (-1, 0), (0, -2), (0, -1), (0, 1), (0, 2), (1, 0), (2, 0))
_KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
_OFFSETS = {"V": _KING, "X": _CROSS, "X'": _ORTHOGONAL, "K": _KNIGHT}


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
    uncoloured one under N (the clue shows the absolute value), 1 otherwise."""
    if rules.colour == "M":
        return 2 if is_coloured(*cell) else 1
    if rules.colour == "N":
        return 1 if is_coloured(*cell) else -1
    return 1


def allowed_values(rules: RuleSet, shown: int) -> tuple[int, ...]:
    """The weighted sums of a clue's region that make it show ``shown``.

    >>> from analyzer.variants.rules import parse_rules
    >>> allowed_values(parse_rules("L"), 2), allowed_values(parse_rules("N"), 2)
    ((1, 3), (-2, 2))
    >>> allowed_values(parse_rules("LN"), 1)
    (-2, 0, 2)
    """
    raw = (shown - 1, shown + 1) if rules.liar else (shown,)
    counts = tuple(c for c in raw if c >= 0)
    if rules.colour == "N":
        return tuple(sorted({s * c for c in counts for s in (1, -1)}))
    return counts


def clue_value(rules: RuleSet, mines: set[Cell], cell: Cell, width: int, height: int, lie: int = 1) -> int:
    """What a clue at ``cell`` shows when the mines are ``mines`` (``lie``: +1 or -1 under L).

    >>> from analyzer.variants.rules import parse_rules
    >>> clue_value(parse_rules("M"), {(0, 0), (0, 1)}, (1, 1), 3, 3)
    3
    """
    total = sum(weight(rules, c) for c in region(rules, cell, width, height) if c in mines)
    if rules.colour == "N":
        total = abs(total)
    if rules.liar:
        total += lie
        if total < 0:
            total = 1  # a count of 0 can only be shown as 1
    return total


@dataclass(frozen=True, slots=True)
class Members:
    """What each member of a :class:`VariantSpec` is: clue cells, then rule letters, then the total."""

    clues: tuple[Cell, ...]
    rules: tuple[str, ...]


def _rule_spec(letter: str, width: int, height: int) -> BoardRuleSpec:
    def idx(r: int, c: int) -> int:
        return r * width + c

    def inside(r: int, c: int) -> bool:
        return 0 <= r < height and 0 <= c < width

    cells = [(r, c) for r in range(height) for c in range(width)]

    def pairs(offsets: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        out = set()
        for r, c in cells:
            for dr, dc in offsets:
                if inside(r + dr, c + dc):
                    a, b = idx(r, c), idx(r + dr, c + dc)
                    out.add((min(a, b), max(a, b)))
        return tuple(sorted(out))

    if letter == "Q":
        windows = tuple(
            ((idx(r, c), idx(r, c + 1), idx(r + 1, c), idx(r + 1, c + 1)), 1, 4)
            for r in range(height - 1)
            for c in range(width - 1)
        )
        return BoardRuleSpec("Q", sums=windows)
    if letter == "T":
        lines = []
        for r, c in cells:
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if inside(r + 2 * dr, c + 2 * dc):
                    lines.append(((idx(r, c), idx(r + dr, c + dc), idx(r + 2 * dr, c + 2 * dc)), 0, 2))
        return BoardRuleSpec("T", sums=tuple(lines))
    if letter == "A":
        return BoardRuleSpec("A", sums=tuple(((a, b), 0, 1) for a, b in pairs(_KNIGHT)))
    if letter == "D":
        implied = []
        for r, c in cells:
            around = tuple(idx(r + dr, c + dc) for dr, dc in _ORTHOGONAL if inside(r + dr, c + dc))
            implied.append((idx(r, c), around, 1, 1))
        return BoardRuleSpec("D", implied=tuple(implied))
    if letter == "H":
        implied = []
        for r, c in cells:
            beside = tuple(idx(r, c + dc) for dc in (-1, 1) if inside(r, c + dc))
            implied.append((idx(r, c), beside, 1, 2))
        return BoardRuleSpec("H", implied=tuple(implied))
    if letter == "B":
        rows = tuple(tuple(idx(r, c) for c in range(width)) for r in range(height))
        cols = tuple(tuple(idx(r, c) for r in range(height)) for c in range(width))
        return BoardRuleSpec("B", equal=rows + cols)
    if letter == "C":
        return BoardRuleSpec("C", connected=(Connectivity(pairs(_KING), of_mines=True),))
    if letter == "O":
        border = tuple(idx(r, c) for r, c in cells if r in (0, height - 1) or c in (0, width - 1))
        return BoardRuleSpec(
            "O",
            connected=(
                Connectivity(pairs(_ORTHOGONAL), of_mines=False),
                Connectivity(pairs(_ORTHOGONAL), of_mines=True, border=border),
            ),
        )
    raise RuleError(f"rule {letter!r} is not a board rule")  # pragma: no cover - parse_rules checks


def check_topology(position: Position, rules: RuleSet) -> None:
    """Raise :class:`RuleError` unless the board is the plain square grid the rules are defined on."""
    if position.topology != "square":
        first = next(iter(rules), "V")
        raise RuleError(
            f"rule {first!r} needs the square grid; this board's topology is {position.topology!r}"
        )


def build_spec(position: Position, rules: RuleSet) -> tuple[VariantSpec, Members]:
    """The constraints of a position under ``rules``, and what each member is."""
    check_topology(position, rules)
    width, height = position.width, position.height
    fixed = []
    unknown = []
    for i, value in enumerate(position.cells):
        if value == HIDDEN:
            unknown.append(i)
        else:
            fixed.append((i, 1 if value == FLAG else 0))
    clues = []
    clue_cells = []
    for i, value in enumerate(position.cells):
        if value < 0:
            continue
        cell = divmod(i, width)
        terms = tuple((r * width + c, weight(rules, (r, c))) for r, c in region(rules, cell, width, height))
        clues.append(ClueSpec(i, terms, allowed_values(rules, value)))
        clue_cells.append(cell)
    board_rules = tuple(_rule_spec(letter, width, height) for letter in rules.board)
    spec = VariantSpec(
        size=width * height,
        fixed=tuple(fixed),
        clues=tuple(clues),
        rules=board_rules,
        total=position.mines,
        unknown=tuple(unknown),
    )
    return spec, Members(tuple(clue_cells), rules.board)
