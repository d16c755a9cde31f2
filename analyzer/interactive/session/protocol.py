"""What goes over the wire between a session and its front ends: the state codes, the palette, the limits.

The view protocol itself is described in :mod:`analyzer.interactive.session`; here are its
constants (:data:`CODES`, :data:`KINDS`, :data:`PALETTE`), the size limits a board shown in the
page is held to (:func:`check_size`), and the typed arrays' encoding (:func:`encode`, :func:`decode`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyzer.errors import OptionError
from analyzer.render import probability_colour

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "MODES",
    "PROTOCOL",
    "CODES",
    "KINDS",
    "PALETTE",
    "MAX_SIDE",
    "MAX_CELLS",
    "MAX_LENGTH",
    "MAX_UPLOAD_BYTES",
    "REPLAY_FORMATS",
    "check_size",
    "encode",
    "decode",
]

MODES = ("edit", "play", "replay")
"""The session's modes (see :mod:`analyzer.interactive.session`)."""

PROTOCOL = 2
"""The version of the view protocol (the module text): 2 is the compact one (typed arrays, deltas)."""

CODES = {
    **{str(n): n for n in range(9)},
    "hidden": 9,
    "flag": 10,
    "guess": 11,
    "safe": 12,
    "mine": 13,
    "safe_cpsat": 14,
    "mine_cpsat": 15,
    "layout_mine": 16,
    "fatal": 17,
    "wrong_flag": 18,
}
"""Each per-cell state code (the ``codes`` array), by name."""

KINDS = ("number",) * 9 + (
    "hidden",
    "flag",
    "guess",
    "safe",
    "mine",
    "safe",
    "mine",
    "layout-mine",
    "fatal",
    "wrong-flag",
)
"""The kind of cell each code is, as the front end and the tests name it (the index is the code)."""

MAX_SIDE = 1000
MAX_CELLS = MAX_SIDE * MAX_SIDE
"""The most cells a board, game or replay shown in the page may have, refused before it is made.

The largest size the page is measured to handle (``docs/guide/interactive.md``: a
1000x1000 board loads in half a second, a click answers within a second); a
2000x2000 game took 17.9 s and 2.3 GB to load and 65-71 s a click.
"""

MAX_LENGTH = 20_000
"""The most rows or columns such a board may have (a board is drawn, and scrolled, in one piece)."""

PALETTE = {
    # Ink of the revealed numbers 0-8 on the revealed background: each at least 4.5:1 (WCAG AA),
    # the classic hues darkened where they were not (tests/test_interactive.py computes the ratios).
    "numbers": [
        "#6b6b6b",
        "#0000ff",
        "#006400",
        "#c00000",
        "#00007b",
        "#7b0000",
        "#006464",
        "#000000",
        "#505050",
    ],
    # Revealed and hidden cells at least 3:1 apart, so a hidden cell with no figure on it is told
    # from a revealed 0 without its colour's hue (tests/test_interactive_widget_browser.py).
    "revealed": "#eeeeee",
    "hidden": "#808080",
    "grid": "#b0b0b0",
    "flag": "#c00000",
    "mine": "#000000",
    "fatal": "#d00000",
    # The stops of probability_colour: viridis at 0, 1/8, ..., 1 (the colour of p = (1 - k/8)**2).
    "viridis": [probability_colour((1 - k / 8) ** 2) for k in range(9)],
    "kinds": list(KINDS),
}
"""The colours the front end draws with (sent in every view, so the page and the tests agree)."""

MAX_UPLOAD_BYTES = 20 * 1024 * 1024
"""The largest file the page may send (a replay's own cap; a 1000x1000 ``.mine`` is 1 MB)."""


REPLAY_FORMATS = ("avf", "rmv", "evf", "mvf")
"""The replay files the page opens (by their suffix)."""


def check_size(width: int, height: int) -> None:
    """Refuse a board of more than :data:`MAX_CELLS` cells or :data:`MAX_LENGTH` a side, before it is made.

    >>> check_size(1000, 1000)
    >>> check_size(100_000, 100_000)
    Traceback (most recent call last):
    ...
    analyzer.errors.OptionError: a board is 1 to 1,000,000 cells (e.g. 1000x1000), got 100000x100000
    >>> check_size(20_001, 1)
    Traceback (most recent call last):
    ...
    analyzer.errors.OptionError: a board is at most 20,000 cells a side, got 20001x1
    """
    if width < 1 or height < 1 or width * height > MAX_CELLS:
        raise OptionError(
            f"a board is 1 to {MAX_CELLS:,} cells (e.g. {MAX_SIDE}x{MAX_SIDE}), got {width}x{height}"
        )
    if width > MAX_LENGTH or height > MAX_LENGTH:
        raise OptionError(f"a board is at most {MAX_LENGTH:,} cells a side, got {width}x{height}")


def encode(values: np.ndarray) -> str:
    """A numpy array's bytes, zlib-compressed (fast level 1), as base64 text: the protocol's typed arrays.

    A board's probabilities repeat (every background cell has the same), so a
    1000x1000 board's 4 MB of floats compress to a few kilobytes.
    """
    import base64
    import zlib

    return base64.b64encode(zlib.compress(values.tobytes(), 1)).decode("ascii")


def decode(text: str, dtype: str) -> np.ndarray:
    """The array :func:`encode` wrote, given its dtype (``"u1"``, ``"<f4"``, ``"<i4"``)."""
    import base64
    import zlib

    import numpy as np

    return np.frombuffer(zlib.decompress(base64.b64decode(text)), dtype=dtype)
