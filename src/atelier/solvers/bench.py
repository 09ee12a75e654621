"""Search speed figures for `atelier bench`: `search_bench(...)` returns a dict of rows.

MCTS iterations/s from the start and from a mid-game position (1 thread and `threads`
threads, with the speedup), and expectimax nodes/s on a late-game position found by playing
a seeded random game to its end and stepping back while the exact search stays in budget.

On a ruleset with hidden information, also ISMCTS iterations/s (random playouts to the end of
the game) from the first decision where the seat to move cannot see everything (or the one the
ruleset's `bench_ismcts_position(state)` hook picks), beside the plain random-playout rate
from the same position measured in the same run: their ratio is the search's own overhead
(determinization, information-set lookups, selection, backup), whatever the machine's load.
"""
from __future__ import annotations

import os
import random
import time

from . import TooLarge, engine, expectimax, game_hook, ismcts, mcts


def _ismcts_position(game: str, players: int, seed: int):
    """The position the ISMCTS row is measured from, or None on perfect information."""
    if game == "testgame":
        return None
    import atelier

    pick = game_hook(game, "bench_ismcts_position")
    s = atelier.open(game, players=players, seed=seed).start()
    rnd = random.Random(seed)
    k = 0
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance(seed * 1000 + k)
            k += 1
            continue
        if engine.hidden_information(s) and (pick is None or pick(s)):
            return s
        s.apply(rnd.choice(s.legal_moves()))
    return None


def _timed(fn):
    """(result, wall seconds, CPU seconds of this process: every thread) of fn()."""
    w0, c0 = time.perf_counter(), time.process_time()
    r = fn()
    return r, time.perf_counter() - w0, time.process_time() - c0


