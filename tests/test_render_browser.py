"""The HTML picture of an analysis, as Chromium draws it: what a person sees."""

from __future__ import annotations

from pathlib import Path

from browser import page

from analyzer import solve
from analyzer.play.positions import mid_game
from analyzer.render import analysis_html, probability_colour


def _css_rgb(colour: str) -> str:
    return "rgb(" + ", ".join(str(int(colour[k : k + 2], 16)) for k in (1, 3, 5)) + ")"


def test_an_expert_analysis_as_chromium_draws_it(tmp_path: Path) -> None:
    analysis = solve(mid_game(30, 16, 99, seed=1))
    best = analysis.best_moves(1)[0].cell
    with page() as tab:
        tab.set_content(f"<html><body>{analysis_html(analysis, best=best)}</body></html>")
        cells = tab.eval_on_selector_all(
            "td",
            """cells => cells.map(c => ({
                cell: c.dataset.cell, text: c.textContent, title: c.title,
                overflow: c.scrollWidth > c.clientWidth + 1 || c.scrollHeight > c.clientHeight + 1,
                width: c.getBoundingClientRect().width,
                background: getComputedStyle(c).backgroundColor,
                outline: getComputedStyle(c).outlineStyle,
            }))""",
        )
        tab.screenshot(path=str(tmp_path / "expert.png"), full_page=True)
    assert len(cells) == 30 * 16
    assert not [c["cell"] for c in cells if c["overflow"]]  # nothing runs out of its cell
    assert max(c["width"] for c in cells) - min(c["width"] for c in cells) < 1  # an even grid
    by_cell = {tuple(map(int, c["cell"].split(","))): c for c in cells}
    for index, p in enumerate(analysis.cell_probabilities):
        cell = divmod(index, 30)
        if p is None:
            continue
        shown = by_cell[cell]
        assert shown["background"] == _css_rgb(probability_colour(float(p)))
        assert shown["title"].startswith(f"{cell}: ")
    outlined = [c for c, shown in by_cell.items() if shown["outline"] != "none"]
    assert outlined == [best]
    assert (tmp_path / "expert.png").stat().st_size > 10_000
