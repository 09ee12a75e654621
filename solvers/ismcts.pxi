# Information-set MCTS over every seat's information sets (included by engine.pyx).
#
# A decision's statistics belong to the seat that makes it, keyed by that seat's own
# `infoset_key` (salted by seat): an information-set transposition table (`c.ht_*`). So
# - the observer's later decisions are keyed by what it knows after its move, not by the move
#   alone: what a move or a chance event reveals (a completion, a reveal, a draw, a look) leads
#   to different nodes, and events it cannot tell apart lead to the same one;
# - every other seat decides by the statistics of its own information set in this
#   determinization, which holds none of the bids or plays hidden from it: a sealed bidder can
#   never best-respond to a bid it cannot see (the sequential transform of cext/common/concept.md).
# Node 0 is the root (the observer's information set); nodes 1..nroot its moves, as in MCTS.

DEF ISMCTS_MIN_SLOTS = 1024


cdef int ismcts_alloc(Core* c) noexcept nogil:
    """The information-set table: open addressing, a power of two >= the node capacity (at most
    half the nodes are information sets, the rest their moves, so the load stays <= 1/2)."""
    cdef int64_t n = ISMCTS_MIN_SLOTS
    while n < c.cap:
        n *= 2
    c.ht_mask = n - 1
    c.ht_key = <uint64_t*>calloc(n, sizeof(uint64_t))
    c.ht_node = <int32_t*>malloc(sizeof(int32_t) * n)
    if c.ht_key == NULL or c.ht_node == NULL:
        return -1
    return 0


def ismcts_slot_bytes(int64_t cap):
    """Bytes of the information-set table for an arena of `cap` nodes."""
    cdef int64_t n = ISMCTS_MIN_SLOTS
    while n < cap:
        n *= 2
    return n * (sizeof(uint64_t) + sizeof(int32_t))


cdef inline uint64_t seat_key(uint64_t key, int seat) noexcept nogil:
    # Two seats' information sets must never share a node; 0 marks an empty slot.
    key ^= (<uint64_t>(seat + 1)) * 0x9E3779B97F4A7C15ULL
    return key if key != 0 else 1


cdef inline int32_t ht_find(Core* c, uint64_t key) noexcept nogil:
    cdef int64_t i = <int64_t>(key & <uint64_t>c.ht_mask)
    while c.ht_key[i] != 0:
        if c.ht_key[i] == key:
            return c.ht_node[i]
        i = (i + 1) & c.ht_mask
    return -1


cdef inline void ht_insert(Core* c, uint64_t key, int32_t node) noexcept nogil:
    cdef int64_t i = <int64_t>(key & <uint64_t>c.ht_mask)
    while c.ht_key[i] != 0:
        i = (i + 1) & c.ht_mask
    c.ht_key[i] = key
    c.ht_node[i] = node


