"""atelier's MCTS / ISMCTS against OpenSpiel's Python MCTSBot / ISMCTSBot on the adapter, per
ruleset, equal iterations on the same positions, in one run (needs atelier[openspiel]).

    PYTHONPATH=src python bench/bench_openspiel.py [ITERATIONS] [POSITIONS]

Prints one line per ruleset with both sides' iterations/s and the ratio (OpenSpiel seconds /
atelier seconds); the same figures as `atelier bench --openspiel --game G`.
"""
import os
import sys

from atelier.openspiel.bench import compare


def main(iterations=400, positions=5):
    print(f"{os.cpu_count()} CPUs, one thread per side, {positions} positions x {iterations} iterations")
    for game in ("inventors", "leonardo", "craftsmen"):
        r = compare(game, players=2, iterations=iterations, positions=positions, seed=1)
        print(f"{game:10s} atelier {r['atelier']['iterations_per_s']:>10,.0f} it/s   "
              f"OpenSpiel {r['openspiel']['iterations_per_s']:>7,.0f} it/s   ratio {r['ratio']:.0f}x")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
