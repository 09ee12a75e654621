"""Exact endgames: which solver runs, and one result shape for both (docs/solvers.md).

`solve` is what `atelier endgame` calls. Alpha-beta (engine.alphabeta_search) answers a
position from which no chance node can be reached, for two players or paranoid; expectimax
(engine.expectimax_search) answers everything else. Both leave an ExactResult.
"""
from __future__ import annotations

from ..errors import InputError
from ..limits import check_choice, check_flag, check_int, check_number, check_seed
from . import engine

SOLVERS = ("auto", "alphabeta", "expectimax")
DEFAULT_TT_MB = 256.0
MAX_TT_MB = 1_048_576.0


class _Deadline(Exception):
    """expectimax ran past its time budget (raised from its progress callback)."""


def alphabeta_applies(state, paranoid: bool) -> str | None:
    """Why alpha-beta cannot answer `state` exactly, or None when it can: two players (or one seat
    against the rest, paranoid) and no chance node reachable (the ruleset's chance_free)."""
    players, _, _ = engine.position_info(state)
    if players > 2 and not paranoid:
        return f"{players} players: alpha-beta needs two, or --paranoid (one seat against the rest)"
    if not engine.chance_free(state):
        return "a chance node can still be reached from this position"
    return None


def solve(state, solver="auto", objective="win", prove=False, paranoid=False, max_nodes=None,
          time=None, memory_mb=DEFAULT_TT_MB, determinizations=None, seed=0, progress=None):
    """Exact values of every root move (ExactResult). solver "auto": alpha-beta where it applies
    (alphabeta_applies), else expectimax. `prove`: alpha-beta's win/draw/loss question only:
    the position's value and a move that reaches it (the others keep the bounds proven so far). `time` (seconds) and
    `max_nodes` bound the work; past either, TooLarge is raised, and from alpha-beta it carries
    `partial`: the result with every bound proven so far. `progress(nodes, seconds, solved,
    total)`; expectimax leaves solved and total None."""
    from . import DEFAULT_MAX_NODES, MAX_EXACT_NODES, MAX_TIME, TooLarge, expectimax

    solver = check_choice(solver, "solver", SOLVERS)
    objective = check_choice(objective, "objective", ("win", "margin"))
    prove = check_flag(prove, "prove")
    paranoid = check_flag(paranoid, "paranoid")
    max_nodes = DEFAULT_MAX_NODES if max_nodes is None else check_int(max_nodes, "max_nodes", 1, MAX_EXACT_NODES)
    if time is not None:
        time = check_number(time, "time", 0.0, MAX_TIME, lo_open=True)
    memory_mb = check_number(memory_mb, "memory_mb", 0.0, MAX_TT_MB, lo_open=True)
    seed = check_seed(seed)
    if progress is not None and not callable(progress):
        raise InputError(f"progress: expected a function (nodes, seconds, solved, total), got {progress!r}")
    if prove and objective != "win":
        raise InputError("prove: a win/draw/loss proof answers the win objective; drop --objective margin")
    why = alphabeta_applies(state, paranoid)
    if solver == "auto":
        solver = "expectimax" if why and not prove else "alphabeta"
    if solver == "alphabeta" and why:
        raise InputError(f"solver: alpha-beta does not apply here ({why}); use the expectimax solver"
                         + ("" if not prove else " without --prove"))
    if solver == "alphabeta":
        return alphabeta(state, objective=objective, prove=prove, max_nodes=max_nodes, time=time,
                         memory_mb=memory_mb, determinizations=determinizations, seed=seed,
                         progress=progress)
    if prove:
        raise InputError("prove: answered by alpha-beta only; use --solver auto or alphabeta")
    t0, seen = engine.now(), [0]
    report = None
    if progress is not None or time is not None:
        def report(nodes, seconds):
            seen[0] = nodes
            if time is not None and engine.now() - t0 > time:
                raise _Deadline
            if progress is not None:
                progress(nodes, seconds, None, None)
    try:
        return expectimax(state, max_nodes=max_nodes, objective=objective, paranoid=paranoid,
                          determinizations=determinizations, seed=seed, progress=report)
    except _Deadline:
        raise TooLarge(seen[0], f"the time budget of {time:g} s ran out") from None


