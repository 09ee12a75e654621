"""What a seat sees, as text and as numbers; chance outcomes for every ruleset.

    from atelier import observe
    observe.chance_outcomes(state)            # [(move, probability, text)] at a chance node
    observe.observation(state, seat)          # canonical JSON of what `seat` sees now
    observe.information_state(state, seat, history=[...])   # ... plus the seat's own moves
    observe.observation_tensor(states, seat)  # numpy float32 (N, F)
    observe.features(states, seat)            # numpy float32 (N, F): the value model's input

The texts are canonical JSON (sorted keys, no spaces) of `atelier.position_dict(state,
viewpoint=seat)` for the rulesets with hidden information (Leonardo, Craftsmen), and of the full
position for Legendary Inventors (no hidden information: every seat sees the same).

The tensor is a fixed-size **hashed** encoding of the same dict (docs/openspiel.md): every leaf
of the dict (static edition data and configuration left out) has a path such as
`seats/1/hand/iron` or `display/2/tokens/0`; a number (bool as 0/1) is added to slot
crc32(path) mod F, a text leaf adds 1.0 to slot crc32(path + "=" + text) mod F, null adds
nothing. A slot thus always means the same path in every state of the ruleset (lists of any
length never shift the others); two paths may share a slot (then their values add up). F is
TENSOR_SIZE[game]. Pure Python; needs no OpenSpiel.
"""
from __future__ import annotations

import json
import zlib
from math import comb

import numpy as np

from .errors import InputError
from .jsonfmt import check_plain

TENSOR_SIZE = {"inventors": 1024, "leonardo": 1024, "craftsmen": 2048}

# Left out of the tensor: configuration and static edition data (the same in every state).
_STATIC = {
    "inventors": {"game", "format", "players", "teams", "cards", "inventors", "edition"},
    "leonardo": {"game", "format", "players", "setup", "codex", "viewpoint", "edition"},
    "craftsmen": {"game", "format", "players", "age_rank", "viewpoint", "edition"},
}

__all__ = ["chance_outcomes", "observation", "information_state", "observation_tensor",
           "features", "seen_dict", "encode", "TENSOR_SIZE"]


def _game_name(state) -> str:
    return type(state).__module__.rsplit(".", 1)[-1]


def _check_state(state, field: str = "state"):
    """One of the core States (atelier.open(...).start() and its children)."""
    t = type(state)
    if t.__name__ != "State" or not t.__module__.startswith("atelier._core.") or _game_name(state) not in TENSOR_SIZE:
        raise InputError(f"{field}: expected an atelier State, got {t.__name__}")


def _check_extra(extra, field: str):
    """None, or a dict of plain JSON data (merged into the observation under "extra")."""
    if extra is None:
        return None
    if not isinstance(extra, dict):
        raise InputError(f"{field}: expected a dict or None, got {type(extra).__name__}")
    check_plain(extra, field)
    return extra


def _ruleset(state):
    from . import ruleset

    return ruleset(_game_name(state))


def _check_seat(state, seat):
    n = state.game.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise InputError(f"seat: expected 0..{n - 1}, got {seat!r}")


