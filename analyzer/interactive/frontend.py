"""The front end's files, as the page and the widget load them.

The board's script is one ES module for both: the page's ``/board.js`` and the widget's ``_esm``
(anywidget takes one string and cannot import a file beside it). It is written as small modules in
``static/board/``, one concern each (drawing, input, the analyst's tools...), each importing from
the others what it uses, and :func:`board_script` joins them, in the order of :data:`BOARD_PARTS`,
into that one module: a part's imports of the parts before it are dropped and its ``export``
keywords taken off (their names are then the one module's), and the last part's
``export default`` stays. No bundler runs, at install time or at run time.

>>> script = board_script()
>>> script.endswith("export default { render };\\n"), "import {" in script
(True, False)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib import resources

__all__ = ["BOARD_PARTS", "assemble_script", "board_script", "static_text"]

BOARD_PARTS = (
    "protocol.js",
    "dom.js",
    "colour.js",
    "geometry.js",
    "host.js",
    "files.js",
    "tools.js",
    "analyst.js",
    "viewport.js",
    "draw.js",
    "controls.js",
    "input.js",
    "render.js",
)
"""The board script's parts (``static/board/``), in the order joined: each after those it imports."""

_IMPORT = re.compile(r'import \{([\w\s,]+)\} from "\./([\w-]+\.js)";')
_EXPORT = re.compile(r"export (?:async )?(?:function\*?|const|let|class) (\w+)")
_DEFAULT = "export default "


def static_text(name: str) -> str:
    """One of the front end's files, from the installed package: ``board.js`` is :func:`board_script`."""
    if name == "board.js":
        return board_script()
    return _static(name)


def board_script() -> str:
    """The board's script, one ES module: :data:`BOARD_PARTS` joined by :func:`assemble_script`."""
    return assemble_script([(name, _static(f"board/{name}")) for name in BOARD_PARTS])


def assemble_script(parts: Sequence[tuple[str, str]]) -> str:
    """One ES module from parts ``(name, text)`` that import from each other.

    A part imports names from an earlier part in one line, ``import { a, b } from "./name.js";``
    (dropped), and exports with ``export function``, ``export const``... (the keyword taken off);
    only the last part has an ``export default`` (kept). Every part but the last is used: each name it
    exports is imported by a later part.

    Raises
    ------
    ValueError
        A part imports from a part that is not before it, or a name that part does not export;
        a part exports a name no later part imports; an ``export default`` not in the last part,
        or none there; an ``import`` or ``export`` line of another form.

    Examples
    --------
    >>> a = "export const A = 1;\\n"
    >>> b = 'import { A } from "./a.js";\\nexport default { A };\\n'
    >>> print(assemble_script([("a.js", a), ("b.js", b)]), end="")
    // ---- a.js
    const A = 1;
    <BLANKLINE>
    // ---- b.js
    export default { A };
    >>> assemble_script([("b.js", b)])
    Traceback (most recent call last):
    ...
    ValueError: board part b.js: imports from ./a.js, which is not a part before it
    """
    if not parts:
        raise ValueError("no board parts to join")
    exported: dict[str, set[str]] = {}
    unused: dict[str, set[str]] = {}
    joined = []
    for number, (name, text) in enumerate(parts):
        last = number == len(parts) - 1

        def fail(problem: str, name: str = name) -> ValueError:
            return ValueError(f"board part {name}: {problem}")

        lines = [f"// ---- {name}"]
        for line in text.splitlines():
            found = _IMPORT.fullmatch(line)
            if found:
                names = {word.strip() for word in found.group(1).split(",") if word.strip()}
                source = found.group(2)
                if source not in exported or source == name:
                    raise fail(f"imports from ./{source}, which is not a part before it")
                missing = names - exported[source]
                if missing:
                    listed = ", ".join(sorted(missing))
                    raise fail(f"imports {listed} from ./{source}, which does not export them")
                unused[source] -= names
            elif line.startswith(_DEFAULT):
                if not last:
                    raise fail("has an export default: only the last part may")
                lines.append(line)
            elif declared := _EXPORT.match(line):
                exported.setdefault(name, set()).add(declared.group(1))
                lines.append(line.removeprefix("export "))
            elif line.startswith(("import ", "export ")):
                raise fail(f"{line!r} is neither a one-line import from a part nor an exported declaration")
            else:
                lines.append(line)
        exported.setdefault(name, set())
        unused[name] = set(exported[name])
        if last and not any(line.startswith(_DEFAULT) for line in lines):
            raise fail("is the last part and has no export default")
        if not last and not exported[name]:
            raise fail("exports nothing: no later part can use it")
        joined.append("\n".join(lines) + "\n")
    for name, names in unused.items():
        if names:
            listed = ", ".join(sorted(names))
            raise ValueError(f"board part {name}: exports {listed}, which no later part imports")
    return "\n".join(joined)


def _static(name: str) -> str:
    return resources.files("analyzer.interactive").joinpath("static", name).read_text(encoding="utf-8")
