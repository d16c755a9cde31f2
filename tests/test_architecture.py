"""The package's shape: imports only go down (no cycles), and the solver is thread-safe."""

from __future__ import annotations

import ast
import random
import threading
from pathlib import Path

import networkx as nx

import analyzer
from analyzer import solve
from analyzer.play.positions import mid_game
from analyzer.solver.counting import clear_cache

PACKAGE = Path(analyzer.__file__).resolve().parent
# Optional renderers are imported lazily by the values they draw (Board, Analysis);
# those edges point up on purpose and are the only ones allowed to.
RENDERERS = {"analyzer.render"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def import_graph() -> nx.DiGraph:
    """Module -> module it imports (at any depth of the file, lazy imports included)."""
    modules = _modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + [base])
                    base = base.rstrip(".")
                targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
            for target in targets:
                if target in modules and target != name and target not in RENDERERS:
                    graph.add_edge(name, target)
    return graph


def test_the_import_graph_sees_the_package() -> None:
    graph = import_graph()
    assert graph.has_edge("analyzer.solver.solve", "analyzer.solver.counting")
    assert graph.has_edge("analyzer.solver.counting.dispatch", "analyzer.models.cpsat")
    assert graph.number_of_nodes() > 30


#: Imports inside a function that close a cycle on purpose: a front door of a lower module to a
#: higher one that builds its values (``Board.from_image`` reads a picture with analyzer.pictures,
#: whose reader makes Boards). Each must stay inside a function: see the test below.
LAZY_FRONT_DOORS = {("analyzer.board.board", "analyzer.pictures")}


def test_no_import_cycles() -> None:
    graph = import_graph()
    graph.remove_edges_from(LAZY_FRONT_DOORS)
    cycles = list(nx.simple_cycles(graph))
    assert cycles == []


def test_the_front_doors_that_close_a_cycle_import_only_inside_a_function() -> None:
    modules = _modules()
    for source, target in LAZY_FRONT_DOORS:
        assert import_graph().has_edge(source, target), (source, target)  # the door is still there
        tree = ast.parse(modules[source].read_text(encoding="utf-8"))
        top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        named = {a.name for n in top for a in n.names} | {
            n.module for n in top if isinstance(n, ast.ImportFrom)
        }
        assert not any(name and (name == target or name.startswith(target + ".")) for name in named), source


def test_a_cycle_would_be_found() -> None:
    graph = import_graph()
    graph.add_edge("analyzer.board.board", "analyzer.solver.solve")
    assert list(nx.simple_cycles(graph))


def test_lower_layers_do_not_import_higher_ones() -> None:
    graph = import_graph()
    layers = [
        "analyzer.errors",
        "analyzer.names",
        "analyzer.jit",
        "analyzer.limits",
        "analyzer.board",
        "analyzer.solver",
        "analyzer.play",
        "analyzer.replays",
        "analyzer.interactive",
        "analyzer.warmup",
        "analyzer.cli",
    ]

    def layer(module: str) -> int:
        for rank, prefix in enumerate(layers):
            if module == prefix or module.startswith(prefix + "."):
                return rank
        return -1

    upward = [
        (a, b)
        for a, b in graph.edges
        if layer(a) >= 0 and layer(b) > layer(a) and not a.startswith("analyzer.models")
    ]
    assert upward == []


def test_threads_solving_at_once_get_the_single_threaded_answers() -> None:
    boards = [
        mid_game(9 + seed % 8, 9 + seed % 5, 10 + seed % 12, progress=0.4, seed=seed) for seed in range(100)
    ]
    clear_cache()
    expected = [solve(board).cell_probabilities for board in boards]
    clear_cache()
    results: dict[int, list[tuple[object, ...]]] = {}
    errors: list[BaseException] = []

    def work(thread: int) -> None:
        order = list(range(len(boards)))
        random.Random(thread).shuffle(order)
        got: list[tuple[object, ...]] = [()] * len(boards)
        try:
            for i in order:
                got[i] = solve(boards[i]).cell_probabilities
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
        results[thread] = got

    threads = [threading.Thread(target=work, args=(t,)) for t in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert all(results[t] == expected for t in range(32))
