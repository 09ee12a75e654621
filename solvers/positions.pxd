# The Game concept as the search sees it (cext/common/concept.md): one cppclass per ruleset,
# the concept members only, all nogil. The search is written once over the fused type AnyPos;
# Cython emits one specialised copy per ruleset. Nothing here names a ruleset's fields.
from libc.stdint cimport uint16_t, uint32_t, uint64_t

cdef extern from "common/movelist.hpp" namespace "atelier" nogil:
    ctypedef uint16_t Move
    const int kMaxMoves
    const int kMaxPlayers
    const int kChancePlayer
    const int kTerminalPlayer
    cdef cppclass MoveList:
        int size
        Move moves[1024]

cdef extern from "common/features.hpp" namespace "atelier" nogil:
    const int kMaxFeatures

cdef extern from "common/rng.hpp" namespace "atelier" nogil:
    cdef cppclass Rng:
        Rng()
        Rng(uint64_t)
        void reseed(uint64_t)
        uint64_t next()
        uint32_t below(uint32_t)
        double uniform()

cdef extern from "inventors/game.hpp" nogil:
    cdef cppclass InvPosition "atelier::inventors::Position":
        int num_players()
        int current_player()
        bint is_terminal()
        bint is_chance()
        bint chance_free()
        void legal_moves(MoveList&)
        void search_moves(MoveList&)
        Move random_move(Rng&)
        void apply(Move)
        void sample_chance(Rng&)
        void playout_apply(Move)
        void playout_chance(Rng&)
        int chance_outcomes(Move*, double*, int)
        void apply_chance(Move)
        void returns(double*)
        void scores(int*)
        void score_bounds(int*, int*)
        uint64_t hash()
        uint64_t search_key()
        uint64_t infoset_key(int)
        void determinize(int, Rng&)
        void tree_apply(Move)
        void tree_chance(Rng&)
        void tree_determinize(int, Rng&)
        uint64_t tree_key(int)
        Move greedy_move(Rng&)
        int feature_count()
        int feature_version()
        void features(int, float*)

cdef extern from "testgame/game.hpp" nogil:
    cdef cppclass TestPosition "atelier::testgame::Position":
        int num_players()
        int current_player()
        bint is_terminal()
        bint is_chance()
        bint chance_free()
        void legal_moves(MoveList&)
        void search_moves(MoveList&)
        Move random_move(Rng&)
        void apply(Move)
        void sample_chance(Rng&)
        void playout_apply(Move)
        void playout_chance(Rng&)
        int chance_outcomes(Move*, double*, int)
        void apply_chance(Move)
        void returns(double*)
        void scores(int*)
        void score_bounds(int*, int*)
        uint64_t hash()
        uint64_t search_key()
        uint64_t infoset_key(int)
        void determinize(int, Rng&)
        void tree_apply(Move)
        void tree_chance(Rng&)
        void tree_determinize(int, Rng&)
        uint64_t tree_key(int)
        Move greedy_move(Rng&)
        int feature_count()
        int feature_version()
        void features(int, float*)

cdef extern from "leonardo/game.hpp" nogil:
    cdef cppclass LeoPosition "atelier::leonardo::Position":
        int num_players()
        int current_player()
        bint is_terminal()
        bint is_chance()
        bint chance_free()
        void legal_moves(MoveList&)
        void search_moves(MoveList&)
        Move random_move(Rng&)
        void apply(Move)
        void sample_chance(Rng&)
        void playout_apply(Move)
        void playout_chance(Rng&)
        int chance_outcomes(Move*, double*, int)
        void apply_chance(Move)
        void returns(double*)
        void scores(int*)
        void score_bounds(int*, int*)
        uint64_t hash()
        uint64_t search_key()
        uint64_t infoset_key(int)
        void determinize(int, Rng&)
        void tree_apply(Move)
        void tree_chance(Rng&)
        void tree_determinize(int, Rng&)
        uint64_t tree_key(int)
        Move greedy_move(Rng&)
        int feature_count()
        int feature_version()
        void features(int, float*)

cdef extern from "craftsmen/game.hpp" nogil:
    cdef cppclass CraftPosition "atelier::craftsmen::Position":
        int num_players()
        int current_player()
        bint is_terminal()
        bint is_chance()
        bint chance_free()
        void legal_moves(MoveList&)
        void search_moves(MoveList&)
        Move random_move(Rng&)
        void apply(Move)
        void sample_chance(Rng&)
        void playout_apply(Move)
        void playout_chance(Rng&)
        int chance_outcomes(Move*, double*, int)
        void apply_chance(Move)
        void returns(double*)
        void scores(int*)
        void score_bounds(int*, int*)
        uint64_t hash()
        uint64_t search_key()
        uint64_t infoset_key(int)
        void determinize(int, Rng&)
        void tree_apply(Move)
        void tree_chance(Rng&)
        void tree_determinize(int, Rng&)
        uint64_t tree_key(int)
        Move greedy_move(Rng&)
        int feature_count()
        int feature_version()
        void features(int, float*)

ctypedef fused AnyPos:
    InvPosition
    TestPosition
    LeoPosition
    CraftPosition

# Capsule names: a Python State hands its Position over as PyCapsule(name) -> Position*.
cdef enum PosKind:
    POS_INVENTORS = 0
    POS_TESTGAME = 1
    POS_LEONARDO = 2
    POS_CRAFTSMEN = 3
