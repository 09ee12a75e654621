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
DEF MAX_DEPTH = 4096

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
    uint64_t* keys       # side table (aux = index): chance children's outcome seed (MCTS) or
                         # observer key (ISMCTS); ISMCTS opponent-move classes' observer key
    uint32_t* keyavail   # side table: availability count of an ISMCTS opponent-move class
    int64_t nkeys, keycap
    uint64_t* legalbits  # 65536-bit scratch set of legal moves (ISMCTS)
    # parameters
    double c_explore, pw_c, pw_alpha
    int reward           # 0 win share, 1 score margin
    int rollout          # 0 uniform random, 1 greedy
    int ismcts, observer
    int root_player, nroot
    double lo, hi        # observed reward range (margin normalisation)
    int full
    int64_t iterations
    double* rs           # root statistics: nroot * 4 * np (win sum, win sq, score sum, score sq)
    int32_t path[MAX_DEPTH]


def node_bytes(int players):
    """Bytes per arena node for `players` seats (the design bound is 64)."""
    return 8 * players + 4 + 4 + 4 + 2 + 2 + 2 + 1 + 1 + 4


cdef int core_alloc(Core* c, int np, int64_t cap) noexcept nogil:
    memset(c, 0, sizeof(Core))
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
    c.keyavail = <uint32_t*>malloc(sizeof(uint32_t) * c.keycap)
    c.legalbits = <uint64_t*>calloc(1024, sizeof(uint64_t))
    if (c.val == NULL or c.visits == NULL or c.first_child == NULL or c.next_sib == NULL
            or c.move == NULL or c.n_moves == NULL or c.n_children == NULL or c.player == NULL
            or c.kind == NULL or c.aux == NULL or c.keys == NULL or c.keyavail == NULL
            or c.legalbits == NULL):
        return -1
    return 0


cdef void core_free(Core* c) noexcept nogil:
    free(c.val); free(c.visits); free(c.first_child); free(c.next_sib); free(c.move)
    free(c.n_moves); free(c.n_children); free(c.player); free(c.kind); free(c.aux)
    free(c.keys); free(c.keyavail); free(c.legalbits); free(c.rs)
    c.val = NULL; c.rs = NULL; c.keys = NULL; c.keyavail = NULL; c.legalbits = NULL


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
    elif s.is_chance():
        k = s.chance_outcomes(mv, pr, CHANCE_CAP)
        if k >= 0 and not c.ismcts:
            c.kind[node] = K_CHANCE_EXACT
            c.n_moves[node] = <uint16_t>k
        else:
            c.kind[node] = K_CHANCE_SAMPLED
    else:
        c.kind[node] = K_DECISION
        s.legal_moves(ml)
        c.n_moves[node] = <uint16_t>ml.size


cdef inline int32_t select_ucb(Core* c, int32_t node, int p) noexcept nogil:
    cdef double logn = log(<double>c.visits[node] + 1.0)
    cdef double best = -1e300, u, q, scale = 1.0, lo = 0.0
    cdef int32_t bc = -1, ch = c.first_child[node]
    cdef uint32_t n
    if c.reward == 1:
        lo = c.lo
        scale = 1.0 / (c.hi - c.lo) if c.hi > c.lo else 0.0
    while ch >= 0:
        n = c.visits[ch]
        if n == 0:
            return ch
        if c.ismcts:
            logn = log(<double>c.aux[ch])
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


cdef void backup(Core* c, int depth, double* win, double* reward, int* sc) noexcept nogil:
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
            rs[3 * c.np + q] += <double>sc[q] * sc[q]
    c.iterations += 1


cdef int core_root(AnyPos* root, Core* c) noexcept nogil:
    """Root node 0 with every legal move as a child, contiguous: child i (node 1+i) = move i."""
    cdef MoveList ml
    cdef int i
    root.legal_moves(ml)
    if c.cap < 1 + ml.size:
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
    c.rs = <double*>calloc(ml.size * 4 * c.np, sizeof(double))
    return 0


