"""OpenSpiel adapter: atelier's rulesets as pyspiel games (docs/openspiel.md).

    import pyspiel
    import atelier.openspiel                      # registers the games
    game = pyspiel.load_game("atelier_inventors", {"players": 3})

Games: atelier_inventors (perfect information, the reveal as a sequence of chance steps),
atelier_leonardo and atelier_craftsmen (imperfect information). Parameters: players, seed,
edition (a JSON file path, "" = bundled), and the ruleset's options: teams ("green,red"),
setup ("expert"|"basic") and codex (bool), age_rank ("2,0,1"). Needs `pip install
'atelier[openspiel]'` (open_spiel).

Saving a state: `save_state(state)` / `load_state(game, text)` (JSON: the actions and the
position, replayed and checked). Never give OpenSpiel's `deserialize_state` /
`pyspiel.deserialize_game_and_state` text you did not write: for a Python game it unpickles
the state's attributes, and a crafted text runs code.
"""
from __future__ import annotations

try:
    import pyspiel  # noqa: F401
except ImportError as exc:   # pragma: no cover - depends on the environment
    raise ImportError("atelier.openspiel needs OpenSpiel: pip install 'atelier[openspiel]' "
                      f"(open_spiel); {exc}") from exc

from ..observe import chance_outcomes, information_state, observation, observation_tensor
from .game import GAME_CLASSES, SHORT_NAME, AtelierGame, AtelierState, register
from .save import load_state, save_state

__all__ = ["register", "load", "AtelierGame", "AtelierState", "GAME_CLASSES", "SHORT_NAME",
           "chance_outcomes", "observation", "information_state", "observation_tensor",
           "save_state", "load_state"]


def load(game: str, **params):
    """pyspiel.load_game("atelier_<game>", params): e.g. load("leonardo", players=3, setup="basic")."""
    return pyspiel.load_game(SHORT_NAME.get(game, game), params)


register()
