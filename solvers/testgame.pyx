# distutils: language = c++
"""The "High card" test game (cext/testgame/README.md) as Python objects.

It mirrors the shape of the rulesets' State API (current_player, legal_moves, apply, child,
scores, returns, _capsule, ...) so the search and its tests run on it exactly as they run on
Legendary Inventors; it also exposes chance_outcomes / apply_chance for brute-force checks.
"""
from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport uint16_t, uint64_t
from libcpp.string cimport string
from libcpp.vector cimport vector

import numpy as np

from atelier.errors import InputError

from positions cimport Move, MoveList, Rng, TestPosition

cdef extern from "testgame/game.hpp" namespace "atelier::testgame" nogil:
    cdef cppclass CGame "atelier::testgame::Game":
        CGame(int, int, int, int, bint) except +
        int num_players()
        void initial_state(CState&)
        string move_to_string(const CState&, Move)
    cdef cppclass CState "atelier::testgame::State":
        pass

cdef extern from "testgame/features.hpp" namespace "atelier::testgame" nogil:
    int feature_count(const CGame&)
    int feature_version(const CGame&)
    vector[string] feature_names(const CGame&)

cdef extern from *:
    """
    static inline void testgame_init(atelier::testgame::Position* p, const atelier::testgame::Game* g) {
      p->game = g;
      g->initial_state(p->st);
    }
    static inline std::string testgame_move_text(const atelier::testgame::Position* p, uint16_t m) {
      return p->game->move_to_string(p->st, m);
    }
    static inline int testgame_state_bytes() { return (int)sizeof(atelier::testgame::State); }
    static inline const void* testgame_state_ptr(const atelier::testgame::Position* p) { return &p->st; }
    """
    void testgame_init(TestPosition*, const CGame*)
    string testgame_move_text(const TestPosition*, uint16_t)
    int testgame_state_bytes()
    const void* testgame_state_ptr(const TestPosition*)

CAPSULE_NAME = b"atelier.testgame.Position"
cdef const char* _capsule_name = "atelier.testgame.Position"


cdef class Game:
    """High card with `players` seats, values 1..`values`, `copies` of each, `hand` cards each;
    `sealed`: plays stay hidden until the trick is complete."""
    cdef CGame* g
    cdef readonly int players, values, copies, hand
    cdef readonly bint sealed

    def __cinit__(self, int players=2, int values=4, int copies=2, int hand=2, bint sealed=False):
        self.g = new CGame(players, values, copies, hand, sealed)
        self.players, self.values, self.copies, self.hand = players, values, copies, hand
        self.sealed = sealed

    def __dealloc__(self):
        del self.g

    def initial_state(self):
        cdef State s = State.__new__(State)
        s.game = self
        testgame_init(&s.pos, self.g)
        return s

    @property
    def feature_count(self):
        return feature_count(self.g[0])

    @property
    def feature_version(self):
        return feature_version(self.g[0])

    def feature_names(self):
        return [x.decode() for x in feature_names(self.g[0])]

    def dealt_state(self, seed):
        """The start after the deal and first prize reveal, sampled with `seed`."""
        s = self.initial_state()
        cdef Rng rng
        rng.reseed(<uint64_t>seed)
        cdef State st = s
        while st.pos.is_chance():
            st.pos.sample_chance(rng)
        return s


cdef class State:
    cdef TestPosition pos
    cdef readonly Game game

    def clone(self):
        cdef State s = State.__new__(State)
        s.game = self.game
        s.pos = self.pos
        return s

    def __eq__(self, other):
        return isinstance(other, State) and self.hash == (<State>other).hash

    def __hash__(self):
        return <Py_ssize_t>(self.pos.hash() >> 2)

    @property
    def current_player(self):
        return self.pos.current_player()

    @property
    def hash(self):
        return self.pos.hash()

    def is_terminal(self):
        return self.pos.is_terminal()

    def is_chance(self):
        return self.pos.is_chance()

    def legal_moves(self):
        cdef MoveList ml
        self.pos.legal_moves(ml)
        return [ml.moves[i] for i in range(ml.size)]

    def _check(self, int m):
        if self.pos.is_chance() or self.pos.is_terminal() or m not in self.legal_moves():
            raise ValueError(f"move '{m}': not legal here")

    def apply(self, m):
        if isinstance(m, str):
            m = self.parse_move(m)
        self._check(m)
        self.pos.apply(<Move>m)

    def child(self, m):
        s = self.clone()
        s.apply(m)
        return s

    def chance_outcomes(self):
        """[(outcome, probability)] at a chance node, [] elsewhere."""
        cdef Move mv[64]
        cdef double pr[64]
        if not self.pos.is_chance():
            return []
        k = self.pos.chance_outcomes(mv, pr, 64)
        return [(mv[i], pr[i]) for i in range(k)]

    def apply_chance(self, int m):
        if m not in [o for o, _ in self.chance_outcomes()]:
            raise ValueError(f"outcome '{m}': not possible here")
        self.pos.apply_chance(<Move>m)

    def sample_chance(self, seed):
        if not self.pos.is_chance():
            raise ValueError("sample_chance: not a chance node")
        cdef Rng rng
        rng.reseed(<uint64_t>seed)
        self.pos.sample_chance(rng)

    def determinize(self, int seat, seed):
        cdef Rng rng
        rng.reseed(<uint64_t>seed)
        self.pos.determinize(seat, rng)

    def infoset_key(self, int seat):
        return self.pos.infoset_key(seat)

    def greedy_move(self, seed=0):
        cdef Rng rng
        rng.reseed(<uint64_t>seed)
        return self.pos.greedy_move(rng)

    def scores(self):
        cdef int out[8]
        self.pos.scores(out)
        return [out[i] for i in range(self.pos.num_players())]

    def returns(self):
        cdef double out[8]
        self.pos.returns(out)
        return [out[i] for i in range(self.pos.num_players())]

    def features(self, seat):
        """numpy float32 (Game.feature_count,): this state from `seat`'s side."""
        n = self.pos.num_players()
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InputError(f"seat: expected 0..{n - 1}, got {seat!r}")
        out = np.zeros(self.pos.feature_count(), dtype=np.float32)
        cdef float[::1] buf = out
        self.pos.features(<int>seat, &buf[0])
        return out

    def move_to_string(self, int m):
        return testgame_move_text(&self.pos, <uint16_t>m).decode()

    def parse_move(self, str text):
        for m in self.legal_moves():
            if self.move_to_string(m) == text.strip().lower():
                return m
        raise ValueError(f"move '{text}': not legal here")

    def to_bytes(self):
        return (<const char*>testgame_state_ptr(&self.pos))[:testgame_state_bytes()]

    def _capsule(self):
        return PyCapsule_New(&self.pos, _capsule_name, NULL)
