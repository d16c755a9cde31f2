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
from analyzer.interactive.session import CODES, KINDS, PALETTE, Session, decode
from analyzer.interactive.web import WebServer
from analyzer.play.positions import clue_lattice
from analyzer.replays import analyse_replay, example_path, read_replay

BOARD = "5x4x4\nHHHHH\nH211H\nH1H1H\nHHHHH\n"


def kinds(session: Session) -> list[str]:
    """Each cell's kind as the view's codes say (decoded from the protocol's arrays)."""
    cells = session.cells()
    return [KINDS[code] for code in decode(cells["codes"], "u1").tolist()]


def fractions(session: Session) -> list[Fraction | None]:
    """Each cell's exact probability as the page gets it: the code says which have one, ``exact`` asks it."""
    width = session.view()["width"]
    out: list[Fraction | None] = []
    for index, kind in enumerate(kinds(session)):
        if kind in ("guess", "safe", "mine"):
            answer = session.act({"type": "exact", "cell": list(divmod(index, width))})
            assert answer is not None and answer["p"] is not None, (index, session.note)
            out.append(Fraction(answer["p"]))
        else:
            out.append(None)
    return out


def expected(board: Board) -> list[Fraction | None]:
    analysis = solve(board)
    return [
        None if p is None or board.cells[i] == -2 else p for i, p in enumerate(analysis.cell_probabilities)
    ]


def test_edit_clicks_cycle_hidden_number_flag_and_keys_set_cells() -> None:
    session = Session(BOARD, adjust_numbers=False)  # the numbers stay as typed (see test_interactive_analyst)
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
    assert fractions(session) == expected(session.board)
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
    assert fractions(session) == expected(board)
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
    assert fractions(session) == [None] * 3 and session.analysis is None
    session.act({"type": "key", "cell": [0, 2], "key": "h"})
    session.act({"type": "mines", "mines": 9})  # more mines than cells: not a board
    view = session.view()
    assert view["error"]["message"] == "more mines (9) than unrevealed cells (2)"
    assert view["width"] == 3 and session.cells()["size"] == 3


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"type": "cell", "cell": [7, 0]}, "off the 3x1 board"),
        ({"type": "cell", "cell": "0,0"}, "a cell is [row, column]"),
        ({"type": "cell", "cell": [0, 0], "button": "middle"}, "button must be"),
        ({"type": "key", "cell": [0, 0], "key": "9"}, "sets nothing"),
        ({"type": "mines", "mines": -1}, "mines must be an integer >= 0"),
        ({"type": "resize", "width": 0, "height": 3, "mines": 0}, "a board is 1 to 1,000,000 cells"),
        ({"type": "resize", "width": 10**5, "height": 10**5, "mines": 0}, "got 100000x100000"),
        ({"type": "resize", "size": "3x3"}, "expected beginner, intermediate, expert or WxHxM"),
        ({"type": "new_game", "size": "4x4x17"}, "more mines (17) than cells (16)"),
        ({"type": "exact", "cell": [0, 9]}, "off the 3x1 board"),
        ({"type": "exact", "of": "luck"}, "no replay is open"),
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


@pytest.mark.parametrize("kind", [[1], {"a": 1}, 3, None])
def test_an_action_whose_type_is_not_a_name_is_refused_with_a_note(kind: Any) -> None:
    # A list or a dict (unhashable) once raised TypeError out of act: the page got no answer.
    session = Session("3x1x1\nH1H\n")
    before = session.view()
    assert session.respond({"type": kind})["view"]["note"] == f"unknown action {kind!r}"
    assert session.view()["version"] == before["version"] and session.view()["history"]["undo"] == 0


def test_why_gives_the_explanation_of_a_certain_cell() -> None:
    board = Board.from_text("6x3x3\nHHHHHH\n12H21H\nHHHHHH\n")
    session = Session(board)
    cell = solve(board).safe[0]
    session.act({"type": "why", "cell": list(cell)})
    explanation = solve(board).explain(*cell)
    assert session.view()["why"] == explanation.to_dict() | {"text": explanation.describe()}
    session.act({"type": "cell", "cell": [0, 0], "button": "right"})
    assert session.view()["why"] is None  # an edit clears it


