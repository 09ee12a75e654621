"""Search for every ruleset: MCTS, information-set MCTS, exact expectimax and baseline bots.

    from atelier import solvers
    r = solvers.mcts(state, iterations=20000, threads=2, seed=1)
    print(r.best_text, r.best.win)                   # the move, win share per seat
    x = solvers.expectimax(late_state)               # exact values; TooLarge when over budget

The loops run in C++ (Cython, solvers/engine.pyx) over the position copied out of the State
through `state._capsule()`; nothing here runs per node. Algorithms, the max^n tie rule and the
reward definitions: docs/solvers.md.
"""
from __future__ import annotations

import math
import threading
import weakref
from dataclasses import asdict, dataclass, field

from ..errors import InputError
from ..limits import MAX_ITERATIONS, check_choice, check_flag, check_int, check_number, check_seed
from . import engine

__all__ = ["mcts", "ismcts", "expectimax", "SearchResult", "MoveStats", "ExactResult",
           "ExactMove", "TooLarge", "Bot", "make_bot", "random_move", "greedy_move", "BOT_NAMES",
           "DEFAULT_ITERATIONS", "DEFAULT_MEMORY_MB", "DEFAULT_MAX_NODES",
           "DEFAULT_VIEWPOINT_DETERMINIZATIONS", "endgame_plan", "ruleset_hook", "game_hook"]

DEFAULT_ITERATIONS = 10_000
DEFAULT_MEMORY_MB = 512
DEFAULT_MAX_NODES = 10_000_000
DEFAULT_VIEWPOINT_DETERMINIZATIONS = 16   # endgame on a viewpoint when K is not given
# The accepted ranges (docs/solvers.md, "Parameters"); every entry point checks at the door.
MAX_THREADS = 64
MAX_TIME = 1_000_000.0             # seconds
MAX_MEMORY_MB = 1_048_576.0        # 1 TiB
MAX_EXPLORATION = 100.0
MAX_EXACT_NODES = 10**12
MAX_DETERMINIZATIONS = 100_000
REWARDS = ("win", "margin")
ROLLOUTS = ("model", "random", "greedy")
# rollout "model": greedy moves played from a new leaf before the network judges it
# (0: the network judges the leaf itself). 4: with the quick-fit models measured so far the
# short informed playout did better in every ruleset (within the noise of short matches), at
# 1.3-15x the random-playout speed (docs/models.md, "Measured"); re-measure with trained models.
DEFAULT_LEAF_MOVES = 4
_CHANCE_CAP = 64   # engine.pyx CHANCE_CAP: exact chance children created per iteration at most
_CHUNK = 256       # iterations between progress reports / deadline checks from Python


def cannot_allocate(memory_mb: float, what: str) -> InputError:
    """The one line for a memory budget this machine cannot give: a search's trees (suggest) and an
    exact solve's transposition table (endgame) say it alike, instead of a MemoryError."""
    return InputError(f"memory_mb: cannot allocate {memory_mb:g} MB for {what} on this machine; "
                      "try a smaller budget")


class TooLarge(Exception):
    """The exact search stopped at its node budget (or met a chance node too large to enumerate)."""

    def __init__(self, nodes: int, reason: str = ""):
        self.nodes = nodes
        self.reason = reason
        self.partial = None   # alpha-beta: the ExactResult with the bounds proven before the stop
        why = f"; {reason}" if reason else ""
        super().__init__(f"too large for exact search ({nodes:,} nodes searched{why})")


# ---------------------------------------------------------------------------------------------
# MCTS / ISMCTS
# ---------------------------------------------------------------------------------------------

@dataclass
class MoveStats:
    """One root move after a search. Per-seat lists are indexed by seat."""
    move: int
    text: str
    visits: int
    win: list[float]          # mean win share per seat (ties split)
    win_ci: float             # 95% half-width of the mover's win share (normal approximation)
    score: list[float]        # mean final score per seat
    score_ci: float           # 95% half-width of the mover's score
    value: list[float]        # mean backed-up reward per seat (= win, or the score margin)
    proven: float | None = None   # MCTS-Solver: the mover's proven win share (1 win, 0.5 draw, 0 loss)
    win_raw: list[float] | None = None   # the search's own means, when `win` is calibrated
    score_raw: list[float] | None = None   # the search's own mean scores, when `score` is mapped


class _RootChoice:
    """What every search result shares: the chosen root move and a JSON form with a speed."""

    @property
    def best(self):
        return self.moves[self.best_index]

    @property
    def best_move(self) -> int:
        return self.best.move

    @property
    def best_text(self) -> str:
        return self.best.text

    def _speed(self) -> tuple[str, float]:
        raise NotImplementedError

    def to_dict(self) -> dict:
        d = asdict(self)
        d["best"] = self.best_text
        name, value = self._speed()
        d[name] = value
        return d