cdef int mcts_iteration(AnyPos* root, Core* c, Rng* rng) noexcept nogil:
    """One MCTS iteration (select, expand one node, playout, back up). 1 when the arena is full."""
    cdef AnyPos s = root[0]
    cdef int32_t node = 0, ch
    cdef int depth = 1, i, k, besti
    cdef MoveList ml
    cdef Move mv[CHANCE_CAP]
    cdef double pr[CHANCE_CAP]
    cdef double win[8]
    cdef double reward[8]
    cdef int sc[8]
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
                ch = select_ucb(c, node, c.player[node])
                s.apply(c.move[ch])
        elif c.kind[node] == K_CHANCE_EXACT:
            k = s.chance_outcomes(mv, pr, CHANCE_CAP)
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
    _playout(&s, rng, c.rollout)
    terminal_reward(&s, c, win, reward, sc)
    backup(c, depth, win, reward, sc)
    return 0


cdef int ismcts_iteration(AnyPos* root, Core* c, Rng* rng) noexcept nogil:
    """One single-observer ISMCTS iteration on a fresh determinization of the root."""
    cdef AnyPos s = root[0]
    cdef int32_t node = 0, ch, pick
    cdef int depth = 1, i
    cdef MoveList ml
    cdef double win[8]
    cdef double reward[8]
    cdef int sc[8]
    cdef uint64_t key
    cdef uint64_t* bits = c.legalbits
    cdef Move m
    s.determinize(c.observer, rng[0])
    c.path[0] = 0
    while True:
        if c.kind[node] == K_NEW:
            classify(&s, c, node)
            break
        if c.kind[node] == K_TERMINAL or s.is_terminal():
            break
        if depth >= MAX_DEPTH - 1:
            break
        if s.is_chance():
            s.sample_chance(rng[0])
            key = s.infoset_key(c.observer)
            ch = c.first_child[node]
            while ch >= 0 and c.keys[c.aux[ch]] != key:
                ch = c.next_sib[ch]
            if ch < 0:
                if c.size >= c.cap or c.nkeys >= c.keycap:
                    c.full = 1
                    return 1
                ch = new_node(c, 0)
                c.aux[ch] = <uint32_t>c.nkeys
                c.keys[c.nkeys] = key
                c.nkeys += 1
                add_child(c, node, ch)
        elif s.current_player() != c.observer:
            ch = ismcts_opponent(&s, c, node, rng)
            if ch < 0:
                c.full = 1
                return 1
        else:
            # Children available in this determinization get an availability count; an
            # untried legal move is expanded first (canonical order).
            s.legal_moves(ml)
            for i in range(ml.size):
                m = ml.moves[i]
                bits[m >> 6] |= (<uint64_t>1) << (m & 63)
            ch = c.first_child[node]
            while ch >= 0:
                m = c.move[ch]
                if bits[m >> 6] & ((<uint64_t>1) << (m & 63)):
                    c.aux[ch] += 1
                    bits[m >> 6] &= ~((<uint64_t>1) << (m & 63))
                ch = c.next_sib[ch]
            pick = -1
            for i in range(ml.size):
                m = ml.moves[i]
                if bits[m >> 6] & ((<uint64_t>1) << (m & 63)):
                    if pick < 0:
                        pick = i
                    bits[m >> 6] &= ~((<uint64_t>1) << (m & 63))
            if pick >= 0:
                if c.size >= c.cap:
                    c.full = 1
                    return 1
                ch = new_node(c, ml.moves[pick])
                c.aux[ch] = 1
                add_child(c, node, ch)
            else:
                ch = ismcts_select(c, node, s.current_player(), &ml)
            s.apply(c.move[ch])
        c.path[depth] = ch
        depth += 1
        node = ch
    _playout(&s, rng, c.rollout)
    terminal_reward(&s, c, win, reward, sc)
    backup(c, depth, win, reward, sc)
    return 0


