"""atelier's rulesets as OpenSpiel Python games (docs/openspiel.md).

One Game and one State class serve the three rulesets; a ruleset is a row of RULESETS. The core
state lives in `state._c` (a `_Core`: pickles as the game's parameters and the packed state,
deep-copies as `clone()`), so OpenSpiel's Python-game Clone (deepcopy of the attributes) and
Serialize (pickle of them) work on it. Legendary Inventors' reveal is played as a sequence of
chance steps (chance.py), kept in `state._reveal` until the whole reveal is applied to the core.
"""
from __future__ import annotations

import functools

import numpy as np
import pyspiel

from .. import observe
from ..errors import InputError
from .chance import MAX_CHANCE_OUTCOMES as INVENTORS_CHANCE_OUTCOMES
from .chance import Reveal

NUM_ACTIONS = 1 << 16   # every core move id is a 16-bit number (docs/notation.md "Move numbers")

# Upper bounds on the number of actions (chance steps included) in a game, per player count:
# measured as the longest of 300 random games per count (100 for Craftsmen), about doubled.
# Longest seen: inventors 161/201/241/280, leonardo 145/223/297/364, craftsmen 484/669/905/1072
# (2..5 players; an Inventors reveal counts its 2K steps). Not a proof: a bound OpenSpiel uses for
# sizes, not a rule of the games.
MAX_GAME_LENGTH = {
    "inventors": {2: 400, 3: 500, 4: 600, 5: 700},
    "leonardo": {2: 300, 3: 500, 4: 600, 5: 800},
    "craftsmen": {2: 1000, 3: 1400, 4: 1900, 5: 2200},
}

_BASE_PARAMS = {"players": 2, "seed": 0, "edition": ""}
RULESETS = {
    "inventors": dict(title="Legendary Inventors", hidden=False,
                      params={"teams": ""}, chance_outcomes=INVENTORS_CHANCE_OUTCOMES),
    "leonardo": dict(title="Leonardo da Vinci", hidden=True,
                     params={"setup": "expert", "codex": False}, chance_outcomes=NUM_ACTIONS),
    "craftsmen": dict(title="Craftsmen", hidden=True,
                      params={"age_rank": ""}, chance_outcomes=NUM_ACTIONS),
}
SHORT_NAME = {name: f"atelier_{name}" for name in RULESETS}


def game_type(name: str) -> pyspiel.GameType:
    rs = RULESETS[name]
    info = (pyspiel.GameType.Information.IMPERFECT_INFORMATION if rs["hidden"]
            else pyspiel.GameType.Information.PERFECT_INFORMATION)
    return pyspiel.GameType(
        short_name=SHORT_NAME[name],
        long_name=f"atelier {rs['title']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=5,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_BASE_PARAMS, **rs["params"]),
    )


def game_info(name: str, players: int) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=RULESETS[name]["chance_outcomes"],
        num_players=players,
        min_utility=0.0,          # returns are win shares: 1 to the winner, ties split
        max_utility=1.0,
        utility_sum=None,         # GENERAL_SUM as OpenSpiel counts it (the shares do add up to 1)
        max_game_length=MAX_GAME_LENGTH[name][players],
    )


def _key(name: str, params: dict) -> tuple:
    spec = dict(_BASE_PARAMS, **RULESETS[name]["params"])
    return (name,) + tuple((k, params.get(k, spec[k])) for k in sorted(spec))


@functools.lru_cache(maxsize=64)
def core_game(key: tuple):
    """The atelier Game of a parameter key (cached: states share it)."""
    import atelier

    name, params = key[0], dict(key[1:])
    opts = {"players": int(params["players"]), "seed": int(params["seed"]),
            "edition": params["edition"] or None}
    if name == "inventors":
        teams = [t.strip() for t in str(params["teams"]).split(",") if t.strip()]
        opts["teams"] = teams or None
    elif name == "leonardo":
        opts["setup"] = str(params["setup"])
        opts["codex"] = bool(params["codex"])
    else:
        text = str(params["age_rank"]).strip()
        try:
            opts["age_rank"] = [int(r) for r in text.split(",")] if text else None
        except ValueError:
            raise InputError(f"age_rank: expected ranks separated by commas, got {text!r}") from None
    return atelier.open(name, **opts)


def _restore_core(key, data):
    import importlib

    game = core_game(key)
    state_cls = importlib.import_module(type(game).__module__).State
    return _Core(key, state_cls.from_bytes(game, data))


class _Core:
    """A core state with its game's key: deep-copies by clone(), pickles by to_bytes()."""

    __slots__ = ("key", "s")

    def __init__(self, key, s):
        self.key = key
        self.s = s

    def __deepcopy__(self, memo):
        return _Core(self.key, self.s.clone())

    def __reduce__(self):
        return (_restore_core, (self.key, self.s.to_bytes()))


# What a seat sees, by (game key, packed state, seat): OpenSpiel asks for the strings and the
# tensor of the same state many times (each seat, info state and observation, clones).
_SEEN: dict = {}
_SEEN_MAX = 4096


class AtelierGame(pyspiel.Game):
    """An atelier ruleset as an OpenSpiel game; `name` one of RULESETS."""

    NAME = None   # set in the per-ruleset subclasses

    def __init__(self, params=None):
        name = self.NAME
        params = dict(params or {})
        players = int(params.get("players", 2))
        if not 2 <= players <= 5:
            raise InputError(f"players: expected 2..5, got {players}")
        self.key = _key(name, params)
        self.core = core_game(self.key)
        self.ruleset = name
        self.hidden = RULESETS[name]["hidden"]
        super().__init__(game_type(name), game_info(name, players), params)
        # Legendary Inventors starts before the Age I reveal (a chance node); the others from the
        # setup dealt by `seed` (not a chance node: the deal is configuration here).
        self._start = self.core.initial_state() if name == "inventors" else self.core.start()

    def new_initial_state(self, *_):
        return AtelierState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if not isinstance(iig_obs_type, pyspiel.IIGObservationType):
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return AtelierObserver(self, iig_obs_type)