def chance_outcomes(state, sample: bool = False) -> list[tuple[int, float, str]]:
    """[(move, probability, text)] of the chance node `state`, moves in canonical order
    ([] at a decision or at the end). Legendary Inventors' reveal has too many outcomes to list:
    InputError (sample it with `state.sample_chance(seed)`, or give one as `reveal:...`).

    On a viewpoint (`state.viewpoint` a seat) the probabilities are the seat's belief, whatever
    the one sample of its hidden parts the state holds (the ruleset's `belief_chance_outcomes`);
    a ruleset that cannot give them refuses with InputError. `sample=True` asks for the
    outcomes of the sample the state holds instead (they answer for that sample only)."""
    if not isinstance(sample, bool):
        raise InputError(f"sample: expected true or false, got {sample!r}")
    if not state.is_chance():
        return []
    vp = getattr(state, "viewpoint", None)
    if vp is not None and not sample:
        belief = getattr(state, "belief_chance_outcomes", None)
        if belief is None:
            raise InputError(f"chance_outcomes: this state is seat {vp}'s viewpoint and its ruleset "
                             "gives no belief over the outcomes; its own outcomes answer for one "
                             "sample of what the seat cannot see (ask with sample=True)")
        try:
            items = belief(vp)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        return [(int(m), float(p), str(text)) for m, p, text in items]
    if _game_name(state) == "inventors":
        from . import position_dict

        d = position_dict(state)
        k = state.game.k
        bag = [int(v) for v in d["bag"].values()]
        kinds = len(bag)
        pairs = sum(1 for a in range(kinds) for b in range(a, kinds)
                    if (bag[a] >= 2 if a == b else bag[a] and bag[b]))
        raise InputError(f"chance_outcomes: the Age {d['age']} reveal has {comb(12, k)} card sets times "
                         f"up to {pairs}^{k} = {float(pairs) ** k:.3g} token assignments, too many to list; "
                         "sample one (state.sample_chance) or give one (reveal:...); OpenSpiel "
                         f"(atelier.openspiel) plays it as a sequence of {2 * k} chance steps")
    out = []
    for item in state.chance_outcomes():
        move, prob = item[0], item[1]
        text = item[2] if len(item) > 2 else state.move_to_string(move)
        out.append((int(move), float(prob), text))
    return out


def seen_dict(state, seat) -> dict:
    """What `seat` sees of `state` as a position dict (the full position when nothing is hidden)."""
    from . import position_dict

    _check_state(state)
    _check_seat(state, seat)
    rs = _ruleset(state)
    return position_dict(state, viewpoint=seat) if rs.HIDDEN_INFORMATION else position_dict(state)


def canonical(d) -> str:
    """Canonical JSON text: sorted keys, no spaces, ASCII."""
    return json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def observation(state, seat, extra=None) -> str:
    """What `seat` sees now, as canonical JSON (`extra`: a dict merged in under "extra")."""
    d = seen_dict(state, seat)
    if _check_extra(extra, "extra") is not None:
        d = dict(d, extra=extra)
    return canonical(d)


def information_state(state, seat, history=(), extra=None) -> str:
    """The observation of `seat` plus, on a second line, `mine:` and the moves the seat itself
    made so far (`history`: move texts or ids, oldest first; the caller keeps them, a state does
    not remember its past)."""
    if not isinstance(history, (list, tuple)):
        raise InputError(f"history: expected a list of moves, got {type(history).__name__}")
    for i, m in enumerate(history):
        if isinstance(m, bool) or not isinstance(m, (int, str)):
            raise InputError(f"history[{i}]: expected a move (text or id), got {type(m).__name__}")
        check_plain(m, f"history[{i}]")
    return observation(state, seat, extra) + "\nmine:" + ",".join(str(m) for m in history)


def _leaves(node, path, out):
    if isinstance(node, dict):
        for key in node:
            _leaves(node[key], f"{path}/{key}" if path else str(key), out)
    elif isinstance(node, (list, tuple)):
        for i, v in enumerate(node):
            _leaves(v, f"{path}/{i}", out)
    elif node is None:
        return
    elif isinstance(node, bool):
        out.append((path, 1.0 if node else 0.0))
    elif isinstance(node, (int, float)):
        out.append((path, float(node)))
    else:
        out.append((f"{path}={node}", 1.0))


_SLOTS: dict[tuple[str, int], int] = {}


def encode(d: dict, game: str, size: int | None = None) -> np.ndarray:
    """The hashed float32 vector of a position dict (the layout in the module docstring)."""
    size = size or TENSOR_SIZE[game]
    static = _STATIC.get(game, set())
    out: list[tuple[str, float]] = []
    for key in d:
        if key not in static:
            _leaves(d[key], str(key), out)
    vec = np.zeros(size, dtype=np.float32)
    for path, value in out:
        slot = _SLOTS.get((path, size))
        if slot is None:
            slot = _SLOTS.setdefault((path, size), zlib.crc32(path.encode()) % size)
        vec[slot] += value
    return vec


