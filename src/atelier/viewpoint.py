"""Playing on from a viewpoint (docs/positions.md): a state loaded from one seat's view holds a
placeholder sample of what that seat cannot see, so a move is taken only when its result, as
that seat sees it, does not depend on the sample. Generic: it asks the state for nothing but
`viewpoint`, `determinize`, `parse_move`, `chance_outcomes`, `sample_chance` and the position
writer."""
from __future__ import annotations

from .errors import InputError

PROBES = 64         # other samples a decision's result is checked against: an outcome the
                    # seat gives 5% goes unnoticed with probability 0.95^64 < 4%
DRAW_TRIES = 4096   # samples tried for one that allows a chance outcome the seat saw happen


def _seen(state, viewpoint):
    from . import position_dict

    return position_dict(state, viewpoint)


def _mix(seed: int, k: int) -> int:
    """The k-th seed derived from `seed` (splitmix64 step): the resampling and the draw must not
    share one stream."""
    z = (seed + 0x9E3779B97F4A7C15 * (k + 1)) & (2**64 - 1)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    return z ^ (z >> 31)


def sample_in_view(state, seed: int = 0):
    """The viewpoint state after its chance node, drawn as its seat believes: what the seat
    cannot see is resampled from `seed` first, then the outcome is drawn from that sample, so
    over seeds the outcome follows the seat's odds (not those of the one placeholder sample
    the state was loaded with). `state` is left as it was."""
    vp = state.viewpoint
    if vp is None:
        raise InputError("sample_in_view: this state is a full position, not a viewpoint")
    probe = state.clone()
    if probe.is_chance():
        probe.determinize(vp, _mix(seed, 0))
        probe.sample_chance(_mix(seed, 1))
    return probe


def apply_in_view(state, move, seed: int = 0):
    """The viewpoint state after `move` (notation or id); `state` is left as it was.

    A chance outcome (e.g. the card drawn) is what the seat saw happen: the hidden parts are
    resampled until it is possible, and refused if no sample of the seat's knowledge allows it.
    A decision is refused when its result as the seat sees it changes with the sample (it
    would reveal a hidden part, e.g. an opponent's hidden lab completing): write what was
    revealed into the position instead."""
    vp = state.viewpoint
    if vp is None:
        raise InputError("apply_in_view: this state is a full position, not a viewpoint")
    if state.is_chance():
        for k in range(DRAW_TRIES):
            probe = state.clone()
            if k:
                probe.determinize(vp, (seed + k) & (2**64 - 1))
            try:
                m = probe.parse_move(move) if isinstance(move, str) else move
            except ValueError:
                continue
            if any(m == o for o, _ in probe.chance_outcomes()):
                probe.apply(m)
                return probe
        raise InputError(f"move {move!r}: not a possible outcome for seat {vp}, given what it knows "
                         f"(no arrangement of the cards it cannot see allows it)")
    after = state.clone()
    after.apply(move)           # InputError-worthy ValueError for an illegal move goes up as is
    seen = _seen(after, vp)
    for k in range(1, PROBES + 1):
        probe = state.clone()
        probe.determinize(vp, (seed + k) & (2**64 - 1))
        try:
            probe.apply(move)
            same = _seen(probe, vp) == seen
        except ValueError:
            same = False
        if not same:
            raise InputError(f"move {move!r}: its result depends on what seat {vp} cannot see "
                             "(it reveals a hidden card or bid); apply it to a full position, or "
                             "write what it revealed into the viewpoint")
    return after