def alphabeta(state, objective="win", prove=False, max_nodes=None, time=None, memory_mb=DEFAULT_TT_MB,
              determinizations=None, seed=0, progress=None, ordering=None, cpu_time=None):
    """Alpha-beta with null-window tests (MTD(f)) and a transposition table of bounds: the seat to
    move against every other seat. Raises InputError where a chance node can be reached
    (alphabeta_applies), TooLarge past `max_nodes` or `time` (with `partial` bounds on a single
    solve). Hidden information: like expectimax, K determinizations solved and averaged.
    `cpu_time`: a limit in this thread's CPU seconds instead of `time` (benchmarks: a busy machine
    then stops it after the same work); the result's cpu_seconds counts them."""
    from . import (DEFAULT_MAX_NODES, MAX_TIME, ExactMove, ExactResult, TooLarge, _check_decision, _check_same_moves,
                   _exact_samples, _line_seats, _line_state, _line_text, cannot_allocate)

    players, cur, _ = _check_decision(state)
    memory_mb = check_number(memory_mb, "memory_mb", 0.0, MAX_TT_MB, lo_open=True)
    max_nodes = DEFAULT_MAX_NODES if max_nodes is None else max_nodes
    order = engine.AB_DEFAULT_ORDERING if ordering is None else check_int(ordering, "ordering", 0, 63)
    viewpoint, seat, determinizations, seeds = _exact_samples(state, cur, determinizations, seed)
    if cpu_time is not None and time is not None:
        raise InputError("time: give time (wall seconds) or cpu_time (CPU seconds), not both")
    if cpu_time is not None:
        cpu_time = check_number(cpu_time, "cpu_time", 0.0, MAX_TIME, lo_open=True)
    runs, nodes, seconds, cpu = [], 0, 0.0, 0.0
    t0 = engine.now()
    for dseed in seeds:
        report = None
        if progress is not None:
            report = (lambda done: lambda n, sec, k, tot: progress(done + n, sec, k, tot))(nodes)
        left = None if time is None else max(1e-3, time - (engine.now() - t0))
        if cpu_time is not None:
            left = max(1e-3, cpu_time - cpu)
        try:
            r = engine.alphabeta_search(state, objective=objective, prove=prove,
                                        max_nodes=max(1, max_nodes - nodes), time=left or 0.0,
                                        memory_mb=memory_mb, ordering=order, determinize_seed=dseed,
                                        determinize_seat=seat, progress=report,
                                        cpu_clock=cpu_time is not None)
        except MemoryError:
            raise cannot_allocate(memory_mb, "the transposition table") from None
        nodes += r["nodes"]
        seconds += r["seconds"]
        cpu += r["cpu_seconds"]
        if r["aborted"] == 2:
            raise InputError("solver: a chance node with several outcomes was reached (the ruleset "
                             "said none could be); use the expectimax solver")
        _check_same_moves(runs, r, cur, seat)
        runs.append(r)
        if r["aborted"]:
            break
    first = runs[0]
    k = len(runs)
    moves = []
    for i, m in enumerate(first["moves"]):
        lo = sum(r["moves"][i]["lo"] for r in runs) / k
        hi = sum(r["moves"][i]["hi"] for r in runs) / k
        exact = all(r["moves"][i]["lo"] == r["moves"][i]["hi"] for r in runs)
        value = _seat_values(lo, cur, players, objective) if exact else None
        win = score = None
        if exact and all(r["moves"][i]["win"] is not None for r in runs):
            win = [sum(r["moves"][i]["win"][q] for r in runs) / k for q in range(players)]
            score = [sum(r["moves"][i]["score"][q] for r in runs) / k for q in range(players)]
        moves.append(ExactMove(move=m["move"], text=state.move_to_string(m["move"]), value=value,
                               win=win, score=score, bounds=(lo, hi), exact=exact))
    stopped = next((r["aborted"] for r in runs if r["aborted"]), 0) or (len(runs) < len(seeds))
    rlo = sum(r["root"][0] for r in runs) / k
    rhi = sum(r["root"][1] for r in runs) / k
    best = _best(moves, cur, prove, rlo if rlo == rhi else None)
    line = []
    if best is not None and first["moves"][best]["line"] is not None:
        line = first["moves"][best]["line"]
    result = ExactResult(player=cur, objective=objective, paranoid=players > 2, moves=moves,
                         best_index=best if best is not None else 0,
                         line=_line_text(_line_state(state, seat, seeds), line) if line else [], line_moves=line,
                         line_seats=_line_seats(_line_state(state, seat, seeds), line) if line else [],
                         nodes=nodes, tt_hits=sum(r["tt_hits"] for r in runs), seconds=seconds, cpu_seconds=cpu,
                         determinizations=determinizations, viewpoint=viewpoint,
                         solver="alphabeta", prove=prove, complete=not stopped and best is not None,
                         root_bounds=(rlo, rhi))
    if not result.complete:
        why = {1: "", 3: "stopped", 4: f"the time budget of {time:g} s ran out" if time else
               f"the CPU budget of {cpu_time:g} s ran out" if cpu_time else ""}
        exc = TooLarge(nodes, why.get(stopped if isinstance(stopped, int) else 0, ""))
        exc.partial = result
        raise exc
    return result


def _seat_values(v, cur, players, objective):
    """The mover's value as a per-seat vector: the other seat's is its complement in a two-player
    game; against a coalition (paranoid) the others' own values are not computed (None)."""
    if players != 2:
        return [v if q == cur else None for q in range(players)]
    other = 1.0 - v if objective == "win" else -v
    return [v if q == cur else other for q in range(players)]


def _best(moves, cur, prove, root_value):
    """The first move (canonical order) of the highest exact value, expectimax's tie rule; with
    prove, the first move proven to reach the root's value. None when not proven."""
    if prove:
        if root_value is None:
            return None
        return next((i for i, m in enumerate(moves) if m.exact and m.bounds[0] == root_value), None)
    if not all(m.exact for m in moves):
        return None
    best = 0
    for i in range(1, len(moves)):
        if moves[i].bounds[0] > moves[best].bounds[0] + 1e-9:
            best = i
    return best
