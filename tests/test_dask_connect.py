"""Connecting to a Dask scheduler: a wrong address is one clear line within seconds, never a hang."""

from __future__ import annotations

import http.server
import socket
import socketserver
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest

from analyzer import OptionError, SimulationError, simulate, solve_many
from analyzer.limits import probe_dask_scheduler

pytest.importorskip("distributed")


@contextmanager
def _server(handler: type[socketserver.BaseRequestHandler]) -> Iterator[str]:
    """A local endpoint on 127.0.0.1 with ``handler``, for the length of the block."""
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _Web(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"dashboard")

    def log_message(self, *args: object) -> None:
        pass


class _Junk(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        self.request.sendall(b"\xff" * 64)  # reads as a frame of 2**64 - 1 bytes
        time.sleep(1)


def test_a_web_server_is_not_a_scheduler_and_says_so_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("analyzer.limits.DASK_PROBE_SECONDS", 1.0)
    with _server(_Web) as address:
        start = time.monotonic()
        with pytest.raises(SimulationError, match="said nothing in 1 s: not a Dask scheduler"):
            simulate(4, 4, 2, "local", 2, backend="dask", address=address)
        assert time.monotonic() - start < 5


def test_junk_is_not_a_scheduler() -> None:
    with (
        _server(_Junk) as address,
        pytest.raises(OptionError, match="answered, but not as a Dask scheduler does"),
    ):
        solve_many(["3x1x1\nH1H\n"], backend="dask", address=address)


def test_nothing_listening() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    message = probe_dask_scheduler(f"tcp://127.0.0.1:{port}", 2)
    assert message is not None and message.startswith(f"cannot connect to 'tcp://127.0.0.1:{port}'")
    assert probe_dask_scheduler("nonsense") == "'nonsense' is not a scheduler address (tcp://HOST:PORT)"


def test_a_real_scheduler_passes_the_probe() -> None:
    import asyncio

    from distributed import Scheduler

    async def check() -> str | None:
        async with Scheduler(host="127.0.0.1", port=0, dashboard_address=None) as scheduler:
            return await asyncio.to_thread(probe_dask_scheduler, scheduler.address, 5)

    # In a thread of its own: a worker whose browser tests ran first has Playwright's loop running here.
    with ThreadPoolExecutor(1) as thread:
        assert thread.submit(asyncio.run, check()).result() is None
