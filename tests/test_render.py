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
    assert 'title="(9, 19): P(mine) = 1/200"' in analysis_html(solve(LOW))  # the cell named
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", analysis_html(solve(HIGH)))
    assert set(cells) == {"&gt;99"}


def test_one_mine_is_singular() -> None:
    assert "20x10, 1 mine;" in analysis_html(solve(LOW))


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def test_the_colour_scale_tells_safe_low_middling_high_and_mine_apart() -> None:
    from analyzer.render import probability_colour

    steps = [probability_colour(p) for p in (0.0, 0.05, 0.2, 0.5, 0.8, 1.0)]
    for i, a in enumerate(steps):
        for b in steps[i + 1 :]:
            distance = sum((x - y) ** 2 for x, y in zip(_rgb(a), _rgb(b), strict=True)) ** 0.5
            assert distance > 40, (a, b)
    # 20 % is far from a certainly safe cell now (it was nearly the same green).
    assert sum((x - y) ** 2 for x, y in zip(_rgb(steps[0]), _rgb(steps[2]), strict=True)) ** 0.5 > 150


def test_numbers_are_legible_on_every_colour() -> None:
    from analyzer.render import probability_colour, text_colour

    def luminance(colour: str) -> float:
        linear = [c / 255 for c in _rgb(colour)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in linear]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    for k in range(101):
        background = probability_colour(k / 100)
        ink = "#000000" if text_colour(background) == "#000" else "#ffffff"
        high, low = sorted((luminance(background), luminance(ink)), reverse=True)
        assert (high + 0.05) / (low + 0.05) >= 4.5, (k, background)  # WCAG AA for text


def test_certain_cells_show_marks_that_fit_and_the_grid_is_numbered() -> None:
    from analyzer.play.positions import mid_game
    from analyzer.render import MINE_MARK, SAFE_MARK

    analysis = solve(mid_game(30, 16, 99, seed=1))
    page = analysis_html(analysis, best=analysis.safe[0])
    texts = re.findall(r"<td[^>]*>([^<]*)</td>", page)
    assert "safe" not in texts and "mine" not in texts
    assert texts.count(SAFE_MARK) == len(analysis.safe) and texts.count(MINE_MARK) == len(analysis.mines)
    assert all(len(t) <= 3 for t in texts)  # every entry fits a cell: a mark, a number, <1 or >99
    assert re.findall(r"<th[^>]*>(\d+)</th>", page)[:30] == [str(c) for c in range(30)]
    r, c = analysis.safe[0]
    assert f'title="({r}, {c}): best move; certainly safe"' in page


def test_a_game_draws_itself_and_a_lost_one_shows_its_mines() -> None:
    from analyzer import Game

    game = Game.from_layout_text("*..\n...\n..*")
    game.reveal(0, 2)
    assert "3x3, 2 mines: playing" in game._repr_html_() and "✹" not in game._repr_html_()
    game.reveal(0, 0)
    page = game._repr_html_()
    assert "3x3, 2 mines: lost" in page
    assert 'title="(0, 0): the mine that was hit"' in page and 'title="(2, 2): mine"' in page
