"""The judgement targets of issue 23 (docs/models.md, "Measured"): matches with the CPU each bot
spent per move, calibration of the win % the search reports, and review of games with one
random seat. Every run is seeded and spreads its games over --workers processes (the same
result for any worker count); the figures are per CPU-second of the searching thread, so a
loaded machine changes the time taken, not the result.

    PYTHONPATH=src python bench/judgement.py match --game inventors --players 4 \\
        --bots mcts:1000,mcts:1300:random,mcts:1300:random,mcts:1300:random --games 100 --workers 2
    PYTHONPATH=src python bench/judgement.py calibration --game leonardo --players 2 --games 250
    PYTHONPATH=src python bench/judgement.py review --game craftsmen --players 3 --games 50
    PYTHONPATH=src python bench/judgement.py remap --rows heldout.json --model new.npz

`--model FILE` puts a model file in place of the bundled one for every model-backed search.
"""
from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from atelier.processes import run_jobs


def _bot(spec, model):
    from atelier.calibration import search_bot

    return search_bot(spec, model)


# ---------------------------------------------------------------------------------------------
# match: seat-rotated games, CPU per move per bot
# ---------------------------------------------------------------------------------------------

class _Timed:
    """A bot that adds the thread CPU time of each choice to its totals."""

    def __init__(self, bot):
        self.bot, self.cpu, self.moves = bot, 0.0, 0

    def choose(self, state, seed):
        t = time.thread_time()
        m = self.bot.choose(state, seed)
        self.cpu += time.thread_time() - t
        self.moves += 1
        return m


def _match_game(job):
    from atelier import match
    from atelier import model as model_file

    game, bots, players, i, seed, model_path = job
    model = model_file.load(model_path) if model_path else None
    timed = [_Timed(_bot(b, model)) for b in bots]
    _, start, text_of = match._tools(game, ["random"] * players, players, 1, None)
    rec = match.play_game(game, bots, i, seed, players=players, tools=(timed, start, text_of))
    rec["cpu"] = [t.cpu for t in timed]
    rec["moves"] = [t.moves for t in timed]
    return rec


def run_match(a):
    bots = a.bots.split(",")
    jobs = [(a.game, bots, len(bots), i, a.seed, a.model) for i in range(a.games)]
    t0 = time.time()
    recs = run_jobs(_match_game, jobs, a.workers)
    names = sorted(set(bots), key=bots.index)
    out = {"game": a.game, "players": len(bots), "bots": bots, "games": a.games, "seed": a.seed,
           "model": a.model, "wall_s": round(time.time() - t0, 1), "rows": []}
    for name in names:
        idx = [j for j, b in enumerate(bots) if b == name]
        shares, scores, cpu, moves = [], [], 0.0, 0
        for r in recs:
            for seat, b in enumerate(r["seating"]):
                if b in idx:
                    shares.append(r["returns"][seat])
                    scores.append(r["scores"][seat])
            cpu += sum(r["cpu"][j] for j in idx)
            moves += sum(r["moves"][j] for j in idx)
        # per game: the share this bot name took (its copies together)
        per_game = [sum(r["returns"][seat] for seat, b in enumerate(r["seating"]) if b in idx) for r in recs]
        m = float(np.mean(per_game))
        ci = 1.96 * float(np.std(per_game, ddof=1)) / math.sqrt(len(per_game)) if len(per_game) > 1 else 0.0
        out["rows"].append({"bot": name, "seats": len(idx), "win_share": m, "ci": ci,
                            "par": len(idx) / len(bots), "mean_score": float(np.mean(scores)),
                            "cpu_ms_per_move": 1000 * cpu / max(moves, 1)})
    return out


def print_match(out):
    print(f"{out['game']} {out['players']}p, {out['games']} games, seats rotated, seed {out['seed']}"
          f"{', model ' + out['model'] if out['model'] else ''} ({out['wall_s']} s wall)")
    for r in out["rows"]:
        print(f"  {r['bot']:<24} x{r['seats']}  win share {100 * r['win_share']:5.1f}% ± {100 * r['ci']:4.1f}"
              f" (par {100 * r['par']:.0f}%)  mean score {r['mean_score']:6.1f}"
              f"  CPU {r['cpu_ms_per_move']:7.2f} ms/move")


# ---------------------------------------------------------------------------------------------
# calibration: the reported win % of the recommended move against the game's outcome
# ---------------------------------------------------------------------------------------------

