"""The interactive board as a local web page: ``analyzer web`` (standard library ``http.server``).

The page is the widget's own front end (``static/board.js``) with a model that
talks JSON over HTTP instead of Jupyter's comm:

``GET /?token=...``, ``/board.js``, ``/board.css``, ``/web.js``, ``/favicon.ico``
    The page and its files (the icon an SVG).
``GET /api/view?since=V``
    The current view as the protocol answers it (:meth:`Session.respond
    <analyzer.interactive.session.Session.respond>`: ``{"view", "cells", "answer"}``;
    the cells that changed since version ``V``, all of them without ``since``),
    then, when the best move was still to score, a second JSON line with the view
    that has it (``{"view"}``, or ``{"superseded": true}`` when a later action
    changed the position first).
``POST /api/action?since=V``
    One action (``application/json``, see :meth:`Session.act <analyzer.interactive.session.Session.act>`),
    answered the same way: one round trip per action, the board in the first
    line, the best move in the second (``application/x-ndjson``).
``POST /api/picture?since=V&name=N&mines=M&skin=S``
    A screenshot pasted or dropped onto the board, as its raw bytes (any
    ``Content-Type`` but text and JSON: the bytes' magic number decides), at most
    :data:`~analyzer.interactive.screenshot.MAX_PICTURE_BYTES` (``413``), a picture
    (PNG, JPEG, GIF, BMP, WebP) or ``415``; read as the ``picture`` action
    (``name``, ``mines`` and ``skin`` optional) and answered as an action is. A
    picture that cannot be read as a board is the view's ``note``, one line.

Safe to leave running. The server listens on 127.0.0.1 by default and serves one
session to the person at this machine; every request must pass three checks, as
Jupyter's server does, or is refused with ``403`` and a JSON ``{"error": ...}``
that says why, before anything else happens:

- **Host**: ``127.0.0.1``, ``localhost`` or ``[::1]`` with the server's port, or
  the host it was bound to (bound to every interface, ``0.0.0.0`` or ``::``: any
  address written as digits too). A DNS name pointing at this machine (DNS
  rebinding) is refused.
- **Origin**: absent (a navigation, a script) or this server's own origin.
- **Token**: a secret drawn for each run (:func:`secrets.token_urlsafe`), part of
  the URL the command prints and opens (``?token=...``). The page answers it with
  a cookie (``HttpOnly``, ``SameSite=Strict``), which the browser sends with each
  later request; scripts may send the ``X-Analyzer-Token`` header instead.

At most :data:`MAX_THREADS` requests are answered at once; a connection past them
is answered ``503`` (with what it sent read first, so the client sees the status,
not a reset). A request has :data:`REQUEST_TIMEOUT` seconds to arrive, line,
headers and body, or is answered ``408`` and closed; a refused request's body is
read and dropped (up to :data:`MAX_ACTION_BYTES`) before the connection closes.
Methods other than GET and POST are ``405`` with ``Allow``.

Actions come only as ``application/json`` (``415`` otherwise) and at most
:data:`MAX_ACTION_BYTES` long (``413``); what an action may ask for is bounded in
the session (a board of at most :data:`~analyzer.interactive.session.MAX_CELLS`
cells). Files are read only from what the person uploads through the page (the
bytes travel in the action) or names on the command line, never from a path an
action supplies.
"""

from __future__ import annotations

import hmac
import io
import ipaddress
import json
import secrets
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from analyzer.interactive.frontend import static_text
from analyzer.interactive.screenshot import MAX_PICTURE_BYTES, picture_format
from analyzer.interactive.session import DEFAULT_TIME_LIMIT, MAX_UPLOAD_BYTES, Session

__all__ = ["WebServer", "serve", "MAX_ACTION_BYTES", "MAX_THREADS", "REQUEST_TIMEOUT", "TOKEN_HEADER"]

_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/web.js": ("web.js", "text/javascript; charset=utf-8"),
    "/board.css": ("board.css", "text/css; charset=utf-8"),
}
MAX_ACTION_BYTES = (MAX_UPLOAD_BYTES + 2) // 3 * 4 + 64 * 1024
"""The largest action the server reads: a file opened from the page, in base64, and a little more."""

MAX_THREADS = 32
"""The most requests handled at once; a connection past them is answered ``503`` and closed."""

REQUEST_TIMEOUT = 10.0
"""Seconds a request (its line, headers and body) may take to arrive; a slower one is answered ``408``."""