@dataclass
class SearchResult(_RootChoice):
    algorithm: str
    player: int               # seat to move at the root
    moves: list[MoveStats]    # canonical move order
    best_index: int           # most visited (ties: higher mover value, then earlier move)
    iterations: int
    nodes: int
    seconds: float
    threads: int
    seed: int
    reward: str
    memory_full: bool = False
    per_tree_iterations: list[int] = field(default_factory=list)
    signature: list = field(default_factory=list)
    evaluation: str = "random"    # how leaves were valued: "model", "random" or "greedy" playouts
    model: str | None = None      # the model file (or "bundled:<game>-<N>p") when "model"
    solver: bool = False          # MCTS-Solver ran (two players, win reward, MCTS)
    proven: float | None = None   # the mover's proven win share at the root, when proven
    leaf_solves: tuple[int, int] = (0, 0)   # new leaves handed to alpha-beta, and proven by it
    line: list[str] = field(default_factory=list)   # principal line: best move, then most visited replies
    calibrated: bool = False      # `win` went through the model's calibration (atelier.calibration)

    @property
    def iterations_per_s(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else 0.0

    def _speed(self) -> tuple[str, float]:
        return "iterations_per_s", self.iterations_per_s


def _check_search(iterations, time, threads, seed, reward, memory_mb, exploration, rollout,
                  progress):
    """Every MCTS/ISMCTS parameter, checked and normalised: InputError names the first bad one."""
    if iterations is not None:
        iterations = check_int(iterations, "iterations", 1, MAX_ITERATIONS)
    if time is not None:
        time = check_number(time, "time", 0.0, MAX_TIME, lo_open=True)
    threads = check_int(threads, "threads", 1, MAX_THREADS)
    seed = check_seed(seed)
    reward = check_choice(reward, "reward", REWARDS)
    memory_mb = check_number(memory_mb, "memory_mb", 0.0, MAX_MEMORY_MB, lo_open=True)
    exploration = check_number(exploration, "exploration", 0.0, MAX_EXPLORATION)
    rollout = check_choice(rollout, "rollout", ROLLOUTS)
    if progress is not None and not callable(progress):
        raise InputError(f"progress: expected a function of the fraction done, got {progress!r}")
    return iterations, time, threads, seed, reward, memory_mb, exploration, rollout


def _check_decision(state):
    players, cur, n = engine.position_info(state)   # InputError for what is not a position
    if cur == -2:
        raise InputError("position: the game is over (terminal position), nothing to search")
    if cur == -1:
        raise InputError("position: a chance event is next (e.g. a reveal), not a player's decision; "
                         "apply or sample it first")
    return players, cur, n


def _search(algorithm, state, iterations, time, threads, seed, reward, memory_mb, exploration,
            rollout, progress, solver=False, leaf_nodes=0, model=None, leaf_moves=None, leaf_mix=None):
    iterations, time, threads, seed, reward, memory_mb, exploration, rollout = _check_search(
        iterations, time, threads, seed, reward, memory_mb, exploration, rollout, progress)
    players, cur, n_root = _check_decision(state)
    if leaf_moves is not None:
        leaf_moves = check_int(leaf_moves, "leaf_moves", 0, 10000)
    rollout, net, model_name, used = resolve_evaluation(state, rollout, model)
    if leaf_moves is None:   # the model's own count (measured when it was made), else the default
        leaf_moves = DEFAULT_LEAF_MOVES if used is None or used.leaf_moves is None else used.leaf_moves
    if leaf_mix is not None:
        leaf_mix = check_number(leaf_mix, "leaf_mix", 0.0, 1.0)
    else:                    # the model's own weight, else none: the network alone
        leaf_mix = 0.0 if used is None or used.leaf_mix is None else used.leaf_mix
    solver, leaf_nodes = _check_solver(solver, leaf_nodes, algorithm, players, reward)
    viewpoint = getattr(state, "viewpoint", None)
    if viewpoint is not None and algorithm != "ismcts":
        raise InputError(f"algorithm: {algorithm} would treat seat {viewpoint}'s placeholder sample "
                         "of the hidden parts as known; use ismcts on a viewpoint")
    if viewpoint is not None and viewpoint != cur:
        raise InputError(f"position: seat {viewpoint}'s viewpoint, but seat {cur} is to move; "
                         f"the search needs the mover's view (load seat {cur}'s viewpoint or a full position)")
    if iterations is None and time is None:
        iterations = DEFAULT_ITERATIONS
    node_bytes = engine.node_bytes(players) + 2   # + the chance-key side table (cap / 4 words)
    if solver:
        node_bytes += 2   # + MCTS-Solver's bounds
    if algorithm == "ismcts":
        node_bytes += 24    # + the information-set table (12-byte slots, up to 2 per node)
    cap = min(int(memory_mb * 2**20) // threads // node_bytes, 2**31 - 2)  # 32-bit node indices
    shares = None
    if iterations is not None:
        shares = [iterations // threads + (1 if t < iterations % threads else 0) for t in range(threads)]
    # Nodes an iteration can add: MCTS one move and up to _CHANCE_CAP exact chance children;
    # ISMCTS samples chance and adds one node at most (a new move or a new information set),
    # so its arena and information-set table stay small enough to keep in cache (sized for
    # MCTS, the table of a 20,000-iteration search spread its keys over 24 MB).
    per_iteration = 2 if algorithm == "ismcts" else _CHANCE_CAP + 1
    trees = []
    for t in range(threads):
        cap_t = cap
        if shares is not None:
            cap_t = min(cap, 2 + n_root + shares[t] * per_iteration)
        if cap_t < 1 + n_root:
            raise InputError(f"memory_mb: {memory_mb} MB holds {cap_t:,} nodes per tree, fewer than "
                             f"the {n_root + 1} the root needs")
        try:
            trees.append(engine.Tree(state, seed=engine.tree_seed(seed, t), exploration=exploration,
                                     reward=reward, rollout=rollout, max_nodes=cap_t,
                                     ismcts=(algorithm == "ismcts"), solver=solver,
                                     leaf_nodes=leaf_nodes, net=net,
                                     leaf_moves=leaf_moves if net is not None else 0,
                                     leaf_mix=leaf_mix if net is not None else 0.0))
        except MemoryError:
            trees.clear()   # free the trees already made before saying so
            raise cannot_allocate(memory_mb, "the search trees" if threads > 1 else "the search tree") from None
        except ValueError as exc:
            raise InputError(str(exc)) from None
    t0 = engine.now()
    deadline = t0 + time if time is not None else 0.0

    def work(i):
        tree = trees[i]
        left = shares[i] if shares is not None else None
        size = _CHUNK
        while left is None or left > 0:
            chunk = size if left is None else min(size, left)
            c0 = engine.now()
            done = tree.run(chunk, deadline)
            if engine.now() - c0 < 0.02 and size < (1 << 16):
                size *= 2   # fewer returns to Python (and to the GIL) on fast games
            if left is not None:
                left -= done
            if done < chunk or tree.full or (deadline and engine.now() >= deadline):
                break
            if progress is not None and threads == 1:
                progress(_fraction(trees, iterations, t0, time))

    if threads == 1:
        work(0)
    else:
        workers = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(threads)]
        for w in workers:
            w.start()
        while any(w.is_alive() for w in workers):
            for w in workers:
                w.join(0.05)
                if w.is_alive():
                    break
            if progress is not None:
                progress(_fraction(trees, iterations, t0, time))
    seconds = engine.now() - t0
    if progress is not None:
        progress(1.0)
    result = _merge(algorithm, state, trees, cur, players, seconds, threads, seed, reward)
    result.line = _tree_line(trees, state, result.best_move)
    result.evaluation, result.model = rollout, model_name
    if used is not None and used.calibration is not None:
        _calibrate(result, used.calibration, state)
    return result


def _calibrate(result, cal, state):
    """Report calibrated win shares and expected scores (atelier.calibration): unless the win map
    is the identity, each move's shares through it for the mover, the raw means kept in
    `win_raw` (and `calibrated` set); with a score map
    (gain != 1), each seat's expected score through it from the seat's points now in `state`,
    the raw means kept in `score_raw`. Both maps are monotone, so the best move and the order of
    the moves stay as the search left them."""
    cur = result.player
    now = [float(v) for v in state.scores()] if cal.gain != 1.0 else None
    for m in result.moves:
        if m.visits == 0:
            continue   # no data: nothing to say, calibrated or not
        if cal.maps_win:
            m.win_raw = m.win
            m.win_ci = m.win_ci * cal.slope(m.win[cur])
            m.win = cal.shares(m.win, cur)
        if now is not None:
            m.score_raw = m.score
            m.score = cal.scores(m.score, now)
            m.score_ci = m.score_ci * cal.gain
    result.calibrated = cal.maps_win


LINE_MOVES, LINE_VISITS = 8, 3   # a tree's principal line: at most so long, each step this often visited


def _tree_line(trees, state, best):
    """The best move, then in the tree that visited it most the most visited child at each step,
    while a step has LINE_VISITS visits and applies to `state` (an ISMCTS tree's deeper steps may
    belong to other determinizations: the line stops there). Chance outcomes are marked "chance:"."""
    def child(tree, node, move=None):
        kids = tree.children(node)
        if move is not None:
            kids = [c for c in kids if c[1] == move]
        return max(kids, key=lambda c: c[2], default=None)

    tree = max(trees, key=lambda t: (child(t, 0, best) or (0, 0, -1))[2])
    s, out, node = state.clone(), [], 0
    step = child(tree, 0, best)
    while step is not None and len(out) < LINE_MOVES and (not out or step[2] >= LINE_VISITS):
        node, move, _ = step
        chance = s.is_chance()
        try:
            text = s.move_to_string(move)
            getattr(s, "apply_chance", s.apply)(move) if chance else s.apply(move)
        except (ValueError, RuntimeError, IndexError):
            break
        out.append(f"chance:{text}" if chance else text)
        if s.is_terminal():
            break
        step = child(tree, node)
    return out


_BUNDLED: dict = {}


def bundled_model(game, players):
    """The package's model for this ruleset and player count (atelier.model.bundled), read
    once per process; None when the package ships none."""
    key = (game, players)
    if key not in _BUNDLED:
        from .. import model as model_file

        _BUNDLED[key] = model_file.bundled(game, players)
    return _BUNDLED[key]


def resolve_evaluation(state, rollout, model):
    """(rollout used, engine.Net or None, model name, the atelier.model.Model or None) for a
    search of `state`.

    rollout "model" with `model` None takes the bundled model of the state's ruleset and player
    count, and falls back to random playouts when the package has none (the result's
    `evaluation` says which ran); `model` may be an atelier.model.Model or a file path, and is
    refused (InputError, one line) when made for another ruleset, player count, feature count
    or feature version. A model with rollout "random" or "greedy" is refused: it would not be used."""
    from .. import model as model_file

    if rollout != "model":
        if model is not None:
            raise InputError(f"model: rollout '{rollout}' uses no model (use rollout 'model')")
        return rollout, None, None, None
    game = engine.position_game(state)
    players = engine.position_info(state)[0]
    if model is None:
        m, name = bundled_model(game, players), f"bundled:{model_file.bundled_name(game, players)[:-4]}"
        if m is None:
            return "random", None, None, None
    elif isinstance(model, model_file.Model):
        m, name = model, model.provenance.get("name") or "(given)"
    elif isinstance(model, (str, bytes)) or hasattr(model, "__fspath__"):
        import os

        m, name = model_file.load(model), os.fsdecode(model)
    else:
        raise InputError(f"model: expected a Model or a file path, got {type(model).__name__}")
    return "model", model_net(m, state), name, m


def model_net(m, state):
    """The model's engine.Net (built once per Model), after checking that it reads this state."""
    game = engine.position_game(state)
    players = engine.position_info(state)[0]
    if m.game != game or m.players != players:
        raise InputError(f"model: made for {m.game} with {m.players} players, "
                         f"not {game} with {players}")
    count, version, _ = engine.position_features(state)
    if count == 0:
        raise InputError(f"model: {game} positions write no features for a model to read")
    if m.feature_version != version or m.features != count:
        raise InputError(f"model: reads {m.features} features of version {m.feature_version}; "
                         f"{game} writes {count} of version {version} (retrain it)")
    got = _NETS.get(id(m))
    if got is None or got[0]() is not m:
        got = (weakref.ref(m), engine.Net(m))
        _NETS[id(m)] = got
        weakref.finalize(m, _NETS.pop, id(m), None)
    return got[1]


# Model -> its engine.Net, built once (kept beside the Model, not in it, so a Model still
# pickles, e.g. to a Ray worker).
_NETS: dict = {}


DEFAULT_LEAF_NODES = 1000   # MCTS-Solver: alpha-beta nodes per null-window test at a new leaf


def _check_solver(solver, leaf_nodes, algorithm, players, reward):
    """MCTS-Solver's switch: "auto" turns it on where it applies (MCTS, two players, the win
    reward), True insists (InputError where it does not apply), False turns it off."""
    applies = algorithm == "mcts" and players == 2 and reward == "win"
    if solver == "auto":
        solver = applies
    else:
        solver = check_flag(solver, "solver")
        if solver and not applies:
            raise InputError(f"solver: MCTS-Solver needs MCTS, two players and the win reward "
                             f"(here: {algorithm}, {players} players, {reward})")
    leaf_nodes = check_int(DEFAULT_LEAF_NODES if leaf_nodes is None else leaf_nodes, "leaf_nodes", 0, 10**9)
    return solver, leaf_nodes if solver else 0


def _fraction(trees, iterations, t0, time):
    done = sum(t.iterations for t in trees)
    f = done / iterations if iterations else 0.0
    if time:
        f = max(f, (engine.now() - t0) / time)
    return min(f, 1.0)


def _merge(algorithm, state, trees, cur, players, seconds, threads, seed, reward):
    stats = None
    for tree in trees:
        rows = tree.root_stats()
        if stats is None:
            stats = rows
            continue
        for a, b in zip(stats, rows):
            a["visits"] += b["visits"]
            a["proven"] = a["proven"] if a["proven"] is not None else b["proven"]
            for k in ("value_sum", "win_sum", "win_sq", "score_sum", "score_sq"):
                a[k] = [x + y for x, y in zip(a[k], b[k])]
    moves = []
    for r in stats:
        n = r["visits"]
        d = max(n, 1)
        win = [w / d for w in r["win_sum"]]
        score = [s / d for s in r["score_sum"]]
        moves.append(MoveStats(
            move=r["move"], text=state.move_to_string(r["move"]), visits=n, win=win,
            win_ci=_ci(r["win_sum"][cur], r["win_sq"][cur], n),
            score=score, score_ci=_ci(r["score_sum"][cur], r["score_sq"][cur], n),
            value=[v / d for v in r["value_sum"]],
            proven=None if r["proven"] is None else (r["proven"] if cur == 0 else 1.0 - r["proven"])))
    root = next((t.proven_root for t in trees if t.proven_root is not None), None)
    if root is not None and cur != 0:
        root = 1.0 - root
    best = _best_visited(moves, cur, root)
    return SearchResult(
        algorithm=algorithm, player=cur, moves=moves, best_index=best,
        iterations=sum(t.iterations for t in trees), nodes=sum(t.nodes for t in trees),
        seconds=seconds, threads=threads, seed=seed, reward=reward,
        memory_full=any(t.full for t in trees),
        per_tree_iterations=[t.iterations for t in trees],
        signature=[list(t.signature()) for t in trees],
        solver=all(t.solver for t in trees),
        proven=root,
        leaf_solves=tuple(sum(t.leaf_solves[k] for t in trees) for k in range(2)))


def _best_visited(moves, cur, root=None):
    """The most visited move (ties: higher mover value, then the earlier move); with proofs
    (MCTS-Solver): a proven win first, and never a move proven worse than another's proof.
    When the root itself is proven (`root`, the mover's value), only a move proven to reach
    that value: an unproven move is at most that value and may well be worse (the solver proved
    the root through a proven child, not through it)."""
    floor = max((m.proven for m in moves if m.proven is not None), default=None)
    keep = [i for i, m in enumerate(moves) if root is not None and m.proven == root]
    cand = keep or [i for i, m in enumerate(moves)
                    if floor is None or m.proven is None or m.proven >= floor]
    won = [i for i in cand if moves[i].proven == 1.0]
    if won:
        return won[0]
    if all(moves[i].proven is not None for i in cand):
        return cand[0]   # every candidate proven at the same value: the earliest
    best = cand[0]
    for i in cand:
        m, b = moves[i], moves[best]
        if (m.visits, m.value[cur]) > (b.visits, b.value[cur]):
            best = i
    return best


def _ci(s, sq, n):
    """95% half-width of a mean from its sum and sum of squares (normal approximation)."""
    if n < 2:
        return float("inf") if n == 0 else 1.0
    mean = s / n
    var = max(sq / n - mean * mean, 0.0) * n / (n - 1)
    return 1.96 * math.sqrt(var / n)


def mcts(state, iterations=None, time=None, threads=1, seed=0, reward="win",
         memory_mb=DEFAULT_MEMORY_MB, exploration=1.0, rollout="model", progress=None,
         solver="auto", leaf_nodes=None, model=None, leaf_moves=None, leaf_mix=None) -> SearchResult:
    """UCT with max^n value vectors from a decision node of `state` (any ruleset).

    Budgets: `iterations` (total over all threads), `time` (seconds) and `memory_mb` (node
    arena); the search stops at the first one reached (default: 10,000 iterations). `threads`
    independent trees (root parallelism, seeds derived from `seed`) run without the GIL and
    their root statistics are summed; with an iteration budget the result is the same for the
    same (seed, threads). `reward`: "win" (win share, ties split) or "margin" (score margin
    to the best other seat). `progress(fraction)` is called while searching.

    `solver` (MCTS-Solver; "auto": on for two players and the win reward): proven wins, draws
    and losses climb the tree; a new chance-free decision node is handed to alpha-beta with
    `leaf_nodes` nodes per test (default 1000; 0: terminals only). Proven root moves carry
    `proven`, the root's proof ends the search early, and a proven win is the best move.

    `rollout` values a new leaf: "model" (default) by the value network, `model` (an
    atelier.model.Model or a file path; None: the package's model for this ruleset and player
    count, and random playouts when there is none), after `leaf_moves` greedy moves (default:
    the model's own `leaf_moves`, else DEFAULT_LEAF_MOVES), its value mixed with `leaf_mix`
    (0..1; default: the model's own, else 0) of a uniformly random playout's outcome from the
    same state; "random": a uniformly random playout to the end; "greedy": the greedy
    bot's playout. The result's `evaluation` says which ran. A proven value always replaces
    the model's estimate.
    """
    return _search("mcts", state, iterations, time, threads, seed, reward, memory_mb, exploration,
                   rollout, progress, solver, leaf_nodes, model, leaf_moves, leaf_mix)


def ismcts(state, iterations=None, time=None, threads=1, seed=0, reward="win",
           memory_mb=DEFAULT_MEMORY_MB, exploration=1.0, rollout="model",
           progress=None, model=None, leaf_moves=None, leaf_mix=None) -> SearchResult:
    """Single-observer information-set MCTS for the seat to move: one tree over that seat's
    information sets, a fresh `determinize` of the position every iteration, availability
    counts in the selection. Same budgets and options as `mcts` (rollout, model, leaf_moves,
    leaf_mix too; the model judges a leaf on that iteration's determinization). On
    perfect-information rulesets it plays like MCTS."""
    return _search("ismcts", state, iterations, time, threads, seed, reward, memory_mb,
                   exploration, rollout, progress, model=model, leaf_moves=leaf_moves,
                   leaf_mix=leaf_mix)


# ---------------------------------------------------------------------------------------------
# Expectimax
# ---------------------------------------------------------------------------------------------

@dataclass
class ExactMove:
    move: int
    text: str
    value: list[float] | None   # the objective per seat: win share, or score margin
    win: list[float] | None     # exact win probability per seat (ties split)
    score: list[float] | None   # exact expected final score per seat
    # Alpha-beta: the mover's objective lies in bounds = (lo, hi), exact when lo == hi; its win
    # and score are those at the end of one principal line (None when the line was not found).
    bounds: tuple[float, float] | None = None
    exact: bool = True


@dataclass
class ExactResult(_RootChoice):
    player: int
    objective: str
    paranoid: bool
    moves: list[ExactMove]
    best_index: int
    line: list[str]      # principal line; chance outcomes (most probable) are marked "chance:"
    line_moves: list[tuple[int, bool]]
    nodes: int
    tt_hits: int
    seconds: float
    determinizations: int = 0   # > 0: averaged over that many determinizations (hidden information)
    viewpoint: int | None = None   # the seat whose view was sampled, when the state was a viewpoint
    solver: str = "expectimax"     # or "alphabeta" (no chance left; two players or paranoid)
    prove: bool = False            # alpha-beta asked only win/draw/loss: the root value, and which moves keep it
    complete: bool = True          # False: stopped; the bounds are what was proven (TooLarge.partial)
    root_bounds: tuple[float, float] | None = None   # alpha-beta: the position's own value
    cpu_seconds: float | None = None   # alpha-beta: the solving thread's CPU seconds
    line_seats: list = field(default_factory=list)   # per move of `line`: the seat that makes it, None for chance

    @property
    def nodes_per_s(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def _speed(self) -> tuple[str, float]:
        return "nodes_per_s", self.nodes_per_s


def ruleset_hook(state, name):
    """A ruleset's optional search hook `name` for the state's ruleset, or None: looked up on
    the ruleset's module (atelier.games.<game>), then on its `exact` submodule. Rulesets
    without it (and the test game, which is no package ruleset) get the generic behaviour."""
    return game_hook(engine.position_game(state), name)


def game_hook(game, name):
    """ruleset_hook by the ruleset's name."""
    import importlib

    from ..games import ruleset

    try:
        rs = ruleset(game)
    except InputError:
        return None
    hook = getattr(rs, name, None)
    if hook is None:
        try:
            hook = getattr(importlib.import_module(f"{rs.__name__}.exact"), name, None)
        except ModuleNotFoundError as exc:
            if exc.name != f"{rs.__name__}.exact":
                raise
    return hook


def endgame_plan(state, determinizations=None):
    """(seat whose view is sampled or None, determinizations) for an exact solve of `state`, or
    InputError when the ruleset says such a solve would not mean what it says.

    A full position is solved as it stands (0), or averaged over `determinizations` samples of
    what the mover cannot see. A viewpoint (a state whose `viewpoint` is a seat: its hidden
    parts are one placeholder sample) is averaged over K samples of what that seat cannot see,
    K = DEFAULT_VIEWPOINT_DETERMINIZATIONS when not given; 0 is refused (the placeholder itself
    is no answer). The ruleset's `endgame_refusal(state, K)` hook may refuse either."""
    if determinizations is not None:
        determinizations = check_int(determinizations, "determinizations", 0, MAX_DETERMINIZATIONS)
    viewpoint = getattr(state, "viewpoint", None)
    if viewpoint is not None:
        if determinizations == 0:
            raise InputError(f"determinizations: a viewpoint's hidden parts are one placeholder "
                             f"sample, not seat {viewpoint}'s knowledge; solve at least 1 "
                             f"determinization (default {DEFAULT_VIEWPOINT_DETERMINIZATIONS})")
        if determinizations is None:
            determinizations = DEFAULT_VIEWPOINT_DETERMINIZATIONS
    determinizations = determinizations or 0
    refusal = ruleset_hook(state, "endgame_refusal")
    why = refusal(state, determinizations) if refusal is not None else None
    if why:
        raise InputError(why)
    return viewpoint, determinizations


def expectimax(state, max_nodes=DEFAULT_MAX_NODES, objective="win", paranoid=False,
               prune=True, ordering=True, determinizations=None, seed=0, progress=None) -> ExactResult:
    """Exact max^n values of every root move: expectation over chance, each seat maximising
    its own `objective` ("win" share or score "margin"), ties between equal values broken
    by the earliest move in canonical order (docs/solvers.md). `paranoid=True`: every other
    seat minimises the root seat's value instead. `prune` (win objective only) and `ordering`
    (True: table hits first; "greedy": the greedy move first; False: canonical) change the
    work, never the values. Raises TooLarge(nodes) beyond `max_nodes` nodes (in total), or
    when a chance node has too many outcomes to enumerate.

    Hidden information: `determinizations=K` solves K determinizations of what the mover
    cannot see (seeded from `seed`) exactly and averages them per move: exact for each sample,
    not for the information set (the principal line is the first sample's). When the mover
    sees the whole position there is nothing to sample: it is solved once (determinizations 0
    in the result). A viewpoint state (`state.viewpoint` a seat) samples what that seat cannot
    see, K = 16 by default; the ruleset may refuse a solve that would not mean what it says
    (`endgame_plan`, e.g. Leonardo before turn 8): InputError naming why.

    `progress(nodes, seconds)` is called every 65,536 nodes (nodes over all determinizations,
    seconds of the current solve); an exception it raises, or Ctrl-C, stops the search."""
    max_nodes = check_int(max_nodes, "max_nodes", 1, MAX_EXACT_NODES)
    objective = check_choice(objective, "objective", REWARDS)
    paranoid = check_flag(paranoid, "paranoid")
    prune = check_flag(prune, "prune")
    if isinstance(ordering, bool) or ordering in ("table", "greedy"):
        order = {False: 0, True: 1, "table": 1, "greedy": 2}[ordering]
    else:
        raise InputError(f"ordering: expected True or 'table', 'greedy', or False, got {ordering!r}")
    if determinizations is not None:
        determinizations = check_int(determinizations, "determinizations", 0, MAX_DETERMINIZATIONS)
    seed = check_seed(seed)
    if progress is not None and not callable(progress):
        raise InputError(f"progress: expected a function (nodes, seconds), got {progress!r}")
    players, cur, _ = _check_decision(state)
    viewpoint, seat, determinizations, seeds = _exact_samples(state, cur, determinizations, seed)
    runs, nodes = [], 0
    for dseed in seeds:
        report = None
        if progress is not None:
            report = (lambda done: lambda n, sec: progress(done + n, sec))(nodes)
        r = engine.expectimax_search(state, max_nodes=max(1, max_nodes - nodes), objective=objective,
                                     paranoid=paranoid, prune=prune, ordering=order,
                                     determinize_seed=dseed, progress=report,
                                     determinize_seat=seat)
        nodes += r["nodes"]
        if r["aborted"] == 1:
            raise TooLarge(nodes)
        if r["aborted"] == 2:
            raise TooLarge(nodes, "a chance node has too many outcomes to enumerate")
        _check_same_moves(runs, r, cur, seat)
        runs.append(r)
    k = len(runs)
    moves = []
    for i, m in enumerate(runs[0]["moves"]):
        avg = {key: [sum(r["moves"][i][key][q] for r in runs) / k for q in range(players)]
               for key in ("objective", "win", "score")}
        moves.append(ExactMove(move=m["move"], text=state.move_to_string(m["move"]),
                               value=avg["objective"], win=avg["win"], score=avg["score"]))
    best = 0
    for i in range(1, len(moves)):
        if moves[i].value[cur] > moves[best].value[cur] + 1e-9:
            best = i
    line = runs[0]["line"] if best == runs[0]["best"] else [(moves[best].move, False)]
    return ExactResult(player=cur, objective=objective, paranoid=bool(paranoid), moves=moves,
                       best_index=best, line=_line_text(_line_state(state, seat, seeds), line),
                       line_moves=line, line_seats=_line_seats(_line_state(state, seat, seeds), line),
                       nodes=nodes, tt_hits=sum(r["tt_hits"] for r in runs),
                       seconds=sum(r["seconds"] for r in runs), determinizations=determinizations,
                       viewpoint=viewpoint)


def _exact_samples(state, cur, determinizations, seed):
    """(viewpoint, seat, determinizations, seeds) of an exact solve (either solver): the seat
    whose view is sampled, how many samples (0 when that seat sees everything: every
    determinization is the position itself), and their seeds ([None]: the position as it is)."""
    viewpoint, determinizations = endgame_plan(state, determinizations)
    seat = cur if viewpoint is None else viewpoint
    if determinizations and not engine.hidden_information(state, seat):
        determinizations = 0
    seeds = [None] if not determinizations else [
        engine.tree_seed(seed, k + 1) for k in range(determinizations)]
    return viewpoint, seat, determinizations, seeds


def _check_same_moves(runs, r, cur, seat):
    """Averaging samples move by move needs the same root moves in every one."""
    if runs and [m["move"] for m in r["moves"]] != [m["move"] for m in runs[0]["moves"]]:
        raise InputError(f"endgame: seat {cur}'s moves differ between the determinizations of "
                         f"seat {seat}'s view (they depend on what seat {seat} cannot see); "
                         f"solve from the viewpoint of the seat to move")


def _line_state(state, seat, seeds):
    """The position the principal line is played from: the first sample's, when sampled."""
    if seeds[0] is None or not hasattr(state, "determinize"):
        return state
    s = state.clone()
    s.determinize(seat, seeds[0])
    return s


def _line_seats(state, line):
    """Who makes each move of the principal line: a seat, or None for a chance outcome."""
    s = state.clone()
    out = []
    for m, chance in line:
        out.append(None if chance else s.current_player)
        getattr(s, "apply_chance", s.apply)(m) if chance else s.apply(m)
    return out


def _line_text(state, line):
    s = state.clone()
    out = []
    for m, chance in line:
        text = s.move_to_string(m)
        if chance:
            out.append(f"chance:{text}")
            # Inventors and the test game name it apply_chance; Leonardo's apply takes outcomes.
            getattr(s, "apply_chance", s.apply)(m)
        else:
            out.append(text)
            s.apply(m)
    return out


# ---------------------------------------------------------------------------------------------
# Bots
# ---------------------------------------------------------------------------------------------

def random_move(state, seed=0) -> int:
    """A uniformly random legal move (deterministic per seed)."""
    seed = check_seed(seed)
    _check_decision(state)
    return engine.random_move(state, seed)


def greedy_move(state, seed=0) -> int:
    """The ruleset's documented greedy heuristic (docs/bots.md; deterministic per seed)."""
    seed = check_seed(seed)
    _check_decision(state)
    return engine.greedy_move(state, seed)


BOT_NAMES = ("random", "greedy", "mcts[:N|:Ts][:model|:random|:greedy]",
             "ismcts[:N|:Ts][:model|:random|:greedy]")


class Bot:
    """A player for matches: `choose(state, seed) -> move`."""

    def __init__(self, spec: str, kind: str, iterations=None, time=None, threads=1, rollout="model",
                 model=None):
        self.spec, self.kind = spec, kind
        self.iterations, self.time, self.threads, self.rollout = iterations, time, threads, rollout
        self.model = model

    def search(self, state, seed: int) -> SearchResult:
        """The search behind a search bot's move (its result: values, evaluation)."""
        if self.kind not in ("mcts", "ismcts"):
            raise InputError(f"bot '{self.spec}': not a search bot")
        search = mcts if self.kind == "mcts" else ismcts
        return search(state, iterations=self.iterations, time=self.time, threads=self.threads,
                      seed=seed, rollout=self.rollout, model=self.model)

    def choose(self, state, seed: int) -> int:
        if self.kind == "random":
            return random_move(state, seed)
        if self.kind == "greedy":
            return greedy_move(state, seed)
        return self.search(state, seed).best_move

    def __repr__(self):
        return f"Bot({self.spec!r})"


def make_bot(spec: str, threads: int = 1, model=None) -> Bot:
    """A bot from its name: random, greedy, mcts[:N] (N iterations per move, default 1000),
    mcts:Ts (T seconds per move, e.g. mcts:1s), ismcts[:N|:Ts]. A final `:model` (the default),
    `:random` or `:greedy` says how the search values a new leaf: the value model (`model`, an
    atelier.model.Model or file; None: the package's model for the game, random playouts when
    it ships none), uniformly random playouts, or greedy playouts (today's search, exactly)."""
    if not isinstance(spec, str):
        raise InputError(f"bot: expected a name, got {spec!r}")
    threads = check_int(threads, "threads", 1, MAX_THREADS)
    text = spec.strip().lower()
    name, _, arg = text.partition(":")
    if name in ("random", "greedy") and not arg:
        return Bot(text, name)
    if name not in ("mcts", "ismcts"):
        raise InputError(f"bot '{spec}': unknown (known: {', '.join(BOT_NAMES)})")
    rollout = "model"
    for r in ROLLOUTS:
        if arg == r or arg.endswith(":" + r):
            rollout, arg = r, arg[:-len(r)].rstrip(":")
            break
    if model is not None and rollout != "model":
        raise InputError(f"bot '{spec}': rollout '{rollout}' uses no model")
    kw = {"threads": threads, "rollout": rollout, "model": model}
    if not arg:
        return Bot(text, name, iterations=1000, **kw)
    budget = (f"bot '{spec}': the budget must be iterations 1..{MAX_ITERATIONS:,} (mcts:2000) "
              f"or seconds in (0, {MAX_TIME:,.0f}] (mcts:1s)")
    try:
        if arg.endswith("s"):
            t = float(arg[:-1])
            if not (math.isfinite(t) and 0 < t <= MAX_TIME):
                raise ValueError
            return Bot(text, name, time=t, **kw)
        n = int(arg)
        if not 1 <= n <= MAX_ITERATIONS:
            raise ValueError
        return Bot(text, name, iterations=n, **kw)
    except ValueError:
        raise InputError(budget) from None


from .exact import SOLVERS, alphabeta, alphabeta_applies, solve  # noqa: E402  (uses the names above)

__all__ += ["solve", "alphabeta", "alphabeta_applies", "SOLVERS"]
