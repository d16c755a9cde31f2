"""The interactive board's state, its widget and its web server, without a browser.

What the page shows is checked in tests/test_interactive_browser.py; here the
actions, the values the Python side exposes, and the refusals.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from fractions import Fraction
from typing import Any

import pytest

from analyzer import Board, Game, GameError, OptionError, certain_cells, solve
from analyzer.cli import main
from analyzer.interactive.session import Session
from analyzer.interactive.web import WebServer
from analyzer.play.positions import clue_lattice
from analyzer.replays import analyse_replay, example_path, read_replay

BOARD = "5x4x4\nHHHHH\nH211H\nH1H1H\nHHHHH\n"


def fractions(view: dict[str, Any]) -> list[Fraction | None]:
    return [None if cell[5] is None else Fraction(cell[5]) for cell in view["cells"]]


def expected(board: Board) -> list[Fraction | None]:
    analysis = solve(board)
    return [
        None if p is None or board.cells[i] == -2 else p for i, p in enumerate(analysis.cell_probabilities)
    ]


def test_edit_clicks_cycle_hidden_number_flag_and_keys_set_cells() -> None:
    session = Session(BOARD)
    board = Board.from_text(BOARD)
    session.act({"type": "cell", "cell": [0, 0], "button": "left"})  # hidden -> its flag count (0)
    assert session.board[0, 0] == 0
    session.act({"type": "cell", "cell": [0, 0], "button": "left"})  # number -> flag
    assert session.board[0, 0] == -2
    session.act({"type": "cell", "cell": [0, 0], "button": "left"})  # flag -> hidden
    assert session.board == board
    session.act({"type": "cell", "cell": [0, 1], "button": "right"})
    session.act(
        {"type": "cell", "cell": [0, 0], "button": "left"}
    )  # a hidden cell becomes the flags around it
    assert session.board[0, 0] == 1
    session.act({"type": "key", "cell": [3, 4], "key": "3"})
    session.act({"type": "key", "cell": [3, 4], "key": "h"})
    session.act({"type": "key", "cell": [3, 3], "key": "f"})
    assert session.board == board.replace({(0, 0): 1, (0, 1): -2, (3, 3): -2})
    assert fractions(session.view()) == expected(session.board)
    session.act({"type": "mines", "mines": "5"})  # a form field sends text
    assert session.board.mines == 5
    session.act({"type": "resize", "width": 4, "height": 3, "mines": 2})
    assert session.board == Board(4, 3, 2, (-1,) * 12)


def test_the_view_is_the_libraries_answer_with_the_best_move() -> None:
    board = Board.from_text(BOARD)
    session = Session(board)
    quick = session.view(best=False)
    assert quick["best"] is None and quick["best_pending"]
    view = session.view()
    assert fractions(view) == expected(board)
    move = solve(board).best_moves(1)[0]
    assert view["best"] == list(move.cell) and view["best_text"] == move.describe()
    assert not view["best_pending"]
    assert session.view(best=False)["best"] == list(move.cell)  # once scored, it is kept
    assert session.analysis == solve(board)
    json.dumps(view)  # all of it goes over the wire as JSON


def test_an_impossible_edit_names_the_clues_and_a_bad_total_says_why() -> None:
    session = Session("3x1x1\nH1H\n")
    session.act({"type": "key", "cell": [0, 2], "key": "3"})
    view = session.view()
    assert view["error"]["clues"] == [[0, 2]]
    assert "clue 3 at (0, 2)" in view["error"]["message"]
    assert all(cell[5] is None for cell in view["cells"]) and session.analysis is None
    session.act({"type": "key", "cell": [0, 2], "key": "h"})
    session.act({"type": "mines", "mines": 9})  # more mines than cells: not a board
    view = session.view()
    assert view["error"]["message"] == "more mines (9) than unrevealed cells (2)"
    assert view["width"] == 3 and len(view["cells"]) == 3


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"type": "cell", "cell": [7, 0]}, "off the 3x1 board"),
        ({"type": "cell", "cell": "0,0"}, "a cell is [row, column]"),
        ({"type": "cell", "cell": [0, 0], "button": "middle"}, "button must be"),
        ({"type": "key", "cell": [0, 0], "key": "9"}, "sets nothing"),
        ({"type": "mines", "mines": -1}, "mines must be an integer >= 0"),
        ({"type": "resize", "width": 0, "height": 3, "mines": 0}, "between 1 and 200"),
        ({"type": "fly"}, "unknown action 'fly'"),
        ({"type": "step", "step": 1}, "needs replay mode"),
        ({"type": "mode", "mode": "replay"}, "no replay is open"),
        ({"type": "why", "cell": [0, 0]}, "is not certain"),
        ([1, 2], "an action is a dict"),
    ],
)
def test_a_refused_action_leaves_a_note_and_changes_nothing(action: Any, words: str) -> None:
    session = Session("3x1x1\nH1H\n")
    before = session.view()
    session.act(action)
    assert words in session.note
    after = session.view()
    assert after["note"] == session.note
    assert {k: v for k, v in after.items() if k != "note"} == {k: v for k, v in before.items() if k != "note"}


def test_why_gives_the_explanation_of_a_certain_cell() -> None:
    board = Board.from_text("6x3x3\nHHHHHH\n12H21H\nHHHHHH\n")
    session = Session(board)
    cell = solve(board).safe[0]
    session.act({"type": "why", "cell": list(cell)})
    explanation = solve(board).explain(*cell)
    assert session.view()["why"] == explanation.to_dict() | {"text": explanation.describe()}
    session.act({"type": "cell", "cell": [0, 0], "button": "right"})
    assert session.view()["why"] is None  # an edit clears it


def test_play_mode_is_the_game_and_the_best_move_plays() -> None:
    session = Session(None, seed=4)
    game = session.game
    assert session.mode == "play" and game is not None and (game.width, game.height) == (9, 9)
    reference = Game.new(9, 9, 10, seed=4)
    session.act({"type": "cell", "cell": [4, 4], "button": "left"})
    reference.reveal(4, 4)
    assert session.board == reference.board
    assert fractions(session.view()) == expected(reference.board)
    move = solve(reference.board).best_moves(1)[0]
    session.act({"type": "play_best"})
    reference.reveal(*move.cell)
    assert session.board == reference.board
    number = next(c for c in reference.board.revealed_cells() if reference.board[c] > 0)
    session.act({"type": "cell", "cell": list(number), "button": "left"})  # a chord without its flags
    assert "flag" in session.note
    session.act({"type": "new_game", "width": 16, "height": 16, "mines": 40, "seed": "12"})
    assert session.view()["game"] == {
        "status": "playing",
        "width": 16,
        "height": 16,
        "mines": 40,
        "seed": 12,
        "first_click": "safe",
        "safe_left": 216,
    }


def test_a_lost_game_shows_every_mine_and_refuses_more_clicks() -> None:
    game = Game.new(9, 9, 10, seed=1)
    session = Session(game)
    session.act({"type": "cell", "cell": [0, 0]})
    mine = sorted(game.mines or ())[0]
    session.act({"type": "cell", "cell": list(mine)})
    assert game.status == "lost"
    view = session.view()
    kinds = {divmod(i, 9): cell[1] for i, cell in enumerate(view["cells"])}
    assert {c for c, k in kinds.items() if k in ("fatal", "layout-mine")} == set(game.mines or ())
    assert [c for c, k in kinds.items() if k == "fatal"] == [mine]
    assert view["best"] is None and session.analysis is None
    session.act({"type": "cell", "cell": [8, 8]})
    assert "the game is lost" in session.note


def test_mode_switches_carry_the_position() -> None:
    session = Session(None, seed=2)
    session.act({"type": "cell", "cell": [4, 4]})
    played = session.board
    session.act({"type": "mode", "mode": "edit"})
    assert session.mode == "edit" and session.board == played
    session.act({"type": "mode", "mode": "play"})
    assert session.mode == "play" and session.board.revealed_cells() == ()


def test_replay_mode_steps_with_each_clicks_exact_odds() -> None:
    analysed = analyse_replay(read_replay(example_path("beginner_8x8_10.avf")))
    session = Session(example_path("beginner_8x8_10.avf"))
    assert session.mode == "replay" and session.steps == len(analysed.clicks) + 1
    for click in analysed.clicks:
        session.act({"type": "step", "step": click.number - 1})
        view = session.view(best=False)
        assert view["replay"]["click"] == click.to_dict()
        assert Fraction(view["cells"][click.cell[0] * 8 + click.cell[1]][5] or "0") == click.mine_probability
        assert session.board.is_hidden(*click.cell) or click.kind == "chord"
    session.act({"type": "step", "step": 10_000})  # past the end: the end
    view = session.view()
    assert view["replay"]["step"] == len(analysed.clicks) and view["replay"]["click"] is None
    assert view["replay"]["text"].startswith("end: won, 3 guesses (2 needless), luck 20/73")
    assert [c[1] for c in view["cells"]].count("flag") == 10  # a won game: every mine flagged
    guess = analysed.guesses[0]
    session.act({"type": "cell", "cell": list(guess.cell)})  # clicking a cell goes to its click
    assert session.step == guess.number - 1


def test_past_the_time_limit_the_certain_cells_come_from_cp_sat() -> None:
    board = clue_lattice(5, seed=0)
    session = Session(board, time_limit=0.001)
    view = session.view()
    assert "took longer than 0.001 s" in view["error"]["message"]
    found = certain_cells(board)
    kinds = {divmod(i, board.width): cell[1] for i, cell in enumerate(view["cells"])}
    assert found.safe and {c for c, k in kinds.items() if k == "safe"} == set(found.safe)
    assert {c for c, k in kinds.items() if k == "mine"} == set(found.mines)


def test_bad_options_are_refused() -> None:
    with pytest.raises(OptionError, match="time_limit must be a positive number"):
        Session(BOARD, time_limit=0)
    with pytest.raises(OptionError, match="time_limit"):
        Session(BOARD, time_limit=True)


def test_the_widget_takes_clicks_in_a_thread_and_changes_from_code() -> None:
    pytest.importorskip("anywidget")
    from analyzer.interactive.widget import BoardWidget

    w = BoardWidget(BOARD)
    board = Board.from_text(BOARD)
    assert w.view["best"] == list(solve(board).best_moves(1)[0].cell)  # drawn with the best move
    seen: list[bool] = []
    w.observe(lambda change: seen.append(change["new"]), "busy")
    w._receive(w, {"type": "cell", "cell": [0, 0], "button": "right"}, [])
    w._receive(w, {"type": "key", "cell": [3, 2], "key": "1"}, [])
    w.wait(30)
    changed = board.replace({(0, 0): -2, (3, 2): 1})
    assert w.board == changed and w.analysis == solve(changed)
    assert fractions(w.view) == expected(changed)
    assert seen[0] is True and seen[-1] is False
    w.board = Board.from_text("3x1x1\nH1H\n")  # from code
    assert w.view["width"] == 3 and fractions(w.view) == [Fraction(1, 2), None, Fraction(1, 2)]
    game = Game.new(9, 9, 10, seed=3)
    w.game = game
    w.act({"type": "cell", "cell": [0, 0]})
    assert w.game is game and game.revealed_count > 0


def _request(url: str, data: bytes | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_web_server_answers_views_and_refuses_bad_requests() -> None:
    with WebServer(Session(BOARD), port=0) as server:
        status, view = _request(server.url + "api/view")
        assert status == 200 and fractions(view) == expected(Board.from_text(BOARD))
        action = json.dumps({"type": "cell", "cell": [0, 0], "button": "right"}).encode()
        status, view = _request(server.url + "api/action", action)
        assert status == 200 and view["cells"][0][1] == "flag" and view["best_pending"]
        status, refused = _request(server.url + "api/action", json.dumps({"type": "fly"}).encode())
        assert status == 200 and refused["note"] == "unknown action 'fly'"
        status, error = _request(server.url + "api/action", b"{not json")
        assert status == 400 and error["error"].startswith("the action is not JSON")
        status, error = _request(server.url + "api/nothing")
        assert status == 404
        with urllib.request.urlopen(server.url, timeout=30) as response:
            page = response.read().decode()
        assert '<script type="module" src="web.js">' in page
        with urllib.request.urlopen(server.url + "board.js", timeout=30) as response:
            assert response.headers["Content-Type"].startswith("text/javascript")


def test_the_web_server_serves_clicks_from_several_threads_in_turn() -> None:
    session = Session(Game.new(16, 16, 40, seed=9))
    with WebServer(session, port=0) as server:
        cells = [[r, c] for r in range(0, 16, 2) for c in range(0, 16, 7)]  # 24 flags at once

        def flag(cell: list[int]) -> None:
            _request(
                server.url + "api/action",
                json.dumps({"type": "cell", "cell": cell, "button": "right"}).encode(),
            )

        threads = [threading.Thread(target=flag, args=(cell,)) for cell in cells]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert sorted(session.board.flagged_cells()) == sorted(tuple(c) for c in cells)


def test_cli_web_refuses_a_bad_size_and_a_taken_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["web", "--new", "3x3", "--no-browser"]) == 2  # a usage error
    assert "expected beginner, intermediate, expert or WxHxM" in capsys.readouterr().err
    with WebServer(Session(BOARD), port=0) as server:
        port = server.httpd.server_address[1]
        assert main(["web", "--port", str(port), "--no-browser"]) == 1
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_cli_web_serves_a_board_file_until_stopped(tmp_path: Any) -> None:
    import signal
    import subprocess
    import sys

    path = tmp_path / "board.mine"
    path.write_text(BOARD)
    server = subprocess.Popen(
        [sys.executable, "-m", "analyzer", "web", str(path), "--no-browser", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl+C's default disposition even where this suite runs with SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        line = server.stdout.readline() if server.stdout else ""
        assert line.startswith("analyzer web: http://127.0.0.1:") and "Ctrl+C" in line
        url = line.split()[2]
        status, view = _request(url + "api/view")
        assert status == 200 and view["mode"] == "edit"
        assert fractions(view) == expected(Board.from_text(BOARD))
    finally:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=30)
    assert server.returncode == 0, err
    assert "Traceback" not in err


def test_an_mbf_layout_opens_in_play_mode(tmp_path: Any) -> None:
    game = Game.from_layout(9, 9, [(0, 0), (4, 4), (8, 8)])
    path = tmp_path / "layout.mbf"
    path.write_bytes(game.to_mbf())
    session = Session(str(path))
    assert session.mode == "play" and session.game is not None
    assert session.game.mines == frozenset({(0, 0), (4, 4), (8, 8)})
    session.act({"type": "cell", "cell": [0, 8]})
    assert session.board.is_revealed(0, 8)
    with pytest.raises(GameError, match="cannot read"):
        Session(str(tmp_path / "missing.mbf"))