cdef int32_t ismcts_opponent(AnyPos* s, Core* c, int32_t node, Rng* rng) noexcept nogil:
    """Another seat's move, seen from the observer (SO-ISMCTS with partially observable moves):
    moves that leave the observer in the same information set form one class (one child,
    keyed by the observer's infoset_key after the move); the mover picks a class by UCB with
    availability counts, then a move of the class uniformly at random (a hidden move, e.g. a
    sealed bid, is thus made blind). Applies the move to s; returns the child, -1 if full."""
    cdef MoveList ml
    cdef uint64_t mkeys[1024]
    cdef uint8_t covered[1024]
    cdef AnyPos t
    cdef int i, pick = -1, cnt, r, p = s.current_player()
    cdef int32_t ch, bc = -1
    cdef uint64_t key, chosen
    cdef bint avail
    cdef double best = -1e300, u, q, scale = 1.0, lo = 0.0
    cdef uint32_t n
    s.legal_moves(ml)
    for i in range(ml.size):
        t = s[0]
        t.apply(ml.moves[i])
        mkeys[i] = t.infoset_key(c.observer)
        covered[i] = 0
    if c.reward == 1:
        lo = c.lo
        scale = 1.0 / (c.hi - c.lo) if c.hi > c.lo else 0.0
    ch = c.first_child[node]
    while ch >= 0:
        key = c.keys[c.aux[ch]]
        avail = False
        for i in range(ml.size):
            if mkeys[i] == key:
                covered[i] = 1
                avail = True
        if avail:
            c.keyavail[c.aux[ch]] += 1
            n = c.visits[ch]
            if n == 0:
                u = 1e300
            else:
                q = (c.val[ch * c.np + p] / n - lo) * scale
                u = q + c.c_explore * sqrt(log(<double>c.keyavail[c.aux[ch]]) / n)
            if u > best:
                best = u
                bc = ch
        ch = c.next_sib[ch]
    for i in range(ml.size):
        if not covered[i]:
            pick = i
            break
    if pick >= 0:
        if c.size >= c.cap or c.nkeys >= c.keycap:
            return -1
        bc = new_node(c, ml.moves[pick])
        c.aux[bc] = <uint32_t>c.nkeys
        c.keys[c.nkeys] = mkeys[pick]
        c.keyavail[c.nkeys] = 1
        c.nkeys += 1
        add_child(c, node, bc)
    chosen = c.keys[c.aux[bc]]
    cnt = 0
    for i in range(ml.size):
        if mkeys[i] == chosen:
            cnt += 1
    r = <int>rng.below(<uint32_t>cnt) if cnt > 1 else 0
    for i in range(ml.size):
        if mkeys[i] == chosen:
            if r == 0:
                s.apply(ml.moves[i])
                break
            r -= 1
    return bc


cdef int32_t ismcts_select(Core* c, int32_t node, int p, MoveList* ml) noexcept nogil:
    """UCB over the children whose move is legal in this determinization (availability)."""
    cdef uint64_t* bits = c.legalbits
    cdef int i
    cdef Move m
    cdef double best = -1e300, u, q, scale = 1.0, lo = 0.0
    cdef int32_t bc = -1, ch
    cdef uint32_t n
    if c.reward == 1:
        lo = c.lo
        scale = 1.0 / (c.hi - c.lo) if c.hi > c.lo else 0.0
    for i in range(ml.size):
        m = ml.moves[i]
        bits[m >> 6] |= (<uint64_t>1) << (m & 63)
    ch = c.first_child[node]
    while ch >= 0:
        m = c.move[ch]
        if bits[m >> 6] & ((<uint64_t>1) << (m & 63)):
            n = c.visits[ch]
            if n == 0:
                u = 1e300
            else:
                q = (c.val[ch * c.np + p] / n - lo) * scale
                u = q + c.c_explore * sqrt(log(<double>c.aux[ch]) / n)
            if u > best:
                best = u
                bc = ch
        ch = c.next_sib[ch]
    for i in range(ml.size):
        m = ml.moves[i]
        bits[m >> 6] &= ~((<uint64_t>1) << (m & 63))
    return bc


cdef int64_t run_core(AnyPos* root, Core* c, Rng* rng, int64_t n, double deadline) noexcept nogil:
    cdef int64_t i = 0
    while i < n:
        if c.ismcts:
            if ismcts_iteration(root, c, rng):
                break
        elif mcts_iteration(root, c, rng):
            break
        i += 1
        if deadline > 0 and (i & 63) == 0 and now_seconds() >= deadline:
            break
    return i


cdef uint64_t _splitmix(uint64_t x) noexcept nogil:
    x += 0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL
    return x ^ (x >> 31)


