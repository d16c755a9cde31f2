"""``analyzer web`` is safe to leave running: only its own page, with the run's token, can drive it.

Each refused request is answered with a clear status and a JSON error, and the
session behind the server is checked unchanged afterwards.
"""

from __future__ import annotations

import base64
import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from analyzer import Board
from analyzer.errors import OptionError
from analyzer.interactive.session import MAX_CELLS, Session
from analyzer.interactive.web import MAX_ACTION_BYTES, TOKEN_HEADER, WebServer

BOARD = "4x3x4\nHHHH\nFHHH\n2H2H\n"
FLAG = json.dumps({"type": "cell", "cell": [0, 0], "button": "right"}).encode()


@pytest.fixture
def server() -> Iterator[WebServer]:
    with WebServer(Session(BOARD), port=0) as running:
        yield running


def ask(
    server: WebServer,
    method: str,
    path: str,
    body: bytes | None = None,
    *,
    headers: dict[str, str] | None = None,
    token: bool = True,
) -> tuple[int, dict[str, str], Any]:
    """One raw request (http.client sends exactly the headers given, ``Host`` included)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    sent = {"Host": f"127.0.0.1:{server.port}"}
    if token:
        sent[TOKEN_HEADER] = server.token
    if body is not None:
        sent["Content-Type"] = "application/json"
        sent["Content-Length"] = str(len(body))
    sent.update(headers or {})
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in sent.items():
            connection.putheader(name, value)
        connection.endheaders(body)
        response = connection.getresponse()
        raw = response.read()
        kind = response.headers.get("Content-Type", "")
        if kind.startswith("application/json"):  # an error
            answer = json.loads(raw)
        elif kind.startswith("application/x-ndjson"):  # the protocol's answer: its first line's view
            answer = json.loads(raw.split(b"\n")[0])["view"]
        else:
            answer = raw.decode()
        return response.status, dict(response.headers), answer
    finally:
        connection.close()


def unchanged(server: WebServer) -> None:
    session = server.session
    assert session.mode == "edit" and session.board == Board.from_text(BOARD)
    assert session.note == ""


def test_the_page_with_its_token_works_and_sets_a_strict_http_only_cookie(server: WebServer) -> None:
    assert server.url == f"http://127.0.0.1:{server.port}/?token={server.token}"
    assert len(server.token) >= 40  # 32 random bytes
    status, headers, page = ask(server, "GET", f"/?token={server.token}", token=False)
    assert status == 200 and '<script type="module" src="web.js">' in page
    cookie = headers["Set-Cookie"]
    assert cookie.startswith(f"analyzer-token-{server.port}={server.token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert "script-src 'self'" in headers["Content-Security-Policy"] and headers["X-Frame-Options"] == "DENY"
    # The browser sends the cookie back: that alone is enough for the API.
    jar = {"Cookie": f"analyzer-token-{server.port}={server.token}"}
    status, _, view = ask(server, "GET", "/api/view", headers=jar, token=False)
    assert status == 200 and view["mode"] == "edit"
    status, _, view = ask(server, "POST", "/api/action", FLAG, headers=jar, token=False)
    assert status == 200 and server.session.board[0, 0] == -2
    # Each run draws its own token.
    with WebServer(Session(BOARD), port=0) as other:
        assert other.token != server.token


@pytest.mark.parametrize("host", ["localhost", "[::1]", "127.0.0.1"])
def test_loopback_names_with_the_port_are_this_server(server: WebServer, host: str) -> None:
    status, _, view = ask(server, "GET", "/api/view", headers={"Host": f"{host}:{server.port}"})
    assert status == 200 and view["mode"] == "edit"


@pytest.mark.parametrize(
    "host",
    [
        "evil.example:{port}",
        "attacker.example",
        "127.0.0.1:1",
        "localhost",
        "127.0.0.1:{port}@evil.example",
        "",
    ],
)
def test_a_foreign_host_is_refused_and_changes_nothing(server: WebServer, host: str) -> None:
    host = host.format(port=server.port)
    for method, path, body in (("GET", "/api/view", None), ("POST", "/api/action", FLAG), ("GET", "/", None)):
        status, headers, answer = ask(server, method, path, body, headers={"Host": host})
        assert status == 403, (method, path)
        assert answer["error"].startswith(f"refused: Host {host!r} is not this server")
        assert "Set-Cookie" not in headers
    unchanged(server)


def test_a_request_without_a_host_is_refused(server: WebServer) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.putrequest("GET", f"/api/view?token={server.token}", skip_host=True)
        connection.endheaders()
        response = connection.getresponse()
        assert response.status == 403 and "Host None" in json.loads(response.read())["error"]
    finally:
        connection.close()


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "http://evil.example:{port}",
        "null",
        "https://127.0.0.1:{port}",
        "http://127.0.0.1:1",
    ],
)
def test_a_foreign_origin_is_refused_and_changes_nothing(server: WebServer, origin: str) -> None:
    origin = origin.format(port=server.port)
    status, _, answer = ask(server, "POST", "/api/action", FLAG, headers={"Origin": origin})
    assert status == 403 and answer["error"] == f"refused: Origin {origin!r} is not this server's page"
    status, _, answer = ask(server, "GET", "/api/view", headers={"Origin": origin})
    assert status == 403
    unchanged(server)


def test_the_servers_own_origin_is_accepted(server: WebServer) -> None:
    status, _, _ = ask(server, "POST", "/api/action", FLAG, headers={"Origin": server.origin})
    assert status == 200 and server.session.board[0, 0] == -2


def test_the_attack_of_the_issue_is_refused(server: WebServer) -> None:
    """A page elsewhere posting text/plain with its own Origin and Host (issue 43), token or not."""
    attack = {
        "Content-Type": "text/plain",
        "Origin": "http://evil.example",
        "Host": f"evil.example:{server.port}",
    }
    for token in (False, True):
        status, _, answer = ask(server, "POST", "/api/action", FLAG, headers=attack, token=token)
        assert status == 403 and "refused" in answer["error"]
    status, _, answer = ask(server, "GET", "/api/view", headers={"Host": "attacker.example"})
    assert status == 403
    unchanged(server)


@pytest.mark.parametrize("token", [None, "", "wrong", "x" * 43])
def test_a_missing_or_wrong_token_is_refused_and_changes_nothing(
    server: WebServer, token: str | None
) -> None:
    headers = {} if token is None else {TOKEN_HEADER: token}
    cookie = {} if token is None else {"Cookie": f"analyzer-token-{server.port}={token}"}
    query = "" if token is None else f"?token={token}"
    for extra, path in ((headers, "/api/action"), (cookie, "/api/action"), ({}, f"/api/action{query}")):
        status, _, answer = ask(server, "POST", path, FLAG, headers=extra, token=False)
        assert status == 403
        assert answer["error"].startswith("refused: no valid token: open the URL 'analyzer web' printed")
    for path in ("/", "/board.js", "/api/view", f"/{query}"):
        status, headers_back, answer = ask(server, "GET", path, headers=headers, token=False)
        assert status == 403 and "no valid token" in answer["error"]
        assert "Set-Cookie" not in headers_back
    unchanged(server)


@pytest.mark.parametrize(
    "kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]
)
def test_an_action_not_sent_as_json_is_refused_and_changes_nothing(
    server: WebServer, kind: str | None
) -> None:
    headers = {"Content-Type": kind} if kind else {"Content-Type": ""}
    status, _, answer = ask(server, "POST", "/api/action", FLAG, headers=headers)
    assert status == 415
    assert answer["error"].startswith("an action is sent as application/json, got Content-Type")
    unchanged(server)
    status, _, _ = ask(
        server, "POST", "/api/action", FLAG, headers={"Content-Type": "application/json; charset=utf-8"}
    )
    assert status == 200


def test_an_oversized_action_is_refused_before_it_is_read(server: WebServer) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.putrequest("POST", "/api/action")
        connection.putheader(TOKEN_HEADER, server.token)
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(MAX_ACTION_BYTES + 1))
        connection.endheaders()  # no body is sent: the answer comes from the headers alone
        response = connection.getresponse()
        answer = json.loads(response.read())
    finally:
        connection.close()
    assert response.status == 413 and answer["error"].startswith("an action is at most")
    unchanged(server)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "new_game", "width": 100_000, "height": 100_000, "mines": 10},
        {"type": "new_game", "width": 2001, "height": 2000, "mines": 10},
        {"type": "resize", "width": 100_000, "height": 100_000, "mines": 10},
        {"type": "resize", "width": 20_001, "height": 1, "mines": 1},
    ],
)
def test_an_oversized_board_is_refused_before_it_is_made(server: WebServer, action: dict[str, Any]) -> None:
    status, _, view = ask(server, "POST", "/api/action", json.dumps(action).encode())
    assert status == 200  # a refused action answers with the view, unchanged, and a note
    size = f"got {action['width']}x{action['height']}"
    assert view["note"] in (
        f"a board is 1 to {MAX_CELLS:,} cells (e.g. 1000x1000), {size}",
        f"a board is at most 20,000 cells a side, {size}",
    )
    assert view["mode"] == "edit" and view["width"] == 4
    assert server.session.board == Board.from_text(BOARD)


def _big_mine(width: int, height: int) -> str:
    return f"{width}x{height}x10\n" + ("H" * width + "\n") * height


@pytest.mark.parametrize(
    "action",
    [
        {"type": "new_game", "width": 2000, "height": 2000, "mines": 10},
        {"type": "new_game", "size": "1001x1000x10"},
        {"type": "resize", "width": 2000, "height": 2000, "mines": 10},
        {"type": "paste", "text": _big_mine(2000, 2000)},
        {"type": "paste", "text": ("H" * 1001 + "\n") * 1000, "mines": 10},
        {
            "type": "open",
            "name": "big.mine",
            "data": base64.b64encode(_big_mine(2000, 2000).encode()).decode(),
        },
    ],
    ids=["new-2000", "new-size", "resize", "paste-mine", "paste-rows", "open-mine"],
)
def test_a_board_past_what_the_page_handles_is_refused_at_once(
    server: WebServer, action: dict[str, Any]
) -> None:
    """Issue 56: a 2000x2000 game took 17.9 s and 2.3 GB to load, then 65-71 s a click."""
    started = time.perf_counter()
    status, _, view = ask(server, "POST", "/api/action", json.dumps(action).encode())
    elapsed = time.perf_counter() - started
    assert status == 200 and view["note"].startswith(f"a board is 1 to {MAX_CELLS:,} cells (e.g. 1000x1000)")
    assert elapsed < 5, elapsed  # refused from the size alone (15 ms here): nothing is made
    assert MAX_CELLS == 1000 * 1000  # what docs/guide/interactive.md measures the page at
    assert server.session.board == Board.from_text(BOARD)


@pytest.mark.parametrize("source", ["board", "game"])
def test_a_source_past_what_the_page_handles_is_refused_before_it_is_shown(source: str) -> None:
    """What ``analyzer web FILE`` or ``analyzer.widget(source)`` is given is held to the same limit."""
    from analyzer.play.game import Game

    given: object = Board.from_text(_big_mine(1001, 1000)) if source == "board" else Game.new(1001, 1000, 10)
    with pytest.raises(
        OptionError, match=r"a board is 1 to 1,000,000 cells \(e.g. 1000x1000\), got 1001x1000"
    ):
        Session(given)


def test_the_largest_board_allowed_is_made() -> None:
    session = Session(BOARD)
    session.act({"type": "resize", "width": 1000, "height": 1000, "mines": 10})
    assert session.note == "" and session.board.width * session.board.height == MAX_CELLS


def test_an_unknown_path_with_the_token_is_404_and_a_wildcard_bind_takes_ip_hosts() -> None:
    with WebServer(Session(BOARD), host="0.0.0.0", port=0) as server:
        assert server.url.startswith("http://127.0.0.1:")
        status, _, _ = ask(server, "GET", "/api/view", headers={"Host": f"10.1.2.3:{server.port}"})
        assert status == 200
        status, _, _ = ask(server, "GET", "/api/view", headers={"Host": f"rebind.example:{server.port}"})
        assert status == 403
        status, _, answer = ask(server, "GET", "/etc/passwd")
        assert status == 404 and answer["error"] == "no page '/etc/passwd'"


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"type": "mines", "mines": ' + b"9" * 5000 + b"}",
        b"\xff\xfe",
        b"{not json",
    ],
)
def test_a_body_that_is_not_a_json_action_is_a_clear_400(server: WebServer, body: bytes) -> None:
    status, _, answer = ask(server, "POST", "/api/action", body)
    assert status == 400 and answer["error"].startswith("the action is not JSON: ")
    unchanged(server)
    status, _, view = ask(server, "GET", "/api/view")  # and the server still answers
    assert status == 200 and view["mode"] == "edit"


def test_serving_beyond_this_machine_says_what_guards_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from analyzer.interactive import web

    def stop(self: WebServer) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(web.WebServer, "serve_forever", stop)
    web.serve(Session(BOARD), host="0.0.0.0", port=0, open_browser=False)
    out, err = capsys.readouterr()
    assert out.startswith("analyzer web: http://127.0.0.1:") and "/?token=" in out
    assert "listening on 0.0.0.0, not only this machine" in err
    web.serve(Session(BOARD), host="127.0.0.1", port=0, open_browser=False)
    assert capsys.readouterr().err == ""


def test_the_file_picker_offers_every_kind_of_file_the_server_opens() -> None:
    """Issue 55: the picker's accept= list left out .json, though a graph's board opens from it."""
    import re

    from analyzer.interactive.session import REPLAY_FORMATS
    from analyzer.interactive.web import static_text

    found = re.search(r'const OPENABLE = "([^"]*)";', static_text("board.js"))
    assert found is not None
    offered = set(found[1].split(","))
    session = Session(BOARD)
    graph = Board.from_json('{"mines": 1, "cells": [{"state": "H", "neighbours": []}]}')
    opened = {"json": graph.to_json(), "mine": BOARD, "txt": BOARD}
    for suffix, text in opened.items():
        session.act({"type": "open", "name": f"x.{suffix}", "data": base64.b64encode(text.encode()).decode()})
        assert session.note == "", suffix
    assert {f".{suffix}" for suffix in (*opened, "mbf", *REPLAY_FORMATS)} <= offered


# ------------------------------------------------------------ load (issue 55): 127.0.0.1 only, bounded


def _raw(server: WebServer, data: bytes) -> int | None:
    """Send ``data`` on a new connection and return the answer's status (``None``: a reset or no answer)."""
    from benchmarks.web_load import status_of

    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as connection:
        try:
            connection.sendall(data)
        except OSError:
            return None
        return status_of(connection)