def test_a_refused_why_clears_the_outline_of_the_last_one() -> None:
    board = Board.from_text("6x3x3\nHHHHHH\n12H21H\nHHHHHH\n")
    session = Session(board)
    analysis = solve(board)
    session.act({"type": "why", "cell": list(analysis.safe[0])})
    assert session.view()["marks"].get("why_cell")
    odds = analysis.cell_probabilities
    unsure = next(divmod(i, board.width) for i, p in enumerate(odds) if p is not None and 0 < p < 1)
    session.act({"type": "why", "cell": list(unsure)})
    assert "is not certain" in session.note
    view = session.view()
    assert view["why"] is None and "why_cell" not in view["marks"] and "why_clues" not in view["marks"]


def test_a_note_stays_while_the_pointer_asks_for_figures() -> None:
    # Each hover asks the exact fraction of the cell under the pointer: that query is no action,
    # and the note of the last refused one stays until the next action replaces it.
    pytest.importorskip("anywidget")
    from analyzer.interactive.jupyter import BoardWidget

    w = BoardWidget(BOARD)
    w.wait(30)
    w._receive(w, {"type": "cell", "cell": [9, 9], "button": "left"}, [])
    w.wait(30)
    note = w.view["note"]
    assert "off the" in note
    for cell in ([0, 1], [0, 2], [1, 0]):
        w._receive(w, {"type": "exact", "cell": cell}, [])
        w.wait(30)
        assert w.view["note"] == note, cell
    w._receive(w, {"type": "cell", "cell": [0, 0], "button": "right"}, [])
    w.wait(30)
    assert w.view["note"] == ""


def test_play_mode_is_the_game_and_the_best_move_plays() -> None:
    session = Session(None, seed=4)
    game = session.game
    assert session.mode == "play" and game is not None and (game.width, game.height) == (9, 9)
    reference = Game.new(9, 9, 10, seed=4)
    session.act({"type": "cell", "cell": [4, 4], "button": "left"})
    reference.reveal(4, 4)
    assert session.board == reference.board
    assert fractions(session) == expected(reference.board)
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
    shown = {divmod(i, 9): k for i, k in enumerate(kinds(session))}
    assert {c for c, k in shown.items() if k in ("fatal", "layout-mine")} == set(game.mines or ())
    assert [c for c, k in shown.items() if k == "fatal"] == [mine]
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


@pytest.mark.needs("ms_toollib")
def test_replay_mode_steps_with_each_clicks_exact_odds() -> None:
    analysed = analyse_replay(read_replay(example_path("beginner_8x8_10.avf")))
    session = Session(example_path("beginner_8x8_10.avf"))
    assert session.mode == "replay" and session.steps == len(analysed.clicks) + 1
    for click in analysed.clicks:
        session.act({"type": "step", "step": click.number - 1})
        view = session.view(best=False)
        assert view["replay"]["click"] == click.to_dict()
        assert (fractions(session)[click.cell[0] * 8 + click.cell[1]] or 0) == click.mine_probability
        assert session.board.is_hidden(*click.cell) or click.kind == "chord"
    session.act({"type": "step", "step": 10_000})  # past the end: the end
    view = session.view()
    assert view["replay"]["step"] == len(analysed.clicks) and view["replay"]["click"] is None
    assert view["replay"]["text"] == "end: won, 3 guesses (2 needless), luck 27.4%"  # 20/73, short
    assert session.act({"type": "exact", "of": "luck"}) == {"type": "exact", "of": "luck", "text": "20/73"}
    assert kinds(session).count("flag") == 10  # a won game: every mine flagged
    guess = analysed.guesses[0]
    session.act({"type": "cell", "cell": list(guess.cell)})  # clicking a cell goes to its click
    assert session.step == guess.number - 1


