"""The error users see for anything wrong with what they gave us."""


class InputError(ValueError):
    """Bad input: malformed JSON, unknown game or card, impossible counts, an illegal move.

    The message is one line naming the field and the reason; the CLI prints it and exits 2.
    """
