"""Small value models for tests: random weights of any shape, or a quick least-squares fit on a
ruleset's features (no trained model ships with the tests)."""
from __future__ import annotations

import numpy as np

from atelier.model import Model


def random_model(game="testgame", players=2, features=12, hidden=(16,), seed=0, feature_version=1,
                 score_scale=10.0):
    rng = np.random.default_rng(seed)
    f32 = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    layers, width = [], features
    for h in hidden:
        layers.append((f32(width, h) / np.float32(np.sqrt(width)), f32(h) * np.float32(0.1)))
        width = h
    return Model(game=game, players=players, feature_version=feature_version,
                 mean=f32(features), scale=np.abs(f32(features)).astype(np.float32) + np.float32(0.5),
                 layers=layers, win=(f32(width, players), f32(players)),
                 score=(f32(width, players), f32(players)), score_scale=score_scale,
                 provenance={"test": "random weights"})
