"""Self-play cost for `atelier train` (docs/models.md, "Training"): CPU seconds of one game per
ruleset and player count with the generation-0 searcher (greedy playouts) and with random
playouts at the same iterations, decisions per game, and the training positions per CPU-second
at --positions 8.

    PYTHONPATH=src python bench/train_speed.py [--iterations 20] [--games 1]
"""
import argparse
import os
import time

import numpy as np

from atelier import train


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--rulesets", default="inventors,leonardo,craftsmen")
    args = ap.parse_args()
    print(f"cores: {os.cpu_count()}  iterations: {args.iterations}  games: {args.games}")
    print(f"{'game':10} {'n':>2} {'rollout':8} {'cpu s/game':>10} {'positions/cpu s':>16}")
    for game in args.rulesets.split(","):
        for n in (int(p) for p in args.players.split(",")):
            s = train.Settings(game=game, players=n, iterations=args.iterations).check()
            for rollout in ("greedy", "random"):
                spec = f"{s.algorithm}:{args.iterations}:{rollout}"
                t0 = time.process_time()
                for i in range(args.games):
                    train.selfplay_game(game, n, spec, None, 1, 0, i, 8)
                dt = (time.process_time() - t0) / args.games
                print(f"{game:10} {n:>2} {rollout:8} {dt:>10.2f} {8 / dt:>16.2f}", flush=True)


if __name__ == "__main__":
    main()
