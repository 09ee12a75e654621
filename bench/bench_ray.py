"""Games per second of one match played locally (one process) and over a local Ray (docs/ray.md).

    PYTHONPATH=src python bench/bench_ray.py --games 200 --bots mcts:200,greedy --cpus 2

Checks on the way that both give the same records and summary.
"""
from __future__ import annotations

import argparse
import os
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="inventors")
    ap.add_argument("--bots", default="mcts:200,greedy")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray")
    args = ap.parse_args()
    from atelier import distributed, match

    bots = args.bots.split(",")
    t = time.perf_counter()
    local = match.play(args.game, bots, games=args.games, seed=args.seed)
    t_local = time.perf_counter() - t

    t = time.perf_counter()
    distributed.connect("local", num_cpus=args.cpus)
    t_init = time.perf_counter() - t
    t = time.perf_counter()
    far = distributed.play(args.game, bots, games=args.games, seed=args.seed)
    t_ray = time.perf_counter() - t
    assert far.records == local.records and far.summary == local.summary, "results differ"

    print(f"{args.game} {len(bots)}p, {args.bots}, {args.games} games, seed {args.seed}, nproc={os.cpu_count()}")
    print(f"local, 1 process : {t_local:7.1f} s  {args.games / t_local:6.2f} games/s")
    print(f"Ray, {args.cpus} CPUs      : {t_ray:7.1f} s  {args.games / t_ray:6.2f} games/s"
          f"  (+{t_init:.1f} s to start Ray)")
    print(f"ratio            : {t_local / t_ray:.2f}x ({t_local / (t_ray + t_init):.2f}x counting Ray's start)")
    print("identical records and summary: yes")


if __name__ == "__main__":
    main()
