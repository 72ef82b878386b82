"""Tilestream, the table companion for the 15×15 crossword tile game, as installed: its
version, and the phone app (``web``) the server serves, inside the package so that a wheel
serves it as the source tree does (``tilestream/web`` is a link to the tree's ``web/``)."""

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

try:
    __version__ = version("tilestream")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"

WEB = (Path(__file__).parent / "web").resolve()  # the phone app (in a source tree: web/)
