"""The `atelier` command line: one click group, commands grouped by concern."""
import click

from .. import __version__
from .errors import Group, run_guarded  # noqa: F401  run_guarded: used by the command modules


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="atelier")  # also from a source tree (no metadata)
def main():
    """atelier: best moves, win chances and exact endgames for workshop board games."""


# Commands register themselves on `main` when their module is imported.
from . import game as _game  # noqa: E402,F401  new, show, moves, apply, bench
from . import search as _search  # noqa: E402,F401  suggest, endgame, play
from . import records as _records  # noqa: E402,F401  record new/add/show, replay
from . import review as _review  # noqa: E402,F401  review
from . import train as _train  # noqa: E402,F401  train
