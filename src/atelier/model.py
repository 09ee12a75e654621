"""Value models: the file format, its checks, and the numpy reference of the network.

A model maps a ruleset's feature vector of a state, written from one seat's side (the seat
first, then the others in turn order after it), to each seat's win share and expected final
score, in that same seat order. The search evaluates it in C++ (solvers/); this module is what
reads and writes the files and what the C++ inference is tested against.

File format ``atelier.model/1`` (docs/models.md): a numpy ``.npz`` archive, read with
``allow_pickle=False`` (so a file can hold numbers and text only, never code), holding

    meta      0-d unicode array: JSON {"format", "game", "players", "features",
              "feature_version", "hidden": [h1, ...], "score_scale", "provenance": {...}}
    mean      (F,)  float32   input standardisation: z = (x - mean) * scale
    scale     (F,)  float32
    W1, b1    (F, h1), (h1,)  hidden layers, ReLU; W2, b2 (h1, h2), (h2,); ...
    Wwin, bwin      (h, N), (N,)   logits of the win shares (softmax over the N seats)
    Wscore, bscore  (h, N), (N,)   expected final scores / score_scale

All arrays are float32 and finite; ``h`` is the last hidden width (F with no hidden layer).
"""
from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass, field
from importlib import resources

import numpy as np

from .errors import InputError, quoted

FORMAT = "atelier.model/1"
MAX_FEATURES = 4096
MAX_WIDTH = 4096
MAX_LAYERS = 8


@dataclass
class Model:
    game: str
    players: int
    feature_version: int
    mean: np.ndarray
    scale: np.ndarray
    layers: list            # [(W, b), ...] hidden layers, ReLU
    win: tuple              # (Wwin, bwin)
    score: tuple            # (Wscore, bscore)
    score_scale: float = 1.0
    provenance: dict = field(default_factory=dict)
    leaf_moves: int | None = None   # greedy moves a search plays before asking it; None: the default
    leaf_mix: float | None = None   # weight of a random playout's outcome beside it at a leaf; None: 0
    calibration: object = None      # atelier.calibration.Calibration of the search's claims, or None

    @property
    def features(self) -> int:
        return int(self.mean.shape[0])

    @property
    def hidden(self) -> list:
        return [int(w.shape[1]) for w, _ in self.layers]

    def forward(self, x):
        """Win shares and expected scores, each (B, N), for a (B, F) batch of feature rows
        (or one row). The numpy reference: the C++ inference must agree with it to 1e-5."""
        x = np.asarray(x, dtype=np.float32)
        one = x.ndim == 1
        z = np.atleast_2d(x)
        if z.shape[1] != self.features:
            raise InputError(f"features: the model reads {self.features} values, got {z.shape[1]}")
        z = (z - self.mean) * self.scale
        for w, b in self.layers:
            z = np.maximum(z @ w + b, 0.0)
        logits = z @ self.win[0] + self.win[1]
        logits = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        win = e / e.sum(axis=1, keepdims=True)
        score = (z @ self.score[0] + self.score[1]) * np.float32(self.score_scale)
        return (win[0], score[0]) if one else (win, score)

    def meta(self) -> dict:
        return {"format": FORMAT, "game": self.game, "players": self.players,
                "features": self.features, "feature_version": self.feature_version,
                "hidden": self.hidden, "score_scale": float(self.score_scale),
                "provenance": self.provenance,
                **({} if self.leaf_moves is None else {"leaf_moves": int(self.leaf_moves)}),
                **({} if self.leaf_mix is None else {"leaf_mix": float(self.leaf_mix)}),
                **({} if self.calibration is None else {"calibration": self.calibration.to_meta()})}

    def arrays(self) -> dict:
        out = {"mean": self.mean, "scale": self.scale,
               "Wwin": self.win[0], "bwin": self.win[1],
               "Wscore": self.score[0], "bscore": self.score[1]}
        for i, (w, b) in enumerate(self.layers, 1):
            out[f"W{i}"], out[f"b{i}"] = w, b
        return {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in out.items()}


def save(model: Model, path) -> None:
    """Write `model` to `path` (written whole to a temporary file, then renamed, so a reader
    never sees half a file)."""
    path = os.fspath(path)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        np.savez(f, meta=np.array(json.dumps(model.meta(), sort_keys=True)), **model.arrays())
    os.replace(tmp, path)


