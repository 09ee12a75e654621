"""The rulesets atelier knows, by the name used in positions and on the command line.

One folder per ruleset; each provides open_game, position_from_dict, position_dict and show.
"""
from __future__ import annotations

import importlib

from ..errors import InputError

GAMES = ("inventors", "leonardo", "craftsmen")


def ruleset(name):
    """The module of a ruleset by name; InputError for an unknown one."""
    if not isinstance(name, str) or name.lower() not in GAMES:
        raise InputError(f"game: unknown game {name!r} (known: {', '.join(GAMES)})")
    return importlib.import_module(f"{__name__}.{name.lower()}")
