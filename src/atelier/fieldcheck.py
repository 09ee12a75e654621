"""The field checks every position reader shares: each failure is an InputError naming the
field (`seats[1].money: 70000 is out of range 0..65535`), one line, as docs/positions.md says."""
from __future__ import annotations

import json

from .errors import InputError


def fail(field: str, reason: str):
    raise InputError(f"{field}: {reason}")


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def whole(v, field: str, lo: int, hi: int) -> int:
    """An integer in lo..hi (a JSON true/false is not one)."""
    if not is_int(v):
        fail(field, f"expected an integer, got {json.dumps(v)}")
    if not lo <= v <= hi:
        fail(field, f"{v} is out of range {lo}..{hi}")
    return v


def boolean(v, field: str) -> bool:
    if not isinstance(v, bool):
        fail(field, f"expected true or false, got {json.dumps(v)}")
    return v


def obj(v, field: str) -> dict:
    if not isinstance(v, dict):
        fail(field, "expected an object")
    return v


def listed(v, field: str) -> list:
    if not isinstance(v, list):
        fail(field, "expected a list")
    return v


def known_keys(d: dict, allowed: tuple, field: str) -> None:
    """Reject a misspelt key (a silently ignored "hnad" would load an empty hand). Keys starting
    with "_" or named "comment" are free for notes."""
    for key in d:
        if key not in allowed and not (isinstance(key, str) and (key.startswith("_") or key == "comment")):
            fail(f"{field}.{key}" if field else str(key), f"unknown field (expected: {', '.join(allowed)})")