def _get(server: WebServer) -> bytes:
    from benchmarks.web_load import request_bytes

    return request_bytes(server)


def test_half_sent_connections_hold_at_most_the_bound_and_end_after_the_timeout() -> None:
    from benchmarks.web_load import status_of

    with WebServer(Session(BOARD), port=0, max_threads=4, request_timeout=1.0) as server:
        before = threading.active_count()
        started = time.monotonic()
        slow = [socket.create_connection(("127.0.0.1", server.port), timeout=20) for _ in range(20)]
        try:
            for connection in slow:
                connection.sendall(f"GET /api/view HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
            time.sleep(0.3)
            assert threading.active_count() <= before + 4
            assert _raw(server, _get(server)) in (200, 503)  # answered meanwhile, never left hanging
            statuses = [status_of(connection) for connection in slow]
        finally:
            for connection in slow:
                connection.close()
        assert set(statuses) <= {408, 503} and statuses.count(408) >= 1, statuses
        assert time.monotonic() - started < 10  # dropped after the 1 s given, not held
        assert _raw(server, _get(server)) == 200
        deadline = time.monotonic() + 5
        while threading.active_count() > before and time.monotonic() < deadline:
            time.sleep(0.05)  # the last answer's thread ending
        assert threading.active_count() <= before


def test_a_burst_of_200_requests_is_answered_every_one() -> None:
    from benchmarks.web_load import concurrent

    with WebServer(Session(BOARD), port=0, max_threads=4) as server:
        result = concurrent(server, 200)
        assert result["answered"] == 200, result
        assert set(result["statuses"]) <= {"200", "503"} and "200" in result["statuses"]
        assert server.httpd.request_queue_size >= 200


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Origin": "http://evil.example"}, 403),
        ({"Content-Type": "text/plain"}, 415),
        ({"Content-Length": str(MAX_ACTION_BYTES + 1)}, 413),
    ],
)
def test_a_refused_request_with_a_body_gets_its_status_not_a_reset(
    server: WebServer, headers: dict[str, str], status: int
) -> None:
    body = b"{" + b" " * (4 * 2**20)
    sent = {
        "Host": f"127.0.0.1:{server.port}",
        TOKEN_HEADER: server.token,
        "Content-Type": "application/json",
        "Content-Length": str(len(body)),
        **headers,
    }
    head = "POST /api/action HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in sent.items()) + "\r\n"
    assert _raw(server, head.encode() + body) == status
    unchanged(server)


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS"])
def test_other_methods_are_405_with_allow(server: WebServer, method: str) -> None:
    status, headers, _ = ask(server, method, "/api/action")
    assert status == 405 and headers["Allow"] == "GET, POST"
    status, _, _ = ask(server, method, "/api/action", token=False)
    assert status == 403
    unchanged(server)


def test_the_page_has_an_icon(server: WebServer) -> None:
    status, headers, icon = ask(server, "GET", "/favicon.ico")
    assert status == 200 and headers["Content-Type"] == "image/svg+xml" and icon.startswith("<svg")
    _, _, page = ask(server, "GET", "/")
    assert '<link rel="icon" href="favicon.ico"' in page