cdef int ismcts_iteration(AnyPos* root, Core* c, Rng* rng) noexcept nogil:
    """One iteration on a fresh determinization of the root for the observer: descend by UCB
    with availability counts, each decision in its mover's information set; expand one move (or
    meet one new information set), play out, back up along the moves taken."""
    cdef AnyPos s = root[0]
    cdef int32_t node = 0, ch, pick
    cdef int depth = 1, i, p, navail
    cdef MoveList ml
    cdef double win[MAX_SEATS]
    cdef double reward[MAX_SEATS]
    cdef double sc[MAX_SEATS]
    cdef uint64_t key
    cdef uint64_t* bits = c.legalbits
    cdef Move m
    cdef bint at_root = True
    # The descent's own operations (concept: tree_apply ...): a ruleset may leave its keys
    # stale on the way; tree_key computes the one key a lookup needs.
    s.tree_determinize(c.observer, rng[0])
    c.path[0] = 0
    while depth < MAX_DEPTH - 1 and not s.is_terminal():
        if s.is_chance():
            s.tree_chance(rng[0])
            continue
        p = s.current_player()
        if not at_root:
            key = seat_key(s.tree_key(p), p)
            node = ht_find(c, key)
            if node < 0:
                if c.size >= c.cap:
                    c.full = 1
                    return 1
                node = new_node(c, 0)
                c.kind[node] = K_DECISION
                c.player[node] = <int8_t>p
                ht_insert(c, key, node)
                break   # a new information set: play out from here
        at_root = False
        # The moves of this information set that are legal in this determinization are
        # available (availability count +1), gathered in sibling order; an untried legal move
        # (there is one exactly when fewer children than legal moves are available: children
        # and legal moves are each distinct) is expanded first, the earliest in canonical order.
        s.legal_moves(ml)
        for i in range(ml.size):
            m = ml.moves[i]
            bits[m >> 6] |= (<uint64_t>1) << (m & 63)
        navail = 0
        ch = c.first_child[node]
        while ch >= 0:
            m = c.move[ch]
            if bits[m >> 6] & ((<uint64_t>1) << (m & 63)):
                c.aux[ch] += 1
                bits[m >> 6] &= ~((<uint64_t>1) << (m & 63))
                c.avail[navail] = ch
                navail += 1
            ch = c.next_sib[ch]
        pick = -1
        if navail < ml.size:
            # The bits left are the untried moves: the first of them in list order is expanded,
            # and from it on every move's word is zeroed (a word with a later untried move is a
            # word of that move), which leaves the bitset empty for the next decision.
            for i in range(ml.size):
                m = ml.moves[i]
                if bits[m >> 6] & ((<uint64_t>1) << (m & 63)):
                    pick = i
                    break
            if pick >= 0:
                for i in range(pick, ml.size):
                    bits[ml.moves[i] >> 6] = 0
        if pick >= 0:
            if c.size >= c.cap:
                c.full = 1
                return 1
            ch = new_node(c, ml.moves[pick])
            c.aux[ch] = 1
            add_child(c, node, ch)
        else:
            ch = ismcts_select(c, navail, p)
            if ch < 0:
                break   # no child available (no legal move): play out from here
        s.tree_apply(c.move[ch])
        c.path[depth] = ch
        depth += 1
        if pick >= 0:
            break       # one new move per iteration: play out from here
    leaf_value(&s, c, rng, win, reward, sc)
    backup(c, depth, win, reward, sc)
    return 0


cdef int32_t ismcts_stats_node(AnyPos* s, Core* c) noexcept nogil:
    """The node holding the statistics of the decision in `s` (its mover's information set),
    -1 when the search has not met it. The root is node 0."""
    cdef int p = s.current_player()
    if p < 0:
        return -1
    if p == c.observer and s.infoset_key(p) == c.root_key:
        return 0
    return ht_find(c, seat_key(s.infoset_key(p), p))


cdef int32_t ismcts_select(Core* c, int navail, int p) noexcept nogil:
    """UCB over the `navail` available children in c.avail (those whose move is legal in this
    determinization, in sibling order); the first of them when no value compares (NaN), -1
    only when none is available."""
    cdef int i
    cdef double best = -1e300, u, q, scale = 1.0, lo = 0.0
    cdef int32_t bc = -1, ch
    cdef uint32_t n
    cdef bint scaled = c.reward == 1   # else q = (v - 0.0) * 1.0, which is v to the bit: skip it
    if scaled:
        lo = c.lo
        scale = 1.0 / (c.hi - c.lo) if c.hi > c.lo else 0.0
    for i in range(navail):
        ch = c.avail[i]
        if bc < 0:
            bc = ch   # stands in when no value compares
        n = c.visits[ch]
        if n == 0:
            u = 1e300
        else:
            q = c.val[ch * c.np + p] / n
            if scaled:
                q = (q - lo) * scale
            u = q + c.c_explore * sqrt(log_count(c.aux[ch]) / n)
        if u > best:
            best = u
            bc = ch
    return bc
