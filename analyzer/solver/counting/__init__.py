"""Count the layouts of one component, by number of mines.

``types`` holds the values every engine returns; ``enumerate``, ``frontier``,
``split`` (and :mod:`analyzer.models.cpsat`) are the engines; ``dispatch``
chooses among them and keeps the component cache (``cache``).
"""

from analyzer.solver.counting.dispatch import (
    AUTO_ENUMERATE_NODE_BUDGET,
    ENGINES,
    cache_info,
    clear_cache,
    count_component,
)
from analyzer.solver.counting.enumerate import count_enumerate
from analyzer.solver.counting.order import search_order
from analyzer.solver.counting.types import ComponentCounts

__all__ = [
    "ENGINES",
    "AUTO_ENUMERATE_NODE_BUDGET",
    "ComponentCounts",
    "count_component",
    "count_enumerate",
    "search_order",
    "cache_info",
    "clear_cache",
]
