"""The one place the project makes a rich Console.

Every text the project prints through rich comes from a user (seat names, comments, files) or
from the engine (moves in notation): it must come out as written. rich by default reads
`:b:` as the emoji 🅱 (so Leonardo's `place:b:2` printed as `place🅱2`), `[x]` as markup and
colours numbers; a console made here does none of that. Styling, where the project wants it,
goes in rich `Text` objects with explicit styles, never in the text itself.
"""
from __future__ import annotations

from rich.console import Console


def make_console(**kwargs) -> Console:
    """A rich Console that prints every string as plain text: no emoji codes, no markup, no
    highlighting. Takes Console's own keyword arguments (width, file, stderr, record, ...)."""
    kwargs.setdefault("highlight", False)
    return Console(emoji=False, markup=False, **kwargs)
