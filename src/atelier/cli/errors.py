"""One clear line and exit code 2 for bad input; never a traceback."""
import functools
import sys

import click

from ..errors import InputError


def run_guarded(fn):
    """Decorate a click command body: InputError/ValueError become `error: ...` and exit 2."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (InputError, ValueError) as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)

    return wrapper
