"""Counts and seat labels in the words the CLI and the boards print: "1 game", "2 games",
"seat 0 ann" but "seat 0" where the seat's name is only its number again."""
from __future__ import annotations

_IRREGULAR = {"mechanical man": "mechanical men"}


def count(n, noun: str, plural: str | None = None) -> str:
    """`n` and `noun`, in the plural unless `n` is exactly 1 ("1 card", "0 cards", "12,000 nodes")."""
    text = f"{n:,}" if isinstance(n, int) else str(n)
    if n == 1:
        return f"{text} {noun}"
    return f"{text} {plural or _IRREGULAR.get(noun) or noun + 's'}"


def seat_label(p: int, name: str | None = None) -> str:
    """"seat P NAME", or just "seat P" when there is no name or the name says the same."""
    name = (name or "").strip()
    if not name or name.lower() in (f"seat {p}", f"seat{p}", str(p)):
        return f"seat {p}"
    return f"seat {p} {name}"
