"""The information-set search's own cost in instructions (issue 24: ISMCTS iterations per
CPU-second at least 0.85 of the random-playout rate from the same position). callgrind counts
runs of one process from the bench's ISMCTS position (`atelier bench`, the `ismcts` row): N and
2N full-game random playouts, N and 2N ISMCTS iterations with random playouts. The difference of
each pair is N playouts or N iterations with every one-time cost gone (the interpreter's start,
the imports, the code dataclasses compile when a module is first used, the search's first
allocation). The iterations left are the later N, in a tree twice as big, so the figure errs
against the search, not for it. Their ratio is what the bench's CPU-time ratio estimates, free of
the machine's load. Needs valgrind.

    PYTHONPATH=src python bench/callgrind_ismcts.py [--game leonardo] [--players 2] [--n 5000]
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def child(mode: str, game: str, players: int, n: int) -> None:
    from atelier.solvers import engine, ismcts
    from atelier.solvers.bench import _ismcts_position

    s = _ismcts_position(game, players, 0)
    if mode == "playouts":
        engine.random_playouts(s, n, 1)
    elif mode == "ismcts":
        ismcts(s, iterations=n, threads=1, seed=0, rollout="random")


def measure(mode: str, game: str, players: int, n: int) -> int:
    with tempfile.NamedTemporaryFile(suffix=".cg") as out:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}", sys.executable, __file__,
               "--child", mode, "--game", game, "--players", str(players), "--n", str(n)]
        # numpy's BLAS threads spin at import for a varying while: one thread, one count
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        p = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    return int(re.search(r"Collected : (\d+)", p.stderr).group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="leonardo")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--child", default=None)
    a = ap.parse_args()
    if a.child:
        child(a.child, a.game, a.players, a.n)
        return
    if shutil.which("valgrind") is None:
        sys.exit("callgrind_ismcts: needs valgrind")
    def per_run(mode: str) -> float:
        return (measure(mode, a.game, a.players, 2 * a.n) - measure(mode, a.game, a.players, a.n)) / a.n

    playout, iteration = per_run("playouts"), per_run("ismcts")
    print(f"{a.game} {a.players}p, {a.n} each: {playout:,.0f} instructions a playout, {iteration:,.0f} an "
          f"ISMCTS iteration; ratio {playout / iteration:.3f} (the search's own cost "
          f"{iteration - playout:,.0f} an iteration)")


if __name__ == "__main__":
    main()
