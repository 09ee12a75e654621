"""Ranges every entry point accepts, stated once so the CLI and the Python API cannot disagree."""
from __future__ import annotations

from .errors import InputError

SEED_MAX = 2**64 - 1   # seeds are 64-bit unsigned in the C++ cores and the search


def check_seed(value, field: str = "seed") -> int:
    """`value` if it is an integer seed in 0..SEED_MAX, else InputError naming `field`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= SEED_MAX:
        raise InputError(f"{field}: expected a whole number in 0..{SEED_MAX}, got {value!r}")
    return value