def tree_seed(uint64_t seed, int index):
    """Seed of tree `index` in root parallelism: tree 0 uses the seed itself."""
    return seed if index == 0 else _splitmix(seed ^ _splitmix(<uint64_t>index))


cdef class Tree:
    """One search tree over a private copy of a position (one per thread in root parallelism).

    `run(n, deadline)` releases the GIL; `root_stats()` gives per root move
    (move, visits, value sums, win sums/squares, score sums/squares).
    """
    cdef Core c
    cdef Rng rng
    cdef _Pos pos
    cdef bint ready

    def __cinit__(self):
        self.ready = False
        memset(&self.c, 0, sizeof(Core))

    def __init__(self, state, *, uint64_t seed=0, double exploration=1.0, str reward="win",
                 str rollout="random", int64_t max_nodes=1000000, bint ismcts=False,
                 double pw_c=1.0, double pw_alpha=0.5):
        self.pos = _Pos.of(state)
        cur = _cur(self.pos)
        if cur == -2:
            raise ValueError("position: the game is over")
        if cur == -1:
            raise ValueError("position: a chance event is next, not a player's decision")
        if reward not in ("win", "margin"):
            raise ValueError(f"reward '{reward}': expected win or margin")
        if rollout not in ("random", "greedy"):
            raise ValueError(f"rollout '{rollout}': expected random or greedy")
        cdef int np_ = _np(self.pos)
        if core_alloc(&self.c, np_, max(max_nodes, 2)) != 0:
            core_free(&self.c)
            raise MemoryError("search tree: cannot allocate the node arena")
        self.c.c_explore = exploration
        self.c.pw_c = pw_c
        self.c.pw_alpha = pw_alpha
        self.c.reward = 0 if reward == "win" else 1
        self.c.rollout = 0 if rollout == "random" else 1
        self.c.ismcts = ismcts
        self.c.observer = cur
        self.rng.reseed(seed)
        cdef int rc
        if self.pos.kind == POS_INVENTORS:
            rc = core_root(<InvPosition*>self.pos.p, &self.c)
        else:
            rc = core_root(<TestPosition*>self.pos.p, &self.c)
        if rc != 0:
            raise ValueError(f"memory: the budget holds fewer nodes than the root's moves")
        self.ready = True

    def __dealloc__(self):
        core_free(&self.c)

    def run(self, int64_t n, double deadline=0.0):
        """Run up to n iterations (or until `deadline`, time.monotonic-free wall clock from
        now_seconds()); returns the number done. Releases the GIL."""
        cdef int64_t done
        if not self.ready or self.c.full:
            return 0
        with nogil:
            if self.pos.kind == POS_INVENTORS:
                done = run_core(<InvPosition*>self.pos.p, &self.c, &self.rng, n, deadline)
            else:
                done = run_core(<TestPosition*>self.pos.p, &self.c, &self.rng, n, deadline)
        return done

    @property
    def iterations(self):
        return self.c.iterations

    @property
    def nodes(self):
        return self.c.size

    @property
    def full(self):
        return bool(self.c.full)

    @property
    def players(self):
        return self.c.np

    @property
    def root_player(self):
        return self.c.root_player

    def root_stats(self):
        cdef int i, q, np_ = self.c.np
        cdef double* rs
        out = []
        for i in range(self.c.nroot):
            rs = self.c.rs + i * 4 * np_
            out.append({
                "move": self.c.move[1 + i],
                "visits": self.c.visits[1 + i],
                "value_sum": [self.c.val[(1 + i) * np_ + q] for q in range(np_)],
                "win_sum": [rs[q] for q in range(np_)],
                "win_sq": [rs[np_ + q] for q in range(np_)],
                "score_sum": [rs[2 * np_ + q] for q in range(np_)],
                "score_sq": [rs[3 * np_ + q] for q in range(np_)],
            })
        return out

    def children(self, int node=0):
        """[(child node, move, visits)] of a node (tests and debugging)."""
        out = []
        cdef int32_t ch = self.c.first_child[node] if 0 <= node < self.c.size else -1
        while ch >= 0:
            out.append((ch, self.c.move[ch], self.c.visits[ch]))
            ch = self.c.next_sib[ch]
        return out

    def signature(self):
        """A fingerprint of the whole tree (node count and a hash of visits and moves)."""
        cdef uint64_t h = 1469598103934665603ULL
        cdef int64_t i
        for i in range(self.c.size):
            h = (h ^ (<uint64_t>self.c.visits[i] * 1000003 + self.c.move[i])) * 1099511628211ULL
        return (self.c.size, h)


