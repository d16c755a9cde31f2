"""The package's version: the one place it is written (pyproject.toml reads it from here)."""

__all__ = ["__version__"]

__version__ = "0.4.3"
"""The version of this release (also ``analyzer.__version__`` and ``analyzer --version``)."""
