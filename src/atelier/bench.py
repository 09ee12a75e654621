"""Speed figures for `atelier bench`: one function returning a dict, so more rows (MCTS, ...) can
be added by the search without touching the CLI."""
from __future__ import annotations

import os
import platform

from .games import ruleset


def _load():
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def _cpus():
    """CPUs this process may run on (its affinity), else the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count()


def _openspiel_hearts():
    """OpenSpiel's hearts random games per CPU-second, when OpenSpiel is installed (the
    `openspiel` extra); None otherwise."""
    try:
        from .openspiel.bench import hearts_rate
    except ImportError:
        return None
    return hearts_rate()


def bench(game: str = "inventors", players: int = 4, games: int = 2000, seed: int = 0,
          search: bool = True, model=None) -> dict:
    """Random playouts and State copies timed inside C++ (no Python in the loop); with `search`,
    also MCTS iterations/s (start, mid-game; 1 and 2 threads), iterations per CPU-second by leaf
    evaluation (random, greedy, the value model `model` or the bundled one) and expectimax nodes/s.
    With OpenSpiel installed, its hearts played by its C++ random bots in the same run, and the
    core's decisions per CPU-second over hearts' (`core_ratio`).

    Rates are per CPU-second of the measuring thread (a loaded machine slows the wall clock,
    not the work done per CPU-second); the wall figures stand beside them, and `cpu_share` (CPU
    seconds over wall seconds of the playouts) says how much of a CPU the thread got."""
    g = ruleset(game).open_game(players=players, seed=seed)
    core = g.bench_core(games, seed)
    result = {
        "game": game,
        "players": players,
        "cpu_count": os.cpu_count(),
        "cpus_available": _cpus(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        # Shared machines are noisy: the 1-minute load when the figures were taken says how
        # much of the machine they had (None where the OS does not tell).
        "load_average": _load(),
        "rows": [
            {"what": "core random playouts", "decisions_per_s": core["decisions_per_s"],
             "games_per_s": core["games_per_s"], "games": core["games"],
             "decisions": core["decisions"], "seconds": core["seconds"],
             "decisions_per_wall_s": core["decisions_per_wall_s"],
             "wall_seconds": core["wall_seconds"], "cpu_share": core["cpu_share"],
             # as playouts run (keys not kept); with every state keyed when the core says
             **({"keyed_decisions_per_s": core["keyed_decisions_per_s"]}
                if "keyed_decisions_per_s" in core else {})},
            {"what": "state copy", "clone_ns": core["clone_ns"],
             "clone_wall_ns": core["clone_wall_ns"], "state_bytes": core["state_bytes"]},
        ],
    }
    hearts = _openspiel_hearts()
    if hearts is not None:
        # The yardstick: decisions per CPU-second against OpenSpiel's leanest native
        # loop, measured in the same run (the machine's load alike for both).
        hearts["core_ratio"] = core["decisions_per_s"] / hearts["decisions_per_s"]
        result["rows"].append(hearts)
    if search:
        from .solvers.bench import search_bench

        result["rows"] += search_bench(game, players=players, seed=seed, model=model)["rows"]
    return result
