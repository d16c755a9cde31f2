"""Sphinx configuration of the manual: ``make docs`` builds it into ``build/docs``.

Sphinx with MyST (the guide is Markdown, so the pages read on the repository too),
myst-nb (the notebooks with their stored outputs, never executed here), numpydoc (the
reference, from the docstrings, which are written in its format) and sphinx-argparse
(the command line, from ``analyzer.cli``'s parser). Everything builds offline: no
intersphinx, no theme or script fetched at build time.
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import json
import sys
from pathlib import Path
from types import GenericAlias, ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx import addnodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # the checkout's analyzer, not an installed one

project = "analyzer"
author = "the analyzer authors"
copyright = "the analyzer authors"  # noqa: A001 (Sphinx's name)
release = version = "0.1.0"

extensions = [
    "myst_nb",  # Markdown pages (MyST) and notebooks
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinxarg.ext",
]

root_doc = "index"
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "**/.ipynb_checkpoints", "notebooks/README.md"]
templates_path = ["_templates"]

# --- warnings: the build runs with -W --keep-going; every cross reference must resolve
nitpicky = True
#: Types the docstrings name that no page documents: builtins and the standard library,
#: and the third-party types (no intersphinx: the build is offline).
_EXTERNAL_TYPES = """
    int float str bool bytes object None tuple list dict set frozenset callable iterable
    optional default sequence mapping iterator generator
    Fraction fractions.Fraction Path pathlib.Path os.PathLike Iterable Iterator Sequence Mapping
    Callable Any collections.abc.Iterable collections.abc.Iterator collections.abc.Sequence
    collections.abc.Mapping collections.abc.Callable typing.Any datetime.timedelta
    concurrent.futures.Executor threading.Event
    numpy.ndarray np.ndarray ndarray numpy.random.Generator np.random.Generator Generator
    numpy.random.SeedSequence numpy.int64 numpy.uint64 numpy.float64 numpy.dtype numpy.typing.NDArray
    NDArray networkx.Graph nx.Graph sympy.Expr sympy.Basic pandas.DataFrame
    ortools.sat.python.cp_model.CpModel cp_model.CpModel CpModel
    anywidget.AnyWidget traitlets.HasTraits
    distributed.Client dask.distributed.Client
