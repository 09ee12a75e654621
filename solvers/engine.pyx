# distutils: language = c++
"""The search: MCTS, information-set MCTS, exact expectimax and the baseline bots.

Written once over the fused Position type `AnyPos` (positions.pxd): Cython emits one
specialised copy per ruleset and every loop runs without the GIL. Only the Game concept's
members (cext/common/concept.md) are used here, never a ruleset's fields.

A Python State hands its Position over through `state._capsule()` (PyCapsule named
"atelier.<game>.Position"); the search copies the Position and the caller keeps the State
alive while searching. Algorithms and rules: docs/solvers.md.
"""
from cpython.exc cimport PyErr_CheckSignals
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_GetName, PyCapsule_CheckExact
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset
from libc.math cimport sqrt, log, pow, ceil, tanh

from positions cimport (AnyPos, InvPosition, TestPosition, LeoPosition, CraftPosition, Move, MoveList, kMaxFeatures,
                        kMaxMoves, Rng, PosKind, POS_INVENTORS, POS_TESTGAME, POS_LEONARDO, POS_CRAFTSMEN)

cdef extern from "util.hpp" namespace "atelier::search" nogil:
    double now_seconds()
    double thread_cpu_seconds()
    void* table_alloc(size_t)
    void table_free(void*)
    void prefetch(const void*)

DEF MAX_SEATS = 8      # per-seat scratch arrays in the search; kMaxPlayers (5) fits
DEF REPORT_EVERY = 65536   # exact searches: nodes between two progress reports (and Ctrl-C checks)

from atelier.errors import InputError

# log k for the visit counts UCB reads, filled once: ISMCTS takes the log of every available
# child's own count at every selection (60 logs an iteration at a Leonardo start, a fifth of the
# search's own cost). The same libm log, so the same values: a lookup, not an approximation.
DEF LOG_TABLE = 32768
cdef double log_table[LOG_TABLE]
cdef int _k
for _k in range(LOG_TABLE):
    log_table[_k] = log(<double>_k)


cdef inline double log_count(uint32_t k) noexcept nogil:
    return log_table[k] if k < LOG_TABLE else log(<double>k)


# ---------------------------------------------------------------------------------------------
# Position kinds: the only place the search learns which rulesets exist
# ---------------------------------------------------------------------------------------------

# Capsule name -> (kind, bytes of its Position). A new ruleset: declare its Position in
# positions.pxd (and add it to AnyPos and PosKind), add one row here and one branch in
# _dispatch (dispatch.pxi). Any other capsule is refused before a byte is copied.
cdef dict _KINDS = {
    b"atelier.inventors.Position": (POS_INVENTORS, sizeof(InvPosition)),
    b"atelier.testgame.Position": (POS_TESTGAME, sizeof(TestPosition)),
    b"atelier.leonardo.Position": (POS_LEONARDO, sizeof(LeoPosition)),
    b"atelier.craftsmen.Position": (POS_CRAFTSMEN, sizeof(CraftPosition)),
}


def position_kinds():
    """{capsule name: bytes of its Position} for every position kind the search runs on."""
    return {name.decode(): size for name, (_, size) in _KINDS.items()}


cdef void* _position_ptr(object state, int* kind, size_t* size) except NULL:
    """The Position behind a Python State (borrowed: the caller keeps `state` alive)."""
    getter = getattr(state, "_capsule", None)
    if getter is None:
        raise InputError(f"position: not a game state ({type(state).__name__})")
    cap = getter()
    if not PyCapsule_CheckExact(cap):
        raise InputError("position: state._capsule() did not return a capsule")
    cdef const char* name = PyCapsule_GetName(cap)
    entry = _KINDS.get(<bytes>name) if name != NULL else None
    if entry is None:
        known = ", ".join(n.decode() for n in _KINDS)
        shown = (<bytes>name).decode("utf-8", "replace") if name != NULL else None
        raise InputError(f"position: unknown kind {shown!r} (the search knows {known})")
    kind[0] = entry[0]
    size[0] = entry[1]
    return PyCapsule_GetPointer(cap, name)


