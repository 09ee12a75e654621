"""Leonardo da Vinci: configuration (open), positions, rendering. Rules live in C++ (cext/leonardo)."""
from __future__ import annotations

from ..._core import leonardo as core
from ...errors import InputError
from .draw import draw
from .edition import edition_document_of, load_edition
from .exact import bench_ismcts_position, endgame_refusal  # noqa: F401  (search hooks)
from .position import position_dict, position_from_dict
from .render import chance_text, show, stage

__all__ = ["open_game", "load_edition", "edition_document_of", "position_dict", "position_from_dict", "show", "chance_text", "draw", "stage"]

SETUPS = ("expert", "basic")

TITLE = "Leonardo da Vinci"
CHANCE_PREFIXES = ("draw:",)   # a chance outcome in notation starts so (docs/notation.md)
HIDDEN_INFORMATION = True   # positions may be a seat's viewpoint (docs/positions.md)


def open_game(players: int = 2, seed: int = 0, edition=None, teams=None, setup: str = "expert",
              codex: bool = False):
    """Configure a game (a core Game; `.start()` is its setup from `seed`, §2).

    setup: "expert" (default, favour picks) or "basic" (beginner kits, fixed row);
    codex: the Codex option (§8). Seats are colours by index; there are no teams."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise InputError(f"players: expected 2..5, got {players!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"seed: expected a non-negative integer, got {seed!r}")
    if teams is not None:
        raise InputError("teams: Leonardo da Vinci has no teams (seats are colours)")
    if not isinstance(setup, str) or setup.lower() not in SETUPS:
        raise InputError(f"setup: expected one of {', '.join(SETUPS)}, got {setup!r}")
    if not isinstance(codex, bool):
        raise InputError(f"codex: expected true or false, got {codex!r}")
    ed = load_edition(edition)
    try:
        game = core.Game(players, ed, basic=setup.lower() == "basic", codex=codex)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    game.seed = seed
    return game