def load(path) -> Model:
    """Read and check a model file; anything wrong is one InputError line naming the file."""
    name = quoted(os.fspath(path))
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
    except FileNotFoundError:
        raise InputError(f"model {name}: no such file") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as e:
        raise InputError(f"model {name}: not a readable atelier model file ({e})") from None
    try:
        return from_arrays(data)
    except InputError as e:
        raise InputError(f"model {name}: {e}") from None


def from_arrays(data: dict) -> Model:
    """A Model from the archive's arrays, every shape and value checked."""
    if "meta" not in data:
        raise InputError("meta: missing (not an atelier model file)")
    try:
        meta = json.loads(str(data["meta"][()]))
    except (ValueError, TypeError, IndexError):
        raise InputError("meta: not JSON text") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise InputError(f"meta.format: expected {FORMAT!r}")
    game, players = meta.get("game"), meta.get("players")
    if not isinstance(game, str) or not isinstance(players, int) or not 2 <= players <= 5:
        raise InputError("meta: game must be a name and players 2..5")
    nf, fv, hidden = meta.get("features"), meta.get("feature_version"), meta.get("hidden")
    if not isinstance(nf, int) or not 1 <= nf <= MAX_FEATURES:
        raise InputError(f"meta.features: must be 1..{MAX_FEATURES}")
    if not isinstance(fv, int):
        raise InputError("meta.feature_version: must be an integer")
    if (not isinstance(hidden, list) or len(hidden) > MAX_LAYERS
            or not all(isinstance(h, int) and 1 <= h <= MAX_WIDTH for h in hidden)):
        raise InputError(f"meta.hidden: a list of at most {MAX_LAYERS} widths 1..{MAX_WIDTH}")
    score_scale = meta.get("score_scale", 1.0)
    if not isinstance(score_scale, (int, float)) or not np.isfinite(score_scale):
        raise InputError("meta.score_scale: must be a finite number")
    leaf_moves = meta.get("leaf_moves")
    if leaf_moves is not None and (isinstance(leaf_moves, bool) or not isinstance(leaf_moves, int)
                                   or not 0 <= leaf_moves <= 10000):
        raise InputError("meta.leaf_moves: must be an integer 0..10000")
    leaf_mix = meta.get("leaf_mix")
    if leaf_mix is not None and (isinstance(leaf_mix, bool) or not isinstance(leaf_mix, (int, float))
                                 or not 0 <= leaf_mix <= 1):
        raise InputError("meta.leaf_mix: must be a number 0..1")
    calibration = meta.get("calibration")
    if calibration is not None:
        from .calibration import Calibration

        calibration = Calibration.from_meta(calibration)

    def arr(key, shape):
        if key not in data:
            raise InputError(f"{key}: missing")
        a = data[key]
        if a.dtype != np.float32:
            raise InputError(f"{key}: must be float32, not {a.dtype}")
        if a.shape != shape:
            raise InputError(f"{key}: shape {a.shape}, expected {shape}")
        if not np.all(np.isfinite(a)):
            raise InputError(f"{key}: not finite")
        return np.ascontiguousarray(a)

    layers, width = [], nf
    for i, h in enumerate(hidden, 1):
        layers.append((arr(f"W{i}", (width, h)), arr(f"b{i}", (h,))))
        width = h
    return Model(game=game, players=players, feature_version=fv,
                 mean=arr("mean", (nf,)), scale=arr("scale", (nf,)), layers=layers,
                 win=(arr("Wwin", (width, players)), arr("bwin", (players,))),
                 score=(arr("Wscore", (width, players)), arr("bscore", (players,))),
                 score_scale=float(score_scale),
                 provenance=meta.get("provenance") if isinstance(meta.get("provenance"), dict) else {},
                 leaf_moves=leaf_moves, leaf_mix=None if leaf_mix is None else float(leaf_mix),
                 calibration=calibration)


def bundled_name(game: str, players: int) -> str:
    return f"{game}-{players}p.npz"


def bundled(game: str, players: int):
    """The model shipped in the package for this ruleset and player count, or None."""
    ref = resources.files("atelier") / "data" / "models" / bundled_name(game, players)
    if not ref.is_file():
        return None
    with resources.as_file(ref) as p:
        return load(p)
