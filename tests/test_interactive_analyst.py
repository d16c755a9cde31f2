"""The analyst's second pass on the interactive board (issue 55), without a browser.

Ranked candidate guesses, numbers that follow flags in edit mode, the end game's
winning line: each against a brute force over the layouts or the library.
What the page shows of them is tested in tests/test_interactive_analyst_browser.py.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from analyzer import Board, Game, solve
from analyzer.board.board import FLAG, HIDDEN
from analyzer.interactive.session import Session
from analyzer.play.players.endgame import endgame_layouts, endgame_line, endgame_search
from analyzer.play.players.expert import ExpertPlayer, ranked_guesses

MIDDLE_TWO = "3x3x2\nHHH\nH2H\nHHH\n"


def layouts_of(board: Board) -> list[frozenset[int]]:
    """Every mine layout that fits the board, by trying every set of hidden cells (tiny boards only)."""
    hidden = [i for i, v in enumerate(board.cells) if v == HIDDEN]
    flags = {i for i, v in enumerate(board.cells) if v == FLAG}
    table = board.neighbour_table
    found = []
    for mines in itertools.combinations(hidden, board.mines - len(flags)):
        placed = set(mines) | flags
        if all(v < 0 or sum(j in placed for j in table[i]) == v for i, v in enumerate(board.cells)):
            found.append(frozenset(mines))
    return found


def brute_figures(board: Board, index: int) -> tuple[Fraction, Fraction, Fraction]:
    """Safety, progress and secondary safety of a guess at ``index``, from the layouts themselves."""
    layouts = layouts_of(board)
    table = board.neighbour_table
    hidden = [i for i, v in enumerate(board.cells) if v == HIDDEN and i != index]
    by_number: dict[int, list[frozenset[int]]] = {}
    for layout in layouts:
        if index not in layout:
            by_number.setdefault(sum(j in layout for j in table[index]), []).append(layout)
    progress = secondary = 0
    for group in by_number.values():
        mined = {j: sum(j in layout for layout in group) for j in hidden}
        if any(count == 0 for count in mined.values()):
            progress += len(group)
            secondary += len(group)
        else:  # the safest next guess (a group where every cell left is a mine is won: 1)
            doubt = [len(group) - count for count in mined.values() if count < len(group)]
            secondary += max(doubt) if doubt else len(group)
    safe = sum(len(group) for group in by_number.values())
    total = len(layouts)
    return Fraction(safe, total), Fraction(progress, total), Fraction(secondary, total)


@pytest.mark.parametrize(
    "text",
    [MIDDLE_TWO, "4x4x3\nHHHH\nH2HH\nHHHH\nHHHH\n", "5x3x3\nHHHHH\nH2HHH\nHHHHH\n", "4x2x2\nHHHH\n1HH1\n"],
)
def test_ranked_candidates_have_the_brute_force_figures_and_lead_with_the_experts_guess(text: str) -> None:
    board = Board.from_text(text)
    analysis = solve(board)
    rows = Session(text).candidates()["rows"]
    assert rows, text
    player = ExpertPlayer()
    assert rows[0]["cell"] == list(divmod(player.best_guess(board, analysis), board.width))
    scores = [Fraction(r["safety"]) + Fraction(r["progress"]) for r in rows]
    assert scores == sorted(scores, reverse=True)
    for row in rows:
        index = row["cell"][0] * board.width + row["cell"][1]
        want = brute_figures(board, index)
        assert (Fraction(row["safety"]), Fraction(row["progress"]), Fraction(row["secondary"])) == want, row
        assert row["percent"]["secondary"] == pytest.approx(float(want[2]) * 100)


def test_the_candidates_of_a_2_in_the_middle_are_exact() -> None:
    guesses = ranked_guesses(Board.from_text(MIDDLE_TWO), solve(MIDDLE_TWO))
    corner, edge = guesses[0], guesses[-1]
    assert (corner.cell, corner.safety, corner.progress, corner.secondary) == (
        (0, 0),
        Fraction(3, 4),
        Fraction(11, 28),
        Fraction(19, 28),
    )
    assert (edge.cell, edge.progress, edge.secondary) == ((2, 1), Fraction(9, 28), Fraction(9, 14))


def test_the_table_leads_with_the_experts_candidates_then_looks_wider() -> None:
    session = Session(Game.new(30, 16, 99, seed=4))
    session.act({"type": "cell", "cell": [8, 15], "button": "left"})
    session.act({"type": "autoplay", "until": "guess"})  # the first guess of the game
    board, analysis = session.board, session.analysis
    assert analysis is not None and not analysis.safe
    rows = session.candidates()["rows"]
    player = ExpertPlayer()
    assert rows[0]["cell"] == list(divmod(player.best_guess(board, analysis), board.width))
    own = {divmod(i, board.width) for i in player._candidates(board, analysis)}
    assert [row["expert"] for row in rows] == [tuple(row["cell"]) in own for row in rows]
    assert rows[0]["expert"] and not rows[-1]["expert"] and len(rows) == 5
    lowest = min(p for p in analysis.cell_probabilities if p is not None and 0 < p < 1)
    wide = ranked_guesses(board, analysis, player=ExpertPlayer(margin=Fraction(1, 10)))
    figures = {g.cell: g for g in wide}
    for row in rows:
        g = figures[tuple(row["cell"])]
        assert (row["safety"], row["progress"], row["secondary"]) == tuple(
            f"{f.numerator}/{f.denominator}" for f in (g.safety, g.progress, g.secondary)
        )
        assert 1 - g.safety <= lowest + Fraction(1, 10)
    # The first cell outside the expert's margin is the safer two clicks deep: 165/181 > 5684717/6360159.
    assert Fraction(rows[1]["secondary"]) > Fraction(rows[0]["secondary"])


def test_candidates_are_shown_on_demand_and_say_why_there_are_none() -> None:
    session = Session(MIDDLE_TWO)
    assert session.view()["candidates"] is None and session.view()["shown"]["candidates"] is False
    session.act({"type": "candidates", "on": True})
    view = session.view()
    assert view["shown"]["candidates"] is True and len(view["candidates"]["rows"]) == 5
    assert view["candidates"]["text"] == (
        "5 candidate guesses: the expert player's first (within 2 percentage points of the safest),"
        " then the rest within 10, each by safety + progress"
    )
    session.act({"type": "key", "cell": [0, 0], "key": "0"})  # a 0 in the corner: three safe cells
    assert session.view()["candidates"] == {"rows": [], "text": "2 certainly safe cells: no guess needed"}
    session.act({"type": "mines", "mines": 9})
    assert session.view()["candidates"]["text"] == "no candidate guesses without an exact analysis"
    session.act({"type": "candidates", "on": "yes"})
    assert session.note == "candidates must be True or False, got 'yes'"
    game = Session(Game.new(9, 9, 10, seed=3))  # before the first click: its rule keeps it safe
    assert game.candidates() == {
        "rows": [],
        "text": "the first click is safe under this game's rule: no guess to rank",
    }
    assert Session(Game.new(9, 9, 10, seed=3, first_click="none")).candidates()["rows"]


def test_numbers_follow_a_flag_placed_and_removed_in_edit_mode() -> None:
    session = Session("3x3x4\nHHH\nH1H\n0HH\n")
    session.act({"type": "cell", "cell": [0, 0], "button": "right"})  # a flag: the 1 beside it becomes 2
    assert session.board == Board.from_text("3x3x4\nFHH\nH2H\n0HH\n")
    session.act({"type": "key", "cell": [2, 1], "key": "f"})  # beside the 2 and the 0
    assert session.board == Board.from_text("3x3x4\nFHH\nH3H\n1FH\n")
    session.act({"type": "key", "cell": [0, 0], "key": "h"})  # removed: each number around one less
    assert session.board == Board.from_text("3x3x4\nHHH\nH2H\n1FH\n")
    session.act({"type": "paint", "cells": [[0, 1], [0, 2]], "value": "flag"})
    assert session.board == Board.from_text("3x3x4\nHFF\nH4H\n1FH\n")
    session.act({"type": "undo"})
    assert session.board == Board.from_text("3x3x4\nHHH\nH2H\n1FH\n")
    session.act({"type": "cell", "cell": [2, 1], "button": "left"})  # flag -> hidden: the numbers follow
    assert session.board == Board.from_text("3x3x4\nHHH\nH1H\n0HH\n")
    assert session.view()["shown"]["adjust_numbers"] is True


def test_numbers_stay_as_typed_when_the_option_is_off() -> None:
    session = Session("3x3x2\nHHH\nH1H\n0HH\n")
    session.act({"type": "adjust_numbers", "on": False})
    session.act({"type": "cell", "cell": [0, 0], "button": "right"})
    assert session.board == Board.from_text("3x3x2\nFHH\nH1H\n0HH\n")
    assert session.view()["shown"]["adjust_numbers"] is False
    assert Session("3x1x1\nH1H\n", adjust_numbers=False).adjust_numbers is False


def test_the_winning_line_adds_up_to_the_chance_and_starts_with_the_searchs_move() -> None:
    board = Board.from_text("4x2x2\nHHHH\n1HH1\n")
    layouts = endgame_layouts(board, limit=100)
    assert layouts is not None and sorted(layouts, key=sorted) == sorted(layouts_of(board), key=sorted)
    line = endgame_line(board, layouts, max_nodes=10_000, depth=3)
    assert line is not None and (line["cell"], line["wins"]) == endgame_search(
        board, layouts, max_nodes=10_000
    )

    def check(node: dict, board: Board, layouts: list[frozenset[int]]) -> None:
        assert node["layouts"] == len(layouts)
        safe = [layout for layout in layouts if node["cell"] not in layout]
        if not node["replies"]:  # as deep as the line goes
            return
        assert sum(reply["layouts"] for reply in node["replies"]) == len(safe)
        wins = sum(
            reply["layouts"] if reply["line"] is None else reply["line"]["wins"] for reply in node["replies"]
        )
        assert wins == node["wins"]
        for reply in node["replies"]:
            after = board.replace({divmod(i, board.width): n for i, n in reply["shown"]})
            group = layouts_of(after)
            assert len(group) == reply["layouts"]
            if reply["line"] is not None:
                check(reply["line"], after, group)

    check(line, board, layouts)


def test_the_win_chance_shows_the_line_of_best_play() -> None:
    session = Session("4x2x2\nHHHH\n1HH1\n")
    session.act({"type": "win", "on": True})
    win = session.view()["win"]
    assert win["p"] == "4/9" and win["cell"] == [0, 1]
    line = win["line"]
    assert line["cell"] == [0, 1] and line["p"] == "4/9"
    assert [(r["shown"], r["chance"]) for r in line["replies"]] == [
        ([[0, 1, 2]], "4/9"),
        ([[0, 1, 1]], "2/9"),
    ]
    assert line["replies"][1]["line"]["cell"] == [0, 2] and line["replies"][1]["line"]["p"] == "1/1"
    assert win["line_text"].splitlines() == [
        "reveal (0, 1) (a mine 1/3 of the time): wins 4/9",
        "  if (0, 1) shows 2 (4/9): ",
        "    reveal (0, 3): wins 1/2",
        "      if (0, 3) shows 1 (always): ",
        "        reveal (0, 2): wins 1/2",
        "  if (0, 1) shows 1 (2/9): ",
        "    reveal (0, 2): wins for sure",
        "      if (0, 2) shows 1 (1/2): every cell is known: won",
        "      if (0, 2) shows 2 (1/2): every cell is known: won",
    ]
    assert Session("3x1x1\nH1H\n").win_chance()["line_text"].startswith("reveal (0, 0)")


def test_the_position_query_gives_the_position_shown_and_never_the_layout() -> None:
    session = Session(Game.new(9, 9, 10, seed=3))
    session.act({"type": "cell", "cell": [4, 4], "button": "left"})
    version = session.view()["version"]
    answer = session.act({"type": "exact", "of": "position"})
    assert answer == {"type": "exact", "of": "position", "text": session.board.to_text()}
    shared = Board.from_text(answer["text"])
    assert shared.cells == session.game.board.cells and HIDDEN in shared.cells  # the mines stay hidden
    assert session.view()["version"] == version
    session.act({"type": "exact", "of": "secrets"})
    assert session.note == "exact of what? 'layouts', 'luck' or 'position', got 'secrets'"


def test_the_widget_shows_the_candidates_the_line_and_follows_flags() -> None:
    pytest.importorskip("anywidget")
    from analyzer.interactive.jupyter import BoardWidget

    w = BoardWidget("4x2x2\nHHHH\n1HH1\n")
    w.act({"type": "candidates", "on": True})
    w.act({"type": "win", "on": True})
    w.wait(30)
    assert w.view["candidates"] == w.session.candidates() and w.view["candidates"]["rows"]
    assert w.view["win"]["line_text"].startswith("reveal (0, 1) (a mine 1/3 of the time): wins 4/9")
    w.act({"type": "cell", "cell": [0, 0], "button": "right"})
    w.wait(30)
    assert w.board == Board.from_text("4x2x2\nFHHH\n2HH1\n")
    assert BoardWidget("3x1x1\nH1H\n", adjust_numbers=False).session.adjust_numbers is False
