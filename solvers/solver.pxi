# MCTS-Solver: proven wins, draws and losses in the MCTS tree (included by engine.pyx after
# mcts.pxi). docs/solvers.md "MCTS-Solver".
#
# Two players, win reward, MCTS (not ISMCTS): every node keeps bounds on seat 0's win share in
# halves, plo..phi in {0 loss, 1 draw, 2 win}. A terminal is proven at once; a new chance-free
# decision node is handed to alpha-beta with a small node budget and proven when it answers,
# and tried again with more as its visits grow (leaf_due).
# Bounds climb the path after each iteration (a max node's floor is its best child's floor,
# its ceiling its best child's ceiling once every child exists; a min node the other way);
# chance nodes are never proven. Selection skips a child that cannot beat what its parent
# already holds, and the root skips proven moves; a proven root ends the search.

DEF LEAF_TT_BUCKETS = 32768   # 1.5 MB per tree: the leaf solves share one table



cdef int solver_alloc(Core* c) noexcept nogil:
    """The bounds arrays (2 bytes a node), before the root is made. -1 without memory."""
    c.plo = <int8_t*>malloc(sizeof(int8_t) * c.cap)
    c.phi = <int8_t*>malloc(sizeof(int8_t) * c.cap)
    c.solver = 1
    return -1 if c.plo == NULL or c.phi == NULL else 0


cdef int leaf_alloc(Core* c, int np, int64_t leaf_nodes) noexcept nogil:
    cdef ABCtx* x = <ABCtx*>calloc(1, sizeof(ABCtx))
    if x == NULL:
        return -1
    c.leaf = x
    x.tt = <TTEntry*>calloc(2 * LEAF_TT_BUCKETS, sizeof(TTEntry))
    x.history = <int32_t*>calloc(HISTORY, sizeof(int32_t))
    if x.tt == NULL or x.history == NULL:
        return -1
    x.np = np
    x.objective = 0
    x.ordering = ORDER_TT | ORDER_HISTORY
    x.bounds = 1
    x.dom_lo, x.dom_hi = 0, WIN_SCALE
    x.max_nodes = 1 << 62
    x.next_report = 1 << 62     # never reports: no Python callback inside a tree
    x.tt_mask = LEAF_TT_BUCKETS - 1
    c.leaf_nodes = leaf_nodes
    return 0


cdef void leaf_free(Core* c) noexcept nogil:
    if c.leaf != NULL:
        free(c.leaf.tt)
        free(c.leaf.history)
        free(c.leaf)
        c.leaf = NULL


cdef void solver_terminal(AnyPos* s, Core* c, int32_t node) noexcept nogil:
    cdef double r[MAX_SEATS]
    s.returns(r)
    c.plo[node] = c.phi[node] = <int8_t>(r[0] * 2.0 + 0.5)


cdef void solver_leaf(AnyPos* s, Core* c, int32_t node, int64_t budget) noexcept nogil:
    """Try to prove a chance-free decision node with alpha-beta within `budget` nodes per test.
    The table is shared by every leaf of the tree, so every solve takes seat 0's side (values
    relative to one seat; two players make it the same game)."""
    cdef ABCtx* x = c.leaf
    cdef int32_t lo = 0, hi = WIN_SCALE, guess = WIN_SCALE // 2
    cdef int rc
    x.root_player = 0
    c.leaf_tries += 1
    rc = ab_refine(s, x, &lo, &hi, -1, budget if budget > 1 else 1, &guess)
    x.aborted = 0
    if rc == 0 and lo == hi:
        c.plo[node] = c.phi[node] = <int8_t>(lo // (WIN_SCALE // 2))
        c.leaf_proofs += 1


cdef inline bint leaf_due(Core* c, int32_t node) noexcept nogil:
    """A visited decision node is tried again at 16, 64, 256, ... visits (powers of 4), with a
    budget growing with its visits: the search invests where it keeps coming back."""
    cdef uint32_t v = c.visits[node]
    return v >= 16 and (v & (v - 1)) == 0 and (v & 0x55555555) != 0


cdef inline bint _skip(Core* c, int32_t node, int32_t ch, int p) noexcept nogil:
    """A child that cannot beat what its parent holds (or, at the root, one already proven)."""
    if node == 0 and c.plo[ch] == c.phi[ch]:
        return True
    if p == 0:
        return c.phi[ch] <= c.plo[node]
    return c.plo[ch] >= c.phi[node]


cdef int32_t select_solver(Core* c, int32_t node, int p) noexcept nogil:
    """select_ucb over the children not skipped; plain select_ucb when every child is."""
    cdef double logn = log(<double>c.visits[node] + 1.0)
    cdef double best = -1e300, u, q
    cdef int32_t ch = c.first_child[node], bc = -1
    cdef uint32_t n
    while ch >= 0:
        if not _skip(c, node, ch, p):
            n = c.visits[ch]
            if n == 0:
                return ch
            q = c.val[ch * c.np + p] / n
            u = q + c.c_explore * sqrt(logn / n)
            if bc < 0 or u > best:
                best = u
                bc = ch
        ch = c.next_sib[ch]
    return bc if bc >= 0 else select_ucb(c, node, p)


cdef void solver_backup(Core* c, int depth, double* win, double* reward) noexcept nogil:
    """A proven leaf backs up its exact value; then the bounds climb while they change."""
    cdef int i
    cdef int32_t node, ch, leaf = c.path[depth - 1]
    cdef int8_t lo, hi
    cdef bint all_kids
    if c.plo[leaf] == c.phi[leaf]:
        win[0] = c.plo[leaf] * 0.5
        win[1] = 1.0 - win[0]
        reward[0], reward[1] = win[0], win[1]
    for i in range(depth - 2, -1, -1):
        node = c.path[i]
        if c.kind[node] != K_DECISION:
            break
        all_kids = c.n_children[node] >= c.n_moves[node]
        ch = c.first_child[node]
        if c.player[node] == 0:
            lo, hi = 0, 0
            while ch >= 0:
                if c.plo[ch] > lo:
                    lo = c.plo[ch]
                if c.phi[ch] > hi:
                    hi = c.phi[ch]
                ch = c.next_sib[ch]
            if not all_kids:
                hi = 2
        else:
            lo, hi = 2, 2
            while ch >= 0:
                if c.plo[ch] < lo:
                    lo = c.plo[ch]
                if c.phi[ch] < hi:
                    hi = c.phi[ch]
                ch = c.next_sib[ch]
            if not all_kids:
                lo = 0
        if lo == c.plo[node] and hi == c.phi[node]:
            break
        c.plo[node], c.phi[node] = lo, hi
