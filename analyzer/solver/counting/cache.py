"""A thread-safe cache of counted components, bounded by an estimate of its memory.

Equal problems (the same groups and equations in the same local order: a
component untouched by the last move, or the same shape elsewhere on the board)
are counted once. Solves on several threads at once (a Dask worker runs its
tasks on threads) share the cache under one lock; counting itself happens
outside the lock, so two threads may count the same new component at once and
the second result simply replaces the first (they are equal).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TypedDict

from analyzer.solver.counting.types import ComponentCounts
from analyzer.solver.decomposition import ComponentProblem

__all__ = ["ComponentCache", "CacheInfo", "CACHE", "DEFAULT_CACHE_BYTES"]

DEFAULT_CACHE_BYTES = 256 * 2**20
"""Default bound on the estimated memory of the counted components kept (256 MiB)."""


class CacheInfo(TypedDict):
    hits: int
    misses: int
    size: int
    bytes: int
    max_bytes: int


class ComponentCache:
    """Least-recently-used map from ``(engine, problem)`` to counts, bounded in bytes.

    A result larger than the whole bound is returned to its caller but not kept.

    >>> cache = ComponentCache(max_bytes=10_000)
    >>> problem = ComponentProblem((1,), (((0,), 1),))
    >>> cache.get(("enumerate", problem)) is None
    True
    >>> cache.put(("enumerate", problem), ComponentCounts((0, 1), 1, "enumerate", ((0, 1),)))
    >>> cache.get(("enumerate", problem)).layouts
    (0, 1)
    >>> info = cache.info()
    >>> (info["hits"], info["misses"], info["size"], 0 < info["bytes"] <= info["max_bytes"])
    (1, 1, 1, True)
    """

    def __init__(self, max_bytes: int = DEFAULT_CACHE_BYTES) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[str, ComponentProblem], tuple[ComponentCounts, int]] = OrderedDict()
        self._bytes = 0
        self._hits = 0
        self._misses = 0
        self.max_bytes = max_bytes

    def get(self, key: tuple[str, ComponentProblem]) -> ComponentCounts | None:
        """The counts kept for ``key`` (marked as recently used), or None (a miss)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                self._misses += 1
                return None
            self._entries.move_to_end(key)
            self._hits += 1
            return entry[0]

    def put(self, key: tuple[str, ComponentProblem], counts: ComponentCounts) -> None:
        """Keep ``counts``, dropping the least recently used entries past the bound."""
        size = counts.estimated_bytes() + _key_bytes(key[1])
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if size > self.max_bytes:
                return
            self._entries[key] = (counts, size)
            self._bytes += size
            while self._bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._bytes -= dropped

    def info(self) -> CacheInfo:
        """Hits, misses, entries, estimated bytes held and the bound."""
        with self._lock:
            return CacheInfo(
                hits=self._hits,
                misses=self._misses,
                size=len(self._entries),
                bytes=self._bytes,
                max_bytes=self.max_bytes,
            )

    def clear(self) -> None:
        """Forget every entry and reset the statistics."""
        with self._lock:
            self._entries.clear()
            self._bytes = 0
            self._hits = 0
            self._misses = 0


def _key_bytes(problem: ComponentProblem) -> int:
    return 120 + 16 * len(problem.sizes) + sum(64 + 8 * len(groups) for groups, _ in problem.equations)


CACHE = ComponentCache()
"""The process-wide cache that :func:`~analyzer.solver.counting.count_component` uses."""
