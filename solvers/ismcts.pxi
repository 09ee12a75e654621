# Information-set MCTS: one iteration over the observer's information sets (included by engine.pyx).

cdef int ismcts_iteration(AnyPos* root, Core* c, Rng* rng) noexcept nogil:
    """One single-observer ISMCTS iteration on a fresh determinization of the root."""
    cdef AnyPos s = root[0]
    cdef int32_t node = 0, ch, pick
    cdef int depth = 1, i
    cdef MoveList ml
    cdef double win[MAX_SEATS]
    cdef double reward[MAX_SEATS]
    cdef int sc[MAX_SEATS]
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
            if ch == -1:
                c.full = 1
                return 1
            if ch < 0:
                break   # no move to make (not a valid ruleset): play out from here
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
                if ch < 0:
                    break   # no child available (no legal move): play out from here
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
    sealed bid, is thus made blind). Applies the move to s; returns the child, -1 if full, -2
    if there is no move. A class whose value does not compare (NaN) never wins, but the first
    available class stands in, so the answer is always a real child."""
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
            if bc < 0:
                bc = ch   # stands in when no value compares
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
    if bc < 0:
        return -2
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
    """UCB over the children whose move is legal in this determinization (availability); the
    first available child when no value compares (NaN), -1 only when none is available."""
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
            if bc < 0:
                bc = ch   # stands in when no value compares
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
