"""Training value models by expert iteration (`atelier train`, docs/models.md "Training").

    from atelier import train
    s = train.Settings(game="inventors", players=2, games=200, generations=3, iterations=200, seed=1)
    result = train.run(s, "runs/inv2")      # resumable: run it again to continue or to re-read

Generation 0 (`gen0="greedy"`, the default): `gen0_games` games of the greedy bot against
itself, each decision a uniformly random legal move with probability `epsilon` so the games
spread; a greedy game costs about a hundredth of a searched one, and its outcomes are those of
purposeful play (`gen0="search"`: the model-free searcher, `mcts:I:R` / `ismcts:I:R`, R from
GEN0_ROLLOUT). Later generations: the best searcher, `mcts:I` / `ismcts:I` with the best model,
plays `games` self-play games. `positions` decisions per game, sampled uniformly over the whole game, become
one training row per seat (the feature layout's rotation, docs/models.md: the row from seat p's
side is labelled with the win shares and final scores in the order p, p+1, ...). A small MLP is
trained on the last `window` generations' rows with numpy (Adam, minibatches, softmax cross
entropy on the win shares + MSE on the scaled scores, a held-out validation split, early
stopping), and admitted as the new best only if, with the same searcher, it beats the best in a
seat-rotated match (its mean win share above par, 1/N, by more than its 95% interval: a
candidate that merely breaks even in a short match is not admitted).

Everything derives from the seed: every game's start, chance draws and search seeds, the split,
the initial weights and the minibatch order. The run directory holds per generation the data
(`gen-G/data.npz`, written part by part to `gen-G/self-play/` as the games finish), the
candidate (`gen-G/model.npz`), the match (`gen-G/match.json`) and, after each step,
`state.json`; running the same command again resumes at the first missing file (or part) and
ends with the same files as an uninterrupted run. `model.npz` is the best model (its provenance
is the model card's source).
"""
from __future__ import annotations

import json
import math
import os
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from . import model as model_io
from .errors import InputError
from .limits import check_seed

STATE_FORMAT = "atelier.train/1"
GEN0_KINDS = ("greedy", "search")
# With gen0="search": generation 0's leaf evaluation, per ruleset, the one that gave better data
# per CPU-second (docs/models.md, "Generation 0's playouts").
GEN0_ROLLOUT = {"inventors": "random", "leonardo": "greedy", "craftsmen": "random"}


