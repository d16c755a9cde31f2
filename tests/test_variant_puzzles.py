"""Published variant puzzles (tests/variants/, sources in SOURCES.md) solved by hints alone.

Each puzzle is a pen-and-paper minesweeper puzzle (14 Minesweeper Variants rules, or the
vanilla rule V): a start position, its rule letters and its mine total (where a puzzle was
published without one, the header holds its solution's count and no hint may use it). For
each one:

* the puzzle has exactly one solution: every hidden cell is certain at the start (CP-SAT,
  one solve a cell), and that solution meets every clue and rule as read by
  ``tests/variant_oracle.py`` (written apart from the package);
* from the start, each step takes the hint (a certain cell with a minimal explanation),
  checks it against the solution, and marks that one cell as on paper: a mine is flagged,
  a safe cell becomes ``?`` (known safe; a paper puzzle shows no new number), until no
  cell is hidden;
* each step's certain cells are checked with a second formulation: the exact pipeline's
  probabilities (clue rules only), the enumeration of every layout (Q, T, D, B; C, O and
  S once at most 30 cells are hidden), and the brute-force oracle once at most 12 are; each
  explanation that needs neither a board rule nor the mine total is checked by the oracle
  over the cells of its clues (under E, their rows and columns).

The game's own levels (``mv14-*.mine`` and the sample ``mv14-sample.txt``, from tonsky/sapper)
are interactive, not unique at the start: each is played by hints from its start, each step
revealing the hinted cell as the game does (:func:`solve_game_by_hints`); and on sapper's test
positions (``sapper-forced.txt``) our certain cells are sapper's forced cells exactly.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
import variant_oracle as oracle

from analyzer.board.board import FLAG, HIDDEN, Cell
from analyzer.variants import Position, hint, parse_rules, solve_variant
from analyzer.variants.constraints import region
from analyzer.variants.position import NO_CLUE

PUZZLES = Path(__file__).parent / "variants"
ORACLE_HIDDEN = 12  # the oracle enumerates 2**hidden layouts
LOCAL_CELLS = 12  # the most cells an explanation's clues cover for the oracle's local check
# Board rules whose layouts CP-SAT enumerates at every step; under C, O and S (whose
# enumeration filters layouts by connectivity: minutes on a fresh 8x8 board) from
# CONNECTED_ENUMERATION hidden cells on (under a second then).
ENUMERATED = set("QTDB")
CONNECTED_ENUMERATION = 30
# Each puzzle takes 1-10 s of CPU (one CP-SAT solve a hidden cell a step; the snake, MV07,
# about 10 s): three run by default, one of each kind of rule: PKU L (a clue rule, the one whose
# clues may lie), PKU W (a pattern clue, its clues runs of mines) and Gecode 0 (the classic game,
# published without its mine total); the rest with -m slow: among them PKU V, M and E (whose rules
# tests/test_variants.py and tests/test_variant_patterns.py check alone and in pairs by default,
# hints and explanations included), the second PKU V, Gecode 8 and PKU Q (the game levels below
# solve Q, C and T by hints in the default run).
SLOW = {
    "pku-mv01-v",
    "pku-2mv01-m",
    "pku-2mv07-e",
    "pku-mv02-q",
    "pku-2mv08-v",
    "pku-mv03-c",
    "pku-mv04-t",
    "pku-mv05-o",
    "pku-mv06-d",
    "pku-mv07-s",
    "pku-2mv04-n",
    "pku-2mv05-x",
    "pku-2mv06-p",
} | {f"gecode-minesweeper-{k}" for k in (1, 2, 3, 4, 5, 6, 7, 8, 9)}
# The game's own levels (mv14-*.mine, from tonsky/sapper): interactive puzzles, not unique at
# the start; revealing a safe cell shows its number, or '?' on a cell of the record without one.
GAME_PREFIX = "mv14-"
# Under board rules the game's positions have many layouts early on: they are enumerated (a
# second formulation of the certain cells) from GAME_ENUMERATION hidden cells on (under C, whose
# enumeration filters layouts by connectivity: from GAME_CONNECTED_ENUMERATION on; a 6x6 level
# takes 90 s from 30, 3 s from 20), at most GAME_LAYOUT_LIMIT of them; clue-only rules take the
# exact pipeline at every step.
GAME_ENUMERATION = 30
GAME_CONNECTED_ENUMERATION = 20
GAME_LAYOUT_LIMIT = 20_000
# The game's levels solved by hints in the default run (the rest with -m slow): each rule's 5x5
# level (C's starts past GAME_CONNECTED_ENUMERATION hidden cells, so its first steps go without
# the enumeration). D has no 5x5 level here: its level in the default run is a 6x6 one of the
# sample below (SAMPLE_FAST), 35 cells hidden at the start, past GAME_ENUMERATION (1 s of CPU;
# D's 8x8 levels, 5 s, and the 8x8 levels of Q, T and V, 3-4 s each, run with -m slow).
GAME_FAST = {
    f"mv14-{name}" for name in ("q-5x5-10-10009", "c-5x5-10-3306D", "t-5x5-10-7222", "v-5x5-10-10181")
}
SAMPLE_FAST = {"[D]6x6-10-11927"}


def load(path: Path) -> tuple[str, Position, dict[str, str]]:
    """A puzzle file: ``# key: value`` header lines, then the position text.

    A key given on several lines (an official puzzle's ``answer``, one a row) holds them
    joined by newlines.
    """
    meta: dict[str, str] = {}
    body = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            key, _, value = line[2:].partition(":")  # "#   ..." continues the line above
            if value and not key.startswith(" "):
                key = key.strip()
                meta[key] = f"{meta[key]}\n{value.strip()}" if key in meta else value.strip()
        else:
            body.append(line)
    return meta["rules"], Position.from_text("\n".join(body) + "\n"), meta


def _params() -> list[object]:
    out = []
    for path in sorted(PUZZLES.glob("*.mine")):
        if path.stem.startswith(GAME_PREFIX):
            continue
        marks = [pytest.mark.slow] if path.stem in SLOW else []
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


def solution(position: Position, rules: str) -> set[Cell]:
    """The unique solution: every hidden cell is certain, else the puzzle is not unique."""
    analysis = solve_variant(position, rules, probabilities=False)
    hidden = set(position.hidden_cells())
    assert set(analysis.safe) | set(analysis.mines) == hidden, "the puzzle has more than one solution"
    return set(analysis.mines) | set(position.flagged_cells())


def clue_holds(position: Position, clue_rules: str, mines: set[Cell], cell: Cell) -> bool:
    """Whether a clue shows what the oracle reads around it (a Wall clue as its runs)."""
    w, h = position.width, position.height
    if oracle.is_pattern(clue_rules):
        shown = position.runs_at(cell) if "W" in clue_rules else position[cell]
        return shown in oracle.pattern_shows(clue_rules, mines, cell, w, h)
    return position[cell] in oracle.shows(clue_rules, mines, cell, w, h)


def _runs(position: Position) -> dict[Cell, tuple[int, ...]]:
    return {divmod(index, position.width): lengths for index, lengths in position.runs}


def oracle_accepts(position: Position, rules: str, mines: set[Cell]) -> bool:
    """Whether a full layout meets the position's clues, rules and total, read by the oracle."""
    canonical = str(parse_rules(rules))
    clue_rules, board = oracle.split(canonical)
    w, h = position.width, position.height
    clues_ok = all(clue_holds(position, clue_rules, mines, c) for c in position.clue_cells())
    revealed = {divmod(i, w) for i, v in enumerate(position.cells) if v not in (HIDDEN, FLAG)}
    revealed_safe = not (revealed & mines) and set(position.flagged_cells()) <= mines
    return (
        clues_ok
        and revealed_safe
        and len(mines) == position.mines
        and all(oracle.board_rule_holds(letter, mines, w, h) for letter in board)
    )


def _oracle_certain(position: Position, rules: str) -> tuple[set[Cell], set[Cell]]:
    found = oracle.layouts(
        position.cells, position.width, position.height, position.mines, rules, runs=_runs(position)
    )
    hidden = position.hidden_cells()
    probs = oracle.probabilities(found, list(hidden))
    return {c for c in hidden if probs[c] == 0}, {c for c in hidden if probs[c] == 1}


def scope(rules: str, clue: Cell, width: int, height: int) -> set[Cell]:
    """The cells a clue reads: its region, or under E its whole row and column (a line of sight)."""
    ruleset = parse_rules(rules)
    if "E" in str(ruleset):
        return {(clue[0], c) for c in range(width)} | {(r, clue[1]) for r in range(height)}
    return set(region(ruleset, clue, width, height))


def _explanation_holds_locally(position: Position, rules: str, explanation) -> bool:  # noqa: ANN001
    """The oracle over the hidden cells of the explanation's clues: do they force the cell?"""
    canonical = str(parse_rules(rules))
    clue_rules, _ = oracle.split(canonical)
    cells = {explanation.cell}
    for clue in explanation.clues:
        cells |= {c for c in scope(rules, clue, position.width, position.height) if position[c] == HIDDEN}
    cells_list = sorted(cells)
    flags = set(position.flagged_cells())
    values = set()
    for bits in itertools.product((0, 1), repeat=len(cells_list)):
        mines = flags | {c for c, b in zip(cells_list, bits, strict=True) if b}
        if all(clue_holds(position, clue_rules, mines, c) for c in explanation.clues):
            values.add(explanation.cell in mines)
    return values == {explanation.is_mine}


def _check_locally(position: Position, rules: str, h) -> bool:  # noqa: ANN001
    """An explanation of clues alone whose cells are few: the oracle over them forces the cell.

    Whether it was checked (the assertion fails if the clues do not force it).
    """
    if h.rules or h.uses_total:
        return False
    covered = {h.cell} | {
        c
        for clue in h.clues
        for c in scope(rules, clue, position.width, position.height)
        if position[c] == HIDDEN
    }
    if len(covered) > LOCAL_CELLS:
        return False
    assert _explanation_holds_locally(position, rules, h), h.describe()
    return True


def solve_by_hints(position: Position, rules: str, mines: set[Cell], *, with_total: bool = True) -> list[str]:
    """Every hint from the start to the solved board; each step checked (see the module).

    ``with_total=False`` (a puzzle published without its mine total): no hint may use the
    total, so the hints alone prove the solution unique without it.
    """
    ruleset = parse_rules(rules)
    steps = []
    local_checks = 0
    while position.hidden_cells():
        hidden = set(position.hidden_cells())
        enumerate_now = (
            ruleset.is_local or set(ruleset.board) <= ENUMERATED or len(hidden) <= CONNECTED_ENUMERATION
        )
        analysis = solve_variant(position, ruleset, probabilities=enumerate_now)
        certain_safe, certain_mines = set(analysis.safe), set(analysis.mines)
        # The unique solution stays the only one: every hidden cell is certain, as it says.
        assert certain_safe | certain_mines == hidden
        assert certain_mines == hidden & mines
        if enumerate_now:  # second formulation: pipeline or enumeration probabilities
            probs = analysis.probabilities
            assert probs is not None and analysis.layouts == 1
            assert {c for c, p in probs.items() if p == 0} == certain_safe
            assert {c for c, p in probs.items() if p == 1} == certain_mines
        if len(hidden) <= ORACLE_HIDDEN:  # second formulation: brute force
            assert _oracle_certain(position, str(ruleset)) == (certain_safe, certain_mines)
        h = hint(analysis)
        assert h is not None, "no hint while cells are hidden"
        assert h.cell in hidden and h.is_mine == (h.cell in mines)
        assert h.clues or h.rules or h.uses_total
        # A puzzle published without its mine total: no deduction may use the count in the header.
        assert not (h.uses_total and not with_total), h.describe()
        local_checks += _check_locally(position, rules, h)
        steps.append(h.describe())
        position = position.replace({h.cell: FLAG if h.is_mine else NO_CLUE})
    assert set(position.flagged_cells()) == mines
    assert local_checks > 0 or not steps
    return steps


@pytest.mark.parametrize("path", _params())
def test_published_puzzle_solved_by_hints(path: Path) -> None:
    rules, position, meta = load(path)
    assert meta.get("puzzle") and meta.get("transcribed from"), "a puzzle names its source"
    mines = solution(position, rules)
    assert oracle_accepts(position, rules, mines)
    with_total = not meta.get("total", "").startswith("not given")
    steps = solve_by_hints(position, rules, mines, with_total=with_total)
    assert len(steps) == len(position.hidden_cells())


def test_every_puzzle_is_listed_in_sources() -> None:
    sources = (PUZZLES / "SOURCES.md").read_text(encoding="utf-8")
    for path in PUZZLES.glob("*.mine"):
        assert path.name in sources, path.name


def test_a_wrong_transcription_is_caught() -> None:
    """One clue changed: the puzzle no longer has exactly one solution, or none at all."""
    from analyzer.errors import InconsistentBoardError

    rules, position, _ = load(PUZZLES / "pku-mv01-v.mine")
    clue = position.clue_cells()[0]
    broken = position.replace({clue: position[clue] + 1})
    with pytest.raises((AssertionError, InconsistentBoardError)):
        solution(broken, rules)


def test_mv01_transcription_matches_the_published_guide() -> None:
    """The association's step-by-step guide to MV01 (info.pkupuzzle.art, zhibi-017) names clues in
    chess coordinates (column letter, row number from the top): each one is in our transcription."""
    _, position, _ = load(PUZZLES / "pku-mv01-v.mine")
    guide = {"E4": 3, "G7": 5, "G5": 2, "E8": 2, "F6": 4, "E5": 2, "A6": 2, "C6": 4}
    for name, value in guide.items():
        cell = (int(name[1:]) - 1, ord(name[0]) - ord("A"))
        assert position[cell] == value, name


# The game's own levels ----------------------------------------------------------------


def decode_record(board: str, width: int, height: int) -> tuple[list[str], list[str]]:
    """A level record's board (tonsky/sapper's format) as answer rows and start rows.

    One character a cell, row-major: ``f`` a mine, ``F`` a mine flagged at the start, ``o``
    a safe cell with a number, ``O`` the same open at the start, ``q`` a safe cell without a
    number (it opens as ``?``), ``Q`` the same open at the start. A number is the count of
    mines among the 8 cells around (the game stores none). Rows in the position alphabet.
    """
    assert len(board) == width * height and set(board) <= set("foqFOQ"), board
    mines = {divmod(i, width) for i, ch in enumerate(board) if ch in "fF"}
    answer, start = [], []
    for i, ch in enumerate(board):
        if ch in "fF":
            shown = "F"
        elif ch in "qQ":
            shown = "?"
        else:
            shown = str(oracle.shows("V", mines, divmod(i, width), width, height).pop())
        answer.append(shown)
        start.append(shown if ch.isupper() else "H")
    return (
        ["".join(answer[r * width : (r + 1) * width]) for r in range(height)],
        ["".join(start[r * width : (r + 1) * width]) for r in range(height)],
    )


def from_record(record: str) -> tuple[str, Position, Position]:
    """A level's record (``level board difficulty``): its rule letters, start and answer."""
    level, board, _ = record.split()
    size = re.fullmatch(r"(?:\[[A-Z']+\])+(\d+)x(\d+)-(\d+)-\w+", level)
    assert size is not None, level
    width, height, total = map(int, size.groups())
    answer_rows, start_rows = decode_record(board, width, height)
    head = f"{width}x{height}x{total}\n"
    start = Position.from_text(head + "\n".join(start_rows) + "\n")
    answer = Position.from_text(head + "\n".join(answer_rows) + "\n")
    return "".join(re.findall(r"\[([A-Z']+)\]", level)), start, answer


def game_answer(meta: dict[str, str], position: Position) -> Position:
    """The header's ``answer`` rows as a position (every cell shown)."""
    rows = meta["answer"].split("\n")
    head = f"{position.width}x{position.height}x{position.mines}\n"
    return Position.from_text(head + "\n".join(rows) + "\n")


def solve_game_by_hints(position: Position, rules: str, answer: Position) -> list[str]:
    """Play a level of the game by hints from its start to the end; each step checked.

    Each step: the certain cells (CP-SAT) must include a cell (else the position is stuck
    under our rules), agree with the answer, and agree with a second formulation (the exact
    pipeline or the enumeration of every layout; the brute-force oracle from
    ``ORACLE_HIDDEN`` hidden cells on); the hint's explanation is checked locally by the
    oracle as for the paper puzzles. The hinted cell is then revealed as the game does: a
    mine is flagged, a safe cell shows the answer's number or ``?``.
    """
    ruleset = parse_rules(rules)
    mines = set(answer.flagged_cells())
    enumerate_from = GAME_CONNECTED_ENUMERATION if "C" in ruleset.board else GAME_ENUMERATION
    steps = []
    local_checks = 0
    while position.hidden_cells():
        hidden = set(position.hidden_cells())
        enumerate_now = ruleset.is_local or len(hidden) <= enumerate_from
        analysis = solve_variant(position, ruleset, probabilities=enumerate_now, limit=GAME_LAYOUT_LIMIT)
        certain_safe, certain_mines = set(analysis.safe), set(analysis.mines)
        assert certain_safe or certain_mines, f"stuck: no certain cell under {rules} in\n{position.to_text()}"
        assert not certain_safe & mines and certain_mines <= mines, "a certain cell against the answer"
        probs = analysis.probabilities
        if probs is not None:  # second formulation: pipeline or enumeration probabilities
            assert {c for c, p in probs.items() if p == 0} == certain_safe
            assert {c for c, p in probs.items() if p == 1} == certain_mines
        elif enumerate_now:
            assert not ruleset.is_local, analysis.probability_method
        if len(hidden) <= ORACLE_HIDDEN:  # second formulation: brute force
            assert _oracle_certain(position, str(ruleset)) == (certain_safe, certain_mines)
        h = hint(analysis)
        assert h is not None and h.cell in hidden and h.is_mine == (h.cell in mines)
        assert h.clues or h.rules or h.uses_total
        local_checks += _check_locally(position, rules, h)
        steps.append(h.describe())
        position = position.replace({h.cell: answer[h.cell]})
    assert position == answer
    assert local_checks > 0
    return steps


def _game_params(*, solving: bool) -> list[object]:
    out = []
    for path in sorted(PUZZLES.glob(f"{GAME_PREFIX}*.mine")):
        marks = [pytest.mark.slow] if solving and path.stem not in GAME_FAST else []
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


@pytest.mark.parametrize("path", _game_params(solving=False))
def test_game_level_transcribed(path: Path) -> None:
    """The file's start and answer are its record's, and the answer meets every clue and rule."""
    rules, position, meta = load(path)
    record_rules, start, answer = from_record(meta["record"])
    assert parse_rules(rules) == parse_rules(record_rules)
    assert position == start
    assert game_answer(meta, position) == answer
    assert oracle_accepts(answer, rules, set(answer.flagged_cells()))


@pytest.mark.parametrize("path", _game_params(solving=True))
def test_game_level_solved_by_hints(path: Path) -> None:
    rules, position, meta = load(path)
    answer = game_answer(meta, position)
    steps = solve_game_by_hints(position, rules, answer)
    assert len(steps) == len(position.hidden_cells())


def sapper_positions() -> list[tuple[str, Position, str, list[str]]]:
    """``tests/variants/sapper-forced.txt``: (level, position, rules, sapper's forced rows)."""
    text = (PUZZLES / "sapper-forced.txt").read_text(encoding="utf-8")
    out = []
    for block in text.split("Given:\n")[1:]:
        level, *rest = block.strip().split("\n")
        split = rest.index("Expect hint:")
        given, forced = rest[:split], rest[split + 1 :]
        size = re.fullmatch(r"(?:\[[A-Z']+\])+(\d+)x(\d+)-(\d+)-\w+", level)
        assert size is not None, level
        width, height, total = map(int, size.groups())
        assert len(given) == height and len(forced) == height, level
        rows = [row.replace(".", "H").replace("-", "?") for row in given]
        position = Position.from_text(f"{width}x{height}x{total}\n" + "\n".join(rows) + "\n")
        out.append((level, position, "".join(re.findall(r"\[([A-Z']+)\]", level)), forced))
    return out


SAPPER = sapper_positions()
# T' (every mine in a line of three) is not one of our rules.
SAPPER_OURS = [p for p in SAPPER if "'" not in p[2]]


def test_sapper_positions_are_read() -> None:
    assert len(SAPPER) == 21 and len(SAPPER_OURS) == 19
    for level, position, _, forced in SAPPER:
        for r, row in enumerate(forced):  # the forced rows repeat the position where it is shown
            assert len(row) == position.width, level
            for c, mark in enumerate(row):
                assert (mark in ".SD") == (position[r, c] == HIDDEN), (level, r, c)


@pytest.mark.parametrize("level, position, rules, forced", SAPPER_OURS, ids=[p[0] for p in SAPPER_OURS])
def test_certain_cells_equal_sappers_forced_cells(
    level: str, position: Position, rules: str, forced: list[str]
) -> None:
    """Our certain cells are exactly the cells sapper's solver finds forced, position by position."""
    theirs_safe = {(r, c) for r, row in enumerate(forced) for c, m in enumerate(row) if m == "S"}
    theirs_mines = {(r, c) for r, row in enumerate(forced) for c, m in enumerate(row) if m == "D"}
    analysis = solve_variant(position, rules, probabilities=False)
    assert (set(analysis.safe), set(analysis.mines)) == (theirs_safe, theirs_mines), level


def test_sapper_positions_agree_with_the_levels() -> None:
    """Each test position of a level kept here shows the level's answer wherever it shows a cell."""
    answers, also_in = {}, set()
    for path in PUZZLES.glob(f"{GAME_PREFIX}*.mine"):
        _, position, meta = load(path)
        level = meta["record"].split()[0]
        answers[level] = game_answer(meta, position)
        if "dev/tests.txt" in meta.get("also in", ""):
            also_in.add(level)
    matched = set()
    for level, position, _, _ in SAPPER:
        if level in answers:
            matched.add(level)
            answer = answers[level]
            assert all(v in (HIDDEN, answer.cells[i]) for i, v in enumerate(position.cells)), level
    assert matched == also_in and len(matched) == 12


# A seeded sample of the game's levels, stored as its records (tests/variants/mv14-sample.txt).
SAMPLE = [
    line
    for line in (PUZZLES / "mv14-sample.txt").read_text(encoding="utf-8").splitlines()
    if line and not line.startswith("#")
]


def test_sample_records_are_the_games() -> None:
    """10 levels of each rule at 5x5 and 6x6, 6 at 7x7 and 8x8; each answer meets its clues, rules
    and total (the oracle), and its start shows the answer."""
    kinds: dict[tuple[str, int], int] = {}
    for record in SAMPLE:
        rules, start, answer = from_record(record)
        kinds[rules, start.width] = kinds.get((rules, start.width), 0) + 1
        assert all(v in (HIDDEN, answer.cells[i]) for i, v in enumerate(start.cells)), record
        assert oracle_accepts(answer, rules, set(answer.flagged_cells())), record
    assert kinds == {(rules, size): 10 if size < 7 else 6 for rules in "VQCTD" for size in (5, 6, 7, 8)}
    assert SAMPLE_FAST.issubset(record.split()[0] for record in SAMPLE)  # the default run's level is one


@pytest.mark.parametrize(
    "record",
    [
        pytest.param(
            record, id=record.split()[0], marks=[] if record.split()[0] in SAMPLE_FAST else [pytest.mark.slow]
        )
        for record in SAMPLE
    ],
)
def test_sample_level_solved_by_hints(record: str) -> None:
    """Every level of the sample is played to its end by hints under our rules (about 270 s in all;
    one, D's, in the default run: SAMPLE_FAST)."""
    rules, start, answer = from_record(record)
    steps = solve_game_by_hints(start, rules, answer)
    assert len(steps) == len(start.hidden_cells())