_ALLOW = "GET, POST"
_DRAIN_SECONDS = 0.5  # how long a refused request's unread body is waited for, once it stops coming
_SLOT_WAIT = 0.02  # how long a connection past the bound waits for a request to finish (a burst of clicks)
_ICON = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="2"'
    b' fill="#b4b4b4"/><circle cx="8" cy="8" r="4" fill="#000"/></svg>'
)

TOKEN_HEADER = "X-Analyzer-Token"
"""The header a script may send the token in (the page sends the cookie the server set)."""

_LOOPBACK = ("127.0.0.1", "localhost", "::1")
_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:;"
    " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
_WILDCARD = ("", "0.0.0.0", "::")
_POLL = 0.05
"""Seconds between the background server's checks for :meth:`WebServer.close` (socketserver's
0.5 s default made every close wait up to half a second)."""


class WebServer:
    """A local server for one :class:`~analyzer.interactive.session.Session`.

    ``port=0`` takes a free port; :attr:`url` says which, with the run's token
    (the only way in: see the module). :meth:`start` runs it in a background
    thread (for scripts and tests), :meth:`serve_forever` in this one.

    >>> server = WebServer(Session("3x1x1\\nH1H\\n"), port=0)
    >>> server.url.startswith("http://127.0.0.1:"), server.url.endswith("/?token=" + server.token)
    (True, True)
    >>> server.close()
    """

    def __init__(
        self,
        session: Session,
        *,
        host: str = "127.0.0.1",
        port: int = 8765,
        token: str | None = None,
        max_threads: int = MAX_THREADS,
        request_timeout: float = REQUEST_TIMEOUT,
    ):
        self.session = session
        self.token = token if token else secrets.token_urlsafe(32)
        self.host = host
        handler: type[_Handler] = type(
            "Handler",
            (_Handler,),
            {"session": session, "server_token": self.token, "request_timeout": request_timeout},
        )
        self.httpd = _Server((host, port), handler)
        self.httpd.slots = threading.BoundedSemaphore(max_threads)
        handler.server_port = self.port
        handler.bound_host = host
        handler.cookie = f"analyzer-token-{self.port}"
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @property
    def origin(self) -> str:
        """``http://host:port`` (a wildcard bind is reached at 127.0.0.1)."""
        host = "127.0.0.1" if self.host in _WILDCARD else self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    @property
    def url(self) -> str:
        """The page's address with the run's token: what the command prints and opens."""
        return f"{self.origin}/?token={quote(self.token)}"

    def start(self) -> WebServer:
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, args=(_POLL,), name="analyzer-web", daemon=True
        )
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
    trust_flags: bool = False,
) -> None:
    """Serve the interactive board for ``source`` (a :class:`Session`, or what one opens) until interrupted.

    Prints the page's URL, token included, and opens it unless ``open_browser`` is false.
    Raises ``OSError`` when the port cannot be had.
    """
    session = (
        source
        if isinstance(source, Session)
        else Session(source, time_limit=time_limit, seed=seed, trust_flags=trust_flags)
    )
    server = WebServer(session, host=host, port=port)
    print(f"analyzer web: {server.url} (Ctrl+C stops it)", flush=True)
    if host.strip("[]").lower() not in _LOOPBACK:
        print(
            f"analyzer web: listening on {host}, not only this machine: whoever reaches it with the URL's"
            " token drives the board (plain HTTP: the token is readable on the network)",
            file=sys.stderr,
            flush=True,
        )
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
    """At most :data:`MAX_THREADS` requests at a time; each connection past them is answered ``503``."""

    request_queue_size = 1024  # connections waiting to be accepted (a burst of 200 at once is answered)
    daemon_threads = True
    slots: threading.BoundedSemaphore

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(timeout=_SLOT_WAIT):
            _busy(request)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread was started: its slot is free again
            self.slots.release()
            raise

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away mid-answer is no error to print; anything else is."""
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()


def _busy(connection: socket.socket) -> None:
    """Answer ``503`` on the accepting thread, never waiting on the client (what has arrived is dropped)."""
    body = json.dumps(
        {"error": "busy: as many requests as the server answers at once are being answered; try again"}
    ).encode()
    head = (
        "HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
        f"Cache-Control: no-store\r\nConnection: close\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    try:
        connection.setblocking(False)
        _discard(connection, 1 << 16)
        connection.settimeout(0.2)
        connection.sendall(head + body)
        connection.shutdown(socket.SHUT_WR)
        connection.setblocking(False)
        _discard(connection, 1 << 16)
    except OSError:
        return


def _discard(connection: socket.socket, limit: int) -> int:
    """Read and drop up to ``limit`` bytes, until the peer stops or the socket's timeout passes."""
    dropped = 0
    try:
        while dropped < limit:
            chunk = connection.recv(min(1 << 16, limit - dropped))
            if not chunk:
                break
            dropped += len(chunk)
    except (BlockingIOError, TimeoutError, OSError):
        pass
    return dropped


