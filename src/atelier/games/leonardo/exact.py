"""Leonardo da Vinci hooks for the search: the exact endgame (`atelier endgame`,
solvers.expectimax) and the position `atelier bench` times ISMCTS from.

The search is generic; what it cannot know is when an exact solve of sampled full states means
something for this ruleset. Leonardo §6 (item 4): from Phase A of turn 8 on there are no refill
draws (§5.6: turns 8-9 have no refill), so the only uncertainty left is the hidden information
(opponents' hands and labs, pending bids), and each determinization can be solved exactly.
Before turn 8 a determinization also fixes the deck: the pile split of the lower-tier cards
and the order of what no one has seen (§3.5.1), which decide every later draw.
"""
from __future__ import annotations

# Turns 8-9 are pure research with no refill (Leonardo §4, §5.6).
FIRST_TURN_WITHOUT_DRAWS = 8


def endgame_refusal(state, determinizations: int) -> str | None:
    """Why an exact solve of `state` would not mean what it says, or None when it does.

    A full position (no `viewpoint`, no determinizations asked) is solved as it stands: the
    draws are its chance nodes (§6). A viewpoint (its hidden parts one placeholder
    determinization, §3.3), or a full position with determinizations asked for, is averaged
    over sampled full states; that is sound from turn 8 on only."""
    viewpoint = getattr(state, "viewpoint", None)
    f = state.fields()
    if f["phase"] == "BID":
        # §5.5 D5, §11.4: the bids are sealed. A solve of sampled full states would let a later
        # bidder answer the earlier bid it cannot see; the round is a simultaneous game whose
        # value is a mixed equilibrium, which the exact solvers do not compute yet.
        return ("endgame: the position is a sealed-bid auction (§5.5 D5): the bidders choose "
                "without seeing each other's bids, a simultaneous game the exact solvers would "
                "treat as sequential (a later bidder answering the earlier bid); use suggest (ISMCTS)")
    if viewpoint is None and not determinizations:
        return None
    turn = f["turn"]
    if turn >= FIRST_TURN_WITHOUT_DRAWS:
        return None
    who = f"the viewpoint of seat {viewpoint}" if viewpoint is not None else "a determinized position"
    when = "the favour picks" if turn == 0 else f"turn {turn}"
    return (f"endgame: {who} at {when} still has refill draws to come (Leonardo §5.6) from a deck "
            f"whose pile split and order the seat cannot know (§3.5.1); an exact solve of a sampled "
            f"deck would plan on cards nobody has seen. Exact endgames from a viewpoint start at "
            f"turn {FIRST_TURN_WITHOUT_DRAWS} (no draws left, §6); before that, use suggest, or "
            f"endgame on a full position")


def bench_ismcts_position(state) -> bool:
    """Is this the position `atelier bench` measures ISMCTS from? The first decision of turn 1
    (Phase A or B, after the favour picks of §5.1): every seat then holds hidden materials and
    the deck order is unknown, and a full game of random playout lies ahead."""
    f = state.fields()
    return f["turn"] == 1 and f["phase"] in ("LAB", "PLACE")