@dataclass
class Settings:
    game: str
    players: int
    games: int = 100            # self-play games per generation
    generations: int = 2
    iterations: int = 200       # search iterations per move (self-play and the admission match)
    seed: int = 0
    positions: int = 8          # decisions sampled per game (each gives one row per seat)
    hidden: list = field(default_factory=lambda: [64, 64])
    epochs: int = 60
    batch: int = 256
    lr: float = 1e-3
    validation: float = 0.15    # share of the games held out (whole games: no leakage)
    patience: int = 6
    match_games: int = 0        # admission games; 0: 4 per seat
    window: int = 3             # generations of data a candidate is trained on
    gen0: str = "greedy"        # generation 0's games: "greedy" (ε-greedy self-play) or "search"
    gen0_games: int = 20000     # with gen0="greedy": its games (a greedy game is cheap)
    epsilon: float = 0.05       # with gen0="greedy": the chance of a random move at each decision
    leaf_moves: int | None = None   # written into each model: greedy moves before the network
    leaf_mix: float | None = None   # written into each model: a random playout's weight at a leaf
    # Hidden information: rows from determinizations of each position, one per viewpoint (what a
    # search leaf is), instead of from the true state (selfplay_game).
    determinized: bool = False

    def check(self) -> "Settings":
        from .games import GAMES

        if not isinstance(self.game, str) or self.game.lower() not in GAMES:
            raise InputError(f"game: expected one of {', '.join(GAMES)}, got {self.game!r}")
        self.game = self.game.lower()
        for name, lo, hi in (("players", 2, 5), ("games", 1, 1_000_000), ("generations", 1, 1000),
                             ("iterations", 1, 1_000_000), ("positions", 1, 1000), ("epochs", 1, 10_000),
                             ("batch", 1, 1 << 20), ("patience", 1, 10_000), ("match_games", 0, 1_000_000),
                             ("window", 1, 1000)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise InputError(f"{name.replace('_', '-')}: expected an integer {lo}..{hi}, got {v!r}")
        if self.gen0 not in GEN0_KINDS:
            raise InputError(f"gen0: expected one of {', '.join(GEN0_KINDS)}, got {self.gen0!r}")
        if isinstance(self.gen0_games, bool) or not isinstance(self.gen0_games, int) or not 1 <= self.gen0_games <= 10_000_000:
            raise InputError(f"gen0-games: expected an integer 1..10000000, got {self.gen0_games!r}")
        if isinstance(self.epsilon, bool) or not isinstance(self.epsilon, (int, float)) or not 0 <= self.epsilon <= 1:
            raise InputError(f"epsilon: expected a number 0..1, got {self.epsilon!r}")
        self.epsilon = float(self.epsilon)
        if self.leaf_moves is not None and (isinstance(self.leaf_moves, bool) or not isinstance(self.leaf_moves, int)
                                            or not 0 <= self.leaf_moves <= 10000):
            raise InputError(f"leaf-moves: expected an integer 0..10000, got {self.leaf_moves!r}")
        if self.leaf_mix is not None:
            if isinstance(self.leaf_mix, bool) or not isinstance(self.leaf_mix, (int, float)) or not 0 <= self.leaf_mix <= 1:
                raise InputError(f"leaf-mix: expected a number 0..1, got {self.leaf_mix!r}")
            self.leaf_mix = float(self.leaf_mix)
        if not isinstance(self.determinized, bool):
            raise InputError(f"determinized: expected true or false, got {self.determinized!r}")
        if self.determinized:
            from .games import ruleset

            if not ruleset(self.game).HIDDEN_INFORMATION:
                raise InputError(f"determinized: {self.game} has no hidden information to resample")
        check_seed(self.seed)
        return self

    @property
    def algorithm(self) -> str:
        from .games import ruleset

        return "ismcts" if ruleset(self.game).HIDDEN_INFORMATION else "mcts"

    def searcher(self, with_model: bool) -> str:
        base = f"{self.algorithm}:{self.iterations}"
        return base if with_model else f"{base}:{GEN0_ROLLOUT[self.game]}"

    def generator(self, gen: int, with_model: bool) -> str:
        """Who plays generation `gen`'s games."""
        if gen == 0 and self.gen0 == "greedy":
            return f"greedy (epsilon {self.epsilon:g})"
        return self.searcher(with_model)

    def games_of(self, gen: int) -> int:
        return self.gen0_games if gen == 0 and self.gen0 == "greedy" else self.games

    def opponent(self, best) -> str:
        """The searcher a candidate must beat: the best model's, else the model-free one the
        package runs without a model (random playouts; gen0="search": generation 0's own)."""
        if best is not None:
            return self.searcher(True)
        return self.searcher(False) if self.gen0 == "search" else f"{self.algorithm}:{self.iterations}:random"

    @property
    def rows_per_position(self) -> int:
        """A row from every seat's side, on every viewpoint's determinization when determinized."""
        return self.players * (self.players if self.determinized else 1)

    @property
    def admission_games(self) -> int:
        return self.match_games or 4 * self.players


# ---- self-play ------------------------------------------------------------------------------

def _mix(*xs):
    from .match import _mix as mix

    return mix(*xs)


_BOTS: dict = {}


def _bot(spec, model):
    from .solvers import make_bot

    key = (spec, id(model))
    if key not in _BOTS:
        if len(_BOTS) > 8:
            _BOTS.clear()
        _BOTS[key] = (make_bot(spec, model=model), model)   # keep the model alive with its id
    return _BOTS[key][0]


def rotated(values, players):
    """(N, N): row p is `values` from seat p's side: p, p+1, ... (the feature layout's order)."""
    v = np.asarray(values, dtype=np.float32)
    return np.stack([np.roll(v, -p) for p in range(players)])


def selfplay_game(game, players, spec, model, seed, gen, i, positions, epsilon=0.0, determinized=False):
    """Game `i` of generation `gen`: (X (R, F), win (R, N), score (R, N)), R = rows sampled, each
    position giving one row per seat; at each decision a uniformly random legal move with
    probability `epsilon`, else `spec`'s. With `determinized` (hidden information), each position
    is first resampled from every seat's view, as the search sees it (one determinization per
    viewpoint v, a row from every seat's side on it: N rows per viewpoint), so the model learns
    what a determinized leaf is worth, not what the true state is. Depends on its arguments only
    (any process, any order)."""
    from .match import new_state_factory

    bot = _bot(spec, model)
    s = new_state_factory(game, players)(_mix(seed, gen, i) & 0x7FFFFFFF)
    explore = np.random.default_rng(_mix(seed, gen, i, 4))
    seen, k = [], 0     # each decision's feature rows, or its state to determinize later
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance(_mix(seed, gen, i, k, 1))
        else:
            seen.append(s.clone() if determinized else np.stack([s.features(p) for p in range(players)]))
            if epsilon > 0 and explore.random() < epsilon:
                moves = s.legal_moves()
                s.apply(moves[int(explore.integers(len(moves)))])
            else:
                s.apply(bot.choose(s, _mix(seed, gen, i, k, 2)))
        k += 1
    rng = np.random.default_rng(_mix(seed, gen, i, 3))
    pick = np.sort(rng.choice(len(seen), size=min(positions, len(seen)), replace=False))
    if determinized:
        blocks = []
        for j in pick:
            for v in range(players):
                d = seen[j].clone()
                d.determinize(v, _mix(seed, gen, i, int(j), v, 6) & 0x7FFFFFFF)
                blocks.append(np.stack([d.features(p) for p in range(players)]))
    else:
        blocks = [seen[j] for j in pick]
    x = np.concatenate(blocks)
    win = np.tile(rotated(s.returns(), players), (len(blocks), 1))
    score = np.tile(rotated(s.scores(), players), (len(blocks), 1))
    return x, win, score


def selfplay_games(indices, game, players, spec, model, seed, gen, positions, epsilon=0.0, determinized=False):
    """Several games' rows (a Ray task or a local worker runs this)."""
    return [selfplay_game(game, players, spec, model, seed, gen, i, positions, epsilon, determinized)
            for i in indices]


def _pool_task(job):
    indices, args = job
    return selfplay_games(indices, *args)


def process_runner(workers: int):
    """A `runner` for generate: the games over `workers` local processes, the same rows (each
    game depends on its index only)."""
    def run(indices, args, progress):
        from .processes import run_jobs

        size = max(1, min(256, len(indices) // (8 * workers) or 1))
        jobs = [(indices[j:j + size], args) for j in range(0, len(indices), size)]
        got = run_jobs(_pool_task, jobs, workers, progress, units=[len(j[0]) for j in jobs])
        return [g for part in got for g in part]

    return run


SELFPLAY_PART = 50   # games per checkpoint file of a generation's self-play


def generate(s: Settings, gen: int, best, progress=None, runner=None, parts=None):
    """Generation `gen`'s self-play data: dict of arrays x, win, score, game (the game index of
    each row). `runner(indices, args, progress)` plays them elsewhere (Ray, local processes),
    the same rows. `parts`: a directory where every SELFPLAY_PART games are saved as they
    finish (part-<first game>.npz); parts already there are read, not played again, so a
    stopped generation resumes where it stopped, with the same rows (each game depends on
    its index only)."""
    greedy = gen == 0 and s.gen0 == "greedy"
    spec = "greedy" if greedy else s.searcher(best is not None)
    games = s.games_of(gen)
    args = (s.game, s.players, spec, best, s.seed, gen, s.positions, s.epsilon if greedy else 0.0, s.determinized)
    out = []
    for first in range(0, games, SELFPLAY_PART):
        indices = list(range(first, min(games, first + SELFPLAY_PART)))
        path = os.path.join(parts, f"part-{first:06d}.npz") if parts is not None else None
        if path is not None and os.path.exists(path):
            with np.load(path) as z:
                out.append({k: z[k] for k in z.files})
        else:
            def step(done, _total, base=first):
                if progress is not None:
                    progress(base + done, games)
            if runner is not None:
                got = runner(indices, args, step)
            else:
                got = []
                for k, i in enumerate(indices):
                    got.append(selfplay_game(*args[:6], i, *args[6:]))
                    step(k + 1, len(indices))
            part = {"x": np.concatenate([g[0] for g in got]), "win": np.concatenate([g[1] for g in got]),
                    "score": np.concatenate([g[2] for g in got]),
                    "game": np.concatenate([np.full(len(g[0]), i, dtype=np.int32) for i, g in zip(indices, got)])}
            if path is not None:
                _save_data(path, part)
            out.append(part)
        if progress is not None:
            progress(indices[-1] + 1, games)
    return {k: np.concatenate([p[k] for p in out]) for k in ("x", "win", "score", "game")}


# ---- the network ----------------------------------------------------------------------------

def _forward(params, z):
    acts = [z]
    for w, b in params["layers"]:
        z = np.maximum(z @ w + b, 0.0)
        acts.append(z)
    logits = z @ params["win"][0] + params["win"][1]
    score = z @ params["score"][0] + params["score"][1]
    return acts, logits, score


def _softmax(logits):
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _loss(params, z, win, score):
    _, logits, pred = _forward(params, z)
    p = _softmax(logits)
    ce = -np.mean(np.sum(win * np.log(np.clip(p, 1e-12, 1.0)), axis=1))
    mse = np.mean(np.sum((pred - score) ** 2, axis=1)) / win.shape[1]
    return float(ce), float(mse)


def _grads(params, z, win, score):
    acts, logits, pred = _forward(params, z)
    b = z.shape[0]
    n = win.shape[1]
    d_logits = (_softmax(logits) - win) / b
    d_score = 2.0 * (pred - score) / (b * n)
    top = acts[-1]
    g = {"win": (top.T @ d_logits, d_logits.sum(0)), "score": (top.T @ d_score, d_score.sum(0))}
    d = d_logits @ params["win"][0].T + d_score @ params["score"][0].T
    layers = []
    for k in range(len(params["layers"]) - 1, -1, -1):
        w, _ = params["layers"][k]
        d = d * (acts[k + 1] > 0)
        layers.append((acts[k].T @ d, d.sum(0)))
        d = d @ w.T
    g["layers"] = layers[::-1]
    return g


def _flat(params):
    out = []
    for w, b in params["layers"]:
        out += [w, b]
    return out + list(params["win"]) + list(params["score"])


def calibration_error(pred, target, bins=10):
    """Expected calibration error of predicted win shares against the outcomes' shares, over
    `bins` equal-width bins of the prediction (every seat's column counted)."""
    p, t = np.asarray(pred).ravel(), np.asarray(target).ravel()
    idx = np.minimum((p * bins).astype(int), bins - 1)
    ece = 0.0
    for k in range(bins):
        m = idx == k
        if m.any():
            ece += m.mean() * abs(p[m].mean() - t[m].mean())
    return float(ece)


def fit(data, s: Settings, seed: int, feature_version: int):
    """A Model trained on `data` (x, win, score, game) and its history: (model, info)."""
    x, win, score, games = data["x"], data["win"], data["score"], data["game"]
    rng = np.random.default_rng(seed)
    ids = np.unique(games)
    held = rng.permutation(ids)[:max(1, int(round(len(ids) * s.validation)))] if len(ids) > 1 else ids[:0]
    val = np.isin(games, held)
    tr = ~val if (~val).any() else val
    mean = x[tr].mean(0).astype(np.float32)
    std = x[tr].std(0)
    scale = np.where(std > 1e-6, 1.0 / np.maximum(std, 1e-6), 0.0).astype(np.float32)
    score_scale = float(max(1.0, np.abs(score).max()))
    z_all = ((x - mean) * scale).astype(np.float32)
    t_all = (score / score_scale).astype(np.float32)
    n = s.players
    widths = [x.shape[1]] + list(s.hidden)
    params = {"layers": [], "win": None, "score": None}
    for a, b in zip(widths[:-1], widths[1:]):
        params["layers"].append(((rng.standard_normal((a, b)) * math.sqrt(2.0 / a)).astype(np.float32),
                                 np.zeros(b, np.float32)))
    h = widths[-1]
    params["win"] = ((rng.standard_normal((h, n)) * math.sqrt(1.0 / h)).astype(np.float32), np.zeros(n, np.float32))
    params["score"] = ((rng.standard_normal((h, n)) * math.sqrt(1.0 / h)).astype(np.float32), np.zeros(n, np.float32))
    flat = _flat(params)
    m1 = [np.zeros_like(p) for p in flat]
    m2 = [np.zeros_like(p) for p in flat]
    step, beta1, beta2 = 0, 0.9, 0.999
    ztr, wtr, str_ = z_all[tr], win[tr], t_all[tr]
    zva, wva, sva = (z_all[val], win[val], t_all[val]) if val.any() else (ztr, wtr, str_)
    history, best, best_flat, since = [], math.inf, [p.copy() for p in flat], 0
    history.append({"epoch": 0, "train": sum(_loss(params, ztr, wtr, str_)), "val": sum(_loss(params, zva, wva, sva))})
    for epoch in range(1, s.epochs + 1):
        order = rng.permutation(len(ztr))
        for j in range(0, len(order), s.batch):
            bi = order[j:j + s.batch]
            g = _flat(_grads(params, ztr[bi], wtr[bi], str_[bi]))
            step += 1
            for p, gp, a, v in zip(flat, g, m1, m2):
                a *= beta1
                a += (1 - beta1) * gp
                v *= beta2
                v += (1 - beta2) * gp * gp
                p -= (s.lr * (a / (1 - beta1 ** step)) / (np.sqrt(v / (1 - beta2 ** step)) + 1e-8)).astype(np.float32)
        tl, vl = sum(_loss(params, ztr, wtr, str_)), sum(_loss(params, zva, wva, sva))
        history.append({"epoch": epoch, "train": tl, "val": vl})
        if vl < best - 1e-6:
            best, since = vl, 0
            best_flat = [p.copy() for p in flat]
        else:
            since += 1
            if since >= s.patience:
                break
    for p, q in zip(flat, best_flat):
        p[...] = q
    win_pred = _softmax(_forward(params, zva)[1])
    ce, mse = _loss(params, zva, wva, sva)
    info = {"train_rows": int(tr.sum()), "validation_rows": int(val.sum()),
            "validation_games": int(len(held)), "epochs": len(history) - 1, "history": history,
            "validation_loss": ce + mse, "validation_cross_entropy": ce, "validation_score_mse": mse,
            "calibration_ece": calibration_error(win_pred, wva),
            "score_mae": float(np.mean(np.abs(_forward(params, zva)[2] - sva)) * score_scale)}
    m = model_io.Model(game=s.game, players=n, feature_version=feature_version, mean=mean, scale=scale,
                       layers=[(w.copy(), b.copy()) for w, b in params["layers"]],
                       win=tuple(a.copy() for a in params["win"]), score=tuple(a.copy() for a in params["score"]),
                       score_scale=score_scale, leaf_moves=s.leaf_moves, leaf_mix=s.leaf_mix)
    return m, info


# ---- admission ------------------------------------------------------------------------------

def admission(s: Settings, gen: int, candidate, best, progress=None) -> dict:
    """The candidate's searcher against the best's, seats rotated: game j seats the candidate at
    seat j mod N and the best everywhere else, on the start of block j // N. Admitted when its
    mean win share is above par (1/N)."""
    from .match import new_state_factory

    n = s.players
    cand_bot = _bot(s.searcher(True), candidate)
    best_spec = s.opponent(best)
    best_bot = _bot(best_spec, best)
    start = new_state_factory(s.game, n)
    shares, margins = [], []
    total = s.admission_games
    for j in range(total):
        block, seat = divmod(j, n)
        seat = (seat + block) % n
        st = start(_mix(s.seed, gen, 7, block) & 0x7FFFFFFF)
        k = 0
        while not st.is_terminal():
            if st.is_chance():
                st.sample_chance(_mix(s.seed, gen, 8, j, k))
            else:
                bot = cand_bot if st.current_player == seat else best_bot
                st.apply(bot.choose(st, _mix(s.seed, gen, 9, j, k)))
            k += 1
        shares.append(st.returns()[seat])
        sc = st.scores()
        margins.append(sc[seat] - max(v for p, v in enumerate(sc) if p != seat))
        if progress is not None:
            progress(j + 1, total)
    share = float(np.mean(shares))
    ci = float(1.96 * np.std(shares, ddof=1) / math.sqrt(total)) if total > 1 else 1.0
    return {"games": total, "candidate": s.searcher(True) + " (candidate model)",
            "opponent": best_spec + (" (best model)" if best is not None else ""),
            "win_share": share, "win_ci": ci, "par": 1.0 / n, "mean_margin": float(np.mean(margins)),
            "admitted": share - ci > 1.0 / n}


# ---- the run --------------------------------------------------------------------------------

def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished child processes (local workers)."""
    import resource

    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + c.ru_utime + c.ru_stime


def _feature_version(s: Settings) -> int:
    import atelier

    return atelier.open(s.game, players=s.players, seed=0).feature_version


def _save_data(path, data):
    tmp = path + ".tmp.npz"
    np.savez(tmp, **data)
    os.replace(tmp, path)


def _write_json(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def _open_dir(s: Settings, out: str) -> dict:
    """The run's state, new or resumed; a directory of another run is refused."""
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise InputError(f"out '{out}': cannot create ({exc.strerror})") from None
    path = os.path.join(out, "state.json")
    settings = asdict(s)
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as f:
                state = json.load(f)
        except (OSError, ValueError):
            raise InputError(f"out '{out}': state.json is not readable; use a new directory") from None
        if state.get("format") != STATE_FORMAT:
            raise InputError(f"out '{out}': state.json is not an atelier training state")
        old = dict(state.get("settings", {}))
        old.setdefault("determinized", False)   # runs from before the setting existed
        old.setdefault("leaf_mix", None)
        # More generations continue a run; anything else would mix two runs' files.
        old.pop("generations", None)
        new = dict(settings)
        new.pop("generations", None)
        if old != new:
            diff = sorted(k for k in new if old.get(k) != new[k])
            raise InputError(f"out '{out}': holds a run with other settings ({', '.join(diff)}); "
                             "use a new directory or the same command")
        state["settings"] = settings
        return state
    state = {"format": STATE_FORMAT, "settings": settings, "generations": [], "best": None}
    _write_json(path, state)
    return state


def run(s: Settings, out: str, progress=None, runner=None) -> dict:
    """Run (or resume) the training in directory `out`; returns the final state dict.
    `progress(stage, done, total)` as it goes; `runner` plays self-play elsewhere (Ray)."""
    s.check()
    state = _open_dir(s, out)
    fv = _feature_version(s)
    best = model_io.load(os.path.join(out, state["best"])) if state["best"] else None
    say = progress or (lambda *a: None)
    for gen in range(s.generations):
        gdir = os.path.join(out, f"gen-{gen}")
        os.makedirs(gdir, exist_ok=True)
        done = {g["generation"]: g for g in state["generations"]}
        if gen in done:
            continue
        t0 = _cpu_seconds()
        data_path = os.path.join(gdir, "data.npz")
        if not os.path.exists(data_path):
            parts = os.path.join(gdir, "self-play")
            os.makedirs(parts, exist_ok=True)
            data = generate(s, gen, best, lambda d, t, g=gen: say(f"gen {gen}: self-play", d, t), runner, parts)
            _save_data(data_path, data)
            for name in os.listdir(parts):   # data.npz holds them all now
                os.remove(os.path.join(parts, name))
            os.rmdir(parts)
        seconds = _cpu_seconds() - t0
        # The training set: this generation's rows and those of the generations before it in the
        # window, games renumbered so the validation split keeps whole games apart.
        parts, offset = [], 0
        for g in range(max(0, gen - s.window + 1), gen + 1):
            with np.load(os.path.join(out, f"gen-{g}", "data.npz")) as z:
                d = {k: z[k] for k in z.files}
            d["game"] = (d["game"] + offset).astype(np.int64)
            offset += s.games_of(g)
            parts.append(d)
        data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
        model_path = os.path.join(gdir, "model.npz")
        say(f"gen {gen}: training", 0, 1)
        cand, info = fit(data, s, _mix(s.seed, gen, 5) & 0x7FFFFFFF, fv)
        say(f"gen {gen}: training", 1, 1)
        match_path = os.path.join(gdir, "match.json")
        if os.path.exists(match_path):
            with open(match_path, encoding="utf-8") as f:
                result = json.load(f)
        else:
            result = admission(s, gen, cand, best, lambda d, t: say(f"gen {gen}: admission match", d, t))
            _write_json(match_path, result)
        searcher = s.generator(gen, best is not None)
        with np.load(data_path) as z:
            rows = int(len(z["x"]))
        entry = {"generation": gen, "games": s.games_of(gen), "rows": rows, "positions": rows // s.rows_per_position,
                 "searcher": searcher, "self_play_cpu_seconds": round(seconds, 3),
                 "training": {k: v for k, v in info.items() if k != "history"},
                 "losses": [round(h["train"], 5) for h in info["history"]],
                 "val_losses": [round(h["val"], 5) for h in info["history"]], "match": result}
        # Its settings without `generations`: a run continued to more generations has the same
        # models so far.
        settings = {k: v for k, v in asdict(s).items() if k != "generations"}
        cand.provenance = {"generator": "atelier train", "settings": settings, "generation": gen,
                           "trained_on_generations": list(range(max(0, gen - s.window + 1), gen + 1)),
                           "games": sum(s.games_of(g) for g in range(max(0, gen - s.window + 1), gen + 1)),
                           "positions": int(len(data["x"]) // s.rows_per_position), "rows": int(len(data["x"])),
                           "searchers": [g["searcher"] for g in state["generations"]] + [searcher],
                           "validation_loss": info["validation_loss"],
                           "calibration_ece": info["calibration_ece"], "score_mae": info["score_mae"],
                           "admitting_match": result}
        model_io.save(cand, model_path)
        if result["admitted"]:
            best = cand
            state["best"] = f"gen-{gen}/model.npz"
        state["generations"].append(entry)
        _write_json(os.path.join(out, "state.json"), state)
        if result["admitted"]:
            model_io.save(cand, os.path.join(out, "model.npz"))   # the best, where users look
    return state