class _DeadlineReader(io.RawIOBase):
    """The socket, read until a deadline: each read waits only for the time left (a slow client ends)."""

    def __init__(self, connection: socket.socket, deadline: float):
        self.connection = connection
        self.deadline = deadline
        self.expired = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            self.expired = True
            raise TimeoutError("the request took too long to arrive")
        self.connection.settimeout(left)
        try:
            return self.connection.recv_into(buffer)
        except TimeoutError:
            self.expired = True
            raise


class _Handler(BaseHTTPRequestHandler):
    session: Session
    server_token: str
    server_port: int
    bound_host: str
    cookie: str
    request_timeout: float
    server_version = "analyzer-web"
    _reader: _DeadlineReader
    _answered = False
    _body_read = False

    def setup(self) -> None:
        super().setup()
        self.command, self.request_version, self.requestline = "", "HTTP/1.0", ""  # until a request arrives
        self._reader = _DeadlineReader(self.connection, time.monotonic() + self.request_timeout)
        self.rfile = io.BufferedReader(self._reader)

    def handle(self) -> None:
        super().handle()
        if self._reader.expired and not self._answered:
            seconds = f"{self.request_timeout:g}"
            self._json(
                {"error": f"the request did not arrive within {seconds} s"}, HTTPStatus.REQUEST_TIMEOUT
            )

    def finish(self) -> None:
        super().finish()
        if self.command == "POST" and not self._body_read and not self._reader.expired:
            # A refused request's body is read and dropped (a bounded amount), so the client sees the
            # answer rather than a reset.
            try:
                self.connection.shutdown(socket.SHUT_WR)
                self.connection.settimeout(_DRAIN_SECONDS)
                _discard(self.connection, MAX_ACTION_BYTES + 1024)
            except OSError:
                pass

    def send_response(self, code: int, message: str | None = None) -> None:
        self._answered = True
        self.connection.settimeout(60.0)  # the request has arrived: the answer has its own time
        super().send_response(code, message)

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the terminal shows the URL only
        return

    def _not_allowed(self) -> None:
        if not self._allowed(urlsplit(self.path).query):
            return
        self.close_connection = True
        self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
        body = json.dumps({"error": f"{self.command} is not answered here: only {_ALLOW}"}).encode()
        self.send_header("Allow", _ALLOW)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = do_TRACE = do_CONNECT = _not_allowed

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        if not self._allowed(parts.query):
            return
        if parts.path == "/api/view":
            since = _since(parts.query)
            self._stream(self.session.respond(since=since))
            return
        if parts.path == "/favicon.ico":
            self._send(_ICON, "image/svg+xml")
            return
        known = _FILES.get(parts.path)
        if known is None:
            self._json({"error": f"no page {parts.path!r}"}, HTTPStatus.NOT_FOUND)
            return
        name, kind = known
        self._send(static_text(name).encode(), kind)

    def do_POST(self) -> None:
        parts = urlsplit(self.path)
        if not self._allowed(parts.query):
            return
        if parts.path == "/api/picture":
            self._picture(parts.query)
            return
        if parts.path != "/api/action":
            self._json({"error": f"no action at {self.path!r}"}, HTTPStatus.NOT_FOUND)
            return
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            message = f"an action is sent as application/json, got Content-Type {kind or 'none'!r}"
            self._json({"error": message}, HTTPStatus.UNSUPPORTED_MEDIA_TYPE)
            return
        body = self._body(
            MAX_ACTION_BYTES,
            lambda length: (
                f"an action is at most {MAX_ACTION_BYTES:,} bytes (a file of at most"
                f" {MAX_UPLOAD_BYTES // 2**20} MiB), got {length:,}"
            ),
            "an action is a JSON object; the request had no body",
        )
        if body is None:
            return
        try:
            action = json.loads(body)
        except (ValueError, RecursionError) as error:  # not UTF-8, not JSON, too deep, a 5,000-digit number
            self._json({"error": f"the action is not JSON: {error}"}, HTTPStatus.BAD_REQUEST)
            return
        self._stream(self.session.respond(action, since=_since(parts.query)))

    def _picture(self, query: str) -> None:
        """``POST /api/picture``: a screenshot's raw bytes, read as the board (the ``picture`` action)."""
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind.startswith("text/") or kind in ("application/json", "application/x-www-form-urlencoded"):
            message = f"a picture is sent as its bytes (image/png, ...), got Content-Type {kind!r}"
            self._json({"error": message}, HTTPStatus.UNSUPPORTED_MEDIA_TYPE)
            return
        body = self._body(
            MAX_PICTURE_BYTES,
            lambda length: f"a picture is at most {MAX_PICTURE_BYTES // 2**20} MiB, got {length:,} bytes",
            "a picture is its bytes; the request had no body",
        )
        if body is None:
            return
        if picture_format(body) is None:
            message = "not a picture: the bytes are no PNG, JPEG, GIF, BMP or WebP"
            self._json({"error": message}, HTTPStatus.UNSUPPORTED_MEDIA_TYPE)
            return
        fields = parse_qs(query)
        action: dict[str, Any] = {"type": "picture", "data": body}
        for field in ("name", "mines", "skin"):
            if fields.get(field):
                action[field] = fields[field][0]
        self._stream(self.session.respond(action, since=_since(query)))

    def _body(self, limit: int, too_large: Callable[[int], str], empty: str) -> bytes | None:
        """The request's body, at most ``limit`` bytes by its Content-Length; else ``None``, answered
        413 with ``too_large(length)`` before a byte is read, or 400 with ``empty``."""
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if length > limit:
            self._json({"error": too_large(length)}, HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
            return None
        if length <= 0:
            self._json({"error": empty}, HTTPStatus.BAD_REQUEST)
            return None
        body = self.rfile.read(length)
        self._body_read = True
        return body

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

    # ------------------------------------------------------------ the checks
    def _allowed(self, query: str) -> bool:
        """Host, Origin and token; a refusal is answered here (403) and the request goes no further."""
        problem = self._refusal(query)
        if problem is None:
            return True
        self.close_connection = True
        self._json({"error": problem}, HTTPStatus.FORBIDDEN)
        return False

    def _refusal(self, query: str) -> str | None:
        host = self.headers.get("Host")
        if host is None or not self._is_own(host):
            return (
                f"refused: Host {host!r} is not this server (open {self._expected()}; a page of another"
                " site cannot reach it)"
            )
        origin = self.headers.get("Origin")
        if origin is not None:
            parts = urlsplit(origin)
            if parts.scheme != "http" or parts.path not in ("", "/") or not self._is_own(parts.netloc):
                return f"refused: Origin {origin!r} is not this server's page"
        if not self._has_token(query):
            return (
                "refused: no valid token: open the URL 'analyzer web' printed (it ends in ?token=...);"
                " a new run draws a new token"
            )
        return None

    def _is_own(self, netloc: str) -> bool:
        """``netloc`` names this server: an allowed host and the server's port."""
        try:
            parts = urlsplit(f"//{netloc}")
            name, port = parts.hostname, parts.port
        except ValueError:
            return False
        if name is None or port != self.server_port or "@" in netloc:
            return False
        bound = self.bound_host.strip("[]").lower()
        if name in _LOOPBACK or name == bound:
            return True
        if bound in _WILDCARD:
            try:
                ipaddress.ip_address(name)
            except ValueError:
                return False
            return True
        return False

    def _expected(self) -> str:
        return f"http://127.0.0.1:{self.server_port}/?token=..."

    def _has_token(self, query: str) -> bool:
        offered = [self.headers.get(TOKEN_HEADER, ""), *parse_qs(query).get("token", [])]
        for part in self.headers.get("Cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == self.cookie:
                offered.append(value)
        expected = self.server_token.encode()
        return any(value and hmac.compare_digest(value.encode(), expected) for value in offered)

    # ------------------------------------------------------------ answers
    def _json(self, value: object, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(json.dumps(value).encode(), "application/json", status)

    def _send(self, body: bytes, kind: str, status: HTTPStatus = HTTPStatus.OK) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if kind.startswith("text/html"):
            # Its own scripts only, no frame around it (no page of another site can dress it up).
            self.send_header("Content-Security-Policy", _POLICY)
            self.send_header("X-Frame-Options", "DENY")
        if status != HTTPStatus.OK:
            self.close_connection = True  # a refused request's body may be unread
        else:
            # The page keeps the token as a cookie only this origin's own pages send.
            self.send_header(
                "Set-Cookie", f"{self.cookie}={self.server_token}; Path=/; HttpOnly; SameSite=Strict"
            )
        self.end_headers()
        self.wfile.write(body)
