"""The accepted range of every number a user hands to atelier, checked at the door.

Each check returns the value (as int, float or bool) or raises InputError with one line naming
the parameter and the accepted range: the engine behind it never sees a value it cannot hold
(a seed wider than 64 bits, a NaN exploration constant, a node budget past int64).

    from atelier.limits import check_seed
    seed = check_seed(seed)                    # 0..2**64-1, the range of the core's Rng

The CLI prints the same message as `error: <message>` and exits 2 (cli/errors.py).
"""
from __future__ import annotations

import math
import operator

from .errors import InputError

SEED_MAX = 2**64 - 1     # Rng(uint64_t): every seed in atelier, game deals and searches alike
# A search's iteration budget: a tree's visit counts are 32-bit (solvers/mcts.pxi
# MAX_TREE_ITERATIONS). The API (solvers.mcts/ismcts, bots `mcts:N`) and every CLI option that
# takes iterations (--iterations, --hint-iterations) check and advertise this one range.
MAX_ITERATIONS = 2**32 - 2


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _as_int(value):
    """An integer (int, numpy integer, ...) but not a bool, a float or a numeric string."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def check_int(value, name: str, lo: int, hi: int) -> int:
    """An integer in lo..hi."""
    v = _as_int(value)
    if v is None or not lo <= v <= hi:
        raise InputError(f"{name}: expected an integer {lo:,}..{hi:,}, got {_shown(value)}")
    return v


def check_seed(value, name: str = "seed") -> int:
    """A seed: an integer 0..2**64-1 (never reduced modulo 2**64: two different seeds the user
    typed must not silently become the same game)."""
    v = _as_int(value)
    if v is None or not 0 <= v <= SEED_MAX:
        raise InputError(f"{name}: expected an integer 0..{SEED_MAX} (2**64-1), got {_shown(value)}")
    return v


def check_number(value, name: str, lo: float, hi: float, *, lo_open: bool = False) -> float:
    """A finite real number in [lo, hi] (or (lo, hi] with lo_open)."""
    try:
        v = float(value) if _is_real(value) else math.nan
    except (OverflowError, ValueError):   # an int past the float range
        v = math.nan
    if not math.isfinite(v) or v > hi or v < lo or (lo_open and v == lo):
        low = "(" if lo_open else "["
        raise InputError(f"{name}: expected a number in {low}{_bound(lo)}, {_bound(hi)}], got {_shown(value)}")
    return v


def _bound(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def _is_real(value) -> bool:
    # int, float, numpy numbers, fractions: anything with a float value that is not text or bool.
    return not isinstance(value, (str, bytes, bool)) and hasattr(value, "__float__")


def check_choice(value, name: str, choices: tuple[str, ...]) -> str:
    """One of the names in `choices`."""
    if not isinstance(value, str) or value not in choices:
        raise InputError(f"{name}: expected one of {', '.join(choices)}, got {_shown(value)}")
    return value


def check_flag(value, name: str) -> bool:
    """True or False (not a truthy string such as 'no')."""
    if not isinstance(value, bool):
        raise InputError(f"{name}: expected True or False, got {_shown(value)}")
    return value
