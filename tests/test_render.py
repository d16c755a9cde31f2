"""Pictures and text of boards and analyses: what a person reads."""

from __future__ import annotations

import re
from fractions import Fraction

from analyzer import solve
from analyzer.render import analysis_html, analysis_text, percent_text

LOW = "20x10x1\n" + "H" * 20 + "\n" + ("H" * 20 + "\n") * 9  # 200 cells, 1 mine: each 1/200
HIGH = "20x10x199\n" + ("H" * 20 + "\n") * 10  # each 199/200


def test_percentages_never_round_to_0_or_100() -> None:
    assert [percent_text(Fraction(n, 1000)) for n in (1, 4, 5, 6, 995, 996, 999)] == [
        "<1",
        "<1",
        "<1",
        "1",
        ">99",
        ">99",
        ">99",
    ]


def test_the_text_board_shows_small_and_large_odds_as_bounds() -> None:
    low = analysis_text(solve(LOW))
    assert low.splitlines()[1].split()[1:] == ["<1"] * 20
    assert " 0 " not in low.splitlines()[1][3:]
    high = analysis_text(solve(HIGH))
    assert high.splitlines()[1].split()[1:] == [">99"] * 20


def test_the_html_board_shows_small_and_large_odds_as_bounds() -> None:
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", analysis_html(solve(LOW)))
    assert cells and set(cells) == {"&lt;1"}
    assert 'title="P(mine) = 1/200"' in analysis_html(solve(LOW))
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", analysis_html(solve(HIGH)))
    assert set(cells) == {"&gt;99"}


def test_one_mine_is_singular() -> None:
    assert "20x10, 1 mine;" in analysis_html(solve(LOW))
