# Expectimax: exact max^n over decisions, expectation over chance (included by engine.pyx).

# ---------------------------------------------------------------------------------------------
# Expectimax: exact max^n over decisions, expectation over chance
# ---------------------------------------------------------------------------------------------

DEF TIE = 1e-9         # values within TIE are equal (then the earlier canonical move is chosen)
DEF MAX_TT_BITS = 30

cdef struct XCtx:
    int np, objective, paranoid, prune, ordering, root_player
    int64_t nodes, max_nodes
    int64_t next_report  # node count of the next progress report
    void* reporter       # the _Reporter of this search (borrowed)
    int aborted          # 1 node budget, 2 chance node not enumerable, 3 stopped by the reporter
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
    cdef int sc[MAX_SEATS]
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
    cdef double tmp[3 * MAX_SEATS]
    cdef double acc[3 * MAX_SEATS]
    cdef double cum, alpha, ub, kv, bestv, cb
    cdef MoveList ml
    cdef AnyPos child
    cdef Rng rng
    x.nodes += 1
    best_out[0] = -1
    if x.nodes > x.max_nodes:
        x.aborted = 1
        return -1
    if x.nodes >= x.next_report:   # one comparison per node; the GIL only every REPORT_EVERY
        x.next_report += REPORT_EVERY
        if _x_report(x) != 0:
            x.aborted = 3
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


cdef class _Reporter:
    """Progress of one exact search: calls fn(nodes, seconds) every REPORT_EVERY nodes and
    checks for Ctrl-C; an exception from either stops the search and is re-raised after it."""
    cdef object fn
    cdef object error
    cdef double t0

    def __init__(self, fn, double t0):
        self.fn, self.error, self.t0 = fn, None, t0


cdef int _x_report(XCtx* x) noexcept with gil:
    cdef _Reporter r = <_Reporter>x.reporter
    try:
        PyErr_CheckSignals()
        if r.fn is not None:
            r.fn(x.nodes, now_seconds() - r.t0)
    except BaseException as exc:
        r.error = exc
        return 1
    return 0


cdef int xroot(AnyPos* root, XCtx* x, double* vals, int* line, int* line_chance, int* nline) noexcept nogil:
    """Exact values of every root move into vals[i*3np...]; principal line into line."""
    cdef MoveList ml
    cdef int i, k, st, best, dummy, j, n_
    cdef int w = 3 * x.np
    cdef AnyPos s, child
    cdef Move mv[CHANCE_CAP]
    cdef double pr[CHANCE_CAP]
    cdef double tmp[3 * MAX_SEATS]
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
                      int tt_bits=0, object determinize_seed=None, object progress=None,
                      int determinize_seat=-1):
    """Exact search from a decision node. Returns a dict: moves (per root move: move,
    objective, win, score vectors), best (index), line [(move, is_chance)], nodes, tt_hits,
    seconds, aborted (0 ok, 1 node budget, 2 chance too large to enumerate).
    `determinize_seed`: first replace what `determinize_seat` (default: the mover) cannot see
    by determinize(seat, seed).
    `progress(nodes, seconds)`: called every REPORT_EVERY nodes (with the GIL); an exception
    it raises (or Ctrl-C) stops the search and propagates."""
    cdef _Pos p = _Pos.of(state)
    cur = p.current
    if cur == -2:
        raise ValueError("position: the game is over")
    if cur == -1:
        raise ValueError("position: a chance event is next, not a player's decision")
    if objective not in ("win", "margin"):
        raise ValueError(f"objective '{objective}': expected win or margin")
    if max_nodes < 1:
        raise ValueError("max_nodes: must be at least 1")
    if not 0 <= ordering <= 2:
        raise ValueError(f"ordering: expected 0 (canonical), 1 (table) or 2 (greedy), got {ordering}")
    if not 0 <= tt_bits <= MAX_TT_BITS:
        raise ValueError(f"tt_bits: expected 0 (automatic)..{MAX_TT_BITS}, got {tt_bits}")
    if progress is not None and not callable(progress):
        raise ValueError(f"progress: expected a function (nodes, seconds), got {progress!r}")
    cdef Rng drng
    cdef Call a
    if determinize_seat == -1:
        determinize_seat = cur
    if not 0 <= determinize_seat < p.players:
        raise ValueError(f"determinize_seat: expected a seat 0..{p.players - 1}, got {determinize_seat}")
    if determinize_seed is not None:
        drng.reseed(<uint64_t>determinize_seed)
        memset(&a, 0, sizeof(Call))
        a.op = OP_DETERMINIZE
        a.seat = determinize_seat
        a.rng = &drng
        p.call(&a)
        p.refresh()
    cdef XCtx x
    memset(&x, 0, sizeof(XCtx))
    x.np = p.players
    x.objective = 0 if objective == "win" else 1
    x.paranoid = paranoid
    x.prune = prune and x.objective == 0 and not paranoid
    x.ordering = ordering
    x.root_player = cur
    x.max_nodes = max_nodes
    x.next_report = REPORT_EVERY
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
    cdef int n_moves = p.moves.size
    cdef int w = 3 * x.np
    cdef double* vals = <double*>calloc(n_moves * w + 1, sizeof(double))
    cdef int line[512]
    cdef int line_chance[512]
    cdef int nline = 0, rc
    cdef double* v
    cdef int i, q, np_
    cdef double t0 = now_seconds(), t1
    reporter = _Reporter(progress, t0)
    x.reporter = <void*>reporter
    try:
        if x.tt_key == NULL or x.tt_val == NULL or x.tt_best == NULL or x.tt_used == NULL or vals == NULL:
            raise MemoryError("expectimax: cannot allocate the transposition table")
        memset(&a, 0, sizeof(Call))
        a.op = OP_XROOT
        a.x = &x
        a.vals = vals
        a.line = line
        a.line_chance = line_chance
        a.nline = &nline
        with nogil:
            rc = <int>p.call(&a)
        t1 = now_seconds()
        if reporter.error is not None:
            raise reporter.error
        np_ = x.np
        moves = []
        for i in range(n_moves):
            v = vals + i * w
            moves.append({
                "move": p.moves.moves[i],
                "objective": [v[q] for q in range(np_)],
                "win": [v[np_ + q] for q in range(np_)],
                "score": [v[2 * np_ + q] for q in range(np_)],
            })
        best = None
        if rc == 0:
            best = 0
            for i in range(1, n_moves):
                a_ = moves[i]["objective"]
                b_ = moves[best]["objective"]
                if a_[cur] > b_[cur] + TIE:
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
