"""Legendary Inventors: configuration (open), positions, rendering. Rules live in C++ (cext/inventors)."""
from __future__ import annotations

import random

from ..._core import inventors as core
from ...errors import InputError
from .draw import draw, seat_colours
from .edition import edition_document_of, load_edition
from .position import position_dict, position_from_dict
from .render import chance_text, show, stage

__all__ = ["open_game", "load_edition", "edition_document_of", "position_dict", "position_from_dict", "show", "chance_text", "draw", "stage"]

TITLE = "Legendary Inventors"
CHANCE_PREFIXES = ("reveal:",)   # a chance outcome in notation starts so (docs/notation.md)
HIDDEN_INFORMATION = False   # positions may be a seat's viewpoint (docs/positions.md)


def open_game(players: int = 2, seed: int = 0, edition=None, teams=None):
    """Configure a game (a core Game; `.start()` is its start position from `seed`).

    Teams: ids (or indices) per seat, or None to draw distinct ones from the seed."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise InputError(f"players: expected 2..5, got {players!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"seed: expected a non-negative integer, got {seed!r}")
    ed = edition if isinstance(edition, core.Edition) else load_edition(edition)
    ids = ed.team_ids
    if teams is None:
        # Teams are configuration, not chance (spec R6): drawn once here, before the game exists.
        idx = random.Random(seed).sample(range(len(ids)), players)
    else:
        if isinstance(teams, str):
            teams = [t.strip() for t in teams.split(",") if t.strip()]
        if not isinstance(teams, (list, tuple)):
            raise InputError(f"teams: expected a list of team ids, got {teams!r}")
        if len(teams) != players:
            raise InputError(f"teams: expected {players} teams, one per seat, got {len(teams)}")
        lower = [t.lower() for t in ids]
        idx = []
        for p, t in enumerate(teams):
            i = t if isinstance(t, int) and not isinstance(t, bool) else (
                lower.index(t.lower()) if isinstance(t, str) and t.lower() in lower else None)
            if i is None or not 0 <= i < len(ids):
                raise InputError(f"teams[{p}]: unknown team {t!r} (teams: {', '.join(ids)})")
            if i in idx:
                raise InputError(f"teams[{p}]: team '{ids[i]}' is already seated")
            idx.append(i)
    try:
        game = core.Game(ed, players, idx)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    game.seed = seed
    return game
