"""The rules of "14 Minesweeper Variants" (1 and 2): what each letter means.

A rule set is a string of letters, one per rule, read greedily with the primes
(``"QX'"`` is Q and X'). Two kinds:

*clue rules* change what a revealed number means (its region of cells, the
weights of the cells in it, the way the count is shown): V, M, L, N, X, X', K,
and W, P, E, whose clues are not counts (runs of mines around the cell, the number
of those runs, the safe cells in view);
*board rules* constrain the whole layout of mines: Q, C, T, O, D, B, A, H, S.

Every rule of a set holds at once, as in the game's combined levels ("QX" is
Quad with Cross clues, "LM" Liar with Multiple). In every variant a revealed cell
is safe, the mine total of the board is known, and with no clue rule the clues
are vanilla. Rule letters and definitions are those the game shows (its rule
cards, transcribed at https://gamicus.fandom.com/wiki/14_Minesweeper_Variants);
where a card is terse, the regions and formulas follow the MIP formulation of
ikumyn1or0/14msv-solver's README (V, M, L, N, X, X', K, Q, T, D, B, A) and, for H,
the rule list of a public 14 Minesweeper Variants 2 solver (found through the
``code`` corpus). For W, P, E and S, whose cards are the tersest, the details
(the ring read around the cell, cells off the board counting as safe, the clue
cell seen by itself under E, a snake's turns touching diagonally) follow the game's
cards as transcribed on that wiki and the fan-made re-implementation of the game,
Minesweepervariants-Fanmade/rule (its rules 1W, 1P, 1E and 1S, read through the
``code`` corpus). Each rule's docstring below gives its exact definition here.

The rules need the square grid: their regions (2x2 windows, knight moves, rows
and columns, the checkerboard) are defined on rows and columns.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from analyzer.errors import RuleError

__all__ = ["Rule", "RuleSet", "RULES", "PATTERN_RULES", "parse_rules", "is_coloured"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: its letter, name, kind (``"clue"`` or ``"board"``) and definition."""

    letter: str
    name: str
    kind: str
    definition: str


def _rule(letter: str, name: str, kind: str, definition: str) -> Rule:
    return Rule(letter, name, kind, " ".join(definition.split()))


