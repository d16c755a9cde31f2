"""The interactive board as a local web page: ``analyzer web`` (standard library ``http.server``).

The page is the widget's own front end (``static/board.js``) with a model that
talks JSON over HTTP instead of Jupyter's comm:

``GET /``, ``/board.js``, ``/board.css``, ``/web.js``
    The page and its files.
``GET /api/view?since=V``
    The current view as the protocol answers it (:meth:`Session.respond
    <analyzer.interactive.session.Session.respond>`: ``{"view", "cells", "answer"}``;
    the cells that changed since version ``V``, all of them without ``since``),
    then, when the best move was still to score, a second JSON line with the view
    that has it (``{"view"}``, or ``{"superseded": true}`` when a later action
    changed the position first).
``POST /api/action?since=V``
    One action (JSON, see :meth:`Session.act <analyzer.interactive.session.Session.act>`),
    answered the same way: one round trip per action, the board in the first
    line, the best move in the second (``application/x-ndjson``).

The server listens on 127.0.0.1 by default and serves one session: it is a
tool for the person at this machine, not a public site.
"""

from __future__ import annotations

import json
import threading
import webbrowser
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from analyzer.interactive.session import DEFAULT_TIME_LIMIT, Session

__all__ = ["WebServer", "serve"]

_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/web.js": ("web.js", "text/javascript; charset=utf-8"),
    "/board.css": ("board.css", "text/css; charset=utf-8"),
}
MAX_ACTION_BYTES = 64 * 1024
"""The largest action the server reads (an action is a few dozen bytes)."""


def static_text(name: str) -> str:
    """One of the front end's files, from the installed package."""
    return resources.files("analyzer.interactive").joinpath("static", name).read_text(encoding="utf-8")


class WebServer:
    """A local server for one :class:`~analyzer.interactive.session.Session`.

    ``port=0`` takes a free port; :attr:`url` says which. :meth:`start` runs it
    in a background thread (for scripts and tests), :meth:`serve_forever` in this one.

    >>> server = WebServer(Session("3x1x1\\nH1H\\n"), port=0)
    >>> server.url.startswith("http://127.0.0.1:")
    True
    >>> server.close()
    """

    def __init__(self, session: Session, *, host: str = "127.0.0.1", port: int = 8765):
        self.session = session
        handler = type("Handler", (_Handler,), {"session": session})
        self.httpd = _Server((host, port), handler)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}/"

    def start(self) -> WebServer:
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="analyzer-web", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self.httpd.serve_forever()

    def close(self) -> None:
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join()
        self.httpd.server_close()

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def serve(
    source: object = None,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    open_browser: bool = True,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
) -> None:
    """Serve the interactive board for ``source`` (a :class:`Session`, or what one opens) until interrupted.

    Raises ``OSError`` when the port cannot be had.
    """
    session = source if isinstance(source, Session) else Session(source, time_limit=time_limit, seed=seed)
    server = WebServer(session, host=host, port=port)
    print(f"analyzer web: {server.url} (Ctrl+C stops it)", flush=True)
    if open_browser:
        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


def _since(query: str) -> int | None:
    """The version the page holds (``?since=V``), or ``None``."""
    value = parse_qs(query).get("since", [""])[0]
    return int(value) if value.isdigit() else None


class _Server(ThreadingHTTPServer):
    request_queue_size = 64  # a page sends clicks faster than five at a time
    daemon_threads = True


class _Handler(BaseHTTPRequestHandler):
    session: Session
    server_version = "analyzer-web"

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the terminal shows the URL only
        return

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        if parts.path == "/api/view":
            since = _since(parts.query)
            self._stream(self.session.respond(since=since))
            return
        known = _FILES.get(parts.path)
        if known is None:
            self._json({"error": f"no page {parts.path!r}"}, HTTPStatus.NOT_FOUND)
            return
        name, kind = known
        self._send(static_text(name).encode(), kind)

    def do_POST(self) -> None:
        parts = urlsplit(self.path)
        if parts.path != "/api/action":
            self._json({"error": f"no action at {self.path!r}"}, HTTPStatus.NOT_FOUND)
            return
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if not 0 < length <= MAX_ACTION_BYTES:
            self._json({"error": "an action is a JSON object of at most 64 KiB"}, HTTPStatus.BAD_REQUEST)
            return
        try:
            action = json.loads(self.rfile.read(length))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            self._json({"error": f"the action is not JSON: {error}"}, HTTPStatus.BAD_REQUEST)
            return
        self._stream(self.session.respond(action, since=_since(parts.query)))

    def _stream(self, first: dict[str, Any]) -> None:
        """The answer in one line, then, if the best move was still to score, the view that has it."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            self.wfile.write(json.dumps(first).encode() + b"\n")
            self.wfile.flush()
            view = first["view"]
            if view.get("best_pending"):
                scored = self.session.best_view(view["version"])
                line = {"superseded": True} if scored is None else {"view": scored}
                self.wfile.write(json.dumps(line).encode() + b"\n")
        except (BrokenPipeError, ConnectionResetError):  # the page went away: nothing to answer
            return

    def _json(self, value: object, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(json.dumps(value).encode(), "application/json", status)

    def _send(self, body: bytes, kind: str, status: HTTPStatus = HTTPStatus.OK) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)
