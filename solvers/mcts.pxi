# MCTS: the node arena, UCT selection, backup, one iteration (included by engine.pyx).

# ---------------------------------------------------------------------------------------------
# MCTS and ISMCTS: a preallocated node arena, struct of arrays, 32-bit indices
# ---------------------------------------------------------------------------------------------

cdef enum NodeKind:
    K_NEW = 0          # created, not yet visited: its kind is set on the next visit
    K_DECISION = 1
    K_CHANCE_EXACT = 2 # outcomes enumerated with exact probabilities, one child each
    K_CHANCE_SAMPLED = 3  # too many outcomes: progressive widening over sampled outcomes
    K_TERMINAL = 4

DEF CHANCE_CAP = 64    # at most this many outcomes become exact children
DEF LEAF_FIRST = 64    # MCTS-Solver: a new leaf's first try, leaf_nodes / LEAF_FIRST nodes per test
DEF LEAF_SCALE = 64    # MCTS-Solver: at v visits (16, 64, ...), leaf_nodes * v / LEAF_SCALE per test
DEF MAX_DEPTH = 4096
DEF MAX_ARENA = 2147483646   # nodes per tree: indices are int32 (-1 = none)
DEF MAX_TREE_ITERATIONS = 4294967294   # visit counts are uint32

cdef struct Core:
    int np
    int64_t cap, size
    double* val          # cap * np: sum of backed-up rewards per player
    uint32_t* visits
    int32_t* first_child
    int32_t* next_sib
    uint16_t* move       # move (or outcome) leading here
    uint16_t* n_moves    # decision: legal moves; chance: exact outcomes
    uint16_t* n_children
    int8_t* player       # player to move here (set with the kind)
    int8_t* kind
    uint32_t* aux        # ISMCTS availability count, or index into keys for chance children
    uint64_t* keys       # side table (aux = index): sampled chance children's outcome seed
    int64_t nkeys, keycap
    uint64_t* ht_key     # ISMCTS: information-set table (ismcts.pxi), seat-salted key -> node
    int32_t* ht_node
    int64_t ht_mask
    uint64_t root_key    # ISMCTS: the observer's infoset_key at the root (node 0)
    uint64_t* legalbits  # 65536-bit scratch set of legal moves (ISMCTS)
    int32_t* avail       # ISMCTS: the children available in this determinization, kMaxMoves
    # parameters
    double c_explore, pw_c, pw_alpha
    int reward           # 0 win share, 1 score margin
    int rollout          # 0 uniform random, 1 greedy, 2 the value model (net)
    const ValueNet* net  # rollout 2: the network (owned by a Python Net the Tree keeps)
    int leaf_moves       # rollout 2: greedy moves played from a new leaf before the model judges it
    double leaf_mix      # rollout 2: weight of a random playout's outcome beside the model's value
    int ismcts, observer
    int root_player, nroot
    double lo, hi        # observed reward range (margin normalisation)
    int full
    int64_t iterations
    double* rs           # root statistics: nroot * 4 * np (win sum, win sq, score sum, score sq)
    # MCTS-Solver (solver.pxi): per node, bounds on seat 0's win share in halves (0 loss,
    # 1 draw, 2 win); equal bounds = proven. Two players, win reward, MCTS only.
    int solver
    int8_t* plo
    int8_t* phi
    ABCtx* leaf          # the exact solver for new chance-free leaves (NULL: none)
    int64_t leaf_nodes   # its node budget per null-window test
    int64_t leaf_tries, leaf_proofs
    int32_t path[MAX_DEPTH]


def node_bytes(int players):
    """Bytes per arena node for `players` seats (the design bound is 64)."""
    return 8 * players + 4 + 4 + 4 + 2 + 2 + 2 + 1 + 1 + 4   # + 2 with MCTS-Solver (2 players)


