"""Search results as --json objects: one naming scheme for every command (docs/json.md).

`move` is always the notation string and `move_id` the integer id of the same move; a value
that does not exist (a move never visited, an interval from fewer than two samples) is null.
"""
from __future__ import annotations

import math


def overlaps(a, b) -> bool:
    """Do two intervals (lo, hi) overlap? None (no data) overlaps nothing."""
    return a is not None and b is not None and a[0] <= b[1] and b[0] <= a[1]


def win_interval(m, player):
    """The 95% interval of `player`'s win share after move `m`, or None without data."""
    if not m.visits or not math.isfinite(m.win_ci):
        return None
    w = m.win[player]
    return (w - m.win_ci, w + m.win_ci)


def close_to_best(r) -> list[bool]:
    """Per move of a SearchResult: does its 95% win interval overlap the best move's?"""
    best = win_interval(r.best, r.player)
    return [i != r.best_index and overlaps(win_interval(m, r.player), best)
            for i, m in enumerate(r.moves)]


def suggest_json(r) -> dict:
    close = close_to_best(r)
    moves = []
    for m, c in zip(r.moves, close):
        seen = m.visits > 0
        moves.append({"move": m.text, "move_id": m.move, "visits": m.visits,
                      "win": m.win if seen else None, "win_ci": m.win_ci if seen else None,
                      "score": m.score if seen else None, "score_ci": m.score_ci if seen else None,
                      "value": m.value if seen else None, "overlaps_best": c,
                      "proven": m.proven, "win_raw": m.win_raw if seen else None,
                      "score_raw": m.score_raw if seen else None})
    return {"format": "atelier.suggest/1", "algorithm": r.algorithm, "player": r.player,
            "reward": r.reward, "best": r.best_text, "best_move_id": r.best_move,
            "best_index": r.best_index, "moves": moves, "iterations": r.iterations,
            "nodes": r.nodes, "seconds": r.seconds, "iterations_per_s": r.iterations_per_s,
            "threads": r.threads, "seed": r.seed, "memory_full": r.memory_full,
            "per_tree_iterations": r.per_tree_iterations, "signature": r.signature,
            "solver": r.solver, "proven": r.proven, "leaf_solves": list(r.leaf_solves),
            "evaluation": r.evaluation, "model": r.model, "calibrated": r.calibrated}


def endgame_json(x) -> dict:
    return {"format": "atelier.endgame/2", "too_large": False, **_exact_fields(x)}


def _exact_fields(x) -> dict:
    lo, hi = x.root_bounds if x.root_bounds is not None else (None, None)
    return {"solver": x.solver, "prove": x.prove, "complete": x.complete, "player": x.player,
            "objective": x.objective, "paranoid": x.paranoid,
            "determinizations": x.determinizations, "viewpoint": x.viewpoint,
            "best": x.best_text if x.complete else None,
            "best_move_id": x.best_move if x.complete else None,
            "best_index": x.best_index if x.complete else None,
            "value_lo": lo, "value_hi": hi,
            "moves": [{"move": m.text, "move_id": m.move, "exact": m.exact,
                       "lo": m.bounds[0] if m.bounds else m.value[x.player],
                       "hi": m.bounds[1] if m.bounds else m.value[x.player],
                       "value": m.value, "win": m.win, "score": m.score} for m in x.moves],
            "line": [{"move": text.removeprefix("chance:"), "move_id": mid, "chance": bool(chance), "seat": seat}
                     for text, (mid, chance), seat in zip(x.line, x.line_moves,
                                                          x.line_seats or [None] * len(x.line))],
            "nodes": x.nodes, "tt_hits": x.tt_hits, "seconds": x.seconds,
            "nodes_per_s": x.nodes_per_s}


def too_large_json(exc) -> dict:
    out = {"format": "atelier.endgame/2", "too_large": True, "nodes": exc.nodes, "message": str(exc)}
    if exc.partial is not None:
        out["partial"] = _exact_fields(exc.partial)
    return out