def _ismcts_row(state, iterations, threads, seed):
    """ISMCTS iterations/s beside the random-playout rate from the same position, measured
    around it (before and after, averaged) so that a change in the machine's load hits both."""
    n = max(iterations // 2, 1)
    _, _, c1 = _timed(lambda: engine.random_playouts(state, n, seed))
    one, _, c_one = _timed(lambda: ismcts(state, iterations=iterations, threads=1, seed=seed,
                                          rollout="random"))
    _, _, c2 = _timed(lambda: engine.random_playouts(state, n, seed + 1))
    # Per CPU-second, both: the ratio is the search's own cost whatever the machine's load.
    playouts_per_s = 2 * n / (c1 + c2) if c1 + c2 > 0 else 0.0
    iterations_per_s = one.iterations / c_one if c_one > 0 else one.iterations_per_s
    row = {"what": "ismcts (hidden information, full-game random playouts)",
           "iterations": iterations, "iterations_per_s": iterations_per_s,
           "iterations_per_wall_s": one.iterations_per_s,
           "playouts_per_s": playouts_per_s,
           "ratio_to_playouts": iterations_per_s / playouts_per_s if playouts_per_s else 0.0,
           "nodes": one.nodes}
    if threads > 1:
        par, wall, cpu = _timed(lambda: ismcts(state, iterations=iterations * threads,
                                               threads=threads, seed=seed, rollout="random"))
        row[f"iterations_per_s_{threads}_threads"] = par.iterations_per_s
        row["speedup"] = par.iterations_per_s / one.iterations_per_s if one.iterations_per_s else 0.0
        # (speedup: wall rates, threads over one.) CPUs this process got while the threads ran: below `threads` the machine was busy,
        # and the speedup is bounded by it. Iterations per CPU-second, threads over one, is
        # the scaling the load cannot hide: below 1 the threads slow each other down.
        row[f"cpus_used_{threads}_threads"] = cpu / wall if wall > 0 else 0.0
        if cpu > 0 and c_one > 0:
            row["per_cpu_efficiency"] = (par.iterations / cpu) / (one.iterations / c_one)
    return row


def _positions(game: str, players: int, seed: int):
    """(start, mid-game, decisions after the last chance event of a random game)."""
    if game == "testgame":
        from . import testgame

        g = testgame.Game(players, 8, 3, min(5, 24 // (players + 1)))
        start = lambda: g.dealt_state(seed)  # noqa: E731
    else:
        import atelier

        g = atelier.open(game, players=players, seed=seed)
        start = g.start
    s = start()
    rnd = random.Random(seed)
    mid, tail, k, decisions = None, [], 0, 0
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance(seed * 1000 + k)
            tail, k = [], k + 1
            continue
        if mid is None and decisions >= 60:
            mid = s.clone()
        tail.append(s.clone())
        s.apply(rnd.choice(s.legal_moves()))
        decisions += 1
    return start(), mid if mid is not None else start(), tail


def _mcts_row(what, state, iterations, threads, seed):
    # Today's search (random playouts): the rows keep their meaning whatever model ships. One
    # thread: iterations per CPU-second of the process (the search's one thread), which a busy
    # machine does not change; the wall rate beside it.
    one, _, cpu = _timed(lambda: mcts(state, iterations=iterations, threads=1, seed=seed, rollout="random"))
    row = {"what": what, "iterations": iterations,
           "iterations_per_s": one.iterations / cpu if cpu > 0 else one.iterations_per_s,
           "iterations_per_wall_s": one.iterations_per_s, "nodes": one.nodes}
    if threads > 1:
        par = mcts(state, iterations=iterations * threads, threads=threads, seed=seed, rollout="random")
        row[f"iterations_per_s_{threads}_threads"] = par.iterations_per_s
        row["speedup"] = par.iterations_per_s / one.iterations_per_s if one.iterations_per_s else 0.0
    return row


def _expectimax_row(tail, max_nodes):
    best = None
    for back in range(2, len(tail) + 1):
        try:
            x = expectimax(tail[-back], max_nodes=max_nodes)
        except TooLarge:
            break
        best = (back, x)
    if best is None:
        return {"what": "expectimax (late game)", "nodes": 0, "nodes_per_s": 0.0}
    back, x = best
    return {"what": f"expectimax (late game, {back} decisions from the end)", "nodes": x.nodes,
            "nodes_per_s": x.nodes_per_s, "seconds": x.seconds, "tt_hits": x.tt_hits}


STAND_IN_HIDDEN = (64, 64)   # the network timed when the package ships no model for the game
LEAF_MOVES_TRIED = (4, 16)   # greedy moves before the model, beside the model alone


def bench_model(state, model=None):
    """(Model, what it is) to time the model-backed search with on `state`: `model` (a Model or
    a file), else the package's model for the game and player count, else a stand-in of the
    usual shape with random weights (the cost of a network depends on its shape, not its
    weights); None when the ruleset writes no features."""
    import numpy as np

    from ..model import Model, load
    from . import bundled_model

    game, players = engine.position_game(state), engine.position_info(state)[0]
    count, version, _ = engine.position_features(state)
    if count == 0:
        return None, "no features"
    if model is not None:
        return (model, "given") if isinstance(model, Model) else (load(model), str(model))
    m = bundled_model(game, players)
    if m is not None:
        return m, f"bundled {game}-{players}p"
    rng = np.random.default_rng(0)
    f32 = lambda *shape: (rng.standard_normal(shape) * 0.1).astype(np.float32)  # noqa: E731
    layers, width = [], count
    for h in STAND_IN_HIDDEN:
        layers.append((f32(width, h), f32(h)))
        width = h
    m = Model(game=game, players=players, feature_version=version, mean=np.zeros(count, np.float32),
              scale=np.ones(count, np.float32), layers=layers, win=(f32(width, players), f32(players)),
              score=(f32(width, players), f32(players)))
    return m, f"stand-in {count}-{'-'.join(map(str, STAND_IN_HIDDEN))}-{players} (random weights, cost only)"


def _cpu_rate(search, state, iterations, seed, **kw):
    """Iterations per CPU-second of this thread (time.thread_time: the search runs on it, one
    tree, so other processes' load does not count) and the result."""
    t0 = time.thread_time()
    r = search(state, iterations=iterations, threads=1, seed=seed, **kw)
    cpu = time.thread_time() - t0
    return (r.iterations / cpu if cpu > 0 else 0.0), r


def evaluation_rows(game: str, players: int = 4, seed: int = 0, iterations: int = 5_000, model=None,
                    leaf_moves=LEAF_MOVES_TRIED) -> list:
    """Per position (start, mid-game): iterations per CPU-second of one search tree valuing its
    leaves by random playouts (today), by greedy playouts, by the model alone and by the model
    after a few greedy moves, all from the same position in the same run; ratios to random."""
    start, mid, _ = _positions(game, players, seed)
    hidden = _ismcts_position(game, players, seed)
    rows, todo = [], [("start", start), ("mid-game", mid)]
    if hidden is not None and not any(engine.hidden_information(s) for _, s in todo):
        todo.append(("hidden information", hidden))
    for where, state in todo:
        search = ismcts if engine.hidden_information(state) else mcts
        kw = {} if search is ismcts else {"solver": False}
        m, what = bench_model(state, model)
        row = {"what": f"leaf evaluation, {search.__name__} ({where}; model: {what})", "iterations": iterations}
        base, _ = _cpu_rate(search, state, iterations, seed, rollout="random", **kw)
        row["random_it_per_cpu_s"] = base
        row["greedy_it_per_cpu_s"], _ = _cpu_rate(search, state, iterations, seed, rollout="greedy", **kw)
        if m is not None:
            # The model's own lead-in (Leonardo's 32) is what the default search pays: time it too.
            own = () if m.leaf_moves is None or m.leaf_moves in (0,) + tuple(leaf_moves) else (m.leaf_moves,)
            for k in (0,) + tuple(leaf_moves) + own:
                rate, _ = _cpu_rate(search, state, iterations, seed, rollout="model", model=m,
                                    leaf_moves=k, **kw)
                name = "model" if k == 0 else f"model_after_{k}_greedy"
                row[f"{name}_it_per_cpu_s"] = rate
                row[f"{name}_vs_random"] = rate / base if base else 0.0
        rows.append(row)
    return rows


def search_bench(game: str = "inventors", players: int = 4, seed: int = 0, iterations: int = 20_000,
                 threads: int | None = None, max_nodes: int = 3_000_000, model=None) -> dict:
    """MCTS iterations/s (start, mid-game; 1 and `threads` threads), the leaf evaluations'
    iterations per CPU-second (random, greedy, model; evaluation_rows) and expectimax nodes/s."""
    if threads is None:
        threads = min(2, os.cpu_count() or 1)
    start, mid, tail = _positions(game, players, seed)
    rows = [_mcts_row("mcts (start)", start, iterations, threads, seed),
            _mcts_row("mcts (mid-game)", mid, iterations, threads, seed)]
    hidden = _ismcts_position(game, players, seed)
    if hidden is not None:
        rows.append(_ismcts_row(hidden, iterations, threads, seed))
    if game != "testgame":
        rows += evaluation_rows(game, players, seed, max(iterations // 4, 1), model)
    rows.append(_expectimax_row(tail, max_nodes))
    return {"game": game, "players": players, "cpu_count": os.cpu_count(), "threads": threads,
            "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
            "rows": rows}