cdef int core_alloc(Core* c, int np, int64_t cap) noexcept nogil:
    """Allocate an arena of `cap` nodes into a zeroed (or core_free'd) Core. -1 when any part
    cannot be allocated: the caller then calls core_free once (never this function)."""
    memset(c, 0, sizeof(Core))
    if cap < 1 or cap > MAX_ARENA or np < 1 or np > MAX_SEATS:
        return -1
    c.np = np
    c.cap = cap
    c.val = <double*>malloc(sizeof(double) * cap * np)
    c.visits = <uint32_t*>malloc(sizeof(uint32_t) * cap)
    c.first_child = <int32_t*>malloc(sizeof(int32_t) * cap)
    c.next_sib = <int32_t*>malloc(sizeof(int32_t) * cap)
    c.move = <uint16_t*>malloc(sizeof(uint16_t) * cap)
    c.n_moves = <uint16_t*>malloc(sizeof(uint16_t) * cap)
    c.n_children = <uint16_t*>malloc(sizeof(uint16_t) * cap)
    c.player = <int8_t*>malloc(sizeof(int8_t) * cap)
    c.kind = <int8_t*>malloc(sizeof(int8_t) * cap)
    c.aux = <uint32_t*>malloc(sizeof(uint32_t) * cap)
    c.keycap = cap // 4 + 16
    c.keys = <uint64_t*>malloc(sizeof(uint64_t) * c.keycap)
    c.legalbits = <uint64_t*>calloc(1024, sizeof(uint64_t))
    c.avail = <int32_t*>malloc(sizeof(int32_t) * kMaxMoves)
    if (c.val == NULL or c.visits == NULL or c.first_child == NULL or c.next_sib == NULL
            or c.move == NULL or c.n_moves == NULL or c.n_children == NULL or c.player == NULL
            or c.kind == NULL or c.aux == NULL or c.keys == NULL
            or c.legalbits == NULL or c.avail == NULL):
        return -1
    return 0


cdef void core_free(Core* c) noexcept nogil:
    """Free the arena; idempotent (every pointer is reset), so a failed core_alloc followed by
    the owner's own cleanup never frees twice."""
    free(c.val); free(c.visits); free(c.first_child); free(c.next_sib); free(c.move)
    free(c.n_moves); free(c.n_children); free(c.player); free(c.kind); free(c.aux)
    free(c.keys); free(c.legalbits); free(c.avail); free(c.rs); free(c.ht_key); free(c.ht_node)
    free(c.plo); free(c.phi); leaf_free(c)
    c.plo = NULL; c.phi = NULL
    c.val = NULL; c.visits = NULL; c.first_child = NULL; c.next_sib = NULL; c.move = NULL
    c.n_moves = NULL; c.n_children = NULL; c.player = NULL; c.kind = NULL; c.aux = NULL
    c.keys = NULL; c.legalbits = NULL; c.avail = NULL; c.rs = NULL; c.ht_key = NULL; c.ht_node = NULL
    c.cap = 0
    c.size = 0


cdef inline int32_t new_node(Core* c, Move m) noexcept nogil:
    cdef int32_t i = <int32_t>c.size
    cdef int q
    c.size += 1
    for q in range(c.np):
        c.val[i * c.np + q] = 0.0
    c.visits[i] = 0
    c.first_child[i] = -1
    c.next_sib[i] = -1
    c.move[i] = m
    c.n_moves[i] = 0
    c.n_children[i] = 0
    c.player[i] = -3
    c.kind[i] = K_NEW
    c.aux[i] = 0
    if c.plo != NULL:
        c.plo[i] = 0
        c.phi[i] = 2
    return i


cdef inline void add_child(Core* c, int32_t parent, int32_t child) noexcept nogil:
    c.next_sib[child] = c.first_child[parent]
    c.first_child[parent] = child
    c.n_children[parent] += 1


