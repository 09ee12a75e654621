# Baseline bots and playouts (included by engine.pyx).

# ---------------------------------------------------------------------------------------------
# Baseline bots
# ---------------------------------------------------------------------------------------------

cdef Move _random_move(AnyPos* s, Rng* rng) noexcept nogil:
    cdef MoveList ml
    s.legal_moves(ml)
    return ml.moves[rng.below(<uint32_t>ml.size)]


def _bot_check(_Pos p):
    if p.current == -2:
        raise ValueError("position: the game is over")
    if p.current == -1:
        raise ValueError("position: a chance event is next, not a player's decision")
    if p.moves.size < 1:
        raise ValueError("position: no legal move")


cdef Move _bot_move(object state, uint64_t seed, int op):
    cdef _Pos p = _Pos.of(state)
    _bot_check(p)
    cdef Rng rng
    rng.reseed(seed)
    cdef Call a
    memset(&a, 0, sizeof(Call))
    a.op = op
    a.rng = &rng
    return <Move>p.call(&a)


def random_move(state, uint64_t seed=0):
    """A uniformly random legal move (deterministic per seed)."""
    return _bot_move(state, seed, OP_RANDOM)


def greedy_move(state, uint64_t seed=0):
    """The ruleset's greedy heuristic move (Position::greedy_move; deterministic per seed)."""
    return _bot_move(state, seed, OP_GREEDY)


cdef void _playout(AnyPos* s, Rng* rng, int policy) noexcept nogil:
    # playout_*: the state is thrown away at the end, so a ruleset may skip its keys (concept.md);
    # random_move draws the move legal_moves()[below(size)] would give, without the list.
    while not s.is_terminal():
        if s.is_chance():
            s.playout_chance(rng[0])
        elif policy == 1:
            s.playout_apply(s.greedy_move(rng[0]))
        else:
            s.playout_apply(s.random_move(rng[0]))


def random_playouts(state, int64_t n, uint64_t seed=0):
    """Mean win share per seat over `n` uniformly random playouts (a speed and sanity probe)."""
    cdef _Pos p = _Pos.of(state)
    cdef int q
    cdef double acc[MAX_SEATS]
    cdef Rng rng
    rng.reseed(seed)
    memset(acc, 0, sizeof(acc))
    cdef Call a
    memset(&a, 0, sizeof(Call))
    a.op = OP_PLAYOUTS
    a.rng = &rng
    a.n = n
    a.acc = acc
    with nogil:
        p.call(&a)
    return [acc[q] / max(n, 1) for q in range(p.players)]