def now():
    return now_seconds()


# ---------------------------------------------------------------------------------------------
# Expectimax: exact max^n over decisions, expectation over chance
# ---------------------------------------------------------------------------------------------

DEF TIE = 1e-9         # values within TIE are equal (then the earlier canonical move is chosen)

cdef struct XCtx:
    int np, objective, paranoid, prune, ordering, root_player
    int64_t nodes, max_nodes
    int aborted          # 1 node budget, 2 chance node not enumerable
    uint64_t tt_mask
    uint64_t* tt_key
    double* tt_val       # entries * 3 * np
    int16_t* tt_best
    uint8_t* tt_used
    int64_t tt_hits


cdef inline double xkey(XCtx* x, double* v, int p) noexcept nogil:
    """What player p maximises: its own value, or (paranoid) minus the root player's."""
    if x.paranoid and p != x.root_player:
        return -v[x.root_player]
    return v[p]


cdef void xterminal(AnyPos* s, XCtx* x, double* out) noexcept nogil:
    cdef int sc[8]
    cdef int q, r, best
    cdef int np_ = x.np
    s.returns(out + np_)
    s.scores(sc)
    for q in range(np_):
        out[2 * np_ + q] = sc[q]
    if x.objective == 0:
        for q in range(np_):
            out[q] = out[np_ + q]
    else:
        for q in range(np_):
            best = -2147483647
            for r in range(np_):
                if r != q and sc[r] > best:
                    best = sc[r]
            out[q] = sc[q] - best


