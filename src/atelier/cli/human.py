"""`atelier play --human SEAT`: a game in the terminal against the bots, written down as it goes.

At the human's turn: a short status line (the board's header and the scores; `board` prints the
whole board, as at the first decision and at the end), the legal moves numbered, then, right
above the prompt, what happened since the human's last decision: the other seats' moves and the
chance outcomes as that seat saw them (a hidden argument written `?`, atelier.seen) and a line
when a new Age / turn / year begins. The prompt takes a number, a move in notation, or a
command: `hint` (the engine's suggestion for this seat), `undo` (back to this seat's previous
decision), `board`, `moves`, `help`, `quit`. `quit`, the end of input (Ctrl-D) and Ctrl-C all
save the record.

Undo never redraws: the chance outcomes it takes back are kept, in order, and drawn again first
where they are outcomes of the chance node reached (as cards put back on the deck), so undoing
cannot show the human a different card, nor what the deck holds.
"""
from __future__ import annotations

import datetime
import os
import sys

import click

import atelier

from .. import records
from ..errors import InputError
from ..match import _mix, check_views
from ..seen import masked
from ..solvers import make_bot
from ..wording import count
from .game import ruleset_of

HELP = ("a number or a move in notation plays it; hint: the engine's suggestion; undo: back to your "
        "previous decision; board: the whole board; moves: the legal moves again; quit: save the record and stop "
        "(Ctrl-D and Ctrl-C save it too)")
INTERRUPTED_EXIT = 130   # Ctrl-C, as a shell reports it; the record is saved first


def _seating(human: list[int], bots: list[str], players: int | None, fixed: int | None = None) -> list[str | None]:
    """Per seat: None for a human, else the bot's name. `fixed`: the seats of a given start position."""
    if len(set(human)) != len(human):
        raise InputError("--human: a seat is given twice")
    if fixed is not None and players is not None and players != fixed:
        raise InputError(f"--players: {players}, but the --start position has {fixed} seats")
    n = fixed if fixed is not None else players if players is not None else len(human) + len(bots)
    if not 2 <= n <= 5:
        raise InputError(f"--players: expected 2..5 seats, got {n}")
    for h in human:
        if h >= n:
            raise InputError(f"--human: {h} is not a seat of this {n}-player game (0..{n - 1})")
    others = n - len(human)
    if len(bots) == 1:
        bots = bots * others
    if len(bots) != others:
        raise InputError(f"--bots: expected {others} bots for the other seats (or one for all), got {len(bots)}")
    it = iter(bots)
    return [None if p in human else next(it) for p in range(n)]


