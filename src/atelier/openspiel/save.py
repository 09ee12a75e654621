"""Saving an adapter state as data, and restoring it, without running code (docs/openspiel.md).

OpenSpiel's own `state.serialize()` / `game.deserialize_state(text)` for a Python game write and
read a pickle of the state's attributes: a crafted text runs whatever code it names. The text
here is JSON only: the game's name and parameters, the action history from the game's start,
and the position the history reaches (atelier.position_dict of the core state, the full truth:
a save is not a view for one seat). Loading replays the history through the game, each action
checked against the legal actions (or the chance outcomes) where it is played, and then the
position must be the one saved.

    from atelier.openspiel import save_state, load_state
    text = save_state(state)
    again = load_state(game, text)        # the same history, the same position
"""
from __future__ import annotations

import json

from .. import jsonfmt
from ..errors import InputError
from .game import NUM_ACTIONS, AtelierGame, AtelierState

FORMAT = "atelier.openspiel-state/1"
KEYS = ("format", "game", "params", "actions", "position")
MAX_ACTIONS = 100_000   # far above any game's length (MAX_GAME_LENGTH), so a text cannot ask for hours


def _position(state: AtelierState) -> dict:
    import atelier

    # Through JSON, so that the saved and the replayed positions compare as the same plain data.
    return json.loads(json.dumps(atelier.position_dict(state.core)))


def save_state(state) -> str:
    """The state as JSON text (format atelier.openspiel-state/1): game, parameters, actions, position."""
    if not isinstance(state, AtelierState):
        raise InputError(f"state: expected an atelier OpenSpiel state, got {type(state).__name__}")
    game = state.get_game()
    doc = {"format": FORMAT, "game": game.get_type().short_name, "params": dict(game.get_parameters()),
           "actions": [int(a) for a in state.history()], "position": _position(state)}
    return json.dumps(doc, separators=(",", ":"))


def load_state(game, text) -> AtelierState:
    """The state `save_state` wrote, replayed in `game` (which must have the saved name and
    parameters). InputError, one line, for anything else: text that is not such a document, an
    action not legal where it stands, a position other than the one the actions reach."""
    if not isinstance(game, AtelierGame):
        raise InputError(f"game: expected an atelier OpenSpiel game, got {type(game).__name__}")
    if not isinstance(text, (str, bytes)):
        raise InputError(f"state: expected JSON text, got {type(text).__name__}")
    doc = jsonfmt.loads(text, "state")
    if not isinstance(doc, dict):
        raise InputError("state: expected a JSON object (atelier.openspiel.save_state's text)")
    for key in doc:
        if key not in KEYS:
            raise InputError(f"state.{key}: unknown field (expected: {', '.join(KEYS)})")
    for key in KEYS:
        if key not in doc:
            raise InputError(f"state.{key}: missing")
    if doc["format"] != FORMAT:
        raise InputError(f"state.format: expected {FORMAT!r}, got {doc['format']!r:.40}")
    name = game.get_type().short_name
    if doc["game"] != name:
        raise InputError(f"state.game: {doc['game']!r:.40}, but the game is {name}")
    params = dict(game.get_parameters())
    if doc["params"] != params:
        raise InputError(f"state.params: {json.dumps(doc['params'])[:80]}, but the game's are {json.dumps(params)}")
    actions = doc["actions"]
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise InputError(f"state.actions: expected a list of at most {MAX_ACTIONS:,} action ids")
    state = game.new_initial_state()
    for i, a in enumerate(actions):
        if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < NUM_ACTIONS:
            raise InputError(f"state.actions[{i}]: expected an action id 0..{NUM_ACTIONS - 1}, got {a!r:.40}")
        if state.is_terminal():
            raise InputError(f"state.actions[{i}]: the game is over before it")
        legal = ([o for o, _ in state.chance_outcomes()] if state.is_chance_node()
                 else state.legal_actions())
        if a not in legal:
            raise InputError(f"state.actions[{i}]: {a} is not a legal action there")
        state.apply_action(a)
    if doc["position"] != _position(state):
        raise InputError("state.position: not the position the actions reach (the text was edited, "
                         "or saved from another edition)")
    return state
