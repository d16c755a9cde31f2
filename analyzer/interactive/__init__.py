"""The interactive board: a Jupyter widget and a local web page sharing one front end.

- :class:`~analyzer.interactive.session.Session`: the state and the actions, no UI.
- :func:`widget` (:class:`~analyzer.interactive.jupyter.BoardWidget`, needs the
  ``widget`` extra: anywidget) for Jupyter.
- :func:`~analyzer.interactive.web.serve` (``analyzer web``) for a browser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from analyzer.interactive.session import DEFAULT_TIME_LIMIT, MODES, Session

if TYPE_CHECKING:
    from analyzer.interactive.jupyter import BoardWidget

__all__ = ["Session", "MODES", "DEFAULT_TIME_LIMIT", "widget"]


def widget(source: object = None, **options: Any) -> BoardWidget:
    """The interactive board in Jupyter for ``source``: a Board, Game, replay, ``.mine`` text, path, picture.

    ``options`` are :class:`~analyzer.interactive.jupyter.BoardWidget`'s
    (``time_limit``, ``seed``). Needs anywidget: ``pip install 'minesweeper-analyzer[widget]'``.
    """
    try:
        from analyzer.interactive.jupyter import BoardWidget
    except ImportError as error:
        from analyzer.errors import OptionError

        raise OptionError(
            f"the interactive board needs anywidget ({error.name} is missing):"
            " pip install 'minesweeper-analyzer[widget]'"
        ) from None
    return BoardWidget(source, **options)
