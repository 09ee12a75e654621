"""`atelier review`: every decision of a game record judged by the engine (docs/records.md)."""
from __future__ import annotations

import sys

import click

from .. import records
from ..jsonfmt import strict_dumps
from . import main
from .errors import run_guarded
from .options import (ITERATIONS, ITERATIONS_RANGE, SEAT, SECONDS, THREADS, Whole, json_option, model_option,
                      rollout_option, seed_option)
from .records import game_index_option
from .search import _progress_bar


@main.command()
@click.argument("rec", metavar="REC")
@click.option("--seat", "-s", type=SEAT, default=None, metavar="S", help="Only seat S's decisions (default: all).")
@click.option("--iterations", "-i", type=ITERATIONS, default=None, metavar="N",
              help=f"MCTS iterations per decision, {ITERATIONS_RANGE} (default 10,000 when no --time).")
@click.option("--time", "-t", "seconds", type=SECONDS, default=None, metavar="S",
              help="Seconds per decision instead (not reproducible).")
@click.option("--threads", type=THREADS, default=1, show_default=True, metavar="T", help="Trees per search.")
@click.option("--exact-nodes", type=Whole(0, 10**10), default=None, metavar="N",
              help="Node budget of the exact solver per decision (default 200,000; 0: never exact).")
@seed_option("The same seed (and --iterations, --threads) gives the same review.")
@click.option("--html", "html_file", metavar="FILE", default=None,
              help="Also write the review as one self-contained web page.")
@click.option("--annotate", "annotate_file", metavar="FILE", default=None,
              help="Also write a copy of the record with the marks and the engine's verdicts in its moves.")
@click.option("--ray", "ray_address", is_flag=False, flag_value="local", default=None, metavar="ADDRESS",
              help="Judge the decisions on a Ray cluster (docs/ray.md): alone, a local one started here; "
                   "'auto' the one the environment names; or ray://HOST:PORT, HOST:PORT. The same review.")
@rollout_option
@model_option
@game_index_option
@json_option("Print the review as JSON (atelier.review/1).")
@run_guarded
def review(rec, seat, iterations, seconds, threads, exact_nodes, seed, html_file, annotate_file, ray_address,
           rollout, model, game_index, as_json):
    """Judge every decision of the record REC: the value of the move played and of the engine's
    best move, the loss, a mark, and per seat the average loss and an accuracy %.

    \b
    Values are the mover's win share (and expected score): exact (marked =) where the exact
    solver answers within --exact-nodes, else from the search (the value model by default,
    --rollout).
    Loss = best move's win share - the played move's (never below 0).
    Marks by loss: inaccuracy >= 0.05, mistake >= 0.10, blunder >= 0.20.
    Noise rule: an estimated (not exact) loss is marked only when it exceeds its own 95%
    half-width, sqrt(a^2 + b^2) of the two moves' Wilson intervals (by their visits; never
    zero width), so a move the search barely looked at is not called a mistake.
    Average loss and accuracy % per seat, over its contested decisions (not forced, and
    not decided whatever it played: the best and the played move both below 5% win share
    or both above 95% leave nothing to lose). Accuracy: lichess's curve of each loss,
    103.17 exp(-4.354 loss) - 3.17, averaged as (arithmetic + harmonic mean) / 2
    (docs/records.md)."""
    from ..review import DEFAULT_EXACT_NODES, review as run_review

    r = records.load(rec, game_index)
    from ..match import check_writable

    for path in (html_file, annotate_file):
        if path:
            check_writable(path)   # an unwritable file fails now, not after the review (and leaves nothing)
    run_on = None
    if ray_address is not None:
        from .. import distributed

        distributed.connect(ray_address)
        run_on = distributed.review_runner(ray_address)
    show = not as_json and sys.stderr.isatty()
    with _progress_bar("reviewing", show) as update:
        rv = run_review(r, seat=seat, iterations=iterations, seconds=seconds, threads=threads, seed=seed,
                        exact_nodes=DEFAULT_EXACT_NODES if exact_nodes is None else exact_nodes,
                        progress=lambda done, total: update(done / max(total, 1)), runner=run_on,
                        rollout=rollout, model=model)
    if html_file:
        from ..report import review_page

        records.write_text(html_file, review_page(r, rv))
    if annotate_file:
        from ..review import annotate

        annotate(r, rv).save(annotate_file)
    if as_json:
        click.echo(strict_dumps(rv.to_dict()))
        return
    _print(rv)
    if html_file:
        click.echo(f"review page written to {html_file}", err=True)


def _v(v) -> str:
    if v is None:
        return ""
    mark = "=" if v.exact else ""
    score = "" if v.score is None else f" {v.score:.1f}"
    return f"{mark}{100 * v.win:.1f}%{score}"


def _print(rv):
    from rich.table import Table

    from ..console import make_console

    t = Table(title=f"{rv.game} review: win % and expected score for the mover; = exact", title_justify="left")
    for col, just in (("#", "right"), ("seat", "right"), ("played", "left"), ("value", "right"),
                      ("best", "left"), ("best value", "right"), ("loss", "right"), ("mark", "left")):
        t.add_column(col, justify=just)
    for d in rv.decisions:
        best = "" if d.best == d.played else d.best
        t.add_row(str(d.number), str(d.seat), d.played, "forced" if d.method == "forced" else _v(d.played_value),
                  best, "" if d.best == d.played else _v(d.best_value),
                  f"{100 * d.loss:.1f}" if d.loss else "", d.mark or "")
    # Not a terminal (a pipe, a file): wide enough that moves are not cut.
    console = make_console(width=None if sys.stdout.isatty() else 140)
    console.print(t)
    s = Table(title="per seat", title_justify="left")
    for col in ("seat", "name", "decisions", "contested", "average loss (win %)", "accuracy %", "inaccuracies",
                "mistakes", "blunders"):
        s.add_column(col, justify="left" if col == "name" else "right")
    for x in rv.summary:
        s.add_row(str(x.seat), x.name, str(x.decisions), str(x.contested), f"{100 * x.average_loss:.2f}",
                  "" if x.accuracy is None else f"{x.accuracy:.1f}", str(x.marks["inaccuracy"]),
                  str(x.marks["mistake"]), str(x.marks["blunder"]))
    console.print(s)