cdef class _Pos:
    """A private copy of a Position, owned by the search, and what the search needs to know
    about it at the root (seats, seat to move, legal moves, hidden information)."""
    cdef void* p
    cdef int kind
    cdef int players, current, hidden
    cdef MoveList moves
    cdef object keep   # the Python State it came from (its Game must outlive the copy)

    def __cinit__(self):
        self.p = NULL

    def __dealloc__(self):
        free(self.p)

    @staticmethod
    cdef _Pos of(object state):
        cdef _Pos r = _Pos.__new__(_Pos)
        cdef int kind = 0
        cdef size_t size = 0
        cdef void* src = _position_ptr(state, &kind, &size)
        r.p = malloc(size)
        if r.p == NULL:
            raise MemoryError("position: cannot copy the position")
        memcpy(r.p, src, size)
        r.kind = kind
        r.keep = state
        r.refresh()
        if not 1 <= r.players <= MAX_SEATS:
            raise InputError(f"position: {r.players} seats; the search handles 1..{MAX_SEATS}")
        return r

    cdef void refresh(self):
        """Re-read the root facts (after the copy changed, e.g. determinize)."""
        cdef Call a
        memset(&a, 0, sizeof(Call))
        a.op = OP_INFO
        a.ml = &self.moves
        _dispatch(self.p, self.kind, &a)
        self.players, self.current, self.hidden = a.players, a.current, a.hidden

    cdef int64_t call(self, Call* a) noexcept nogil:
        return _dispatch(self.p, self.kind, a)


def hidden_information(state, seat=None):
    """True when the seat to move (or `seat`) does not see the whole state (infoset_key != hash)."""
    cdef _Pos p = _Pos.of(state)
    if seat is None:
        return bool(p.hidden)
    if not 0 <= seat < p.players:
        raise InputError(f"seat: expected 0..{p.players - 1}, got {seat}")
    cdef Call a
    memset(&a, 0, sizeof(Call))
    a.op = OP_HIDDEN
    a.seat = seat
    return bool(p.call(&a))


def position_game(state):
    """The ruleset name of a state's position kind ("atelier.<game>.Position" -> "<game>"), so
    that generic code can find that ruleset's optional hooks. InputError for an unknown kind."""
    cdef int kind = 0
    cdef size_t size = 0
    _position_ptr(state, &kind, &size)
    cdef const char* name = PyCapsule_GetName(state._capsule())
    return (<bytes>name).decode().split(".")[1]


def position_features(state, seat=None):
    """(feature_count, feature_version, row) of `state`'s ruleset: the feature vector the value
    model reads, written from `seat`'s side (default: the seat to move, else seat 0) as a list
    of floats (docs/models.md)."""
    cdef _Pos p = _Pos.of(state)
    cdef float x[kMaxFeatures]
    cdef int s = (p.current if p.current >= 0 else 0) if seat is None else seat
    if not 0 <= s < p.players:
        raise InputError(f"seat: expected 0..{p.players - 1}, got {seat}")
    cdef Call a
    memset(&a, 0, sizeof(Call))
    a.op = OP_FEATURES
    a.seat = s
    a.feat = x
    cdef int n = <int>p.call(&a)
    return n, a.players, [x[i] for i in range(n)]


def _check_tree_ops(state, int64_t steps, uint64_t seed=0, int observer=-1):
    """Test hook (tests/test_solvers_ismcts_tree_ops.py): the decisions of one seeded random line
    from `state` on which the search's descent operations (concept: tree_apply ...) agree with
    the keyed ones, or -(step + 1) at the first step where they do not. `observer` >= 0
    determinizes both copies for that seat first, as an ISMCTS iteration does."""
    cdef _Pos p = _Pos.of(state)
    if not -1 <= observer < p.players:
        raise InputError(f"observer: expected -1..{p.players - 1}, got {observer}")
    cdef Rng rng = Rng(seed)
    cdef Call a
    memset(&a, 0, sizeof(Call))
    a.op = OP_TREE_CHECK
    a.rng = &rng
    a.n = steps
    a.seat = observer
    return p.call(&a)


def position_info(state):
    """(players, current_player, legal move count) as the search sees `state`."""
    cdef _Pos p = _Pos.of(state)
    return p.players, p.current, p.moves.size

# One module, one concept per file: the parts below are textually included, in this order,
# because they share the cdef helpers and the fused position type defined above.
include "net.pxi"
include "bots.pxi"
include "alphabeta.pxi"
include "mcts.pxi"
include "solver.pxi"
include "ismcts.pxi"
include "tree.pxi"
include "expectimax.pxi"
include "dispatch.pxi"