def run_calibration(a):
    from atelier.calibration import ece, self_play_claims
    from atelier.train import calibration_error

    t0 = time.time()
    rows = self_play_claims(a.game, a.players, a.bot, a.games, a.seed, a.per_game, a.model, a.workers)
    claim, raw, got = (np.array([r[k] for r in rows]) for k in range(3))
    return {"game": a.game, "players": a.players, "bot": a.bot, "games": a.games, "positions": len(rows),
            "seed": a.seed, "model": a.model, "ece": ece(claim, got), "ece_raw": ece(raw, got),
            "ece_both_columns": calibration_error(np.stack([claim, 1 - claim], 1), np.stack([got, 1 - got], 1)),
            "mean_claim": float(claim.mean()), "mean_raw_claim": float(raw.mean()),
            "mean_outcome": float(got.mean()),
            "score_mae": float(np.mean([r[3] for r in rows])),
            "score_mae_raw": float(np.mean([np.abs(np.array(r[5]) - np.array(r[6])).mean() for r in rows])),
            "wall_s": round(time.time() - t0, 1),
            # full precision: a fit from them is the CLI's (now, raw expected and final scores: its score map's)
            "rows": [[w, r, o, e, now, pred, final] for w, r, o, e, now, pred, final in rows]}


def print_calibration(out):
    print(f"{out['game']} {out['players']}p, {out['bot']}: {out['positions']} positions of {out['games']} games: "
          f"ECE {out['ece']:.3f} (claimed {100 * out['mean_claim']:.1f}%, won {100 * out['mean_outcome']:.1f}%), "
          f"before the model's calibration {out['ece_raw']:.3f} (claimed {100 * out['mean_raw_claim']:.1f}%), "
          f"score MAE {out['score_mae']:.2f}, before the model's score map {out['score_mae_raw']:.2f} "
          f"({out['wall_s']} s wall)")


def run_remap(a):
    """A calibration run's rows (its --json) through another model file's maps: what a search with
    that file reports on the same games, since a map never changes a search decision (a unit test
    checks the search reports exactly Calibration.mover/scores of its raw means)."""
    from atelier import model as model_file
    from atelier.calibration import Calibration, ece

    with open(a.rows) as f:
        rows = json.load(f)["rows"]
    m = model_file.load(a.model)
    c = m.calibration or Calibration()
    raw, got = (np.array([r[k] for r in rows], dtype=float) for k in (1, 2))
    won = np.array([c.mover(p) for p in raw]) if c.maps_win else raw
    now, pred, final = ([np.array(r[k], dtype=float) for r in rows] for k in (4, 5, 6))
    mapped = [np.array(c.scores(list(p), list(n))) for p, n in zip(pred, now)]

    def mae(xs, idx=None):
        idx = range(len(rows)) if idx is None else idx
        return float(np.mean([np.abs(xs[i] - final[i]).mean() for i in idx]))

    def log_loss(p):
        p = np.clip(p, 1e-6, 1 - 1e-6)
        return float(-(got * np.log(p) + (1 - got) * np.log(1 - p)).mean())

    order = np.argsort([n.sum() for n in now], kind="stable")   # by the seats' points at the position
    k = len(rows) // 3
    thirds = {name: (mae(pred, idx), mae(mapped, idx))
              for name, idx in (("early", order[:k]), ("middle", order[k:2 * k]), ("late", order[2 * k:]))}
    return {"rows": a.rows, "model": a.model, "positions": len(rows), "a": c.a, "b": c.b, "gain": c.gain,
            "ece_raw": ece(raw, got), "ece": ece(won, got), "log_loss_raw": log_loss(raw), "log_loss": log_loss(won),
            "mean_claim": float(won.mean()), "mean_outcome": float(got.mean()),
            "score_mae_raw": mae(pred), "score_mae": mae(mapped),
            "signed_raw": float(np.mean([(p - f).mean() for p, f in zip(pred, final)])),
            "signed": float(np.mean([(p - f).mean() for p, f in zip(mapped, final)])), "thirds": thirds}


def print_remap(out):
    print(f"{out['positions']} positions through {out['model']} (a={out['a']:.3f} b={out['b']:+.3f} "
          f"gain {out['gain']:.3f}): ECE {out['ece_raw']:.4f} -> {out['ece']:.4f} (claimed "
          f"{100 * out['mean_claim']:.1f}%, won {100 * out['mean_outcome']:.1f}%), log loss "
          f"{out['log_loss_raw']:.4f} -> {out['log_loss']:.4f}; score MAE {out['score_mae_raw']:.2f} -> "
          f"{out['score_mae']:.2f} (mean signed error {out['signed_raw']:+.2f} -> {out['signed']:+.2f})")
    print("  by the seats' points at the position (thirds): " + ", ".join(
        f"{name} {x:.2f} -> {y:.2f}" for name, (x, y) in out["thirds"].items()))


# ---------------------------------------------------------------------------------------------
# review: one random seat among default bots; is it judged the worst?
# ---------------------------------------------------------------------------------------------

