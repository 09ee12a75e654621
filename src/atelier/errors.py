"""The error users see for anything wrong with what they gave us."""
from __future__ import annotations

import warnings

# A message echoes what the user typed; past this it is shortened in the middle, keeping the
# field at the start and the reason at the end.
MAX_MESSAGE = 1000


def one_line(message: str) -> str:
    """`message` as one printable line: newlines, escape sequences, other control and format
    characters and lone surrogates are written as Python escapes (\\n, \\x1b, \\ud800)."""
    if not message.isprintable():
        message = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message)
    if len(message) > MAX_MESSAGE:
        keep = MAX_MESSAGE // 2 - 10
        message = f"{message[:keep]} ... {message[-keep:]}"
    return message


def quoted(text) -> str:
    """User text for a message: in quotes, unprintable characters escaped (like repr)."""
    escaped = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in str(text))
    return "'" + escaped.replace("'", "\\'") + "'"


class InputError(ValueError):
    """Bad input: malformed JSON, unknown game or card, impossible counts, an illegal move.

    The message is one line naming the field and the reason (made so here, whoever raises it,
    the C++ bindings included); the CLI prints it and exits 2.
    """

    def __init__(self, message="", *rest):
        super().__init__(one_line(str(message)), *rest)


class EditionWarning(UserWarning):
    """An edition that loads but looks unintended (Leonardo spec §1.9, Craftsmen §3): play goes
    on with the edition's values. The message is one line `edition: <field>: <what>`; the CLI
    prints each as `warning: ...` on stderr."""


def warn_edition(lines) -> list[str]:
    """Issue each warning line of an edition being read (as EditionWarning); returns them."""
    lines = [one_line(str(x)) for x in lines]
    for line in lines:
        warnings.warn(line, EditionWarning, stacklevel=3)
    return lines
