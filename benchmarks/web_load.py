"""Load on ``analyzer web``, on 127.0.0.1 only, bounded in count and time.

    python -m benchmarks.web_load [--half-open 150] [--concurrent 200]

Starts a server in this process on a free loopback port and prints, as JSON:

- ``threads_half_open``: the process's threads while ``--half-open`` connections
  hold a request half sent (a request line, no end of headers), and whether a
  normal request still gets an HTTP status meanwhile;
- ``answered``: of ``--concurrent`` requests sent at once (all connections made
  first, then every request written, then every answer read), how many got an
  HTTP status line, and which statuses.

Every socket has a timeout; the run ends by itself within about a minute.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import threading
import time
from collections import Counter
from typing import Any

from analyzer.interactive.session import Session
from analyzer.interactive.web import TOKEN_HEADER, WebServer

BOARD = "4x3x4\nHHHH\nFHHH\n2H2H\n"


def request_bytes(server: WebServer) -> bytes:
    return (
        f"GET /api/view HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n{TOKEN_HEADER}: {server.token}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()


def status_of(connection: socket.socket) -> int | None:
    """The status of the answer on ``connection``, ``None`` for a reset, a close or a timeout without one."""
    data = b""
    try:
        while b"\r\n" not in data:
            chunk = connection.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    line = data.split(b"\r\n", 1)[0].split()
    return int(line[1]) if len(line) >= 2 and line[0].startswith(b"HTTP/") and line[1].isdigit() else None


def half_open(server: WebServer, count: int) -> dict[str, Any]:
    before = threading.active_count()
    slow = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        connection.sendall(f"GET /api/view HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
        slow.append(connection)
    time.sleep(1.0)
    during = threading.active_count()
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as normal:
        normal.sendall(request_bytes(server))
        normal_status = status_of(normal)
    normal_seconds = time.perf_counter() - started
    for connection in slow:
        connection.close()
    return {
        "connections": count,
        "threads_before": before,
        "threads_during": during,
        "normal_request_status": normal_status,
        "normal_request_seconds": round(normal_seconds, 3),
    }


def concurrent(server: WebServer, count: int) -> dict[str, Any]:
    connections = []
    for _ in range(count):
        connection = socket.socket()
        connection.settimeout(30)
        connection.setblocking(False)
        connection.connect_ex(("127.0.0.1", server.port))
        connections.append(connection)
    time.sleep(0.2)
    request = request_bytes(server)
    for connection in connections:
        connection.settimeout(30)
        with contextlib.suppress(OSError):  # a reset shows as no status below
            connection.sendall(request)
    statuses = Counter(status_of(connection) for connection in connections)
    for connection in connections:
        connection.close()
    answered = sum(n for status, n in statuses.items() if status is not None)
    return {"sent": count, "answered": answered, "statuses": {str(k): v for k, v in statuses.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--half-open", type=int, default=150)
    parser.add_argument("--concurrent", type=int, default=200)
    args = parser.parse_args()
    if not (0 < args.half_open <= 500 and 0 < args.concurrent <= 500):
        parser.error("--half-open and --concurrent are 1 to 500")
    with WebServer(Session(BOARD), port=0) as server:
        result = {"threads_half_open": half_open(server, args.half_open)}
    with WebServer(Session(BOARD), port=0) as server:
        result["answered"] = concurrent(server, args.concurrent)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