def _review_game(job):
    from atelier import match
    from atelier import model as model_file
    from atelier import records
    from atelier import review

    game, players, spec, i, seed, iterations, model_path, rollout = job
    model = model_file.load(model_path) if model_path else None
    bots = [spec] * players
    bad = i % players
    bots[bad] = "random"
    timed = [_bot(b, model) for b in bots]
    _, start, text_of = match._tools(game, ["random"] * players, players, 1, None)
    rec = match.play_game(game, bots, 0, seed + i, players=players, keep_moves=True, tools=(timed, start, text_of))
    record = records.from_match(rec, game)
    rv = review.review(record, iterations=iterations, seed=seed + i, model=model, rollout=rollout)
    seat_of_random = rec["seating"].index(bad)
    loss = [x.average_loss for x in rv.summary]
    acc = [x.accuracy for x in rv.summary]
    return {"random_seat": seat_of_random, "loss": loss, "accuracy": acc, "scores": rec["scores"]}


def run_review(a):
    jobs = [(a.game, a.players, a.bot, i, a.seed, a.iterations, a.model, a.rollout) for i in range(a.games)]
    t0 = time.time()
    got = run_jobs(_review_game, jobs, a.workers)
    worst = sum(g["loss"][g["random_seat"]] == max(g["loss"]) and g["accuracy"][g["random_seat"]] == min(g["accuracy"])
                for g in got)
    return {"game": a.game, "players": a.players, "bot": a.bot, "games": a.games, "iterations": a.iterations,
            "seed": a.seed, "model": a.model, "rollout": a.rollout, "random_judged_worst": int(worst),
            "random_loss": float(np.mean([g["loss"][g["random_seat"]] for g in got])),
            "others_loss": float(np.mean([x for g in got for s, x in enumerate(g["loss"]) if s != g["random_seat"]])),
            "random_accuracy": float(np.mean([g["accuracy"][g["random_seat"]] for g in got])),
            "others_accuracy": float(np.mean([x for g in got for s, x in enumerate(g["accuracy"])
                                               if s != g["random_seat"]])),
            "wall_s": round(time.time() - t0, 1)}


def _leaves(out):
    """What valued the review's leaves: the rollout asked for, except that "model" without a model
    file and without a bundled model for the ruleset falls back to random playouts (and says so)."""
    from atelier import model as model_file

    if out["rollout"] == "model" and not out["model"] and model_file.bundled(out["game"], out["players"]) is None:
        return "random-playout leaves: no model ships for this ruleset"
    return f"{out['rollout']} leaves"


def print_review(out):
    print(f"{out['game']} {out['players']}p, one random seat among {out['bot']}, reviewed at {out['iterations']} "
          f"iterations ({_leaves(out)}): random seat judged worst (highest loss and lowest accuracy) in "
          f"{out['random_judged_worst']} of {out['games']}; average loss {100 * out['random_loss']:.1f}% vs "
          f"{100 * out['others_loss']:.1f}%, accuracy {out['random_accuracy']:.1f} vs {out['others_accuracy']:.1f}"
          f" ({out['wall_s']} s wall)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("remap", help="a calibration run's rows through another model file's maps")
    p.add_argument("--rows", required=True, help="the --json of a calibration run")
    p.add_argument("--model", required=True, help="the model file whose maps to apply")
    p.add_argument("--json", dest="json_out", default=None, help="also write the result here")
    for name in ("match", "calibration", "review"):
        p = sub.add_parser(name)
        p.add_argument("--game", required=True)
        p.add_argument("--games", type=int, default=100)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--workers", type=int, default=2)
        p.add_argument("--model", default=None, help="a model file instead of the bundled one")
        p.add_argument("--json", dest="json_out", default=None, help="also write the result here")
        if name == "match":
            p.add_argument("--bots", required=True)
        else:
            p.add_argument("--players", type=int, default=2)
            p.add_argument("--bot", default=None, help="default: mcts:1000 / ismcts:1000")
        if name == "calibration":
            p.add_argument("--per-game", type=int, default=8)
        if name == "review":
            p.add_argument("--iterations", type=int, default=1000)
            p.add_argument("--rollout", default="model", choices=["model", "random", "greedy"],
                           help="what the review's searches evaluate leaves with")
    a = ap.parse_args()
    if getattr(a, "bot", "x") is None:
        from atelier.match import ruleset

        a.bot = ("ismcts" if ruleset(a.game).HIDDEN_INFORMATION else "mcts") + ":1000"
    out = {"match": run_match, "calibration": run_calibration, "review": run_review, "remap": run_remap}[a.cmd](a)
    {"match": print_match, "calibration": print_calibration, "review": print_review, "remap": print_remap}[a.cmd](out)
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
