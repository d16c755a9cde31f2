"""Compiled kernels that load numba only when they are first compiled.

Every kernel of the package is a plain Python function over numpy arrays, decorated
with :func:`njit` from here instead of numba's. Until a kernel is first called,
numba is not even imported (``import numba`` and its first use cost a process about
a second, far more than a small board's whole solve). On the first compiled call,
:func:`activate` imports numba and turns every kernel defined so far into a numba
dispatcher, in its own module and in every module of the package that imported it
by name, so that kernels calling kernels are compiled together as before (with
``cache=True`` they load from numba's cache).

A caller that knows its work is tiny may run kernels *interpreted* instead: inside
``with interpreted():``, a kernel that numba has not loaded yet runs its Python
source (``py_func``) directly, calls to other kernels included. The code is the same
code numba compiles, on the same numpy integer types; the tests compare the two on
random boards. Once numba is active, every call is compiled.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

__all__ = [
    "njit",
    "activate",
    "is_active",
    "interpreted",
    "interpreted_if_small",
    "specialized",
    "runs_interpreted",
    "uncached_kernels",
    "purge_stale_caches",
    "cache_folder",
    "LazyKernel",
    "INTERPRETED_MAX_CELLS",
    "INTERPRETED_SECONDS",
]

#: Boards of at most this many cells may run the kernels interpreted while numba is not
#: loaded yet (:func:`interpreted_if_small`), until the process has spent
#: :data:`INTERPRETED_SECONDS` of CPU time so: a command that solves one small board, or a
#: script's first few, answers without numba's fixed cost of about a second, and a long run
#: soon loads the compiled kernels. The budget is the CPU time of the interpreting thread,
#: not the wall clock, so that a busy machine (which stretches the wall clock, not the work)
#: does not tip a small command into loading numba.
INTERPRETED_MAX_CELLS = 256
INTERPRETED_SECONDS = 0.5

F = TypeVar("F", bound=Callable[..., Any])

_KERNELS: list[LazyKernel] = []
_LOCK = threading.RLock()
_ACTIVE = False
_STATE = threading.local()
_spent = [0.0]  # CPU seconds spent interpreted by interpreted_if_small, in this process


class LazyKernel:
    """A kernel before numba compiles it: callable, compiled (or interpreted) on call."""

    def __init__(self, func: Callable[..., Any], options: dict[str, Any]) -> None:
        self.py_func = func
        self.options = options
        self.dispatcher: Any = None
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__doc__ = func.__doc__
        self.__module__ = func.__module__

    def __call__(self, *args: Any) -> Any:
        dispatcher = self.dispatcher
        if dispatcher is None:
            if getattr(_STATE, "interpreted", False):
                return self.py_func(*args)
            activate()
            dispatcher = self.dispatcher
        return dispatcher(*args)

    def __repr__(self) -> str:
        state = "compiled" if self.dispatcher is not None else "not loaded"
        return f"<kernel {self.__module__}.{self.__qualname__} ({state})>"


def njit(func: F | None = None, **options: Any) -> Any:
    """``numba.njit`` deferred: ``@njit(cache=True)`` or ``@njit`` on a kernel."""

    def wrap(function: F) -> Any:
        kernel = LazyKernel(function, options)
        with _LOCK:
            _KERNELS.append(kernel)
            if _ACTIVE:
                _compile(kernel)
                return kernel.dispatcher
        return kernel

    return wrap(func) if func is not None else wrap


def specialized(kernel: Any, *args: Any) -> Callable[..., Any]:
    """The compiled kernel for the types of ``args``, called without numba's dispatch.

    A dispatcher works out each argument's numba type on every call (a quarter of a
    microsecond for eleven arguments, more than a tiny board's counting). What this
    returns takes arguments of those types only: an array of another dtype, layout or
    number of dimensions is refused with a ``TypeError``, but a scalar is converted as C
    converts it (``2.5`` for an integer is ``2``), so its callers pass what they checked.
    It compiles the kernel (or loads it from numba's cache) if that is not done yet.
    """
    activate()
    import numba

    dispatcher = kernel.dispatcher if isinstance(kernel, LazyKernel) else kernel
    return dispatcher.compile(tuple(numba.typeof(arg) for arg in args))  # type: ignore[no-any-return]


def is_active() -> bool:
    """Whether numba has been loaded and the kernels turned into its dispatchers."""
    return _ACTIVE


def activate() -> None:
    """Import numba and make every kernel a numba dispatcher, wherever it is named."""
    global _ACTIVE
    with _LOCK:
        if _ACTIVE:
            return
        purge_stale_caches()
        for kernel in _KERNELS:
            _compile(kernel)
        _ACTIVE = True
        if sys.stderr is not None and sys.stderr.isatty() and not _uncachable and uncached_kernels():
            print(
                "analyzer: compiling numba kernels that are not cached yet (up to a minute, once;"
                " `analyzer warmup` does it ahead)",
                file=sys.stderr,
            )
        # Kernels call kernels through their module's globals: put the dispatchers
        # there (and in every module that imported a kernel by name) so numba sees
        # dispatchers, not the Python wrappers, when it compiles a caller.
        for name, module in list(sys.modules.items()):
            if name == "analyzer" or name.startswith("analyzer."):
                namespace = getattr(module, "__dict__", None)
                if namespace is None:
                    continue
                for key, value in list(namespace.items()):
                    if isinstance(value, LazyKernel):
                        namespace[key] = value.dispatcher


def uncached_kernels() -> list[str]:
    """The kernels defined so far that have no entry in numba's cache yet.

    The cache is the folder numba writes a kernel's machine code to (:func:`cache_folder`):
    ``NUMBA_CACHE_DIR``, ``__pycache__`` beside the source, or the user's cache folder
    when the installation is read-only. Kernels inlined into their callers
    (``inline="always"``) are left out: they are compiled within each caller, and have an
    entry of their own only if Python calls them directly.
    """
    missing = []
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    folders: dict[Path, Path | None] = {}
    for kernel in _KERNELS:
        if kernel.options.get("inline") == "always":
            continue
        code = kernel.py_func.__code__
        source = Path(code.co_filename)
        if source.parent not in folders:
            folders[source.parent] = cache_folder(source.parent)
        folder = folders[source.parent]
        index = f"{source.stem}.{kernel.__qualname__}-{code.co_firstlineno}.{tag}.nbi"
        if folder is None or not (folder / index).exists():
            missing.append(f"{kernel.__module__}.{kernel.__qualname__}")
    return missing


def cache_folder(directory: Path) -> Path | None:
    """The folder numba keeps the cached kernels of ``directory``'s modules in; None if it can write none.

    Numba's own choice, in its order: ``NUMBA_CACHE_DIR`` (a folder named after the
    directory inside it), else ``__pycache__`` beside the source, else the user's cache
    folder (``~/.cache/numba/...`` on Linux: an installation the user cannot write, such
    as a system-wide one), each only if it can write a file there (it creates the folder).
    With none, kernels compile in every process (:func:`activate` says so once).
    """
    from numba.core import config
    from numba.misc.appdirs import AppDirs

    absolute = os.path.abspath(directory)
    # numba's name for a source folder's caches in a shared cache folder (get_suitable_cache_subpath)
    subpath = f"{os.path.basename(absolute)}_{hashlib.sha1(absolute.encode()).hexdigest()}"
    configured = getattr(config, "CACHE_DIR", "")  # NUMBA_CACHE_DIR, as numba read it
    candidates = [Path(configured) / subpath] if configured else []
    candidates.append(Path(absolute) / "__pycache__")
    candidates.append(Path(AppDirs(appname="numba", appauthor=False).user_cache_dir) / subpath)
    for folder in candidates:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tempfile.TemporaryFile(dir=folder).close()
        except OSError:
            continue
        return folder
    return None


_FINGERPRINT = "kernels.fingerprint"


def purge_stale_caches(root: Path | None = None) -> bool:
    """Delete numba's cache files of every kernel module once any kernel source has changed.

    Numba checks a cached kernel against its own file only, so a kernel whose
    callee in another file changed (a ``git pull`` into an editable install, an
    edit, an upgrade) would load machine code built against the old callee, and can
    crash. A fingerprint of every file under ``root`` (the package) that defines
    kernels is kept in each folder that caches them (:func:`cache_folder`: beside the
    source, or the user's cache folder for a read-only installation); where it differs,
    the folder's cache files of those modules go and numba compiles afresh
    (``analyzer warmup`` does it ahead). Returns whether it deleted anything.
    """
    root = Path(__file__).parent if root is None else root
    sources = sorted(
        path
        for path in root.rglob("*.py")
        if path.name != "jit.py" and "@njit" in path.read_text(encoding="utf-8", errors="replace")
    )
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    fingerprint = digest.hexdigest()
    purged = False
    for directory in sorted({path.parent for path in sources}):
        folder = cache_folder(directory)
        if folder is None:
            continue  # numba can cache nothing of these: nothing stale is read either
        stamp = folder / _FINGERPRINT
        try:
            if stamp.read_text(encoding="ascii") == fingerprint:
                continue
        except OSError:
            pass  # no fingerprint yet: caches from before it are not trusted either
        try:
            for path in sources:
                if path.parent == directory:
                    for cached in folder.glob(f"{path.stem}.*.nb[ic]"):
                        cached.unlink(missing_ok=True)
                        purged = True
            partial = stamp.with_suffix(".partial")
            partial.write_text(fingerprint, encoding="ascii")
            partial.replace(stamp)
        except OSError:
            pass  # another process got there first, or the folder went: numba checks each file again
    return purged


_uncachable: list[str] = []  # the first kernel numba could find no cache folder for, once said


def _compile(kernel: LazyKernel) -> None:
    if kernel.dispatcher is None:
        import numba

        try:
            kernel.dispatcher = numba.njit(**kernel.options)(kernel.py_func)
        except RuntimeError as error:  # no folder to cache in: numba refuses cache=True
            if not kernel.options.get("cache") or "cannot cache" not in str(error):
                raise
            if not _uncachable:
                _uncachable.append(kernel.__qualname__)
                folder = Path(kernel.py_func.__code__.co_filename).parent
                print(
                    f"analyzer: numba has no folder it can write its cache to (NUMBA_CACHE_DIR, beside"
                    f" {str(folder)!r}, the user's cache folder): kernels compile again in every"
                    " process; set NUMBA_CACHE_DIR to a writable folder",
                    file=sys.stderr,
                )
            kernel.dispatcher = numba.njit(**{**kernel.options, "cache": False})(kernel.py_func)


@contextlib.contextmanager
def interpreted() -> Iterator[None]:
    """Run kernels that numba has not loaded yet as plain Python, in this thread."""
    before = getattr(_STATE, "interpreted", False)
    _STATE.interpreted = True
    try:
        yield
    finally:
        _STATE.interpreted = before


def runs_interpreted() -> bool:
    """Whether a kernel called now, in this thread, would run as plain Python (see :func:`interpreted`)."""
    return not _ACTIVE and getattr(_STATE, "interpreted", False)


def interpreted_if_small(cells: int) -> contextlib.AbstractContextManager[bool]:
    """Inside, kernels run interpreted if numba is not loaded and the board (``cells``) is small.

    Yields whether they do. The CPU time spent so (``time.thread_time``, which load on the
    machine does not stretch) counts towards :data:`INTERPRETED_SECONDS`;
    past it, or for a larger board, or once numba is active, kernels run compiled (and
    entering costs next to nothing: a tiny board's solve takes microseconds).
    """
    if _ACTIVE or cells > INTERPRETED_MAX_CELLS or _spent[0] >= INTERPRETED_SECONDS:
        return _COMPILED
    return _interpreted_while_counted()


_COMPILED = contextlib.nullcontext(False)


@contextlib.contextmanager
def _interpreted_while_counted() -> Iterator[bool]:
    start = time.thread_time()
    try:
        with interpreted():
            yield True
    finally:
        _spent[0] += time.thread_time() - start