#: Every rule, by letter.
RULES: dict[str, Rule] = {
    r.letter: r
    for r in (
        _rule(
            "V",
            "vanilla",
            "clue",
            """A clue is the number of mines among the (up to) 8 cells around it.""",
        ),
        _rule(
            "M",
            "multiple",
            "clue",
            """Each mine on a coloured cell counts as two in a clue (the mine total is unaffected).
            The colouring is the game's checkerboard: the coloured cells are those whose row + column
            is odd (the top-left cell is not coloured).""",
        ),
        _rule(
            "L",
            "liar",
            "clue",
            """Each clue is either one more or one less than the true count of its region.""",
        ),
        _rule(
            "N",
            "negation",
            "clue",
            """A clue is the absolute difference between the mines on coloured and on uncoloured cells
            of its region (the checkerboard of M). With M (the game's MN) a mine on a coloured cell
            counts twice in it: the clue is |2 x coloured - uncoloured|.""",
        ),
        # M with N (the game's MN): a clue is |2 x (mines on coloured cells) - (mines on
        # uncoloured cells)|, as the fan-made re-implementation's rule 1M1N reads them.
        _rule(
            "X",
            "cross",
            "clue",
            """A clue counts the mines in the cross of radius 2: the cells one and two steps away
            along its row and its column (up to 8 cells).""",
        ),
        _rule(
            "X'",
            "mini cross",
            "clue",
            """A clue counts the mines in the 4 cells orthogonally next to it.""",
        ),
        _rule(
            "K",
            "knight",
            "clue",
            """A clue counts the mines a chess knight's move away from it (up to 8 cells).""",
        ),
        _rule(
            "W",
            "wall",
            "clue",
            """A clue lists the lengths of the runs of consecutive mines in the ring of the 8 cells
            around it (read around the ring, which closes on itself; a cell off the board is not a
            mine and breaks a run). The list is unordered: ``1,3`` is a run of one mine and a run of
            three; ``0`` no mine; ``8`` all eight cells.""",
        ),
        _rule(
            "P",
            "partition",
            "clue",
            """A clue is the number of runs of consecutive mines in the ring of the 8 cells around it
            (the ring of W: read around, closing on itself, cells off the board not mines); all eight
            cells mines make one run.""",
        ),
        _rule(
            "E",
            "eyesight",
            "clue",
            """A clue is the number of safe cells it sees, itself included: looking up, down, left
            and right, each line of sight runs over safe cells (revealed or not) and stops at the
            first mine or at the border.""",
        ),
        _rule(
            "Q",
            "quad",
            "board",
            """Every 2x2 area holds at least one mine.""",
        ),
        _rule(
            "C",
            "connected",
            "board",
            """All mines form one group, connected orthogonally or diagonally.""",
        ),
        _rule(
            "T",
            "triplet",
            "board",
            """No three mines in a row: no three consecutive cells of a row, a column or a diagonal
            are all mines.""",
        ),
        _rule(
            "O",
            "outside",
            "board",
            """All safe cells are orthogonally connected, and every mine is orthogonally connected
            (through mines) to the border of the board.""",
        ),
        _rule(
            "D",
            "dual",
            "board",
            """Mines form 1x2 or 2x1 blocks that do not touch each other orthogonally: every mine has
            exactly one orthogonally adjacent mine.""",
        ),
        _rule(
            "B",
            "balance",
            "board",
            """Every row and every column holds the same number of mines.""",
        ),
        _rule(
            "A",
            "anti-knight",
            "board",
            """No two mines are a knight's move apart.""",
        ),
        _rule(
            "H",
            "horizontal",
            "board",
            """(14 Minesweeper Variants 2) Every mine has a mine horizontally next to it. Not the
            first game's H, its opposite (no mine has another horizontally next to it), which is
            not one of these rules.""",
        ),
        _rule(
            "S",
            "snake",
            "board",
            """The mines form one snake: a path of width 1 through orthogonally adjacent cells, with
            no branch and no loop, that does not touch itself orthogonally (each mine has at most two
            mines orthogonally next to it, and the mines with their orthogonal contacts form a
            single path; where the snake turns, its body touches itself diagonally, as it must). A
            lone mine is a snake of length 1.""",
        ),
    )
}

_REGION_RULES = ("X", "X'", "K")
_COLOUR_RULES = ("M", "N")
#: Clue rules whose clue is not a count of a region: each sets its own reading.
PATTERN_RULES = ("W", "P", "E")


