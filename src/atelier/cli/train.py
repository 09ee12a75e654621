"""atelier train: value models by expert iteration (atelier.train, docs/models.md "Training")."""
from __future__ import annotations

import sys

import click

from ..console import make_console
from . import main
from .errors import run_guarded
from .options import PLAYERS, Whole, seed_option
from ..games import GAMES


@main.command()
@click.option("--game", required=True, type=click.Choice(GAMES, case_sensitive=False), help="Ruleset.")
@click.option("--players", "-n", type=PLAYERS, default=2, show_default=True, metavar="N")
@click.option("--games", type=Whole(1, 1_000_000), default=100, show_default=True, metavar="K",
              help="Self-play games per generation.")
@click.option("--generations", type=Whole(1, 1000), default=2, show_default=True, metavar="G")
@click.option("--iterations", "-i", type=Whole(1, 1_000_000), default=200, show_default=True, metavar="I",
              help="Search iterations per move, in self-play and in the admission match.")
@click.option("--positions", type=Whole(1, 1000), default=8, show_default=True, metavar="P",
              help="Decisions sampled per game (each a training row from every seat's side).")
@click.option("--gen0", type=click.Choice(["greedy", "search"]), default="greedy", show_default=True,
              help="Generation 0's games: the greedy bot against itself with --epsilon random moves "
                   "(cheap, purposeful play), or the model-free searcher.")
@click.option("--gen0-games", type=Whole(1, 10_000_000), default=20000, show_default=True, metavar="K0",
              help="With --gen0 greedy: generation 0's games.")
@click.option("--epsilon", type=click.FloatRange(0, 1), default=0.05, show_default=True,
              help="With --gen0 greedy: the chance of a uniformly random move at each decision.")
@click.option("--match-games", type=Whole(0, 1_000_000), default=0, show_default=True, metavar="M",
              help="Admission match games (0: 4 per seat).")
@click.option("--leaf-moves", type=Whole(0, 10_000), default=None, metavar="K",
              help="Greedy moves the search plays before asking the model, written into the model "
                   "(default: the search's default, 4).")
@click.option("--leaf-mix", type=click.FloatRange(0, 1), default=None, metavar="W",
              help="Weight of a random playout's outcome beside the model's win shares at a search leaf, "
                   "written into the model (default: none, the model alone).")
@click.option("--determinized", is_flag=True,
              help="Hidden information: train on each position resampled from every seat's view (what "
                   "a search leaf is), not on the true state.")
@seed_option()
@click.option("--workers", type=Whole(1, 256), default=1, show_default=True, metavar="W",
              help="Local processes for the self-play (the same data).")
@click.option("--out", default=None, metavar="DIR",
              help="Run directory (default train-GAME-Np); the same command again resumes it.")
@click.option("--ray", "ray_address", is_flag=False, flag_value="local", default=None, metavar="ADDRESS",
              help="Spread the self-play over a Ray cluster (docs/ray.md), as play --ray: the same data.")
@run_guarded
def train(game, players, games, generations, iterations, positions, gen0, gen0_games, epsilon, match_games,
          leaf_moves, leaf_mix, determinized, seed, workers, out, ray_address):
    """Train a value model: self-play with the best searcher, fit a small network, admit it if it
    beats the best in a seat-rotated match; repeat. Resumable; deterministic per seed."""
    from .. import train as tr

    s = tr.Settings(game=game.lower(), players=players, games=games, generations=generations,
                    iterations=iterations, seed=seed, positions=positions, gen0=gen0, gen0_games=gen0_games,
                    epsilon=epsilon, match_games=match_games, leaf_moves=leaf_moves,
                    leaf_mix=leaf_mix, determinized=determinized).check()
    out = out or f"train-{s.game}-{players}p"
    runner = None
    if ray_address is not None:
        from .. import distributed

        distributed.connect(ray_address)
        runner = distributed.selfplay_runner(ray_address)
    elif workers > 1:
        runner = tr.process_runner(workers)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = make_console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, disable=not sys.stderr.isatty()) as prog:
        tasks = {}

        def progress(stage, done, total):
            if stage not in tasks:
                tasks[stage] = prog.add_task(stage, total=total)
            prog.update(tasks[stage], completed=done, total=total)

        state = tr.run(s, out, progress=progress, runner=runner)
    for g in state["generations"]:
        m, t = g["match"], g["training"]
        click.echo(f"generation {g['generation']}: {g['positions']} positions by {g['searcher']}; "
                   f"validation loss {t['validation_loss']:.4f}, calibration error {t['calibration_ece']:.3f}; "
                   f"candidate {m['win_share']:.1%} ± {m['win_ci']:.1%} over {m['games']} games (par {m['par']:.0%}): "
                   f"{'admitted' if m['admitted'] else 'refused'}")
    best = state["best"]
    click.echo(f"best model: {out}/model.npz (from {best})" if best else
               "no candidate beat the model-free searcher yet: no model.npz (run more games or generations)")


