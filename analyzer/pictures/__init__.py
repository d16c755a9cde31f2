"""Boards read from pictures: a screenshot of a Minesweeper client becomes a :class:`Board`.

    >>> from analyzer.pictures import read_picture          # doctest: +SKIP
    >>> reading = read_picture("shot.png")                  # doctest: +SKIP
    >>> print(reading.describe())                           # doctest: +SKIP

The grid is found from the picture's long edges (:mod:`.grid`), each cell compared with the
tiles of every known client (:mod:`.skins`, data in ``skins/<client>/``), and every cell gets
a confidence; cells no tile matches well are listed ``unsure``. Pillow is imported on first
use (the ``images`` extra).
"""

from analyzer.pictures.load import is_image_file
from analyzer.pictures.read import PictureReading, read_picture
from analyzer.pictures.skins import skin_names

__all__ = ["read_picture", "PictureReading", "is_image_file", "skin_names"]
