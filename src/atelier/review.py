"""Game review (`atelier review`, docs/records.md "Review"): every decision of a record judged.

For each decision: the mover's value of the move played and of the engine's best move (win share
and expected score), the loss between them, and a mark by the win-share loss:

    inaccuracy >= 0.05, mistake >= 0.10, blunder >= 0.20

Values are exact (alpha-beta or expectimax, marked exact) wherever the exact solver answers within
`exact_nodes` nodes, MCTS-Solver proofs count as exact too; elsewhere they are MCTS estimates
(the value model's by default, `rollout`), and then a mark also needs the loss to exceed its own
95% half-width (from the two moves' Wilson intervals, which never collapse to zero width however
few the visits), so that search noise is not called a mistake. Each seat gets an average loss and
an accuracy % (lichess's formula, docs/records.md "Accuracy") over its contested decisions: those
where the move played or the best move leaves the seat's win share between 5% and 95%. In a
position already decided for the seat either way, no move can lose win share, and counting it
would dilute the average of a seat that lost early. In a game with hidden information each decision is
searched from the mover's viewpoint (ISMCTS over what that seat knew then), never from the full
record. A forced decision (one legal move) is listed, not searched.

With an iteration budget the review is the same for the same seed and threads (each decision's
search seed is derived from the seed and the move number); a time budget is not reproducible.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from .errors import InputError
from .match import _mix

THRESHOLDS = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
DECIDED = 0.05   # a win share this close to 0 or 1 after both moves: the decision is not contested
MARK_NAMES = tuple(name for name, _ in reversed(THRESHOLDS))
DEFAULT_ITERATIONS = 10_000
DEFAULT_EXACT_NODES = 200_000
FORMAT = "atelier.review/1"


@dataclass
class Value:
    win: float                 # the mover's win share (ties split)
    score: float | None        # the mover's expected final score
    exact: bool
    ci: float | None = None    # 95% half-width of an estimated win share (Wilson, by its visits)
    visits: int | None = None


@dataclass
class Decision:
    index: int                 # 0-based position in the record's moves
    seat: int
    played: str
    best: str | None
    played_value: Value | None
    best_value: Value | None
    loss: float                # best_value.win - played_value.win, never below 0
    mark: str | None
    method: str                # alphabeta, expectimax, mcts, ismcts, or forced
    win_after: list[float] | None = None   # every seat's win share after the move played
    line: list[str] | None = None   # the engine's principal line from here (its best move first;
                                    # chance outcomes "chance:..."), from the search or the exact solver
    evaluation: str | None = None   # a search's leaf values: "model", "random" or "greedy"

    @property
    def number(self) -> int:
        return self.index + 1


@dataclass
class SeatSummary:
    seat: int
    name: str
    decisions: int
    average_loss: float             # over the contested decisions (contested()); 0 without any
    marks: dict = field(default_factory=dict)
    accuracy: float | None = None   # 0..100 from the same losses (accuracy()); None: none contested
    contested: int = 0              # the decisions average_loss and accuracy are taken over


@dataclass
class Review:
    game: str
    seats: list[str]
    decisions: list[Decision]
    summary: list[SeatSummary]
    settings: dict

    def to_dict(self) -> dict:
        d = asdict(self)
        for x, dec in zip(d["decisions"], self.decisions):
            x["move_number"] = dec.number
        d["thresholds"] = {name: t for name, t in THRESHOLDS}
        return {"format": FORMAT, **d}

    def by_index(self) -> dict[int, Decision]:
        return {d.index: d for d in self.decisions}


def mark_for(loss: float, exact: bool, ci: float | None) -> str | None:
    if not exact and ci is not None and loss <= ci:
        return None
    for name, t in THRESHOLDS:
        if loss >= t - 1e-12:
            return name
    return None


def wilson_half_width(p: float, n: int, z: float = 1.96) -> float:
    """The 95% half-width of the Wilson score interval of a mean win share `p` over `n` visits:
    never 0 (at p = 0 or 1 it is about z^2 / 2n), so a handful of visits that all agree is still
    called uncertain. A win share in [0, 1] varies at most as a 0/1 outcome does, so the
    interval is conservative for the model's fractional values. Without visits the search
    knows nothing of the move: 1, the whole range."""
    if not n:
        return 1.0
    p = min(max(p, 0.0), 1.0)
    zz = z * z / n
    return z / (1.0 + zz) * math.sqrt(p * (1.0 - p) / n + zz / (4.0 * n))


def contested(d: "Decision") -> bool:
    """Whether a decision counts toward its seat's average loss and accuracy: judged (not
    forced), and not decided whatever the seat played, i.e. not both the best and the played
    move leaving the seat below DECIDED or both above 1 - DECIDED. A move that throws a won game
    away (best 0.97, played 0.5) is contested; a lost seat's choice among lost moves is not."""
    if d.method == "forced" or d.best_value is None or d.played_value is None:
        return False
    hi = max(d.best_value.win, d.played_value.win)
    lo = min(d.best_value.win, d.played_value.win)
    return not (hi < DECIDED or lo > 1.0 - DECIDED)