def is_coloured(row: int, col: int) -> bool:
    """Whether a cell is coloured on the checkerboard of M and N: row + column odd, as in the
    game (its top-left cell is not coloured; the game's M levels, the fan-made re-implementation's
    checkerboard dye and the PKU series' M script all agree).

    >>> is_coloured(0, 0), is_coloured(0, 1), is_coloured(3, 5)
    (False, True, False)
    """
    return (row + col) % 2 == 1


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A set of variant rules, in the game's order (board rules, then clue rules).

    Build one with :func:`parse_rules`. ``str()`` gives the canonical letters.

    >>> rules = parse_rules("xq")
    >>> str(rules), rules.region, rules.board
    ('QX', 'X', ('Q',))
    >>> str(parse_rules("V")), parse_rules("").is_vanilla
    ('V', True)
    """

    board: tuple[str, ...]
    clue: tuple[str, ...]

    def __str__(self) -> str:
        return "".join(self.board + self.clue) or "V"

    def __iter__(self) -> Iterator[str]:
        return iter(self.board + self.clue)

    @property
    def region(self) -> str:
        """The rule that sets the clue region: ``"V"``, ``"X"``, ``"X'"`` or ``"K"``."""
        return next((r for r in self.clue if r in _REGION_RULES), "V")

    @property
    def colour(self) -> str | None:
        """``"M"``, ``"N"``, ``"MN"`` (both) or ``None``: how the checkerboard changes a clue."""
        return "".join(r for r in self.clue if r in _COLOUR_RULES) or None

    @property
    def pattern(self) -> str | None:
        """``"W"``, ``"P"``, ``"E"`` or ``None``: a clue rule whose clue is not a count of a region."""
        return next((r for r in self.clue if r in PATTERN_RULES), None)

    @property
    def liar(self) -> bool:
        return "L" in self.clue

    @property
    def is_vanilla(self) -> bool:
        return (
            not self.board
            and self.region == "V"
            and self.colour is None
            and not self.liar
            and self.pattern is None
        )

    @property
    def is_linear(self) -> bool:
        """Whether every clue is a plain count over its region (V, X, X', K: no M, N, L, W, P or E)."""
        return self.colour is None and not self.liar and self.pattern is None

    @property
    def is_local(self) -> bool:
        """Whether there is no board rule: cells in no clue region are then independent."""
        return not self.board


def parse_rules(text: str | RuleSet) -> RuleSet:
    """Read a rule set such as ``"QX"``, ``"CX'"`` or ``"LM"`` (case and spaces ignored).

    Raises
    ------
    RuleError
        An unknown letter, a letter given twice, or rules that cannot hold together
        (two clue regions, W, P or E with another reading of the clues, L with W).

    Examples
    --------
    >>> str(parse_rules("x'c"))
    "CX'"
    >>> parse_rules("QZ")
    Traceback (most recent call last):
    ...
    analyzer.errors.RuleError: unknown rule 'Z' in 'QZ'; known rules: V M L N X X' K W P E Q C T O D B A H S
    >>> parse_rules("XK")
    Traceback (most recent call last):
    ...
    analyzer.errors.RuleError: rules 'X' and 'K' both set the clue region: use one
    """
    if isinstance(text, RuleSet):
        return text
    if not isinstance(text, str):
        raise RuleError(f"rules must be a string of rule letters, got {text!r}")
    letters = "".join(text.split()).upper()
    found: list[str] = []
    i = 0
    while i < len(letters):
        letter = letters[i]
        if i + 1 < len(letters) and letters[i + 1] == "'":
            letter += "'"
        if letter not in RULES:
            raise RuleError(f"unknown rule {letter!r} in {text!r}; known rules: {' '.join(RULES)}")
        if letter in found:
            raise RuleError(f"rule {letter!r} given twice in {text!r}")
        found.append(letter)
        i += len(letter)
    order = list(RULES)
    found.sort(key=order.index)
    regions = [r for r in found if r in _REGION_RULES]
    if len(regions) > 1:
        raise RuleError(f"rules {regions[0]!r} and {regions[1]!r} both set the clue region: use one")
    _check_patterns(found)
    board = tuple(r for r in found if RULES[r].kind == "board")
    clue = tuple(r for r in found if RULES[r].kind == "clue" and r != "V")
    return RuleSet(board, clue)


def _check_patterns(found: list[str]) -> None:
    """W, P and E each set what a clue reads: none goes with another reading (a region, colours)."""
    patterns = [r for r in found if r in PATTERN_RULES]
    if not patterns:
        return
    others = [r for r in found if r in _REGION_RULES or r in _COLOUR_RULES or r in PATTERN_RULES]
    other = next((r for r in others if r != patterns[0]), None)
    if other is not None:
        raise RuleError(f"rules {patterns[0]!r} and {other!r} both set what a clue reads: use one")
    if "W" in found and "L" in found:
        raise RuleError("rule 'L' does not combine with 'W': a Wall clue is a list of runs, not one number")
