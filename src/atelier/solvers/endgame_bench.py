"""`atelier bench --endgame`: how far back from the end the exact solver reaches (issue figures).

For each of `games` seeded two-player games played by the greedy bot, the decisions after the
last chance event (Inventors: the Age III reveal) form the game's tail. Walking back from the
end `step` decisions at a time, each position is solved exactly (alpha-beta, every root move's
exact win value, one core) within `seconds` of CPU time; the walk stops at the first position not solved in
time. Reported per game: the furthest position solved, its nodes and time, the same position's
win/draw/loss proof (`prove`) time and its exact score margins' time (the full values), and
whether the whole tail was solved.
"""
from __future__ import annotations

import os

from . import TooLarge, alphabeta, greedy_move
from . import engine


def greedy_tail(game: str, players: int, seed: int) -> list:
    """The decision states of one greedy game after its last chance event, in order."""
    import atelier

    s = atelier.open(game, players=players, seed=seed).start()
    tail, k = [], 0
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance(seed * 1000 + k)
            k += 1
            tail = []
            continue
        tail.append(s.clone())
        s.apply(greedy_move(s, seed * 1000 + len(tail)))
    return [t for t in tail if engine.chance_free(t)]


def _timed(state, seconds, prove, memory_mb, objective="win"):
    """(solved, nodes, CPU seconds) of one solve limited to `seconds` of this thread's CPU time,
    so that a busy machine gives the same figures."""
    try:
        r = alphabeta(state, objective=objective, prove=prove, cpu_time=seconds, max_nodes=10**12,
                      memory_mb=memory_mb)
        return True, r.nodes, r.cpu_seconds
    except TooLarge as exc:
        p = exc.partial
        return False, exc.nodes, (p.cpu_seconds if p is not None else seconds)


def endgame_bench(game: str = "inventors", players: int = 2, games: int = 20, seed: int = 0,
                  seconds: float = 60.0, step: int = 2, target: int = 24, memory_mb: float = 256.0,
                  progress=None) -> dict:
    """The figures as a dict (rows per game and a summary). `progress(text)` gets one line per
    solve, for a live display."""
    rows = []
    for g in range(games):
        gseed = seed + g
        tail = greedy_tail(game, players, gseed)
        if not tail:   # no decision after the last chance event is chance-free: nothing to solve
            if progress is not None:
                progress(f"game {g + 1}/{games} (seed {gseed}): no chance-free decision to solve")
            rows.append({"seed": gseed, "tail": 0, "furthest": 0, "nodes": None, "seconds": None,
                         "whole_tail": False})
            continue
        best = None   # (back, nodes, seconds)
        back = min(step, len(tail))
        while back <= len(tail):
            ok, nodes, secs = _timed(tail[-back], seconds, False, memory_mb)
            if progress is not None:
                progress(f"game {g + 1}/{games} (seed {gseed}): {back} of {len(tail)} back: "
                         f"{'solved' if ok else 'not solved'} in {secs:.1f} s, {nodes:,} nodes")
            if not ok:
                break
            best = (back, nodes, secs)
            if back == len(tail):
                break
            back = min(back + step, len(tail))
        row = {"seed": gseed, "tail": len(tail), "furthest": best[0] if best else 0,
               "nodes": best[1] if best else None, "seconds": best[2] if best else None,
               "whole_tail": best is not None and best[0] == len(tail)}
        if best is not None:
            ok, nodes, secs = _timed(tail[-best[0]], seconds, True, memory_mb)
            row.update(prove_ok=ok, prove_nodes=nodes, prove_seconds=secs)
            ok, nodes, secs = _timed(tail[-best[0]], seconds, False, memory_mb, "margin")
            row.update(margin_ok=ok, margin_nodes=nodes, margin_seconds=secs)
        rows.append(row)
    solved = [r for r in rows if r["furthest"] and r.get("prove_ok")]
    proof = sum(r["prove_seconds"] for r in solved)
    full = sum(r["seconds"] for r in solved)
    # A margin solve stopped at the limit counts its limit: the ratio is then a lower bound.
    margin = sum(r["margin_seconds"] for r in solved)
    furthest = sorted(r["furthest"] for r in rows)
    return {
        "game": game, "players": players, "games": games, "seed": seed, "seconds_limit": seconds,
        "step": step, "cpu_count": os.cpu_count(), "rows": rows,
        "summary": {
            "target_back": target,
            "games_at_target": sum(f >= target for f in furthest),
            "median_furthest": furthest[len(furthest) // 2] if furthest else 0,
            "min_furthest": furthest[0] if furthest else 0,
            "max_furthest": furthest[-1] if furthest else 0,
            "whole_tail_solved": sum(r["whole_tail"] for r in rows),
            # the same positions, one run: the win/draw/loss proof against every move's exact win
            # value, and against every move's exact score margin (the full values)
            "prove_speedup_vs_win_values": full / proof if proof > 0 else None,
            "prove_speedup_vs_margin_values": margin / proof if proof > 0 else None,
            "margin_all_solved": all(r["margin_ok"] for r in solved),
        },
    }


def suggest_accuracy(game: str = "inventors", players: int = 2, games: int = 20, seed: int = 0,
                     iterations: int = 100_000, backs=(4, 6, 8), exact_seconds: float = 20.0,
                     progress=None) -> dict:
    """`suggest`'s value of its best move against the exact value, with and without MCTS-Solver
    (one run, same positions): positions `backs` decisions before the end of each greedy game
    that alpha-beta solves within `exact_seconds`. A proven best move reports its proof;
    otherwise its mean win share."""
    from . import mcts

    out = {"on": [], "off": []}
    for g in range(games):
        tail = greedy_tail(game, players, seed + g)
        for back in backs:
            if back > len(tail):
                continue
            s = tail[-back]
            try:
                exact = alphabeta(s, time=exact_seconds, max_nodes=10**12)
            except TooLarge:
                continue
            v = max(m.bounds[0] for m in exact.moves)
            for key, solver in (("on", "auto"), ("off", False)):
                r = mcts(s, iterations=iterations, seed=seed + g, solver=solver)
                b = r.best
                value = b.proven if b.proven is not None else b.win[r.player]
                out[key].append({"seed": seed + g, "back": back, "exact": v, "value": value,
                                 "proven": b.proven is not None, "seconds": r.seconds,
                                 "best_is_optimal": exact.moves[r.best_index].bounds[0] == v})
            if progress is not None:
                progress(f"seed {seed + g}, {back} back: exact {v}, solver {out['on'][-1]['value']:.3f}"
                         f"{' (proven)' if out['on'][-1]['proven'] else ''}, plain {out['off'][-1]['value']:.3f}")

    def summary(rows):
        proven = [r for r in rows if r["proven"]]
        rest = [abs(r["value"] - r["exact"]) for r in rows if not r["proven"]]
        return {"positions": len(rows), "proven": len(proven),
                "proven_exact": all(r["value"] == r["exact"] for r in proven),
                "mean_error_unproven": sum(rest) / len(rest) if rest else None,
                "max_error_unproven": max(rest) if rest else None,
                "mean_error_all": sum(abs(r["value"] - r["exact"]) for r in rows) / len(rows) if rows else None,
                "max_error_all": max((abs(r["value"] - r["exact"]) for r in rows), default=None),
                "optimal_moves": sum(r["best_is_optimal"] for r in rows),
                "seconds": sum(r["seconds"] for r in rows)}

    return {"iterations": iterations, "backs": list(backs), "games": games,
            "solver": summary(out["on"]), "plain": summary(out["off"]), "rows": out}