def move_accuracy(loss: float) -> float:
    """Accuracy % of one decision from its win-share loss, lichess's curve with the win share
    in percent: 103.1668 exp(-0.04354 * 100 loss) - 3.1669, clamped to 0..100 (a loss of 0
    scores 100, 0.05 about 80, 0.20 about 39, 0.50 about 8)."""
    a = 103.1668 * math.exp(-0.04354 * 100.0 * max(loss, 0.0)) - 3.1669
    return min(100.0, max(0.0, a))


def accuracy(losses) -> float | None:
    """A seat's accuracy % over its judged decisions: the mean of the arithmetic and harmonic
    means of the per-decision accuracies (each at least 1 in the harmonic mean), as lichess
    combines them, so one blunder weighs more than in a plain average. None without decisions."""
    acc = [move_accuracy(x) for x in losses]
    if not acc:
        return None
    arith = sum(acc) / len(acc)
    harm = len(acc) / sum(1.0 / max(a, 1.0) for a in acc)
    return (arith + harm) / 2.0


def _noise(pv: Value, bv: Value) -> float | None:
    """The 95% half-width of the loss (played minus best), from the two estimates' own."""
    cis = [v.ci for v in (pv, bv) if not v.exact and v.ci is not None]
    return math.sqrt(sum(c * c for c in cis)) if cis else None


def _exact(state, seat, exact_nodes, seed):
    """(per-move {text: Value}, best text, method, per-move win vectors, principal line) from the
    exact solver, or None past the budget (or when any move's value is only bounded)."""
    from . import solvers

    if exact_nodes <= 0 or solvers.engine.hidden_information(state):
        return None
    try:
        r = solvers.solve(state, max_nodes=exact_nodes, seed=seed)
    except solvers.TooLarge:
        return None
    if any(m.win is None or not m.exact for m in r.moves):
        return None
    values = {m.text: Value(win=m.win[seat], score=None if m.score is None else m.score[seat], exact=True)
              for m in r.moves}
    wins = {m.text: list(m.win) for m in r.moves}
    return values, r.best_text, r.solver, wins, list(r.line), None


def _search(state, seat, iterations, seconds, threads, seed, rollout="model", model=None):
    """The same five from MCTS (or ISMCTS on the mover's viewpoint when it cannot see everything),
    and the evaluation its leaves had."""
    from . import solvers

    hidden = solvers.engine.hidden_information(state)
    if hidden:
        import atelier

        # What the mover knew then: its viewpoint, the hidden parts sampled again.
        state = atelier.load_position(atelier.dump_position(state, viewpoint=seat), seed=seed)
        r = solvers.ismcts(state, iterations=iterations, time=seconds, threads=threads, seed=seed,
                           rollout=rollout, model=model)
    else:
        r = solvers.mcts(state, iterations=iterations, time=seconds, threads=threads, seed=seed,
                         rollout=rollout, model=model)
    values, wins = {}, {}
    for m in r.moves:
        exact = m.proven is not None
        values[m.text] = Value(win=m.proven if exact else m.win[seat], score=m.score[seat], exact=exact,
                               ci=None if exact else wilson_half_width(m.win[seat], m.visits),
                               visits=m.visits)
        wins[m.text] = list(m.win)
    return values, r.best_text, r.algorithm, wins, list(r.line), r.evaluation


def judge_state(s, k: int, played: str, iterations=None, seconds=None, threads=1, seed=0,
                exact_nodes=DEFAULT_EXACT_NODES, rollout="model", model=None) -> Decision:
    """The Decision of move `k` (`played`, in notation) from `s`, the position before it. Its
    search seed derives from `seed` and `k` alone, so decisions can be judged in any order."""
    p = s.current_player
    legal = s.legal_moves()
    if len(legal) == 1:
        return Decision(k, p, played, played, None, None, 0.0, None, "forced")
    dseed = _mix(seed, k) & 0x7FFFFFFF
    got = _exact(s, p, exact_nodes, dseed) or _search(s, p, iterations, seconds, threads, dseed,
                                                      rollout, model)
    values, best, method, wins, line, evaluation = got
    pv, bv = values.get(played), values.get(best)
    if pv is None:   # cannot happen: the record replays, so the move is legal here
        raise InputError(f"move {k + 1} {played!r}: not among the searched moves")
    loss = max(0.0, bv.win - pv.win) if best != played else 0.0
    exact = pv.exact and bv.exact
    return Decision(k, p, played, best, pv, bv, loss, mark_for(loss, exact, _noise(pv, bv)),
                    method, wins.get(played), line or [best], evaluation)


