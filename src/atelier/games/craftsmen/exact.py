"""Craftsmen hooks for the search: when `atelier endgame` may solve exactly, and the position
`atelier bench` times ISMCTS from.

The search is generic; what it cannot know is how far an exact solve of this ruleset reaches.
A Craftsmen year runs three seasons of helper placement and guild actions and a winter of two
guild stages (Craftsmen §5, §12); a full tree of a single season is far beyond any node budget.
Year 3's winter (the Architects and the Craftsmen for every seat, then the end of round and the
year end, §12-§14) is the one stretch small enough, and it has no building draws left; its only
chance is a money card drawn as a warehouse reward (§10.4), a chance node the solve expands.
"""
from __future__ import annotations

LAST_YEAR, WINTER = 3, 3


def endgame_refusal(state, determinizations: int) -> str | None:
    """Why an exact solve of `state` would not mean what it says (or could not finish), or None.

    Exact endgames are for year 3's winter: a full position as it stands, a viewpoint averaged
    over determinizations of what its seat cannot see (the other hands, the money deck)."""
    f = state.fields()
    if f["year"] == LAST_YEAR and f["season"] == WINTER:
        return None
    season = ("spring", "summer", "autumn", "winter")[f["season"]]
    return (f"endgame: this position is year {f['year']}, {season}; exact endgames in Craftsmen "
            f"start at year {LAST_YEAR}'s winter (§12), the last stretch small enough to solve "
            f"(a season of helper placement and six guild stages is far beyond any node budget). "
            f"Use suggest here")


def bench_ismcts_position(state) -> bool:
    """Is this the position `atelier bench` measures ISMCTS from? The first helper placement of
    year 1 (after the mulligans, §4.5): every seat then holds hidden money and building cards and
    the whole game lies ahead of a random playout."""
    f = state.fields()
    return f["year"] == 1 and f["phase"] == "HELPER"
