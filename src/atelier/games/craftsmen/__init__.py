"""Craftsmen (ST Games 2013): configuration (open), positions, rendering.
Rules live in C++ (cext/craftsmen); § numbers cite the Craftsmen rules reference."""
from __future__ import annotations

from ..._core import craftsmen as core
from ...errors import InputError
from .edition import edition_document_of, load_edition
from .position import position_dict, position_from_dict
from .exact import bench_ismcts_position, endgame_refusal  # noqa: F401  (search hooks)
from .render import show, stage
from .draw import draw

__all__ = ["open_game", "load_edition", "edition_document_of", "position_dict", "position_from_dict", "show", "draw", "chance_text", "stage"]

TITLE = "Craftsmen"
CHANCE_PREFIXES = ("draw(",)   # a chance outcome in notation: DRAW(R2), DRAW(E11) (docs/notation.md)
HIDDEN_INFORMATION = True      # hands and deck segments are hidden (rules §6.2)


def check_age_rank(age_rank, players: int):
    """None (seat 0 is the youngest, §4.4) or a permutation of 0..players-1 (0 = youngest)."""
    if age_rank is None:
        return None
    if not isinstance(age_rank, (list, tuple)) or len(age_rank) != players or \
            any(isinstance(r, bool) or not isinstance(r, int) for r in age_rank) or \
            sorted(age_rank) != list(range(players)):
        raise InputError(f"age_rank: expected a permutation of 0..{players - 1} (one rank per seat, "
                         f"0 the youngest), got {age_rank!r}")
    return list(age_rank)


def open_game(players: int = 2, seed: int = 0, edition=None, teams=None, age_rank=None):
    """Configure a game (a core Game; `.start(seed)` deals the setup, §4.2).

    age_rank: per seat its age rank, 0 the youngest (breaks turn-order ties, §4.4); default
    seat order. Seats are numbers; there are no teams."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise InputError(f"players: expected 2..5, got {players!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"seed: expected a non-negative integer, got {seed!r}")
    if teams is not None:
        raise InputError("teams: Craftsmen has no teams (seats are numbers)")
    age_rank = check_age_rank(age_rank, players)
    ed = load_edition(edition)
    try:
        game = core.Game(players, ed, age_rank)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    game.seed = seed
    return game


def chance_text(before, after):
    """The draw that took the chance node `before` to `after`, in notation (`DRAW(R2)`), so
    that match records replay by text; None if no single outcome does."""
    target = after.to_bytes()
    for move, _, text in before.chance_outcomes():
        if before.child(move).to_bytes() == target:
            return text
    return None