def observation_tensor(states, seat, extras=None) -> np.ndarray:
    """A float32 array (N, F) of what `seat` sees in each of `states` (one ruleset), F =
    TENSOR_SIZE[game]; `extras` optionally one dict per state merged in under "extra"."""
    if not isinstance(states, (list, tuple)):
        raise InputError(f"states: expected a list of states, got {type(states).__name__}")
    if not states:
        raise InputError("states: expected at least one state")
    for i, s in enumerate(states):
        _check_state(s, f"states[{i}]")
    game = _game_name(states[0])
    if any(_game_name(s) != game for s in states):
        raise InputError("states: expected states of one ruleset")
    if extras is not None:
        if not isinstance(extras, (list, tuple)) or len(extras) != len(states):
            raise InputError(f"extras: expected a list of {len(states)} dicts or None, one per state")
        for i, e in enumerate(extras):
            _check_extra(e, f"extras[{i}]")
    arr = np.zeros((len(states), TENSOR_SIZE[game]), dtype=np.float32)
    for i, s in enumerate(states):
        d = seen_dict(s, seat)
        if extras is not None and extras[i] is not None:
            d = dict(d, extra=extras[i])
        arr[i] = encode(d, game)
    return arr


def features(states, seat) -> np.ndarray:
    """A float32 array (N, F) of the ruleset's feature vectors (docs/models.md, Features): row
    i is `states[i].features(seat)`, or `states[i].features(seat[i])` when `seat` is one seat
    per state. One ruleset and player count per batch (F = Game.feature_count). Unlike
    observation_tensor, a feature vector reads the full state (the value model's input, called
    by the search on determinized states); on a loaded viewpoint it reads its placeholder deal."""
    if hasattr(states, "features") or isinstance(states, (str, bytes, dict)):
        raise InputError("states: expected a list of states, got one state")
    try:
        states = list(states)
    except TypeError:
        raise InputError(f"states: expected a list of states, got {type(states).__name__}") from None
    if not states:
        raise InputError("states: expected at least one state")
    for i, s in enumerate(states):
        if not hasattr(s, "features") or not hasattr(s, "game"):
            raise InputError(f"states[{i}]: expected a State, got {type(s).__name__}")
    first = states[0]
    game, players, size = _game_name(first), first.game.players, first.game.feature_count
    for i, s in enumerate(states):
        if _game_name(s) != game or s.game.players != players or s.game.feature_count != size:
            raise InputError(f"states[{i}]: expected states of one ruleset and player count "
                             f"({game}, {players} players), got {_game_name(s)} with {s.game.players}")
    per_state = isinstance(seat, (list, tuple, np.ndarray))
    if per_state:
        seats = list(seat)
        if len(seats) != len(states):
            raise InputError(f"seat: expected one seat per state ({len(states)}), got {len(seats)}")
    else:
        seats = [seat] * len(states)
    out = np.empty((len(states), size), dtype=np.float32)
    for i, (s, p) in enumerate(zip(states, seats)):
        if isinstance(p, np.integer):
            p = int(p)
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < players:
            where = f"seat[{i}]" if per_state else "seat"
            raise InputError(f"{where}: expected 0..{players - 1}, got {p!r}")
        out[i] = s.features(p)
    return out


def _install() -> None:
    """Put these on the core State classes, where users look for them: `state.observation(seat)`,
    `state.information_state(seat, history)` on every ruleset, and `state.chance_outcomes()` on
    Legendary Inventors' (whose answer at a reveal is the one-line "too many to list"; the other
    cores list their outcomes themselves). Written once here, over the viewpoint positions."""
    from ._core import craftsmen, inventors, leonardo

    for core in (inventors, leonardo, craftsmen):
        core.State.observation = observation
        core.State.information_state = information_state
    if not hasattr(inventors.State, "chance_outcomes"):
        inventors.State.chance_outcomes = chance_outcomes