cdef int xsearch(AnyPos* s, XCtx* x, double* out, int bq, double bound, int* best_out) noexcept nogil:
    """Value of s into out[0:3np] = (objective, win share, score) per player.

    (bq, bound): a pruning bound from an ancestor: the search may stop early and return 1
    once it proves out[bq] < bound (the ancestor will discard this node). 0 = exact, -1 = abort.
    """
    cdef int np_ = x.np, w = 3 * x.np
    cdef int i, j, k, q, p, st, n, best_idx, dummy, nord
    cdef Move g
    cdef uint16_t order[1024]
    cdef uint8_t mark[1024]
    cdef uint64_t key, slot, key2
    cdef Move mv[CHANCE_CAP]
    cdef double pr[CHANCE_CAP]
    cdef double tmp[24]
    cdef double acc[24]
    cdef double cum, alpha, ub, kv, bestv, cb
    cdef MoveList ml
    cdef AnyPos child
    cdef Rng rng
    x.nodes += 1
    best_out[0] = -1
    if x.nodes > x.max_nodes:
        x.aborted = 1
        return -1
    if s.is_terminal():
        xterminal(s, x, out)
        return 0
    key = s.hash()
    slot = key & x.tt_mask
    if x.tt_used[slot] and x.tt_key[slot] == key:
        memcpy(out, x.tt_val + slot * w, sizeof(double) * w)
        best_out[0] = x.tt_best[slot]
        x.tt_hits += 1
        return 0
    if s.is_chance():
        k = s.chance_outcomes(mv, pr, CHANCE_CAP)
        if k < 0:
            x.aborted = 2
            return -1
        memset(acc, 0, sizeof(double) * w)
        cum = 0.0
        for i in range(k):
            child = s[0]
            child.apply_chance(mv[i])
            alpha = -1e300
            if bq >= 0:
                # Star1: the outcome must reach alpha for this chance node to reach `bound`
                # (every other unseen outcome counted at the upper bound 1).
                alpha = (bound - acc[bq] - (1.0 - cum - pr[i])) / pr[i]
            st = xsearch(&child, x, tmp, bq if bq >= 0 else -1, alpha, &dummy)
            if st < 0:
                return -1
            if st == 1:
                return 1
            for j in range(w):
                acc[j] += pr[i] * tmp[j]
            cum += pr[i]
            if bq >= 0 and acc[bq] + (1.0 - cum) < bound:
                return 1
        memcpy(out, acc, sizeof(double) * w)
        x.tt_best[slot] = -1
    else:
        p = s.current_player()
        s.legal_moves(ml)
        n = ml.size
        # Move order: with ordering 1, the moves whose result is already in the table first
        # (free, and they give the pruning a bound early); with 2, the ruleset's greedy move
        # first; then the rest in canonical order. The tie rule does not depend on it.
        nord = 0
        if x.ordering == 1 and n > 1:
            for i in range(n):
                child = s[0]
                child.apply(ml.moves[i])
                if not child.is_terminal():
                    key2 = child.hash()
                    if x.tt_used[key2 & x.tt_mask] and x.tt_key[key2 & x.tt_mask] == key2:
                        order[nord] = <uint16_t>i
                        nord += 1
                        mark[i] = 1
                        continue
                mark[i] = 0
            if nord:
                for i in range(n):
                    if not mark[i]:
                        order[nord] = <uint16_t>i
                        nord += 1
            else:
                nord = 0
        elif x.ordering == 2 and n > 1:
            rng.reseed(0)
            g = s.greedy_move(rng)
            order[0] = 0
            for i in range(n):
                if ml.moves[i] == g:
                    order[0] = <uint16_t>i
            nord = 1
            for i in range(n):
                if i != order[0]:
                    order[nord] = <uint16_t>i
                    nord += 1
        best_idx = -1
        bestv = -1e300
        for j in range(n):
            i = order[j] if nord else j
            if best_idx >= 0 and x.prune and bestv >= 1.0 - TIE and i > best_idx:
                continue  # cannot beat a certain win, and loses the tie to the earlier move
            child = s[0]
            child.apply(ml.moves[i])
            cb = -1e300
            if x.prune and best_idx >= 0:
                cb = bestv - 2 * TIE
            st = xsearch(&child, x, tmp, p if (x.prune and best_idx >= 0) else -1, cb, &dummy)
            if st < 0:
                return -1
            if st == 1:
                continue  # proven worse for p than the best so far
            kv = xkey(x, tmp, p)
            if best_idx < 0 or kv > bestv + TIE or (kv >= bestv - TIE and i < best_idx):
                best_idx = i
                bestv = kv
                memcpy(out, tmp, sizeof(double) * w)
                if bq >= 0 and bq != p and x.prune and 1.0 - out[p] < bound:
                    return 1  # shallow max^n cut: win shares sum to 1
        best_out[0] = best_idx
        x.tt_best[slot] = <int16_t>best_idx
    x.tt_key[slot] = key
    x.tt_used[slot] = 1
    memcpy(x.tt_val + slot * w, out, sizeof(double) * w)
    return 0


cdef int xroot(AnyPos* root, XCtx* x, double* vals, int* line, int* line_chance, int* nline) noexcept nogil:
    """Exact values of every root move into vals[i*3np...]; principal line into line."""
    cdef MoveList ml
    cdef int i, k, st, best, dummy, j, n_
    cdef int w = 3 * x.np
    cdef AnyPos s, child
    cdef Move mv[CHANCE_CAP]
    cdef double pr[CHANCE_CAP]
    cdef double tmp[24]
    cdef double bp
    root.legal_moves(ml)
    for i in range(ml.size):
        child = root[0]
        child.apply(ml.moves[i])
        st = xsearch(&child, x, vals + i * w, -1, 0.0, &dummy)
        if st < 0:
            return -1
    # Principal line: best moves from the root, the most probable outcome at chance nodes.
    s = root[0]
    n_ = 0
    while not s.is_terminal() and n_ < 512:
        if s.is_chance():
            k = s.chance_outcomes(mv, pr, CHANCE_CAP)
            if k < 0:
                break
            best = 0
            bp = -1.0
            for j in range(k):
                if pr[j] > bp:
                    bp = pr[j]
                    best = j
            line[n_] = mv[best]
            line_chance[n_] = 1
            s.apply_chance(mv[best])
        else:
            st = xsearch(&s, x, tmp, -1, 0.0, &best)
            if st < 0 or best < 0:
                return -1
            s.legal_moves(ml)
            line[n_] = ml.moves[best]
            line_chance[n_] = 0
            s.apply(ml.moves[best])
        n_ += 1
    nline[0] = n_
    return 0


