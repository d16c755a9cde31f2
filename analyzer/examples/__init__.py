"""Example boards with published exact answers, shipped inside the package.

>>> from analyzer import examples
>>> examples.names()
('cs70_4x3_4.mine', 'cs70_figure2_4x4_6.mine', 'field_groups_4x4_6.mine')
>>> examples.read("cs70_4x3_4.mine").splitlines()[0]
'4x3x4'
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

__all__ = ["names", "read", "path"]


def path(name: str) -> Traversable:
    """The bundled file ``name`` (a ``Traversable``: ``open()``, ``read_text()``)."""
    if name not in names():
        raise FileNotFoundError(f"no bundled example {name!r}; expected one of {', '.join(names())}")
    return files(__name__) / name


def names() -> tuple[str, ...]:
    """The bundled board files, sorted."""
    return tuple(sorted(p.name for p in files(__name__).iterdir() if p.name.endswith(".mine")))


def read(name: str) -> str:
    """The text of the bundled board ``name``."""
    return path(name).read_text(encoding="utf-8")