@main.command()
@click.argument("model_path", metavar="MODEL")
@click.option("--out", required=True, metavar="FILE", help="Where to write the calibrated model (a copy of MODEL).")
@click.option("--games", type=Whole(1, 1_000_000), default=250, show_default=True, metavar="K",
              help="Self-play games to fit on (a search at every decision).")
@click.option("--iterations", "-i", type=Whole(1, 1_000_000), default=1000, show_default=True, metavar="I",
              help="Search iterations per move: the budget the calibration is for.")
@click.option("--per-game", type=Whole(1, 1000), default=8, show_default=True, metavar="P",
              help="Decisions drawn per game (each one claim and its outcome).")
@seed_option()
@click.option("--workers", type=Whole(1, 256), default=1, show_default=True, metavar="W",
              help="Local processes for the games (the same claims).")
@click.option("--leaf-mix", type=click.FloatRange(0, 1), default=None, metavar="W",
              help="Set the weight of a random playout's outcome beside the model's win shares at a "
                   "search leaf, written into the file before the fit: the maps are for that search "
                   "(default: the file's own).")
@click.option("--scores-only", is_flag=True,
              help="Fit only the expected scores' map and leave the win % as the search reports it "
                   "(for a search whose win % is already calibrated).")
@run_guarded
def calibrate(model_path, out, games, iterations, per_game, seed, workers, leaf_mix, scores_only):
    """Fit the win % a model-backed search reports to what the mover goes on to win (Platt's map,
    docs/models.md "Calibration"), and its expected scores to the points the seats go on to make
    (a factor on the gain from the position), on self-play games by that search; write MODEL
    with both (or only the second, --scores-only).
    MODEL is a model file, or bundled:GAME-Np for the package's own."""
    import dataclasses

    import numpy as np

    from .. import calibration as cal
    from .. import model as model_file
    from ..games import ruleset
    from ..limits import check_number

    m = _model_named(model_path)
    if leaf_mix is not None:   # FloatRange lets NaN through: the project's number check does not
        m = dataclasses.replace(m, leaf_mix=check_number(leaf_mix, "--leaf-mix", 0.0, 1.0))
    spec = ("ismcts" if ruleset(m.game).HIDDEN_INFORMATION else "mcts") + f":{iterations}"
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = make_console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, disable=not sys.stderr.isatty()) as prog:
        task = prog.add_task(f"self-play, {spec}", total=games)
        rows = cal.self_play_claims(m.game, m.players, spec, games, seed, per_game, m, workers,
                                    progress=lambda done, total: prog.update(task, completed=done))
    raw = np.array([r[1] for r in rows])
    got = np.array([r[2] for r in rows])
    now, predicted, final = (np.array([r[k] for r in rows], dtype=float) for k in (4, 5, 6))
    c = cal.Calibration() if scores_only else cal.fit(raw, got)
    c.gain = cal.fit_gain(now, predicted, final)
    after = np.array([c.mover(p) for p in raw])
    mapped = np.array([c.scores(p, n) for p, n in zip(predicted, now)])
    c.fitted = {"search": spec, "games": games, "positions": len(rows), "seed": seed, "per_game": per_game,
                "win_map": not scores_only,
                "ece_before": round(cal.ece(raw, got), 4), "ece_after": round(cal.ece(after, got), 4),
                "mean_claim": round(float(raw.mean()), 4), "mean_outcome": round(float(got.mean()), 4),
                "score_mae_before": round(float(np.abs(predicted - final).mean()), 3),
                "score_mae_after": round(float(np.abs(mapped - final).mean()), 3)}
    model_file.save(dataclasses.replace(m, calibration=c), out)
    f = c.fitted
    win_map = "no win map (--scores-only)" if scores_only else f"a={c.a:.3f} b={c.b:+.3f}"
    click.echo(f"{m.game} {m.players}p, {spec}: {len(rows)} claims of {games} games; "
               f"{win_map}; on these claims ECE {f['ece_before']:.3f} -> {f['ece_after']:.3f} "
               f"(claimed {f['mean_claim']:.1%}, won {f['mean_outcome']:.1%}); score gain x{c.gain:.3f}, "
               f"score MAE {f['score_mae_before']:.2f} -> {f['score_mae_after']:.2f}; wrote {out}")


def _model_named(name):
    """A model file, or `bundled:<game>-<N>p` (as `suggest --json` names the package's model)."""
    from .. import model as model_file
    from ..errors import InputError, quoted

    if not name.startswith("bundled:"):
        return model_file.load(name)
    game, _, n = name[len("bundled:"):].rpartition("-")
    m = None
    if game in GAMES and n[:-1].isdigit() and n.endswith("p"):
        m = model_file.bundled(game, int(n[:-1]))
    if m is None:
        raise InputError(f"model {quoted(name)}: the package ships no such model "
                         f"(bundled:GAME-Np, e.g. bundled:leonardo-2p)")
    return m