def test_past_the_time_limit_the_certain_cells_come_from_cp_sat() -> None:
    board = clue_lattice(5, seed=0)
    session = Session(board, time_limit=0.001)
    view = session.view()
    assert "took longer than 0.001 s" in view["error"]["message"]
    found = certain_cells(board)
    codes = decode(session.cells()["codes"], "u1").tolist()
    shown = {divmod(i, board.width): code for i, code in enumerate(codes)}
    assert found.safe and {c for c, k in shown.items() if k == CODES["safe_cpsat"]} == set(found.safe)
    assert {c for c, k in shown.items() if k == CODES["mine_cpsat"]} == set(found.mines)


def test_bad_options_are_refused() -> None:
    with pytest.raises(OptionError, match="time_limit must be a positive number"):
        Session(BOARD, time_limit=0)
    with pytest.raises(OptionError, match="time_limit"):
        Session(BOARD, time_limit=True)


def test_the_widget_function_survives_the_import_of_the_widget_module() -> None:
    pytest.importorskip("anywidget")
    import analyzer.interactive
    import analyzer.interactive.jupyter  # noqa: F401  (a submodule named like the function replaced it)

    assert callable(analyzer.interactive.widget) and callable(analyzer.widget)
    assert type(analyzer.widget(BOARD)).__name__ == "BoardWidget"


def test_the_widget_s_text_says_what_it_shows_not_where_it_is_in_memory() -> None:
    # A notebook stores this text beside the widget: an address made every run of it a change.
    pytest.importorskip("anywidget")
    from analyzer.interactive.jupyter import BoardWidget

    w = BoardWidget(BOARD)
    board = Board.from_text(BOARD)
    assert repr(w) == f"<BoardWidget: edit, {board.width}x{board.height} with {board.mines} mines>"
    assert " at 0x" not in w._repr_mimebundle_()[0]["text/plain"]


def test_the_widget_takes_clicks_in_a_thread_and_changes_from_code() -> None:
    pytest.importorskip("anywidget")
    from analyzer.interactive.jupyter import BoardWidget

    w = BoardWidget(BOARD, adjust_numbers=False)
    board = Board.from_text(BOARD)
    w.wait(30)  # the board at once, its best move scored in the worker
    assert w.view["best"] == list(solve(board).best_moves(1)[0].cell)
    seen: list[bool] = []
    w.observe(lambda change: seen.append(change["new"]), "busy")
    w._receive(w, {"type": "cell", "cell": [0, 0], "button": "right"}, [])
    w._receive(w, {"type": "key", "cell": [3, 2], "key": "1"}, [])
    w.wait(30)
    changed = board.replace({(0, 0): -2, (3, 2): 1})
    assert w.board == changed and w.analysis == solve(changed)
    assert fractions(w.session) == expected(changed)
    assert seen[0] is True and seen[-1] is False
    # The arrays go as bytes traitlets (binary buffers), the view as the small dict, with the best move.
    codes, p = w.session.arrays()
    assert w.codes == codes.tobytes() and w.probabilities == p.astype("<f4").tobytes()
    assert w.view["version"] == w.session.view()["version"] and not w.view["best_pending"]
    assert w.view["best"] == list(solve(changed).best_moves(1)[0].cell)
    # A query's answer comes back as a custom message, and changes nothing.
    sent: list[Any] = []
    w.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    version = w.view["version"]
    w._receive(w, {"type": "exact", "cell": [0, 1]}, [])
    w.wait(30)
    assert sent == [{"answer": w.session.act({"type": "exact", "cell": [0, 1]})}]
    assert Fraction(sent[0]["answer"]["p"]) == solve(changed).probability(0, 1)
    assert w.view["version"] == version
    w.board = Board.from_text("3x1x1\nH1H\n")  # from code
    assert w.view["width"] == 3 and fractions(w.session) == [Fraction(1, 2), None, Fraction(1, 2)]
    assert len(w.codes) == 3 and len(w.probabilities) == 12
    game = Game.new(9, 9, 10, seed=3)
    w.game = game
    w.act({"type": "cell", "cell": [0, 0]})
    assert w.game is game and game.revealed_count > 0