def expectimax_search(state, int64_t max_nodes=10000000, str objective="win",
                      bint paranoid=False, bint prune=True, int ordering=1,
                      int tt_bits=0, object determinize_seed=None):
    """Exact search from a decision node. Returns a dict: moves (per root move: move,
    objective, win, score vectors), best (index), line [(move, is_chance)], nodes, tt_hits,
    seconds, aborted (0 ok, 1 node budget, 2 chance too large to enumerate).
    `determinize_seed`: first replace what the mover cannot see by determinize(mover, seed)."""
    cdef _Pos p = _Pos.of(state)
    cur = _cur(p)
    cdef Rng drng
    if determinize_seed is not None and cur >= 0:
        drng.reseed(<uint64_t>determinize_seed)
        if p.kind == POS_INVENTORS:
            (<InvPosition*>p.p).determinize(cur, drng)
        else:
            (<TestPosition*>p.p).determinize(cur, drng)
    if cur == -2:
        raise ValueError("position: the game is over")
    if cur == -1:
        raise ValueError("position: a chance event is next, not a player's decision")
    if objective not in ("win", "margin"):
        raise ValueError(f"objective '{objective}': expected win or margin")
    if max_nodes < 1:
        raise ValueError("max_nodes: must be at least 1")
    cdef XCtx x
    memset(&x, 0, sizeof(XCtx))
    x.np = _np(p)
    x.objective = 0 if objective == "win" else 1
    x.paranoid = paranoid
    x.prune = prune and x.objective == 0 and not paranoid
    x.ordering = ordering
    x.root_player = cur
    x.max_nodes = max_nodes
    if tt_bits <= 0:
        tt_bits = 10
        while tt_bits < 20 and (1 << tt_bits) < max_nodes:
            tt_bits += 1
    cdef int64_t entries = (<int64_t>1) << tt_bits
    x.tt_mask = entries - 1
    x.tt_key = <uint64_t*>malloc(sizeof(uint64_t) * entries)
    x.tt_val = <double*>malloc(sizeof(double) * 3 * x.np * entries)
    x.tt_best = <int16_t*>malloc(sizeof(int16_t) * entries)
    x.tt_used = <uint8_t*>calloc(entries, 1)
    cdef MoveList ml
    _legal(p, &ml)
    cdef int w = 3 * x.np
    cdef double* vals = <double*>calloc(ml.size * w + 1, sizeof(double))
    cdef int line[512]
    cdef int line_chance[512]
    cdef int nline = 0, rc
    cdef double* v
    cdef int i, q, np_
    cdef double t0 = now_seconds(), t1
    try:
        if x.tt_key == NULL or x.tt_val == NULL or x.tt_best == NULL or x.tt_used == NULL or vals == NULL:
            raise MemoryError("expectimax: cannot allocate the transposition table")
        with nogil:
            if p.kind == POS_INVENTORS:
                rc = xroot(<InvPosition*>p.p, &x, vals, line, line_chance, &nline)
            else:
                rc = xroot(<TestPosition*>p.p, &x, vals, line, line_chance, &nline)
        t1 = now_seconds()
        np_ = x.np
        moves = []
        for i in range(ml.size):
            v = vals + i * w
            moves.append({
                "move": ml.moves[i],
                "objective": [v[q] for q in range(np_)],
                "win": [v[np_ + q] for q in range(np_)],
                "score": [v[2 * np_ + q] for q in range(np_)],
            })
        best = None
        if rc == 0:
            best = 0
            for i in range(1, ml.size):
                a = moves[i]["objective"]
                b = moves[best]["objective"]
                if a[cur] > b[cur] + TIE:
                    best = i
        return {
            "moves": moves if rc == 0 else [],
            "best": best,
            "line": [(line[i], bool(line_chance[i])) for i in range(nline)],
            "nodes": x.nodes,
            "tt_hits": x.tt_hits,
            "seconds": t1 - t0,
            "aborted": x.aborted,
            "player": cur,
        }
    finally:
        free(x.tt_key); free(x.tt_val); free(x.tt_best); free(x.tt_used); free(vals)
