"""Instructions per random-playout decision (issue 24's measure): callgrind counts only what runs
inside the core's own playout loop (`random_playout`, the loop random_games and bench_core use,
with the search's short paths: playout_apply, random_move), divided by the decisions played.
Instruction counts do not depend on the machine's load. Needs valgrind.

    PYTHONPATH=src python bench/callgrind_playouts.py [--players 4] [--games 40]
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile

GAMES = ("inventors", "leonardo", "craftsmen")


def child(game: str, players: int, games: int) -> None:
    import atelier

    r = atelier.open(game, players=players, seed=1).random_games(games, seed=11)
    print("decisions", int(r["lengths"].sum()))


def measure(game: str, players: int, games: int) -> tuple[int, int]:
    with tempfile.NamedTemporaryFile(suffix=".cg") as out:
        cmd = ["valgrind", "--tool=callgrind", f"--toggle-collect=*{game}*random_playout*",
               f"--callgrind-out-file={out.name}", sys.executable, __file__, "--child", game,
               "--players", str(players), "--games", str(games)]
        p = subprocess.run(cmd, capture_output=True, text=True, check=True)
    ir = int(re.search(r"Collected : (\d+)", p.stderr).group(1))
    decisions = int(re.search(r"decisions (\d+)", p.stdout).group(1))
    return ir, decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--child")
    a = ap.parse_args()
    if a.child:
        child(a.child, a.players, a.games)
        return
    if not shutil.which("valgrind"):
        sys.exit("error: valgrind is not installed (apt install valgrind)")
    for game in GAMES:
        ir, decisions = measure(game, a.players, a.games)
        print(f"{game:10s} {a.players}p, {a.games} games: {decisions:7d} decisions, "
              f"{ir / decisions:7.0f} instructions per decision")


if __name__ == "__main__":
    main()