class HumanGame:
    def __init__(self, start, seating, seed, threads, hint_iterations, out, echo, read_line, echo_input=True):
        self.seating, self.seed, self.hint_iterations, self.threads = seating, seed, hint_iterations, threads
        self.echo, self.read_line, self.echo_input = echo, read_line, echo_input
        self.bots = [None if b is None else make_bot(b, threads=threads) for b in seating]
        self.rs = ruleset_of(start)
        self.humans = [p for p, b in enumerate(seating) if b is None]
        names = ["you" if b is None else b for b in seating]
        self.rec = records.new(start, seats=names, meta={"created_by": "atelier play --human", "seed": seed})
        check_views(self.rec.game, [b for b in self.bots if b is not None])
        self.out = out
        self.kept: list[str] = []    # chance outcomes taken back by undo, drawn again first
        self.since: list[str] = []   # what happened since the human's last decision
        self.stage = self.rs.stage(start) if not start.is_terminal() else None

    # What the human sees.
    def view(self, s, seat):
        if not self.rs.HIDDEN_INFORMATION:
            return s
        return atelier.load_position(atelier.dump_position(s, viewpoint=seat))

    def board(self, s, seat):
        self.echo(self.rs.show(self.view(s, seat), width=110, color=False).rstrip("\n"))

    def status(self, s, seat):
        """The board in two lines: its header (stage, phase, who decides) and the scores."""
        head = self.rs.show(self.view(s, seat), width=110, color=False).splitlines()[0].rstrip()
        self.echo(head)
        self.echo("scores " + " / ".join(f"s{p} {x}" for p, x in enumerate(s.scores())) + " · board: the whole board")

    def list_moves(self, moves):
        """The legal moves numbered from 1, in columns (a turn can offer dozens)."""
        width = max(len(t) for t in moves) + 7
        per_row = max(1, 110 // width)
        for i in range(0, len(moves), per_row):
            self.echo("".join(f"{j + 1:4d}. {moves[j]:<{width - 6}}" for j in range(i, min(i + per_row, len(moves))))
                      .rstrip())

    def seen(self, before, text) -> str:
        """`text` played at `before` as the human seats see it: masked only where none of them sees it."""
        looks = [masked(before, text, h, self.seed) for h in self.humans] if self.rs.HIDDEN_INFORMATION else [text]
        return text if text in looks else looks[0]

    def happened(self, before, after, text):
        """Note a move by a bot or chance (as the human saw it), and a new stage of the game."""
        shown = self.seen(before, text)
        if before.is_chance():
            self.since.append(f"chance: {shown}")
        else:
            p = before.current_player
            self.since.append(f"seat {p} ({self.seating[p] or 'you'}) plays {shown}")
        self.new_stage(after)

    def new_stage(self, s):
        if s.is_terminal():
            return
        now = self.rs.stage(s)
        if now != self.stage:
            self.stage = now
            self.since.append(f"--- {now} begins ---")

    def flush(self, title="since your last move:"):
        if self.since:
            self.echo(title)
            for line in self.since:
                self.echo("  " + line)
            self.since = []

    def hint(self, s, seat):
        from .. import solvers

        v = self.view(s, seat)
        hidden = solvers.engine.hidden_information(v)
        search = solvers.ismcts if hidden else solvers.mcts
        r = search(v, iterations=self.hint_iterations, seed=_mix(self.seed, len(self.rec.moves), 3) & 0x7FFFFFFF,
                   threads=self.threads)
        for m in sorted(r.moves, key=lambda m: -m.visits)[:3]:
            self.echo(f"  hint: {m.text:<28} win {100 * m.win[seat]:5.1f}%  visits {m.visits:,}")
        how = "value model" if r.evaluation == "model" else f"{r.evaluation} playouts"
        self.echo(f"  hint: play {r.best_text}  ({how})")

    def draw(self, s, k):
        """The chance outcome at `s`: the first kept one (undone earlier) that is an outcome here,
        else a sample from the game's seed and the move number."""
        if self.kept:
            outcomes = {s.move_to_string(o[0]) for o in s.chance_outcomes()}
            for i, text in enumerate(self.kept):
                if text in outcomes:
                    del self.kept[i]
                    return self.rec.add(text)
        return self.rec.add_sampled(_mix(self.seed, k, 1))

    # The game.
    def run(self) -> str:
        """Play to the end, to `quit` / end of input ("quit") or Ctrl-C ("interrupted"); the
        record is saved in every case."""
        try:
            return self._run()
        except KeyboardInterrupt:
            self.echo("")
            self.echo("interrupted")
            self.save()
            return "interrupted"

    def _run(self) -> str:
        s = self.rec.replay()
        shown, first = None, True
        while not s.is_terminal():
            k = len(self.rec.moves)
            if s.is_chance():
                before = s
                s = self.draw(s, k)
                self.happened(before, s, self.rec.moves[-1]["move"])
                continue
            seat = s.current_player
            bot = self.bots[seat]
            if bot is not None:
                before = s
                s = self.rec.add(s.move_to_string(bot.choose(s, _mix(self.seed, k, 2))))
                self.happened(before, s, self.rec.moves[-1]["move"])
                continue
            moves = [s.move_to_string(m) for m in s.legal_moves()]
            if shown != k:
                if first:
                    self.board(s, seat)
                    first = False
                else:
                    self.status(s, seat)
                self.list_moves(moves)
                self.flush()
                shown = k
            self.echo(f"seat {seat}, your move (number, notation, hint, undo, board, moves, help, quit): ", nl=False)
            line = self.read_line()
            if line is None:   # end of input (Ctrl-D)
                self.echo("")
                line = "quit"
            line = line.strip()
            if self.echo_input:   # a terminal shows what was typed already; a pipe does not
                self.echo(line)
            if line in ("quit", "q", "exit"):
                self.save()
                return "quit"
            if line in ("help", "?", ""):
                self.echo(HELP)
            elif line == "hint":
                self.hint(s, seat)
            elif line == "board":
                self.board(s, seat)
            elif line == "moves":
                self.list_moves(moves)
            elif line == "undo":
                s, shown = self.undo(seat, s), None
            elif line.isdigit() and not 1 <= int(line) <= len(moves):
                self.echo(f"not played: choose 1-{len(moves)}, or a move in notation (type help)")
            else:
                text = moves[int(line) - 1] if line.isdigit() else line
                try:
                    before = s
                    s = self.rec.add(text)
                except InputError as exc:
                    self.echo(f"not played: {exc} (type help)")
                    continue
                self.echo(f"seat {seat} (you) plays {self.rec.moves[-1]['move']}")
                self.new_stage(s)
        self.flush("since your last move:")
        self.board(s, self.humans[0])
        scores = list(s.scores())
        winners = [p for p, r in enumerate(s.returns()) if r > 0]
        self.echo("game over: scores " + " / ".join(str(x) for x in scores)
                  + "; winner" + ("s " if len(winners) > 1 else " ") + ", ".join(f"seat {p}" for p in winners))
        self.save()
        return "over"

    def undo(self, seat, s):
        """Back to before this seat's previous decision (the bots' and chance's moves after it go
        too); the chance outcomes taken back are kept, to be drawn again first."""
        mine = [k for k, e in enumerate(self.rec.moves) if e["seat"] == seat]
        if not mine:
            self.echo("nothing to undo: you have not moved yet")
            return s
        back = self.rec.moves[mine[-1]:]
        self.kept = [e["move"] for e in back if e["seat"] == "chance"] + self.kept
        self.rec.undo(len(back))
        self.since = []
        self.echo(f"undone back to move {mine[-1] + 1}")
        s = self.rec.replay()
        self.stage = self.rs.stage(s)
        return s

    def save(self):
        self.rec.save(self.out)
        self.echo(f"record saved to {self.out} ({count(len(self.rec.moves), 'move')})")


def play_human(game, bots, human, players, seed, threads, out, edition, hint_iterations, start=None):
    """`start`: a position to play from (any ruleset; a chance node is sampled as in play), or
    None for a new game of `game`."""
    from .options import read_position

    if start is not None:
        if start == "-":
            raise InputError("--start: '-' (standard input) is where your moves come from; give a file or example:NAME")
        state = read_position(start, edition=edition)
        if getattr(state, "viewpoint", None) is not None:
            raise InputError("--start: a seat's viewpoint cannot be played (the bots need the whole "
                             "position); give a full position")
        if state.is_terminal():
            raise InputError("--start: the game is over at this position; nothing to play")
        seating = _seating(human, bots, players, fixed=state.game.players)
    else:
        seating = _seating(human, bots, players)
        state = atelier.open(game, players=len(seating), seed=seed, edition=edition).start()
    if out is None:
        out = datetime.datetime.now().strftime("game-%Y%m%d-%H%M%S.json")
    elif out.endswith(("/", os.sep)) or os.path.isdir(out):
        os.makedirs(out, exist_ok=True)
        out = os.path.join(out, "game-001.json")

    def read_line():
        line = sys.stdin.readline()   # looked up per line: a test runner swaps sys.stdin
        return None if line == "" else line

    g = HumanGame(state, seating, seed, threads, hint_iterations, out,
                  echo=lambda text, nl=True: click.echo(text, nl=nl), read_line=read_line,
                  echo_input=not _interactive())
    g.rec.save(out)   # an --out that cannot be written fails now, not after the game
    if g.run() == "interrupted":
        sys.exit(INTERRUPTED_EXIT)


def _interactive() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False