def _api(server: WebServer, path: str) -> str:
    """``path`` on ``server`` with its token in the query (as the page's first request has it)."""
    return f"{server.origin}/{path}{'&' if '?' in path else '?'}token={server.token}"


def _request(url: str, data: bytes | None = None) -> tuple[int, Any]:
    """Status and body: a JSON error, or the protocol's answer as a list of its JSON lines."""
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
            if response.headers["Content-Type"] == "application/x-ndjson":
                return response.status, [json.loads(line) for line in body.splitlines()]
            return response.status, json.loads(body)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _decoded(cells: dict[str, Any]) -> tuple[list[int], list[int], list[float]]:
    return (
        decode(cells["index"], "<i4").tolist() if cells["index"] else [],
        decode(cells["codes"], "u1").tolist(),
        decode(cells["p"], "<f4").tolist(),
    )


def test_the_web_server_answers_views_and_refuses_bad_requests() -> None:
    board = Board.from_text(BOARD)
    with WebServer(Session(BOARD, adjust_numbers=False), port=0) as server:
        status, lines = _request(_api(server, "api/view"))
        assert status == 200 and lines[0]["cells"]["full"]
        _, codes, p = _decoded(lines[0]["cells"])
        want = expected(board)
        assert [KINDS[c] in ("guess", "safe", "mine") for c in codes] == [w is not None for w in want]
        assert all(w is None or q == pytest.approx(float(w), rel=1e-6) for q, w in zip(p, want, strict=True))
        assert len(lines) == 2 and lines[1]["view"]["best"] == list(solve(board).best_moves(1)[0].cell)
        version = lines[0]["view"]["version"]
        action = json.dumps({"type": "cell", "cell": [0, 0], "button": "right"}).encode()
        status, lines = _request(_api(server, f"api/action?since={version}"), action)
        assert (
            status == 200 and lines[0]["view"]["version"] == version + 1 and lines[0]["view"]["best_pending"]
        )
        flagged = board.replace({(0, 0): -2})
        assert lines[1]["view"]["best"] == list(solve(flagged).best_moves(1)[0].cell)
        index, codes, _ = _decoded(lines[0]["cells"])
        if not lines[0]["cells"]["full"]:
            assert 0 in index
            codes = [codes[index.index(0)]]
        assert KINDS[codes[0]] == "flag"
        # A refused action: a note, the same version, no cell sent again, no second line.
        status, lines = _request(
            _api(server, f"api/action?since={version + 1}"), json.dumps({"type": "fly"}).encode()
        )
        view = lines[0]["view"]
        assert status == 200 and view["note"] == "unknown action 'fly'" and view["version"] == version + 1
        assert _decoded(lines[0]["cells"]) == ([], [], []) and len(lines) == 1
        status, lines = _request(
            _api(server, "api/action"), json.dumps({"type": "exact", "cell": [0, 1]}).encode()
        )
        assert Fraction(lines[0]["answer"]["p"]) == solve(flagged).probability(0, 1)
        status, error = _request(_api(server, "api/action"), b"{not json")
        assert status == 400 and error["error"].startswith("the action is not JSON")
        status, error = _request(_api(server, "api/nothing"))
        assert status == 404
        with urllib.request.urlopen(server.url, timeout=30) as response:
            page = response.read().decode()
        assert '<script type="module" src="web.js">' in page
        with urllib.request.urlopen(_api(server, "board.js"), timeout=30) as response:
            assert response.headers["Content-Type"].startswith("text/javascript")


