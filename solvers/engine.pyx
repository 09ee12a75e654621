# distutils: language = c++
"""The search: MCTS, information-set MCTS, exact expectimax and the baseline bots.

Written once over the fused Position type `AnyPos` (positions.pxd): Cython emits one
specialised copy per ruleset and every loop runs without the GIL. Only the Game concept's
members (cext/common/concept.md) are used here, never a ruleset's fields.

A Python State hands its Position over through `state._capsule()` (PyCapsule named
"atelier.<game>.Position"); the search copies the Position and the caller keeps the State
alive while searching. Algorithms and rules: docs/solvers.md.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_GetName, PyCapsule_CheckExact
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset
from libc.math cimport sqrt, log, pow, ceil

from positions cimport (AnyPos, InvPosition, TestPosition, Move, MoveList, Rng, kMaxPlayers,
                        PosKind, POS_INVENTORS, POS_TESTGAME)

cdef extern from "util.hpp" namespace "atelier::search" nogil:
    double now_seconds()

# ---------------------------------------------------------------------------------------------
# Positions from Python
# ---------------------------------------------------------------------------------------------

cdef dict _KINDS = {
    b"atelier.inventors.Position": POS_INVENTORS,
    b"atelier.testgame.Position": POS_TESTGAME,
}


cdef void* _position_ptr(object state, int* kind) except NULL:
    """The Position behind a Python State (borrowed: the caller keeps `state` alive)."""
    getter = getattr(state, "_capsule", None)
    if getter is None:
        raise TypeError(f"not a game state: {type(state).__name__}")
    cap = getter()
    if not PyCapsule_CheckExact(cap):
        raise TypeError("state._capsule() did not return a capsule")
    cdef const char* name = PyCapsule_GetName(cap)
    k = _KINDS.get(<bytes>name) if name != NULL else None
    if k is None:
        raise TypeError(f"unknown position capsule {name!r}")
    kind[0] = k
    return PyCapsule_GetPointer(cap, name)


cdef size_t _pos_size(int kind):
    return sizeof(InvPosition) if kind == POS_INVENTORS else sizeof(TestPosition)


cdef class _Pos:
    """A private copy of a Position, owned by the search."""
    cdef void* p
    cdef int kind
    cdef object keep   # the Python State it came from (its Game must outlive the copy)

    def __cinit__(self):
        self.p = NULL

    def __dealloc__(self):
        free(self.p)

    @staticmethod
    cdef _Pos of(object state):
        cdef _Pos r = _Pos.__new__(_Pos)
        cdef int kind = 0
        cdef void* src = _position_ptr(state, &kind)
        r.kind = kind
        r.p = malloc(_pos_size(kind))
        memcpy(r.p, src, _pos_size(kind))
        r.keep = state
        return r


cdef inline int _np(_Pos p) noexcept nogil:
    if p.kind == POS_INVENTORS:
        return (<InvPosition*>p.p).num_players()
    return (<TestPosition*>p.p).num_players()


cdef inline int _cur(_Pos p) noexcept nogil:
    if p.kind == POS_INVENTORS:
        return (<InvPosition*>p.p).current_player()
    return (<TestPosition*>p.p).current_player()


cdef inline uint64_t _infoset_key(_Pos p, int seat) noexcept nogil:
    if p.kind == POS_INVENTORS:
        return (<InvPosition*>p.p).infoset_key(seat)
    return (<TestPosition*>p.p).infoset_key(seat)


cdef inline uint64_t _hash(_Pos p) noexcept nogil:
    if p.kind == POS_INVENTORS:
        return (<InvPosition*>p.p).hash()
    return (<TestPosition*>p.p).hash()


cdef int _legal(_Pos p, MoveList* ml) noexcept nogil:
    if p.kind == POS_INVENTORS:
        (<InvPosition*>p.p).legal_moves(ml[0])
    else:
        (<TestPosition*>p.p).legal_moves(ml[0])
    return ml.size


def hidden_information(state):
    """True when the seat to move does not see the whole state (infoset_key != hash)."""
    cdef _Pos p = _Pos.of(state)
    cdef int cur = _cur(p)
    if cur < 0:
        return False
    if p.kind == POS_INVENTORS:
        return (<InvPosition*>p.p).infoset_key(cur) != (<InvPosition*>p.p).hash()
    return (<TestPosition*>p.p).infoset_key(cur) != (<TestPosition*>p.p).hash()


def position_info(state):
    """(players, current_player, legal move count) as the search sees `state`."""
    cdef _Pos p = _Pos.of(state)
    cdef MoveList ml
    _legal(p, &ml)
    return _np(p), _cur(p), ml.size

# One module, one concept per file: the parts below are textually included, in this order,
# because they share the cdef helpers and the fused position type defined above.
include "bots.pxi"
include "mcts.pxi"
include "ismcts.pxi"
include "tree.pxi"
include "expectimax.pxi"
