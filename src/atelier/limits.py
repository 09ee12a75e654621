"""Numeric ranges shared by the Python API, the CLI and the bindings (cext/bind/common.hpp)."""
from __future__ import annotations

import operator

from .errors import InputError

SEED_MAX = 2**64 - 1  # seeds feed a 64-bit generator: every one of them is usable, no more


def check_seed(value, what: str = "seed") -> int:
    """`value` as a seed 0..2^64-1 (an int or numpy integer, not a bool); InputError otherwise."""
    try:
        seed = None if isinstance(value, bool) else operator.index(value)
    except TypeError:
        seed = None
    if seed is None or not 0 <= seed <= SEED_MAX:
        shown = f"an integer of {seed.bit_length()} bits" if seed is not None and seed.bit_length() > 64 else repr(value)
        raise InputError(f"{what}: expected an integer 0..2^64-1, got {shown}")
    return seed
