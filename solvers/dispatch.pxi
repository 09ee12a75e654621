# From a Position of any kind to the search written once over AnyPos (included by engine.pyx).
#
# Every call from Python into the search goes through _dispatch: the one place that turns a
# position kind into its specialised code. A Call says what to do (op) and carries the
# arguments and results, so a new ruleset adds one branch here, not one per algorithm.

cdef enum Op:
    OP_INFO = 0        # players, current, hidden; legal moves into ml when given
    OP_ROOT = 1        # core_root(core): the MCTS root and its children
    OP_RUN = 2         # run_core(core, rng, n, deadline): up to n iterations
    OP_DETERMINIZE = 3 # determinize(seat, rng)
    OP_XROOT = 4       # xroot(x, vals, line, line_chance, nline): exact values of the root moves
    OP_RANDOM = 5      # a uniformly random legal move (rng)
    OP_GREEDY = 6      # the ruleset's greedy move (rng)
    OP_PLAYOUTS = 7    # n uniformly random playouts (rng), returns summed into acc
    OP_STATS_NODE = 8  # ISMCTS: the node of core holding this decision's statistics, -1 none
    OP_HIDDEN = 9      # 1 when seat does not see the whole state (infoset_key(seat) != hash)
    OP_ABROOT = 10     # abroot(ab, prove=seat, lo, hi, rlo, rhi): alpha-beta bounds of the root moves
    OP_ABLINE = 11     # abline after root move `seat` with value v: line, returns (vals), scores (sc)
    OP_CHANCE_FREE = 12  # 1 when no chance node can be reached
    OP_FEATURES = 13   # the value model's features from `seat`'s side into feat; returns the
                       # count, the feature version in `players`
    OP_TREE_CHECK = 14 # the tree operations against the keyed ones, n random steps (rng; seat:
                       # the observer who determinizes first, -1 none): steps checked, or -(step+1)


cdef struct Call:
    int op
    int players, current, hidden    # OP_INFO results
    MoveList* ml
    Core* core
    XCtx* x
    Rng* rng
    int64_t n
    double deadline
    int seat
    double* vals
    int* line
    int* line_chance
    int* nline
    double* acc
    ABCtx* ab
    int32_t* lo
    int32_t* hi
    int32_t* rlo
    int32_t* rhi
    int32_t v
    int* sc
    float* feat


cdef int64_t _op(AnyPos* p, Call* a) noexcept nogil:
    cdef AnyPos t
    cdef MoveList ml
    cdef double r[MAX_SEATS]
    cdef int64_t i
    cdef int q
    if a.op == OP_INFO:
        a.players = p.num_players()
        a.current = p.current_player()
        a.hidden = a.current >= 0 and p.infoset_key(a.current) != p.hash()
        if a.ml != NULL:
            p.legal_moves(a.ml[0])
        return 0
    if a.op == OP_ROOT:
        return core_root(p, a.core)
    if a.op == OP_RUN:
        return run_core(p, a.core, a.rng, a.n, a.deadline)
    if a.op == OP_DETERMINIZE:
        p.determinize(a.seat, a.rng[0])
        return 0
    if a.op == OP_XROOT:
        return xroot(p, a.x, a.vals, a.line, a.line_chance, a.nline)
    if a.op == OP_RANDOM:
        return _random_move(p, a.rng)
    if a.op == OP_GREEDY:
        return p.greedy_move(a.rng[0])
    if a.op == OP_ABROOT:
        return abroot(p, a.ab, a.seat, a.lo, a.hi, a.rlo, a.rhi)
    if a.op == OP_ABLINE:
        p.legal_moves(ml)
        t = p[0]
        t.apply(ml.moves[a.seat])
        return abline(&t, a.ab, a.v, a.line, a.line_chance, a.nline, a.vals, a.sc)
    if a.op == OP_FEATURES:
        a.players = p.feature_version()
        if not 0 < p.feature_count() <= kMaxFeatures:
            return 0
        p.features(a.seat, a.feat)
        return p.feature_count()
    if a.op == OP_CHANCE_FREE:
        return p.chance_free()
    if a.op == OP_HIDDEN:
        return p.infoset_key(a.seat) != p.hash()
    if a.op == OP_STATS_NODE:
        return ismcts_stats_node(p, a.core)
    if a.op == OP_TREE_CHECK:
        return _tree_check(p, a.rng, a.n, a.seat)
    if a.op == OP_PLAYOUTS:
        for i in range(a.n):
            t = p[0]
            _playout(&t, a.rng, 0)
            t.returns(r)
            for q in range(p.num_players()):
                a.acc[q] += r[q]
        return 0
    return -1


cdef int64_t _tree_check(AnyPos* p, Rng* rng, int64_t n, int observer) noexcept nogil:
    """Play one random line twice from p, keyed (apply, sample_chance, determinize) and with the
    descent's operations (tree_apply, ...), the same draws in both: at every step the tree copy
    must give every seat's infoset_key as tree_key, and the same seat to move and legal moves.
    The decisions checked, or -(step + 1) at the first disagreement."""
    cdef AnyPos k = p[0]
    cdef AnyPos t = p[0]
    cdef MoveList mk, mt
    cdef uint64_t seed = rng.next()
    cdef Rng rk = Rng(seed)
    cdef Rng rt = Rng(seed)
    cdef int64_t step = 0
    cdef int q, i
    cdef Move m
    if observer >= 0:
        k.determinize(observer, rk)
        t.tree_determinize(observer, rt)
    while True:
        if k.current_player() != t.current_player() or k.is_terminal() != t.is_terminal():
            return -(step + 1)
        if k.current_player() >= 0:
            for q in range(k.num_players()):
                if t.tree_key(q) != k.infoset_key(q):
                    return -(step + 1)
        if step >= n or k.is_terminal():
            return step
        if k.is_chance():
            k.sample_chance(rk)
            t.tree_chance(rt)
            continue
        k.legal_moves(mk)
        t.legal_moves(mt)
        if mk.size != mt.size or mk.size == 0:
            return -(step + 1)
        for i in range(mk.size):
            if mk.moves[i] != mt.moves[i]:
                return -(step + 1)
        m = mk.moves[rk.below(<uint32_t>mk.size)]
        rt.below(<uint32_t>mt.size)
        k.apply(m)
        t.tree_apply(m)
        step += 1


cdef int64_t _dispatch(void* p, int kind, Call* a) noexcept nogil:
    """Run `a` on the Position p of `kind`: one branch per ruleset, nothing else. An unknown
    kind cannot get here (_Pos.of refuses it) and would do nothing rather than guess."""
    if kind == POS_INVENTORS:
        return _op(<InvPosition*>p, a)
    if kind == POS_TESTGAME:
        return _op(<TestPosition*>p, a)
    if kind == POS_LEONARDO:
        return _op(<LeoPosition*>p, a)
    if kind == POS_CRAFTSMEN:
        return _op(<CraftPosition*>p, a)
    return -1
