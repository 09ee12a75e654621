"""What a seat sees of a move it did not make: the move's text with every argument that seat
cannot tell apart written `?` (Craftsmen spec §18.5: `DRAW(?)`, `RETURN(?,BOTTOM)`,
`PAY_CARD(?)` between two other seats; Leonardo's `draw:?` into a hand, `bid:?` before the
bids are revealed, `start:large:?` face down), for every ruleset alike.

Decided from the seat's own knowledge, never from the truth alone: the alternatives to a move
are the moves (or chance outcomes) of the same kind, on the true position and on a few
determinizations of what the seat knows (so a bot holding only R1 cards still pays
`PAY_CARD(?)`: the seat cannot know it held nothing else); an argument is hidden when some
alternative differing in it leaves the seat's view exactly as the real move does. The view is
the seat's information-set key (`State.infoset_key(seat)`: the core's key of what the seat
knows, equal exactly when `dump_position(viewpoint=seat)` is)."""
from __future__ import annotations

import re

from .match import _mix

SAMPLES = 3                      # determinizations of the seat's knowledge tried for alternatives
_TOKENS = re.compile(r"([:(),+])")   # the separators of every ruleset's notation (docs/notation.md)


def _tokens(text: str) -> list[str]:
    return _TOKENS.split(text)


def _kind(text: str) -> str:
    return _tokens(text)[0]


def _view(state, seat):
    """What `seat` knows of `state`: its information-set key (the core's hash of exactly that)."""
    return state.infoset_key(seat)


def _alternatives(state, chance: bool) -> list[str]:
    """Every move (or chance outcome) text of `state` (of the mover, or of the chance node)."""
    if chance:
        return [state.move_to_string(o[0]) for o in state.chance_outcomes()]
    return [state.move_to_string(m) for m in state.legal_moves()]


def _after(state, text: str):
    s = state.clone()
    s.apply(text)
    return s


def masked(before, text: str, seat: int, seed: int = 0) -> str:
    """`text` (played at `before`, by another seat or chance) as `seat` sees it."""
    chance = before.is_chance()
    if not chance and before.current_player == seat:
        return text
    want = _view(_after(before, text), seat)
    kind, mine = _kind(text), _tokens(text)
    same = {text}
    worlds = [before]
    if hasattr(before, "determinize"):
        for k in range(SAMPLES):
            w = before.clone()
            try:
                w.determinize(seat, _mix(seed, k, 7) & 0x7FFFFFFF)
            except (ValueError, RuntimeError):   # no other world to sample: the seat knows it all
                break
            worlds.append(w)
    for w in worlds:
        for alt in _alternatives(w, chance):
            if alt in same or _kind(alt) != kind:
                continue
            try:
                if _view(_after(w, alt), seat) == want:
                    same.add(alt)
            except (ValueError, RuntimeError):
                continue
    if len(same) == 1:
        return text
    shapes = [_tokens(t) for t in same]
    if any(len(x) != len(mine) for x in shapes):   # e.g. payments of different sizes
        return kind + ("(?)" if text[len(kind):].startswith("(") else ":?")
    return "".join("?" if any(x[i] != tok for x in shapes) else tok for i, tok in enumerate(mine))