def judge(record, k: int, iterations=None, seconds=None, threads=1, seed=0,
          exact_nodes=DEFAULT_EXACT_NODES, rollout="model", model=None) -> Decision:
    """The Decision of move `k` of `record` (a Record or its dict, atelier.record/1), the position
    rebuilt from the record: what a Ray worker runs for one decision (atelier.distributed)."""
    from . import records

    if isinstance(record, dict):
        record = records.from_dict(record)
    return judge_state(record.replay(to=k), k, record.moves[k]["move"], iterations, seconds, threads, seed,
                       exact_nodes, rollout, model)


def review(record, seat=None, iterations=None, seconds=None, threads=1, seed=0,
           exact_nodes=DEFAULT_EXACT_NODES, progress=None, runner=None, rollout="model",
           model=None) -> Review:
    """Judge every decision of `record` (an atelier.records.Record), of `seat` only or of all.
    `progress(done, total)` after each decision. `rollout` and `model` as in solvers.mcts
    (default: the package's value model for the game, random playouts when it has none).

    `runner(record_dict, todo, settings, progress)`: judges the decisions `todo` (move indices)
    elsewhere, each as `judge(record_dict, k, **settings)` (atelier.distributed), and returns
    them in any order; the review is the same as here."""
    if seat is not None and not 0 <= seat < record.players:
        raise InputError(f"seat: {seat} is not a seat of this {record.players}-player game (0..{record.players - 1})")
    if iterations is None and seconds is None:
        iterations = DEFAULT_ITERATIONS
    todo = [k for k, e in enumerate(record.moves) if e["seat"] != "chance" and (seat is None or e["seat"] == seat)]
    from . import model as model_file
    from . import solvers
    from .limits import check_choice

    rollout = check_choice(rollout, "rollout", solvers.ROLLOUTS)
    model_name = None
    if model is not None:
        if rollout != "model":
            raise InputError(f"model: rollout '{rollout}' uses no model (use rollout 'model')")
        if isinstance(model, model_file.Model):
            model_name = model.provenance.get("name") or "(given)"
        else:
            model_name = str(model)
            model_file.load(model)   # a bad file is refused before any decision is judged
    settings = {"iterations": iterations, "seconds": seconds, "threads": threads, "seed": seed,
                "exact_nodes": exact_nodes, "rollout": rollout, "model": model}
    if runner is not None:
        got = {d.index: d for d in runner(record.to_dict(), todo, settings, progress)}
        if sorted(got) != todo:
            raise RuntimeError(f"runner: expected {len(todo)} decisions, got {len(got)}")
        decisions = [got[k] for k in todo]
    else:
        decisions = []
        wanted = set(todo)
        for k, s, entry in record.states():
            if k not in wanted:
                continue
            decisions.append(judge_state(s, k, entry["move"], **settings))
            if progress is not None:
                progress(len(decisions), len(todo))
    summary = []
    for p in range(record.players):
        mine = [d for d in decisions if d.seat == p]
        if seat is not None and p != seat:
            continue
        counted = [d for d in mine if contested(d)]
        summary.append(SeatSummary(p, record.seats[p], len(mine),
                                   sum(d.loss for d in counted) / len(counted) if counted else 0.0,
                                   {name: sum(d.mark == name for d in mine) for name in MARK_NAMES},
                                   accuracy(d.loss for d in counted), len(counted)))
    settings = {"seat": seat, "iterations": iterations, "time": seconds, "threads": threads, "seed": seed,
                "exact_nodes": exact_nodes, "rollout": rollout,
                "model": model_name,
                "evaluation": sorted({d.evaluation for d in decisions if d.evaluation})}
    return Review(record.game, list(record.seats), decisions, summary, settings)


def annotate(record, rv: Review):
    """A copy of `record` with the review written into its moves: each judged move gets `review`
    (best move, loss, both values, the method) and, where the review marked it, `mark`."""
    from . import records

    out = records.from_dict(record.to_dict())
    for d in rv.decisions:
        entry = out.moves[d.index]
        if d.method == "forced":
            continue
        entry["review"] = {"best": d.best, "loss": round(d.loss, 4), "method": d.method,
                           "played": {"win": round(d.played_value.win, 4), "exact": d.played_value.exact},
                           "best_value": {"win": round(d.best_value.win, 4), "exact": d.best_value.exact}}
        if d.mark:
            entry["mark"] = d.mark
        else:
            entry.pop("mark", None)
    return out
