"""Quick Craftsmen core speed figures (issue #8, item 7): random playouts inside C++ (decisions/s,
games/s), the copy of a State (ns) and its size. Run: PYTHONPATH=src python bench/craftsmen_speed.py
Figures only, nothing is asserted."""
import json
import pathlib
import sys

from atelier._core import craftsmen as core

EDITION = pathlib.Path(__file__).resolve().parents[1] / "src/atelier/data/editions/craftsmen.json"


def main(games=2000):
    ed = json.loads(EDITION.read_text())
    for n in (2, 3, 4, 5):
        r = core.Game(n, ed).bench_core(games, seed=n)
        print(f"{n} players: {r['decisions_per_s'] / 1e6:.2f} M decisions/s, {r['games_per_s']:.0f} games/s, "
              f"{r['decisions'] / games:.0f} decisions/game, clone {r['clone_ns']:.1f} ns, state {r['state_bytes']} bytes")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