cdef void classify(AnyPos* s, Core* c, int32_t node) noexcept nogil:
    cdef MoveList ml
    cdef Move mv[CHANCE_CAP]
    cdef double pr[CHANCE_CAP]
    cdef int k
    c.player[node] = <int8_t>s.current_player()
    if s.is_terminal():
        c.kind[node] = K_TERMINAL
        if c.solver:
            solver_terminal(s, c, node)
    elif s.is_chance():
        k = s.chance_outcomes(mv, pr, CHANCE_CAP)
        if k >= 0:
            c.kind[node] = K_CHANCE_EXACT
            c.n_moves[node] = <uint16_t>k
        else:
            c.kind[node] = K_CHANCE_SAMPLED
    else:
        c.kind[node] = K_DECISION
        s.legal_moves(ml)
        c.n_moves[node] = <uint16_t>ml.size
        if c.solver and c.leaf != NULL and node != 0 and s.chance_free():
            solver_leaf(s, c, node, c.leaf_nodes // LEAF_FIRST)


cdef inline int32_t select_ucb(Core* c, int32_t node, int p) noexcept nogil:
    """The child with the highest UCB value; the first child when no value compares (a NaN
    never wins a comparison), so the answer is always a real child (-1 only if there is none)."""
    cdef double logn = log(<double>c.visits[node] + 1.0)
    cdef double best = -1e300, u, q, scale = 1.0, lo = 0.0
    cdef int32_t ch = c.first_child[node], bc = ch
    cdef uint32_t n
    if c.reward == 1:
        lo = c.lo
        scale = 1.0 / (c.hi - c.lo) if c.hi > c.lo else 0.0
    while ch >= 0:
        n = c.visits[ch]
        if n == 0:
            return ch
        if c.ismcts:
            logn = log_count(c.aux[ch])
        q = (c.val[ch * c.np + p] / n - lo) * scale
        u = q + c.c_explore * sqrt(logn / n)
        if u > best:
            best = u
            bc = ch
        ch = c.next_sib[ch]
    return bc


cdef void terminal_reward(AnyPos* s, Core* c, double* win, double* reward, int* sc) noexcept nogil:
    cdef int q, r
    cdef int best
    s.returns(win)
    s.scores(sc)
    if c.reward == 0:
        for q in range(c.np):
            reward[q] = win[q]
    else:
        for q in range(c.np):
            best = -2147483647
            for r in range(c.np):
                if r != q and sc[r] > best:
                    best = sc[r]
            reward[q] = sc[q] - best
            if reward[q] < c.lo:
                c.lo = reward[q]
            if reward[q] > c.hi:
                c.hi = reward[q]


DEF SCORE_TERM = 0.01     # model rollout, win reward: weight of the score term (docs/solvers.md)
DEF SCORE_TERM_SPAN = 10.0  # ... and the margin (points) at which it is tanh(1) of its weight


cdef void model_reward(Core* c, double* win, double* score, double* reward) noexcept nogil:
    """The reward with the model: the win share plus a small term for the score margin over
    the best other seat, so that a decided game (every win share 0 or 1) is still played for
    points; or, with the margin reward, the margin itself."""
    cdef int q, r
    cdef double best, m
    for q in range(c.np):
        best = -1e300
        for r in range(c.np):
            if r != q and score[r] > best:
                best = score[r]
        m = score[q] - best if c.np > 1 else 0.0
        if c.reward == 0:
            reward[q] = win[q] + SCORE_TERM * tanh(m / SCORE_TERM_SPAN)
        else:
            reward[q] = m
            if m < c.lo:
                c.lo = m
            if m > c.hi:
                c.hi = m


cdef void leaf_value(AnyPos* s, Core* c, Rng* rng, double* win, double* reward, double* score) noexcept nogil:
    """The value of the position an iteration stopped at (a new leaf, a terminal, a proven
    node): a playout to the end (rollout random or greedy: today's search, exactly), or with
    the model (rollout 2) `leaf_moves` greedy moves and the chance events on the way, then the
    network from the side of the seat to move, its outputs rotated back to absolute seats,
    its win shares mixed with `leaf_mix` of a uniformly random playout's outcome from the same
    state (AlphaGo's lambda: who wins a playout is noisy where the network's error is
    systematic). The scores stay the network's: a random playout's points are far below real
    play's. A terminal reached on the way gives its exact returns and scores."""
    cdef int sc[MAX_SEATS]
    cdef double w[MAX_SEATS]
    cdef double v[MAX_SEATS]
    cdef float x[kMaxFeatures]
    cdef int q, seat, steps = 0
    if c.rollout != 2:
        _playout(s, rng, c.rollout)
        terminal_reward(s, c, win, reward, sc)
        for q in range(c.np):
            score[q] = sc[q]
        return
    while not s.is_terminal():
        if s.is_chance():
            s.playout_chance(rng[0])
        elif steps < c.leaf_moves:
            s.playout_apply(s.greedy_move(rng[0]))
            steps += 1
        else:
            break
    if s.is_terminal():
        s.returns(win)
        s.scores(sc)
        for q in range(c.np):
            score[q] = sc[q]
    else:
        seat = s.current_player()
        s.features(seat, x)
        net_forward(c.net, x, w, v)
        for q in range(c.np):
            win[(seat + q) % c.np] = w[q]
            score[(seat + q) % c.np] = v[q]
        if c.leaf_mix > 0:
            _playout(s, rng, 0)
            s.returns(w)    # only who won: its scores and margin are not backed up
            for q in range(c.np):
                win[q] = (1.0 - c.leaf_mix) * win[q] + c.leaf_mix * w[q]
    model_reward(c, win, score, reward)


cdef void backup(Core* c, int depth, double* win, double* reward, double* sc) noexcept nogil:
    cdef int i, q
    cdef int32_t node
    cdef double* rs
    for i in range(depth):
        node = c.path[i]
        c.visits[node] += 1
        for q in range(c.np):
            c.val[node * c.np + q] += reward[q]
    if depth > 1:
        rs = c.rs + (c.path[1] - 1) * 4 * c.np
        for q in range(c.np):
            rs[q] += win[q]
            rs[c.np + q] += win[q] * win[q]
            rs[2 * c.np + q] += sc[q]
            rs[3 * c.np + q] += sc[q] * sc[q]
    c.iterations += 1


cdef int core_root(AnyPos* root, Core* c) noexcept nogil:
    """Root node 0 with every legal move as a child, contiguous: child i (node 1+i) = move i.
    -1: the arena holds fewer nodes than that; -2: no memory for the root statistics."""
    cdef MoveList ml
    cdef int i
    root.legal_moves(ml)
    if c.cap < 1 + ml.size or c.size != 0:
        return -1
    new_node(c, 0)
    c.kind[0] = K_DECISION
    c.player[0] = <int8_t>root.current_player()
    c.n_moves[0] = <uint16_t>ml.size
    c.n_children[0] = <uint16_t>ml.size
    for i in range(ml.size):
        new_node(c, ml.moves[i])
        if c.ismcts:
            c.aux[1 + i] = 0
    for i in range(ml.size):
        c.next_sib[1 + i] = 2 + i if i + 1 < ml.size else -1
    c.first_child[0] = 1
    c.nroot = ml.size
    c.root_player = root.current_player()
    if c.ismcts:
        c.root_key = root.infoset_key(c.root_player)   # node 0's information set
    c.rs = <double*>calloc(ml.size * 4 * c.np + 1, sizeof(double))
    if c.rs == NULL:
        return -2
    return 0


cdef int mcts_iteration(AnyPos* root, Core* c, Rng* rng) noexcept nogil:
    """One MCTS iteration (select, expand one node, playout, back up). 1 when the arena is full."""
    cdef AnyPos s = root[0]
    cdef int32_t node = 0, ch
    cdef int depth = 1, i, k, besti
    cdef MoveList ml
    cdef Move mv[CHANCE_CAP]
    cdef double pr[CHANCE_CAP]
    cdef double win[MAX_SEATS]
    cdef double reward[MAX_SEATS]
    cdef double sc[MAX_SEATS]
    cdef double score, bests, allowed
    cdef uint64_t seed, total, r
    cdef Rng crng
    c.path[0] = 0
    while True:
        if c.kind[node] == K_NEW:
            classify(&s, c, node)
            break
        if c.kind[node] == K_TERMINAL:
            break
        if (c.solver and c.leaf != NULL and node != 0 and c.kind[node] == K_DECISION
                and leaf_due(c, node) and s.chance_free()):
            solver_leaf(&s, c, node, c.leaf_nodes * c.visits[node] // LEAF_SCALE)
        if c.solver and node != 0 and c.plo[node] == c.phi[node]:
            break   # proven: its exact value replaces the leaf's win below (the scores stay the leaf's)
        if depth >= MAX_DEPTH - 1:
            break
        if c.kind[node] == K_DECISION:
            if c.n_children[node] < c.n_moves[node]:
                if c.size >= c.cap:
                    c.full = 1
                    return 1
                s.legal_moves(ml)
                ch = new_node(c, ml.moves[c.n_children[node]])
                add_child(c, node, ch)
                s.apply(c.move[ch])
            else:
                ch = select_ucb(c, node, c.player[node]) if not c.solver else select_solver(c, node, c.player[node])
                if ch < 0:
                    break   # a decision without moves (not a valid ruleset): play out from here
                s.apply(c.move[ch])
        elif c.kind[node] == K_CHANCE_EXACT:
            k = s.chance_outcomes(mv, pr, CHANCE_CAP)
            if k <= 0 or (c.n_children[node] != 0 and c.n_children[node] != k):
                break   # the outcomes changed under us (not a valid ruleset): play out from here
            if c.n_children[node] == 0:
                if c.size + k > c.cap:
                    c.full = 1
                    return 1
                for i in range(k):
                    ch = new_node(c, mv[i])
                    if i + 1 < k:
                        c.next_sib[ch] = ch + 1
                c.first_child[node] = <int32_t>(c.size - k)
                c.n_children[node] = <uint16_t>k
            # Stratified choice: the outcome furthest below its share p_i of the visits.
            besti = 0
            bests = -1e300
            ch = c.first_child[node]
            for i in range(k):
                score = pr[i] * (c.visits[node] + 1.0) - c.visits[ch + i]
                if score > bests:
                    bests = score
                    besti = i
            ch = ch + besti
            s.apply_chance(mv[besti])
        else:  # K_CHANCE_SAMPLED: progressive widening over sampled outcomes
            allowed = c.pw_c * pow(c.visits[node] + 1.0, c.pw_alpha)
            if c.n_children[node] == 0 or c.n_children[node] < allowed:
                if c.size >= c.cap or c.nkeys >= c.keycap or c.n_children[node] == 65535:
                    c.full = 1
                    return 1
                seed = rng.next()
                ch = new_node(c, 0)
                c.aux[ch] = <uint32_t>c.nkeys
                c.keys[c.nkeys] = seed
                c.nkeys += 1
                add_child(c, node, ch)
            else:
                total = 0
                ch = c.first_child[node]
                while ch >= 0:
                    total += c.visits[ch]
                    ch = c.next_sib[ch]
                r = rng.below(<uint32_t>total) if total > 0 else 0
                ch = c.first_child[node]
                while c.next_sib[ch] >= 0 and r >= c.visits[ch]:
                    r -= c.visits[ch]
                    ch = c.next_sib[ch]
                seed = c.keys[c.aux[ch]]
            crng.reseed(seed)
            s.sample_chance(crng)
        c.path[depth] = ch
        depth += 1
        node = ch
    leaf_value(&s, c, rng, win, reward, sc)
    if c.solver:
        solver_backup(c, depth, win, reward)
    backup(c, depth, win, reward, sc)
    return 0
