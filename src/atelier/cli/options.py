"""Options every command shares, parsed one way: numbers with their range, the seed, the edition,
--json, and the position reader. A bad value is one line naming the option and the accepted range."""
from __future__ import annotations

import math
import sys
from pathlib import Path

import click

import atelier

from .. import jsonfmt
from ..errors import InputError
from ..limits import MAX_ITERATIONS, SEED_MAX
from ..solvers import MAX_THREADS


def _grouped(x) -> str:
    """A bound as people read it: 1,000,000 rather than 1e+06."""
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    return f"{x:,}" if isinstance(x, int) and abs(x) >= 10_000 else str(x)


class Whole(click.ParamType):
    """A whole number in lo..hi (both included)."""

    name = "integer"

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            v = value
        else:
            text = str(value).strip().replace("_", "")
            try:
                v = int(text, 10)
            except ValueError:
                self.fail(f"expected a whole number in {self.range()}, got {value!r}", param, ctx)
        if not self.lo <= v <= self.hi:
            self.fail(f"expected a whole number in {self.range()}, got {v}", param, ctx)
        return v

    def range(self) -> str:
        # Seeds in plain digits (to copy them); other bounds grouped to read them.
        return f"{self.lo}..{self.hi}" if self.hi == SEED_MAX else f"{_grouped(self.lo)}..{_grouped(self.hi)}"


class Number(click.ParamType):
    """A finite number with lo < x <= hi."""

    name = "number"

    def __init__(self, lo: float, hi: float):
        self.lo, self.hi = lo, hi

    def convert(self, value, param, ctx):
        try:
            v = float(value)
        except (TypeError, ValueError):
            v = math.nan
        if not (math.isfinite(v) and self.lo < v <= self.hi):
            self.fail(f"expected a number greater than {_grouped(self.lo)} and at most "
                      f"{_grouped(self.hi)}, got {value!r}", param, ctx)
        return v


SEED = Whole(0, SEED_MAX)
PLAYERS = Whole(2, 5)
SEAT = Whole(0, 4)
GAMES = Whole(1, 1_000_000_000)
ITERATIONS = Whole(1, MAX_ITERATIONS)   # the engine's range (limits.py), not a rounder number
ITERATIONS_RANGE = f"1..{MAX_ITERATIONS:,}"   # said in the help of every option of that type
THREADS = Whole(1, MAX_THREADS)
MEMORY_MB = Whole(1, 65_536)
TOP = Whole(1, 100_000)
WIDTH = Whole(60, 1_000)
SECONDS = Number(0.0, 1_000_000.0)


def seed_option(help="Seed; the same seed gives the same result.", default=0):
    return click.option("--seed", type=SEED, default=default, show_default=default is not None,
                        metavar="S", help=help)


edition_option = click.option(
    "--edition", metavar="FILE", default=None,
    help="Base edition JSON (default: the bundled one). Card data in a position overrides it.")


def json_option(help="Machine-readable output (docs/json.md)."):
    return click.option("--json", "as_json", is_flag=True, help=help)


def read_position(pos: str, edition: str | None = None):
    """The State in POS: a file path, '-' for stdin, or example:NAME; `edition` is the base
    edition file (None: the bundled one)."""
    if pos == "-":
        raw = sys.stdin.buffer.read()  # bytes: jsonfmt.loads decodes (UTF-8) and checks them
        if not raw.strip():
            raise InputError("stdin: empty, expected a position (JSON)")
        return atelier.load_position(jsonfmt.loads(raw, "stdin"), edition=edition)
    if pos.startswith("example:"):
        return atelier.load_position(pos, edition=edition)
    return atelier.load_position(Path(pos), edition=edition)


rollout_option = click.option(
    "--rollout", type=click.Choice(["model", "random", "greedy"]), default="model", show_default=True,
    help="How the search values a new leaf: the value model (the package's model for the game and "
         "player count, or --model; random playouts when there is none), uniformly random "
         "playouts, or greedy playouts.")

model_option = click.option(
    "--model", "model", metavar="FILE", default=None,
    help="A value-model file (atelier.model/1, docs/models.md) instead of the bundled one.")