""".split()  # noqa: SIM905 (a word list reads better so)
nitpick_ignore = [(role, name) for role in ("py:class", "py:obj", "py:data") for name in _EXTERNAL_TYPES]
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|networkx|nx|sympy|pandas|ortools|dask|distributed|anywidget|traitlets)\..*"),
    (r"py:.*", r"(typing|collections\.abc|fractions|pathlib|concurrent\.futures|threading|os)\..*"),
    (r"py:.*", r"(builtins|dataclasses|math|functools|itertools|enum|json|http|socket|multiprocessing|secrets)\..*"),
    (r"py:.*", r"(.*\.)?_[A-Za-z]\w*"),  # private names: documented by design nowhere
]
#: Names the docstrings refer to that no module exports (not in any ``__all__``): internals a
#: reader of the reference cannot look up. Each is a docstring to reword, or a name to export.
_UNEXPORTED = {
    "py:attr": ["note"],  # analyzer.interactive.session.Session.act
    "py:data": [
        "DASK_PROBE_SECONDS",  # analyzer.limits
        "WORDS",  # analyzer.play.fast.endgame
        "NO_GUESS_ATTEMPTS",  # analyzer.play.game
        "PEER_REMARKS_MAX_CELLS",  # analyzer.replays.read
        "BOARD_COUNTED",  # analyzer.solver.kernels, and the three below
        "BOARD_NO_LAYOUT",
        "ENUMERATION_BUDGET",
        "ENUMERATION_OVERFLOW",
    ],
    "py:func": [
        "split_components",  # analyzer.solver.kernels (and analyzer.play.fast.probabilities)
        "search_component",
        "transpose",
        "analyzer.solver.kernels.components.split_components",
        "analyzer.solver.kernels.enumerate.search_component",
    ],
}
nitpick_ignore += [(role, name) for role, names in _UNEXPORTED.items() for name in names]
nitpick_ignore += [("py:class", name) for name in dir(builtins) if name[0].isupper()]  # ValueError...

# --- MyST and notebooks
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3
nb_execution_mode = "off"  # the notebooks are rendered with the outputs they are stored with
# A stored widget view needs a live kernel: show its text form (the page's pictures are beside it).
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]

# --- the reference
autosummary_generate = True
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # numpydoc's Parameters sections say the types; signatures stay short
autodoc_default_options = {"show-inheritance": True}
numpydoc_show_class_members = False  # autodoc lists members; numpydoc only formats the sections
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# --- HTML
html_theme = "furo"
html_title = "analyzer"
html_static_path: list[str] = []
html_last_updated_fmt = None


def _copy_notebooks() -> None:
    """Copy ``notebooks/*.ipynb`` into ``docs/notebooks/`` for myst-nb (Sphinx reads one folder).

    The notebooks link the pictures of ``docs/`` as ``../docs/NAME`` (right from
    ``notebooks/``); from ``docs/notebooks/`` that is ``../NAME``. A copy is written only
    when it changes, so an unchanged notebook is not read again.
    """
    target = DOCS / "notebooks"
    target.mkdir(exist_ok=True)
    for source in sorted((ROOT / "notebooks").glob("*.ipynb")):
        notebook = json.loads(source.read_text(encoding="utf-8"))
        for cell in notebook["cells"]:
            if cell["cell_type"] == "markdown":
                text = "".join(cell["source"]).replace("](../docs/", "](../")
                cell["source"] = text
        text = json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
        copy = target / source.name
        if not copy.exists() or copy.read_text(encoding="utf-8") != text:
            copy.write_text(text, encoding="utf-8")


_copy_notebooks()


# --- one page a name: each name is documented once, where a reader looks for it first
def _reference_modules() -> list[str]:
    """The modules ``reference/modules.rst`` lists (one an indented ``analyzer.`` line)."""
    lines = (DOCS / "reference" / "modules.rst").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.startswith("   analyzer")]


def _defines(module: ModuleType, name: str) -> bool:
    """Whether ``module``'s own source assigns ``name`` (a constant, not an import)."""
    import ast

    source = Path(module.__file__ or "").read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return True
    return False


def _homes() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """For each module page: the names of its ``__all__`` documented on another page, and there.

    A name of ``analyzer.__all__`` lives on its ``analyzer.NAME`` page; a name a package
    re-exports lives on the page of the module that defines it. So no object is described
    twice (Sphinx warns of that), and a module's page links the names it gives elsewhere.
    """
    from sphinx.pycode import ModuleAnalyzer

    import analyzer
    from analyzer.jit import LazyKernel

    top = {name: getattr(analyzer, name) for name in analyzer.__all__}
    excluded: dict[str, list[str]] = {}
    elsewhere: dict[str, list[str]] = {}
    for module_name in _reference_modules():
        module = importlib.import_module(module_name)
        attr_docs = ModuleAnalyzer.for_module(module_name).find_attr_docs()
        commented = {name for _, name in attr_docs}
        for name, value in list(vars(module).items()):
            if isinstance(value, LazyKernel):  # a numba kernel not yet compiled: its Python function
                setattr(module, name, value.py_func)
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if isinstance(value, ModuleType):
                continue
            home = None
            named = inspect.isclass(value) or inspect.isfunction(value)  # not an alias like tuple[int, int]
            if name in top and top[name] is value:
                home = f"analyzer.{name}"
            elif named and value.__module__ != module_name:
                home = f"{value.__module__}.{value.__qualname__}"
            elif not named and not _defines(module, name):
                home = next(
                    (
                        f"{other}.{name}"
                        for other in _reference_modules()
                        if other != module_name
                        and name in getattr(importlib.import_module(other), "__all__", ())
                        and _defines(importlib.import_module(other), name)
                    ),
                    None,
                )
            if home is None and not named and (name not in commented or isinstance(value, GenericAlias)):
                # autodoc's automodule skips a constant without a docstring, and takes an alias
                # (``tuple[int, int]``) for a class: the page names them one by one instead
                excluded.setdefault(module_name, []).append(name)
                doc = attr_docs.get(("", name), [])
                _BARE.setdefault(module_name, []).append(
                    {"name": name, "alias": isinstance(value, GenericAlias), "value": repr(value), "doc": doc}
                )
            if home is not None and home != f"{module_name}.{name}":
                excluded.setdefault(module_name, []).append(name)
                elsewhere.setdefault(module_name, []).append(home)
                _ALIASES[f"{module_name}.{name}"] = home
                if named:
                    _ALIASES[f"{value.__module__}.{value.__qualname__}"] = home
            if inspect.isclass(value) and any(
                base.__name__.startswith("_") and base.__module__.startswith("analyzer")
                for base in value.__mro__
            ):
                _INHERIT.add(home or f"{module_name}.{name}")  # members held by a private base
            if home is None and inspect.isclass(value) and any(
                base.__module__.startswith(module_name + ".") for base in value.__mro__
            ):
                # built from layers in its package's modules (Session): documented here with
                # their members, the layers nowhere (they are not in their modules' __all__)
                excluded.setdefault(module_name, []).append(name)
                _LAYERED.setdefault(module_name, []).append(name)
    return excluded, elsewhere


#: Each name a module page leaves out, to the name it is documented under.
_ALIASES: dict[str, str] = {}
#: Per module, the constants of its ``__all__`` that its page documents with autodata.
_BARE: dict[str, list[dict[str, Any]]] = {}
#: Classes whose documented members include those of a private base (``Analysis``'s slots).
_INHERIT: set[str] = set()
#: Per module, the classes of its page built from layers in its package's modules (``Session``).
_LAYERED: dict[str, list[str]] = {}
_EXCLUDED, _ELSEWHERE = _homes()
autosummary_context = {
    "excluded": _EXCLUDED,
    "elsewhere": _ELSEWHERE,
    "bare": _BARE,
    "inherit": _INHERIT,
    "layered": _LAYERED,
}


def _find_by_suffix(
    app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref, contnode: nodes.Element
) -> nodes.Element | None:
    """Resolve a short name no module prefix finds (``:class:`Session``` in a module that does
    not import it) when exactly one documented object ends with it, as a ``.Session`` reference
    would; anything else stays a warning."""
    if node.get("refdomain") != "py":
        return None
    domain = env.get_domain("py")
    target = node["reftarget"].lstrip(".~")
    matches = {
        name
        for name, entry in domain.objects.items()  # type: ignore[attr-defined]
        if (name == target or name.endswith("." + target)) and not entry.aliased
    }
    if len(matches) != 1:
        return None
    return domain.resolve_xref(
        env, node["refdoc"], app.builder, node["reftype"], matches.pop(), node, contnode
    )


def _note_aliases(app: Sphinx, env: BuildEnvironment) -> None:
    """Let a reference to a name where it is defined (``analyzer.solver.solve.solve``) find the page
    it is documented on (``analyzer.solve``), as ``:canonical:`` does for classes."""
    domain = env.get_domain("py")
    objects = domain.objects  # type: ignore[attr-defined]
    for alias, home in _ALIASES.items():
        for name, entry in list(objects.items()):  # the name and, for a class, its members
            if name == home or name.startswith(home + "."):
                alias_name = alias + name[len(home) :]
                if alias_name not in objects:
                    objects[alias_name] = entry._replace(aliased=True)


def setup(app: Sphinx) -> None:
    app.connect("env-check-consistency", _note_aliases)
    app.connect("missing-reference", _find_by_suffix)