class AtelierState(pyspiel.State):
    """A position of an atelier game; actions are the core's move ids (sorted ascending)."""

    def __init__(self, game: AtelierGame):
        super().__init__(game)
        self._c = _Core(game.key, game._start.clone())
        self._reveal = None
        self._sync()

    # -- helpers -------------------------------------------------------------------------------

    @property
    def core(self):
        """The atelier core state (during an Inventors reveal: the state before it)."""
        return self._c.s

    def _sync(self):
        s = self._c.s
        if self._c.key[0] == "inventors" and self._reveal is None and s.is_chance():
            self._reveal = Reveal.of_state(s)

    def _extra(self):
        return None if self._reveal is None else {"reveal": self._reveal.summary()}

    def own_history(self, player):
        return [pa.action for pa in self.full_history() if pa.player == player]

    # -- OpenSpiel API ---------------------------------------------------------------------------

    def current_player(self):
        s = self._c.s
        if self._reveal is not None or s.is_chance():
            return pyspiel.PlayerId.CHANCE
        if s.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return int(s.current_player)

    def _legal_actions(self, player):
        return sorted(self._c.s.legal_moves())

    def chance_outcomes(self):
        if self._reveal is not None:
            return self._reveal.outcomes()
        return sorted((int(m), float(p)) for m, p, *_ in self._c.s.chance_outcomes())

    def _apply_action(self, action):
        if self._reveal is not None:
            self._reveal.apply(action)
            if self._reveal.done():
                self._c.s.apply_reveal(self._reveal.text())
                self._reveal = None
        else:
            self._c.s.apply(int(action))
        self._sync()

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE and self._reveal is not None:
            return self._reveal.action_text(action)
        try:
            return self._c.s.move_to_string(int(action))
        except ValueError:
            return f"move#{action}"

    def string_to_action(self, *args):   # (text) or (player, text), as pyspiel's
        text = args[-1]
        if self._reveal is not None:
            for a, _ in self._reveal.outcomes():
                if self._reveal.action_text(a).lower() == text.lower():
                    return a
            raise InputError(f"move {text!r}: not an outcome of this reveal step")
        return int(self._c.s.parse_move(text))

    def is_terminal(self):
        return self._reveal is None and self._c.s.is_terminal()

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.num_players()
        return [float(r) for r in self._c.s.returns()]

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state with the same information state for `player_id`: the core's determinize
        (what the seat cannot see dealt afresh, seeded from `probability_sampler()`)."""
        st = self.clone()
        if self.get_game().hidden and not self.is_terminal():
            seed = int(probability_sampler() * (1 << 53)) & ((1 << 63) - 1)
            st._c.s.determinize(int(player_id), seed)
        return st

    def seen(self, player):
        """(dict, canonical JSON, tensor) of what `player` sees, cached by the packed state."""
        s = self._c.s
        hidden = self.get_game().hidden
        key = (self._c.key, s.to_bytes(), int(player) if hidden else -1)
        hit = _SEEN.get(key)
        if hit is None:
            if len(_SEEN) >= _SEEN_MAX:
                _SEEN.clear()
            d = observe.seen_dict(s, int(player))
            hit = _SEEN[key] = [d, observe.canonical(d), None]
        extra = self._extra()
        if extra is None:
            return hit
        d = dict(hit[0], extra=extra)
        return [d, observe.canonical(d), None]

    def tensor(self, player):
        entry = self.seen(player)
        if entry[2] is None:
            entry[2] = observe.encode(entry[0], self._c.key[0])
        return entry[2]

    def information_state_string(self, player=None):
        player = self._player(player)
        return self.seen(player)[1] + "\nmine:" + ",".join(str(m) for m in self._history_for(player))

    def observation_string(self, player=None):
        return self.seen(self._player(player))[1]

    def _player(self, player):
        return self.current_player() if player is None else int(player)

    def _history_for(self, player):
        if self.get_game().hidden:
            return self.own_history(player)
        return self.history()   # perfect information: every action is public

    def __str__(self):
        import atelier

        text = atelier.dump_position(self._c.s)
        if self._reveal is not None:
            text += f"pending {self._reveal.text()}\n"
        return text


class AtelierObserver:
    """OpenSpiel observer: strings as atelier.observe, tensor = observe.encode (hashed layout)."""

    def __init__(self, game: AtelierGame, iig_obs_type):
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        if self.perfect_recall:
            self.tensor = None
            self.dict = {}
        else:
            self.tensor = np.zeros(observe.TENSOR_SIZE[game.ruleset], np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if self.tensor is None:
            return
        self.tensor[:] = state.tensor(int(player))

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


def _subclass(name):
    return type(f"Atelier{name.capitalize()}Game", (AtelierGame,), {"NAME": name})


GAME_CLASSES = {name: _subclass(name) for name in RULESETS}


def register():
    """Register atelier_inventors, atelier_leonardo and atelier_craftsmen with pyspiel (once)."""
    known = set(pyspiel.registered_names())
    for name, cls in GAME_CLASSES.items():
        if SHORT_NAME[name] not in known:
            pyspiel.register_game(game_type(name), cls)
