"""A rich renderable as the text `atelier show` prints: `width` columns, with colour codes only
when asked for (a pipe gets plain text), the same way for every ruleset's board."""
from __future__ import annotations

from .console import make_console


def to_text(renderable, width: int = 110, color: bool = False) -> str:
    console = make_console(width=width, record=True, force_terminal=color, color_system="auto" if color else None,
                      no_color=not color)
    if color and console.color_system is None:   # asked for colour where none is detected (TERM=dumb)
        console = make_console(width=width, record=True, force_terminal=True, color_system="standard")
    with console.capture() as cap:
        console.print(renderable)
    return cap.get()
