# Baseline bots and playouts (included by engine.pyx).

# ---------------------------------------------------------------------------------------------
# Baseline bots
# ---------------------------------------------------------------------------------------------

cdef Move _random_move(AnyPos* s, Rng* rng) noexcept nogil:
    cdef MoveList ml
    s.legal_moves(ml)
    return ml.moves[rng.below(<uint32_t>ml.size)]


def _bot_check(_Pos p):
    c = _cur(p)
    if c == -2:
        raise ValueError("position: the game is over")
    if c == -1:
        raise ValueError("position: a chance event is next, not a player's decision")


def random_move(state, uint64_t seed=0):
    """A uniformly random legal move (deterministic per seed)."""
    cdef _Pos p = _Pos.of(state)
    _bot_check(p)
    cdef Rng rng
    rng.reseed(seed)
    if p.kind == POS_INVENTORS:
        return _random_move(<InvPosition*>p.p, &rng)
    return _random_move(<TestPosition*>p.p, &rng)


def greedy_move(state, uint64_t seed=0):
    """The ruleset's greedy heuristic move (Position::greedy_move; deterministic per seed)."""
    cdef _Pos p = _Pos.of(state)
    _bot_check(p)
    cdef Rng rng
    rng.reseed(seed)
    if p.kind == POS_INVENTORS:
        return (<InvPosition*>p.p).greedy_move(rng)
    return (<TestPosition*>p.p).greedy_move(rng)


cdef void _playout(AnyPos* s, Rng* rng, int policy) noexcept nogil:
    cdef MoveList ml
    while not s.is_terminal():
        if s.is_chance():
            s.sample_chance(rng[0])
        elif policy == 1:
            s.apply(s.greedy_move(rng[0]))
        else:
            s.legal_moves(ml)
            s.apply(ml.moves[rng.below(<uint32_t>ml.size)])


def random_playouts(state, int n, uint64_t seed=0):
    """Mean win share per seat over `n` uniformly random playouts (a speed and sanity probe)."""
    cdef _Pos p = _Pos.of(state)
    cdef int np_ = _np(p), i, q
    cdef double acc[8]
    cdef double r[8]
    cdef Rng rng
    rng.reseed(seed)
    memset(acc, 0, sizeof(acc))
    cdef InvPosition ia
    cdef TestPosition ta
    with nogil:
        for i in range(n):
            if p.kind == POS_INVENTORS:
                ia = (<InvPosition*>p.p)[0]
                _playout(&ia, &rng, 0)
                ia.returns(r)
            else:
                ta = (<TestPosition*>p.p)[0]
                _playout(&ta, &rng, 0)
                ta.returns(r)
            for q in range(np_):
                acc[q] += r[q]
    return [acc[q] / max(n, 1) for q in range(np_)]
