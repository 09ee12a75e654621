"""Quick Leonardo core speed figures: random playouts in the C++ loop (decisions/s, games/s)
and the cost of copying a State. Run: PYTHONPATH=src python bench/leonardo_speed.py [games]"""
import json
import pathlib
import sys

from atelier._core import leonardo as L

EDITION = pathlib.Path(__file__).resolve().parents[1] / "src/atelier/data/editions/leonardo.json"


def main(games=2000):
    ed = json.loads(EDITION.read_text())
    for n in (2, 3, 4, 5):
        r = L.Game(n, ed).bench_core(games, seed=1)
        print(f"{n}p expert: {r['decisions_per_s'] / 1e6:.2f} M decisions/s, {r['games_per_s']:.0f} games/s, "
              f"{r['decisions'] / r['games']:.0f} decisions/game, clone {r['clone_ns']:.0f} ns, "
              f"state {r['state_bytes']} B")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