def test_the_web_server_serves_clicks_from_several_threads_in_turn() -> None:
    session = Session(Game.new(16, 16, 40, seed=9))
    with WebServer(session, port=0) as server:
        cells = [[r, c] for r in range(0, 16, 2) for c in range(0, 16, 7)]  # 24 flags at once

        def flag(cell: list[int]) -> None:
            _request(
                _api(server, "api/action"),
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
    assert main(["web", "--new", "100000x100000x1", "--no-browser"]) == 2  # a usage error too
    assert "a board is 1 to 1,000,000 cells (e.g. 1000x1000), got 100000x100000" in capsys.readouterr().err
    assert main(["web", "--new", "9x9x10", "--topology", "cube", "--no-browser"]) == 2
    assert capsys.readouterr().err == (
        "analyzer web: error: --new '9x9x10' --topology 'cube': a cube of 9x9 faces is 9 wide and 54 high"
        " (its faces stacked), got 9x9 (see analyzer web --help)\n"
    )
    assert main(["web", "--topology", "sphere", "--no-browser"]) == 2
    assert "unknown topology 'sphere'; expected square, torus, hex" in capsys.readouterr().err
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
        base, token = line.split()[2].split("/?token=")
        status, lines = _request(f"{base}/api/view?token={token}")
        assert status == 200 and lines[0]["view"]["mode"] == "edit"
        assert lines[0]["cells"]["size"] == 20 and len(lines) == 2
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


def _luminance(hex_colour: str) -> float:
    if len(hex_colour) == 4:  # "#abc" is "#aabbcc"
        hex_colour = "#" + "".join(2 * x for x in hex_colour[1:])
    channels = [int(hex_colour[k : k + 2], 16) / 255 for k in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_number_is_legible_at_wcag_aa_on_its_background() -> None:
    from analyzer.render import probability_colour, text_colour

    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#ff0000", "#dddddd") < 4.5  # the classic red 3 on grey, which the palette darkens
    for number, ink in enumerate(PALETTE["numbers"]):
        if number:  # a 0 shows nothing
            assert contrast(ink, PALETTE["revealed"]) >= 4.5, (number, ink)
    # A guess's percent: black or white on its viridis background, whichever contrasts more.
    for k in range(2001):
        background = probability_colour(k / 2000)
        assert contrast(text_colour(background), background) >= 4.5, (k / 2000, background)
    assert contrast("#000000", PALETTE["viridis"][-1]) >= 4.5  # ✓ on the safe end
    assert contrast("#ffffff", PALETTE["viridis"][0]) >= 4.5  # ✱ on the mine end
    assert PALETTE["viridis"] == [probability_colour((1 - k / 8) ** 2) for k in range(9)]


def test_before_a_safe_first_click_the_best_move_says_the_rule_not_a_risk() -> None:
    for rule, words in (("safe", "the first click is safe"), ("opening", "the first click opens an area")):
        session = Session(Game.new(9, 9, 10, seed=1, first_click=rule))
        view = session.view()
        assert words in view["best_text"] and "guess" not in view["best_text"], view["best_text"]
    session = Session(Game.new(9, 9, 10, seed=1, first_click="none"))
    assert "guess: 12.3% mine" in session.view()["best_text"]  # no rule: the first click is a guess


def test_a_lost_game_marks_its_wrong_flags() -> None:
    game = Game.new(9, 9, 10, seed=1)
    session = Session(game)
    session.act({"type": "cell", "cell": [0, 0]})
    safe = next(
        c
        for c in ((r, c) for r in range(9) for c in range(9))
        if game.board.is_hidden(*c) and c not in game.mines
    )
    mine = sorted(game.mines or ())[0]
    session.act({"type": "cell", "cell": list(safe), "button": "right"})  # a wrong flag
    session.act({"type": "cell", "cell": list(mine)})
    shown = kinds(session)
    assert shown[safe[0] * 9 + safe[1]] == "wrong-flag"
    assert shown.count("wrong-flag") == 1 and shown.count("fatal") == 1


def test_big_boards_send_small_answers_and_refusals_send_no_cells() -> None:
    session = Session(None)
    session.act({"type": "new_game", "size": "300x300x14400", "seed": 1, "first_click": "opening"})
    assert session.view()["width"] == 300 and session.view()["mines"] == 14400
    session.act({"type": "cell", "cell": [150, 150]})
    first = session.respond()
    assert first["cells"]["full"] and len(json.dumps(first)) < 100_000  # 90,000 cells in under 100 KB
    codes, p = session.arrays()
    assert codes.dtype.name == "uint8" and p.dtype.name == "float32" and len(codes) == 90_000
    version = first["view"]["version"]
    refused = session.respond({"type": "cell", "cell": [150, 150], "button": "middle"}, since=version)
    assert refused["view"]["version"] == version and decode(refused["cells"]["codes"], "u1").size == 0
    # A best move scored for a position that changed meanwhile is dropped.
    session.act({"type": "cell", "cell": [0, 0], "button": "right"})
    assert session.best_view(version) is None
    scored = session.best_view(version + 1)
    assert scored is not None and scored["best"] is not None and not scored["best_pending"]


def test_a_fresh_look_shows_no_note_of_an_earlier_refusal() -> None:
    session = Session("3x1x1\nH1H\n")
    session.act({"type": "fly"})
    assert session.note and session.respond({"type": "fly"})["view"]["note"] == "unknown action 'fly'"
    assert session.respond()["view"]["note"] == ""  # a reload


def test_the_session_scores_the_same_best_move_as_the_library() -> None:
    """Scored one certain cell at a time (so that it can stop), the move is ``best_moves(1)[0]``."""
    from analyzer.play.positions import mid_game

    boards = [mid_game(16, 16, 40, progress=p, seed=s) for p, s in ((0.2, 1), (0.5, 2), (0.8, 3))]
    boards += [Board.from_text(BOARD), Board.from_text("3x1x1\nH1H\n")]
    assert any(solve(b).safe for b in boards) and any(not solve(b).safe for b in boards)
    for board in boards:
        move = Session(board).best_move()
        assert move == solve(board).best_moves(1)[0], board


HEX = "5x4x3 hex\nHHHHH\nH21HH\nHH1HH\nHHHHH\n"


def test_every_topology_is_shown_with_its_layout_and_played() -> None:
    graph = Board.from_graph([[1, 2], [0, 2], [0, 1, 3], [2]], [-1, -1, 1, -1], 1, names=["a", "b", "c", "d"])
    for board in (Board.from_text(HEX), Board.from_text("2x12x3 cube\n" + "HH\n" * 12), graph):
        session = Session(board)
        assert session.board == board
        assert fractions(session) == expected(board)
        view = session.view()
        name = board.topology if isinstance(board.topology, str) else "graph"
        assert view["topology"]["name"] == name
    assert view["caption"].startswith("graph of 4 cells, 1 mine")
    # A graph's picture: where analyzer.render puts each cell (in cell sizes), its edges and names.
    from analyzer.render import cell_centres

    centres, size = cell_centres(graph)
    assert view["topology"]["centres"] == [
        [pytest.approx(x / size, abs=1e-3), pytest.approx(y / size, abs=1e-3)] for x, y in centres
    ]
    assert view["topology"]["edges"] == [[0, 1], [0, 2], [1, 2], [2, 3]]
    assert view["topology"]["names"] == ["a", "b", "c", "d"]
    # Play: a hexagonal game from the edit mode keeps the topology; a chord counts six neighbours.
    session = Session(HEX)
    session.act({"type": "mode", "mode": "play"})
    game = session.game
    assert game is not None and game.topology == "hex" and session.view()["caption"].startswith("5x4 hex")
    twin = Game.new(5, 4, 3, seed=0, topology="hex")
    session.act({"type": "cell", "cell": [1, 1], "button": "left"})
    twin.reveal(1, 1)
    assert session.board == twin.board  # chords: tests/test_interactive_topology_browser.py


def test_new_boards_and_games_keep_or_name_their_topology() -> None:
    session = Session(HEX)
    session.act({"type": "resize", "size": "6x5x4"})
    assert session.board == Board(6, 5, 4, (-1,) * 30, "hex")
    session.act({"type": "resize", "size": "2x12x3 cube"})
    assert session.board.topology == "cube" and session.note == ""
    session.act({"type": "resize", "size": "9x9x10", "topology": "torus"})
    assert session.board.topology == "torus"
    session.act({"type": "new_game", "size": "expert hex", "seed": 4})
    assert session.game is not None and session.game.topology == "hex"
    assert session.board == Game.new(30, 16, 99, seed=4, topology="hex").board
    session.act({"type": "new_game", "size": "9x9x10", "seed": 1})  # the topology shown: hex
    assert session.game.topology == "hex"
    session.act({"type": "new_game", "size": "9x9x10", "topology": "square"})
    assert session.game.topology == "square"
    # What does not fit says so in one line, and changes nothing.
    before = session.board
    session.act({"type": "new_game", "size": "9x9x10 cube"})
    assert session.note == "a cube of 9x9 faces is 9 wide and 54 high (its faces stacked), got 9x9"
    session.act({"type": "new_game", "size": "9x9x10 sphere"})
    assert session.note.startswith("unknown topology 'sphere'; expected square, torus, hex")
    session.act({"type": "resize", "size": "9x9x10", "topology": "ring"})
    assert session.board == before


def test_open_and_save_keep_the_topology() -> None:
    import base64

    session = Session(None)
    session.act({"type": "paste", "text": HEX})
    assert session.board == Board.from_text(HEX) and session.note == ""
    session.act({"type": "save", "format": "mine"})
    assert session.download is not None
    assert base64.b64decode(session.download["data"]).decode() == Board.from_text(HEX).to_text()
    # The picture of a hexagonal board is the static one: hexagons, coloured by probability.
    session.act({"type": "save", "format": "svg"})
    svg = base64.b64decode(session.download["data"]).decode()
    assert svg.startswith("<svg") and svg.count("<polygon") == 20 and "P(mine) = " in svg
    # A graph's board opens from its JSON and saves as JSON.
    graph = Board.from_graph([[1], [0, 2], [1]], [-1, 1, -1], 1, names=["x", "y", "z"])
    data = base64.b64encode(graph.to_text().encode()).decode()
    session.act({"type": "open", "name": "path.json", "data": data})
    assert session.board == graph
    session.act({"type": "save", "format": "mine"})
    assert session.download["name"] == "path.json"
    assert Board.from_text(base64.b64decode(session.download["data"]).decode()) == graph
    # An .mbf layout is square: a game on the cube says so.
    session.act({"type": "new_game", "size": "2x12x3 cube", "first_click": "none"})
    session.act({"type": "save", "format": "mbf"})
    assert session.note == (
        "an .mbf file holds a square board's layout, not one on a cube board: save the .mine position instead"
    )
    assert session.download is None


def test_the_widget_shows_a_hexagonal_board() -> None:
    pytest.importorskip("anywidget")
    from analyzer.interactive.jupyter import BoardWidget

    w = BoardWidget(HEX, adjust_numbers=False)
    w.wait(30)
    assert w.view["topology"] == {"name": "hex"}
    w._receive(w, {"type": "cell", "cell": [0, 0], "button": "right"}, [])
    w.wait(30)
    flagged = Board.from_text(HEX).replace({(0, 0): -2})
    assert w.board == flagged and fractions(w.session) == expected(flagged)


# ----------------------------------------------------------------- play mode: the player's flags
def _expert_seed_4() -> Session:
    session = Session(Game.new(30, 16, 99, seed=4))
    session.act({"type": "cell", "cell": [8, 15], "button": "left"})
    return session


def test_a_wrong_flag_in_play_is_a_mark_not_a_fact_and_is_said_in_one_line() -> None:
    session = _expert_seed_4()
    untouched = session.analysis
    assert untouched is not None and untouched.probability(0, 1) == Fraction(2889, 13450)
    session.act({"type": "cell", "cell": [0, 0], "button": "right"})  # not a mine
    game = session.game
    assert game is not None and session.board.is_flagged(0, 0) and (0, 0) not in game.mines
    analysis = session.analysis
    assert analysis is not None and not analysis.trust_flags
    assert analysis.probability(0, 1) == Fraction(2889, 13450)
    assert analysis.cell_probabilities == solve(session.board, trust_flags=False).cell_probabilities
    view = session.view()
    assert view["flag_text"] == "flag at (0, 0) is not a certain mine: P = 2889/13450 ≈ 21.5%"
    assert view["error"] is None and view["trust_flags"] is False and view["shown"]["trust_flags"] is False
    assert kinds(session)[0] == "flag"  # still drawn as the player's flag
    assert session.act({"type": "exact", "cell": [0, 0]})["p"] == "2889/13450"  # type: ignore[index]
    # Trusted (JSMinesweeper's "flags are mines"): the flag is a fact, as before.
    session.act({"type": "trust_flags", "on": True})
    assert session.analysis is not None and session.analysis.probability(0, 1) == Fraction(4256, 20009)
    assert session.view()["flag_text"] == "" and session.view()["trust_flags"] is True
    trusted = Session(Game.new(30, 16, 99, seed=4), trust_flags=True)
    trusted.act({"type": "cell", "cell": [8, 15], "button": "left"})
    trusted.act({"type": "cell", "cell": [0, 0], "button": "right"})
    assert trusted.analysis is not None and trusted.analysis.probability(0, 1) == Fraction(4256, 20009)
    session.act({"type": "trust_flags", "on": "yes"})
    assert session.note == "trust_flags must be True or False, got 'yes'"


def test_flags_that_cannot_all_be_mines_are_named_and_the_probabilities_stay() -> None:
    session = _expert_seed_4()
    for cell in ((4, 8), (5, 7)):  # both beside the 1 at (5, 8)
        session.act({"type": "cell", "cell": list(cell), "button": "right"})
    view = session.view()
    assert view["flag_text"] == (
        "flags at (4, 8), (5, 7) cannot all be mines:"
        " clue 1 at (5, 8) has 2 flagged neighbours, more than it shows"
    )
    assert view["error"] is None and session.analysis is not None
    assert session.analysis.cell_probabilities == solve(session.board, trust_flags=False).cell_probabilities
    session.act({"type": "trust_flags", "on": True})  # facts: the board has no analysis, as before
    assert session.analysis is None and session.view()["error"]["clues"] == [[5, 8]]
    assert session.win_chance()["p"] is None
    session.act({"type": "autoplay", "until": "guess"})
    assert session.note.startswith("auto-play stopped: clue 1 at (5, 8) has 2 flagged neighbours")


def test_edit_mode_still_takes_the_flags_as_facts() -> None:
    session = Session("3x1x1\nH1F\n")
    assert session.analysis is not None and session.analysis.probability(0, 0) == 0
    assert session.view()["trust_flags"] is True and session.view()["flag_text"] == ""


def test_the_widget_takes_trust_my_flags_too() -> None:
    pytest.importorskip("anywidget")
    from analyzer.interactive.jupyter import BoardWidget

    game = Game.from_layout_text("*.\n..\n..\n")
    game.reveal(2, 0)
    game.toggle_flag(0, 1)  # wrong: trusted, (0, 0) is safe
    for trust, p in ((False, "1/2"), (True, "0/1")):
        w = BoardWidget(game, trust_flags=trust)
        w.wait(30)
        assert w.view["shown"]["trust_flags"] is trust
        assert w.session.act({"type": "exact", "cell": [0, 0]})["p"] == p  # type: ignore[index]
    w._receive(w, {"type": "trust_flags", "on": False}, [])
    w.wait(30)
    assert w.view["trust_flags"] is False and w.view["flag_text"].startswith(
        "flag at (0, 1) is not a certain"
    )


def test_the_widget_acknowledges_each_action_at_once_and_a_query_by_its_answer() -> None:
    # The front end takes a board with no acknowledgement within seconds for one whose kernel is gone.
    pytest.importorskip("anywidget")
    from analyzer.interactive.jupyter import BoardWidget

    w = BoardWidget(BOARD)
    w.wait(30)
    assert w.acknowledges
    sent: list[Any] = []
    w.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    w._receive(w, {"type": "cell", "cell": [0, 0], "button": "right"}, [])
    assert sent == [{"ack": True}]  # before the worker has done anything
    w.wait(30)
    w._receive(w, {"type": "exact", "cell": [0, 1]}, [])
    w.wait(30)
    assert [list(message) for message in sent] == [["ack"], ["answer"]]
