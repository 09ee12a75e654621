"""Commands on game records (docs/records.md): record new/add/show, replay."""
from __future__ import annotations

import os
import sys

import click

import atelier

from .. import records
from ..errors import InputError
from ..jsonfmt import strict_dumps
from ..wording import count, seat_label
from ..limits import SEED_MAX
from . import main
from .errors import run_guarded
from .game import check_move_text, ruleset_of, show_json
from .options import PLAYERS, SEAT, Whole, edition_option, json_option, read_position, seed_option

GAME_INDEX = Whole(1, 1_000_000_000)
game_index_option = click.option("--game", "game_index", type=GAME_INDEX, default=None, metavar="K",
                                 help="In a file of several games (atelier play --out FILE): the K-th, from 1.")


@main.group(name="record")
def record_group():
    """Write down a game move by move, each move checked as it is added (docs/records.md)."""


@record_group.command(name="new")
@click.argument("rec", metavar="REC")
@click.argument("game", metavar="GAME", required=False)
@click.option("--players", "-n", type=PLAYERS, default=2, show_default=True, metavar="N")
@seed_option("Draws the setup, as `atelier new` does.")
@click.option("--start", "start_pos", metavar="POS", default=None,
              help="Start from this position instead (a file, '-' or example:NAME), e.g. the deal at the table.")
@click.option("--seats", metavar="A,B,..", default=None, help="The players' names, one per seat.")
@click.option("--teams", metavar="A,B,..", default=None, help="Inventors: team ids per seat.")
@click.option("--setup", type=click.Choice(["expert", "basic"], case_sensitive=False), default=None,
              help="Leonardo: expert or basic.")
@click.option("--codex", is_flag=True, default=None, help="Leonardo: the Codex option.")
@click.option("--age-rank", "age_rank", metavar="R0,R1,..", default=None, help="Craftsmen: age rank per seat.")
@click.option("--force", is_flag=True, help="Overwrite REC if it exists.")
@edition_option
@run_guarded
def record_new(rec, game, players, seed, start_pos, seats, teams, setup, codex, age_rank, force, edition):
    """Start the record REC of a new GAME (or of the position --start)."""
    from .game import _ranks

    if os.path.exists(rec) and not force:
        raise InputError(f"REC '{rec}': exists already (add moves with `atelier record add`, or --force)")
    if start_pos is not None:
        if game is not None:
            raise InputError("GAME: give the game or --start, not both (a position names its game)")
        start = read_position(start_pos, edition)
    else:
        if game is None:
            raise InputError("GAME: missing (inventors, leonardo, craftsmen), or give --start POS")
        options = {k: v for k, v in (("setup", setup), ("codex", codex), ("age_rank", _ranks(age_rank)))
                   if v is not None}
        start = atelier.open(game, players=players, seed=seed, edition=edition, teams=teams, **options).start()
    names = None if seats is None else [x.strip() for x in seats.split(",")]
    r = records.new(start, seats=names, meta={"created_by": f"atelier {atelier.__version__}"})
    r.save(rec)
    click.echo(f"{rec}: new {r.game} record, {count(r.players, 'seat')}; next: {_next(r.replay())}", err=True)


def _next(state) -> str:
    if state.is_terminal():
        return "the game is over"
    if state.is_chance():
        return f"a chance outcome ({ruleset_of(state).CHANCE_PREFIXES[0]}...)"
    return f"seat {state.current_player} to move"


@record_group.command(name="add")
@click.argument("rec", metavar="REC")
@click.argument("moves", nargs=-1, metavar="MOVE...")
@seed_option("Sample a chance node reached where no outcome is given (a reveal, a draw).", default=None)
@click.option("--comment", default=None, help="A comment on the (last) move added.")
@click.option("--mark", type=click.Choice(records.MARKS), default=None, help="A mark on the (last) move added.")
@run_guarded
def record_add(rec, moves, seed, comment, mark):
    """Add MOVEs (notation; at a chance node its outcome) to the record REC. Each move is checked
    before the next; on the first the rules refuse, nothing is written and the error names it."""
    for mv in moves:
        check_move_text(mv)
    r = records.load(rec)
    s = r.replay()
    draws = 0
    prefixes = ruleset_of(s).CHANCE_PREFIXES

    def sample_if_chance():
        nonlocal draws, s
        while seed is not None and s.is_chance():
            s = r.add_sampled((seed + draws) & SEED_MAX)
            draws += 1

    try:
        for k, mv in enumerate(moves):
            if not mv.lower().startswith(prefixes):
                sample_if_chance()
            last = k == len(moves) - 1
            s = r.add(mv, **({"comment": comment, "mark": mark} if last else {}))
        sample_if_chance()
    except InputError as exc:
        raise InputError(f"record '{rec}': {exc}; nothing of this call was written") from None
    r.save(rec)
    click.echo(f"{rec}: {count(len(r.moves), 'move')}; next: {_next(s)}", err=True)


@record_group.command(name="show")
@click.argument("rec", metavar="REC")
@game_index_option
@json_option("Print the record itself (atelier.record/1).")
@run_guarded
def record_show(rec, game_index, as_json):
    """List the moves of REC, numbered, with the seat and any comment, then the result."""
    r = records.load(rec, game_index)
    if as_json:
        click.echo(strict_dumps(r.to_dict()))
        return
    click.echo(f"{r.game}, {r.players} players: " + ", ".join(seat_label(p, n) for p, n in enumerate(r.seats)))
    for k, e in enumerate(r.moves, 1):
        who = "chance" if e["seat"] == "chance" else f"seat {e['seat']}"
        note = "".join(f"  ({e[a]})" for a in ("mark", "comment") if e.get(a))
        click.echo(f"{k:4d}. {who:<7} {e['move']}{note}")
    final = r.replay()
    if final.is_terminal():
        click.echo("result: scores " + " / ".join(str(x) for x in final.scores()))
    else:
        click.echo(f"unfinished: {_next(final)}")


@main.command()
@click.argument("rec", metavar="REC")
@click.option("--to", "to", type=Whole(0, records.MAX_MOVES), default=None, metavar="N",
              help="After the first N moves (default: all).")
@click.option("--seat", "-s", type=SEAT, default=None, metavar="S", help="What seat S knew then (a viewpoint).")
@click.option("--board", is_flag=True, help="Print the board instead of the position JSON.")
@click.option("--svg", "svg_file", metavar="FILE", default=None, help="Also draw the board as SVG into FILE.")
@game_index_option
@json_option("Print the position, scores and who is to move as JSON (as `show --json`).")
@run_guarded
def replay(rec, to, seat, board, svg_file, game_index, as_json):
    """Replay the record REC and print the position after N moves (docs/records.md)."""
    r = records.load(rec, game_index)
    state = r.replay(to)
    if seat is not None:
        if seat >= r.players:
            raise InputError(f"--seat: {seat} is not a seat of this {r.players}-player game (0..{r.players - 1})")
        text = atelier.dump_position(state, viewpoint=seat)   # refuses a game without hidden parts
        if not (board or svg_file or as_json):
            click.echo(text, nl=False)
            return
        state = atelier.load_position(text)   # the hidden parts sampled again: all it shows is the view
    if svg_file:
        records.write_text(svg_file, atelier.board_svg(state))
    if board:
        color = sys.stdout.isatty()
        click.echo(ruleset_of(state).show(state, width=110, color=color), nl=False, color=color)
    elif as_json:
        click.echo(strict_dumps(show_json(state)))
    else:
        click.echo(atelier.dump_position(state), nl=False)
