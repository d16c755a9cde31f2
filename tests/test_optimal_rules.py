"""The per-rule table of perfect play (``python -m benchmarks.optimal_rules``)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.play.optimal import optimal
from benchmarks.optimal import boards
from benchmarks.optimal_rules import RULES, board_row, main, to_markdown

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize(("width", "height", "mines"), [(3, 3, 2), (4, 2, 3), (4, 3, 3), (3, 3, 7)])
def test_rows_are_the_searches_of_each_rule(width: int, height: int, mines: int) -> None:
    row = board_row(width, height, mines)
    for rule in RULES:
        try:
            direct = optimal(width, height, mines, first_click=rule)
        except Exception as error:  # no room for an opening
            assert row[rule] == {"error": str(error)}
            continue
        assert Fraction(row[rule]["probability"]) == direct.probability
        assert [tuple(c) for c in row[rule]["best_cells"]] == list(direct.best_cells)


def test_no_room_for_an_opening_is_a_dash() -> None:
    row = board_row(3, 3, 7)
    assert "room for at most 0 mines" in row["opening"]["error"]
    assert "| 3x3 | 7 |" in to_markdown([row]) and "| — | — |" in to_markdown([row])


def test_the_committed_table_holds_the_none_identity_and_every_board() -> None:
    """Each row: none = safe * (cells - mines) / cells (a first click is safe that often, and
    then the game is the safe one from that cell); small boards are searched again."""
    rows = [json.loads(line) for line in (DOCS / "optimal_rules.jsonl").read_text().splitlines() if line]
    assert {(r["width"], r["height"], r["mines"]) for r in rows} == set(boards())
    for row in rows:
        cells = row["width"] * row["height"]
        none, safe = Fraction(row["none"]["probability"]), Fraction(row["safe"]["probability"])
        assert none == safe * Fraction(cells - row["mines"], cells)
        assert row["none"]["best_cells"] == row["safe"]["best_cells"]
        if cells <= 9:
            for rule in RULES:
                if "probability" in row[rule]:
                    expected = optimal(
                        row["width"], row["height"], row["mines"], first_click=rule
                    ).probability
                    assert Fraction(row[rule]["probability"]) == expected
    table = (DOCS / "optimal_rules.md").read_text()
    assert table == to_markdown(rows)
    assert "| 4x4 | 4 | 961/1820 |" in table  # the published value (tests/test_optimal.py)


def test_the_command_resumes_and_limits_sizes(tmp_path: Path) -> None:
    jsonl, md = tmp_path / "rules.jsonl", tmp_path / "rules.md"
    assert main(["--jsonl", str(jsonl), "--output", str(md), "--sizes", "2x2"]) == 0
    first = jsonl.read_text().splitlines()
    assert len(first) == 4  # 2x2 with 0 to 3 mines
    assert main(["--jsonl", str(jsonl), "--output", str(md), "--sizes", "2x2,3x1"]) == 0
    assert jsonl.read_text().splitlines()[:4] == first  # kept, not computed again
    assert "| 3x1 | 1 |" in md.read_text()
    with pytest.raises(SystemExit):
        main(["--jsonl", str(jsonl), "--output", str(md), "--sizes", "two by two"])
