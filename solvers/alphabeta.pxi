# Alpha-beta: exact values where no chance is left, for two players or paranoid (included by
# engine.pyx). docs/solvers.md "Alpha-beta".
#
# One seat (the root's mover, R) maximises an integer value, every other seat minimises it:
# the game between two players, or R against a coalition (paranoid). Values are integers so
# null-window tests are exact: the win share times WIN_SCALE (ties split among up to 5 seats
# give 60/k), or R's score minus the best other score. The transposition table keeps bounds.

DEF WIN_SCALE = 60            # lcm(1..5): every split win share is a whole number of 60ths
DEF AB_INF = 1000000          # beyond any value: scores are far below it
DEF HISTORY = 65536           # one counter per 16-bit move
DEF ORDER_TT = 1              # the table's best move first
DEF ORDER_GREEDY = 2          # the ruleset's greedy move next (when the table has none)
DEF ORDER_HISTORY = 4         # the rest by the history heuristic
DEF ORDER_ETC = 8             # enhanced transposition cutoffs before searching the children
DEF TT_START_BUCKETS = 32768  # 1.5 MB: the table in use at the start of a solve (tt_grow)


cdef struct TTEntry:
    uint64_t key
    int32_t lo, hi        # the value lies in [lo, hi]
    int16_t best          # index of the best (or cutting) move, -1 none
    uint8_t work          # log2 of the nodes its search took: the replacement priority
    uint8_t used


cdef struct ABCtx:
    int np, objective, root_player, ordering
    int32_t dom_lo, dom_hi         # the value's range (win: 0..60, margin: +-AB_INF)
    int64_t nodes, max_nodes, stop_nodes
    double deadline                # 0: none
    int cpu_clock                  # the deadline is in this thread's CPU seconds, not wall
    int64_t next_report
    void* reporter
    int aborted   # 1 node budget (of the run or of a round), 2 chance with several outcomes,
                  # 3 stopped by the reporter, 4 time
    TTEntry* tt                    # 2 entries per bucket: depth-preferred, always-replace
    uint64_t tt_mask               # buckets - 1 (the part of the table in use)
    uint64_t tt_full_mask          # buckets - 1 of the whole mapping: tt_grow's limit
    int64_t tt_hits, etc_cuts, static_cuts
    int bounds                     # use the ruleset's score bounds
    int dominance                  # skip the moves the ruleset proves dominated (search_moves)
    int32_t* history
    int solved, total              # root moves resolved so far (for the progress line)


cdef inline int32_t ab_terminal(AnyPos* s, ABCtx* x) noexcept nogil:
    cdef double r[MAX_SEATS]
    cdef int sc[MAX_SEATS]
    cdef int q, best = -2147483647
    if x.objective == 0:
        s.returns(r)
        return <int32_t>(r[x.root_player] * WIN_SCALE + 0.5)
    s.scores(sc)
    for q in range(x.np):
        if q != x.root_player and sc[q] > best:
            best = sc[q]
    return sc[x.root_player] - best


cdef inline int ab_static(AnyPos* s, ABCtx* x, int32_t* vlo, int32_t* vhi) noexcept nogil:
    """Bounds on the value from the ruleset's score bounds (concept: score_bounds): a seat can
    keep its `lo` whatever the others do, and no line takes it past its `hi`."""
    cdef int lo[MAX_SEATS]
    cdef int hi[MAX_SEATS]
    cdef int q, r = x.root_player, max_hi = -2147483647, max_lo = -2147483647
    s.score_bounds(lo, hi)
    for q in range(x.np):
        if q != r:
            if hi[q] > max_hi:
                max_hi = hi[q]
            if lo[q] > max_lo:
                max_lo = lo[q]
    if x.objective == 0:
        vlo[0], vhi[0] = x.dom_lo, x.dom_hi
        if lo[r] > max_hi:
            vlo[0] = x.dom_hi      # ahead of everyone whatever happens: a win alone
        elif hi[r] < max_lo:
            vhi[0] = x.dom_lo      # someone stays ahead whatever happens
    else:
        vlo[0], vhi[0] = lo[r] - max_hi, hi[r] - max_lo
    return 0


cdef inline void ab_moves(AnyPos* s, ABCtx* x, MoveList* ml) noexcept nogil:
    """The moves searched below the root: without those the ruleset proves no better for the
    mover than another (concept: search_moves), which keeps every value of a two-sided search."""
    if x.dominance:
        s.search_moves(ml[0])
    else:
        s.legal_moves(ml[0])


cdef inline uint64_t ab_key(AnyPos* s, ABCtx* x) noexcept nogil:
    """The table key: with dominance, the ruleset's search_key (positions it proves equal for
    this search share an entry); without, the full hash."""
    return s.search_key() if x.dominance else s.hash()


cdef inline void tt_prefetch(ABCtx* x, uint64_t key) noexcept nogil:
    """Start loading key's bucket: both ends, since a 48-byte bucket may cross a cache line."""
    cdef TTEntry* b = x.tt + 2 * (key & x.tt_mask)
    prefetch(b)
    prefetch(<char*>(b + 2) - 1)


cdef inline TTEntry* tt_find(ABCtx* x, uint64_t key) noexcept nogil:
    cdef TTEntry* b = x.tt + 2 * (key & x.tt_mask)
    if b[0].used and b[0].key == key:
        return b
    if b[1].used and b[1].key == key:
        return b + 1
    return NULL


cdef void tt_store(ABCtx* x, uint64_t key, int32_t lo, int32_t hi, int best, int64_t work) noexcept nogil:
    cdef TTEntry* b = x.tt + 2 * (key & x.tt_mask)
    cdef TTEntry* e = tt_find(x, key)
    cdef uint8_t w = 0
    while w < 63 and ((<int64_t>1) << (w + 1)) <= work:
        w += 1
    if e != NULL:
        # Both answers hold, so keep their intersection; an empty one (only a 64-bit key
        # collision makes it) keeps the new answer alone.
        if max(lo, e.lo) <= min(hi, e.hi):
            lo, hi = max(lo, e.lo), min(hi, e.hi)
        if w < e.work:
            w = e.work
    elif not b[0].used or w >= b[0].work:
        b[1] = b[0]
        e = b
    else:
        e = b + 1
    e.key, e.lo, e.hi, e.best, e.work, e.used = key, lo, hi, <int16_t>best, w, 1


cdef void tt_grow(ABCtx* x) noexcept nogil:
    """Use 8 times as much of the table (at most all of it), every entry moved to its bucket
    under the wider mask. The table starts small and grows with the search, so a solve touches
    (and the kernel zeroes) pages in proportion to its nodes. In place: an old bucket's entries
    can only go to itself or to buckets past the old mask, which nothing has used yet, so each
    bucket is emptied and its two entries stored again, depth-preferred first, before the next.
    No entry pointer is held across this: callers look entries up again after every child."""
    cdef uint64_t b, buckets = x.tt_mask + 1
    cdef TTEntry e0, e1
    x.tt_mask = min(buckets * 8 - 1, x.tt_full_mask)
    for b in range(buckets):
        e0, e1 = x.tt[2 * b], x.tt[2 * b + 1]
        memset(x.tt + 2 * b, 0, 2 * sizeof(TTEntry))
        if e0.used:
            tt_store(x, e0.key, e0.lo, e0.hi, e0.best, (<int64_t>1) << e0.work)
        if e1.used:
            tt_store(x, e1.key, e1.lo, e1.hi, e1.best, (<int64_t>1) << e1.work)


cdef int ab_tick(ABCtx* x) noexcept nogil:
    """Every REPORT_EVERY nodes: the table's growth, the deadline, then the progress report
    (with the GIL)."""
    x.next_report += REPORT_EVERY
    if x.tt_mask < x.tt_full_mask and <uint64_t>x.nodes >= 2 * (x.tt_mask + 1):
        tt_grow(x)
    if x.deadline > 0 and (thread_cpu_seconds() if x.cpu_clock else now_seconds()) > x.deadline:
        x.aborted = 4
        return 1
    if _ab_report(x) != 0:
        x.aborted = 3
        return 1
    return 0


cdef int ab_order(AnyPos* s, ABCtx* x, MoveList* ml, int tt_best, uint16_t* order) noexcept nogil:
    """The order to search s's moves in: the table's move, else the greedy move, then the
    rest by history (stable: canonical order among equals)."""
    cdef int n = ml.size, i, j, k = 0, first = -1
    cdef int32_t h
    cdef Rng rng
    cdef Move g
    if x.ordering & ORDER_TT and 0 <= tt_best < n:
        first = tt_best
    elif x.ordering & ORDER_GREEDY and n > 1:
        rng.reseed(0)
        g = s.greedy_move(rng)
        for i in range(n):
            if ml.moves[i] == g:
                first = i
                break
    if first >= 0:
        order[k] = <uint16_t>first
        k += 1
    for i in range(n):
        if i == first:
            continue
        order[k] = <uint16_t>i
        if x.ordering & ORDER_HISTORY:    # insertion into the sorted tail
            h = x.history[ml.moves[i]]
            j = k
            while j > (1 if first >= 0 else 0) and x.history[ml.moves[order[j - 1]]] < h:
                order[j] = order[j - 1]
                j -= 1
            order[j] = <uint16_t>i
        k += 1
    return k


cdef int32_t absearch(AnyPos* s, ABCtx* x, int32_t alpha, int32_t beta, uint64_t key) noexcept nogil:
    """Fail-soft alpha-beta: v <= alpha means value <= v, v >= beta means value >= v, else v
    is exact. `key` is ab_key(s) (the caller has it already). On an abort (x.aborted set) the
    result means nothing and nothing is stored."""
    cdef MoveList ml
    cdef AnyPos child, nxt
    cdef uint16_t order[1024]
    cdef Move mv[2]
    cdef double pr[2]
    cdef uint64_t nkey = 0, ckey
    cdef TTEntry* e
    cdef TTEntry* ce
    cdef int32_t best, v, a0, b0, vlo, vhi
    cdef int i, j, n, bi = -1, tt_best = -1, maxing
    cdef int64_t start
    x.nodes += 1
    if x.nodes > x.stop_nodes:
        x.aborted = 1
        return 0
    if x.nodes >= x.next_report and ab_tick(x):
        return 0
    if s.is_terminal():
        return ab_terminal(s, x)
    if s.is_chance():
        # Only a chance node with a single outcome (a known draw) belongs here.
        if s.chance_outcomes(mv, pr, 2) != 1:
            x.aborted = 2
            return 0
        child = s[0]
        child.apply_chance(mv[0])
        return absearch(&child, x, alpha, beta, ab_key(&child, x))
    start = x.nodes
    e = tt_find(x, key)
    if e != NULL:
        x.tt_hits += 1
        if e.lo >= beta or e.lo == e.hi:
            return e.lo
        if e.hi <= alpha:
            return e.hi
        if e.lo > alpha:
            alpha = e.lo
        if e.hi < beta:
            beta = e.hi
        tt_best = e.best
    if x.bounds:
        ab_static(s, x, &vlo, &vhi)
        if vlo >= beta or vlo == vhi:
            x.static_cuts += 1
            return vlo
        if vhi <= alpha:
            x.static_cuts += 1
            return vhi
    a0, b0 = alpha, beta
    maxing = s.current_player() == x.root_player
    ab_moves(s, x, &ml)
    n = ml.size
    if x.ordering & ORDER_ETC and n > 1:
        # Enhanced transposition cutoff: a child already known to refute this window.
        for i in range(n):
            child = s[0]
            child.apply(ml.moves[i])
            if child.is_terminal() or child.is_chance():
                continue
            ce = tt_find(x, ab_key(&child, x))
            if ce == NULL:
                continue
            if (maxing and ce.lo >= beta) or (not maxing and ce.hi <= alpha):
                x.etc_cuts += 1
                v = ce.lo if maxing else ce.hi
                tt_store(x, key, v if maxing else x.dom_lo, x.dom_hi if maxing else v, i, 1)
                return v
    ab_order(s, x, &ml, tt_best, order)
    best = -AB_INF - 1 if maxing else AB_INF + 1
    # The next child is made one step early and its table bucket fetched while this child's
    # subtree is searched: a probe at a random address of a large table is a cache miss.
    if n > 0:
        nxt = s[0]
        nxt.apply(ml.moves[order[0]])
        nkey = ab_key(&nxt, x)
    for j in range(n):
        i = order[j]
        child, ckey = nxt, nkey
        if j + 1 < n:
            nxt = s[0]
            nxt.apply(ml.moves[order[j + 1]])
            nkey = ab_key(&nxt, x)
            tt_prefetch(x, nkey)
        v = absearch(&child, x, alpha, beta, ckey)
        if x.aborted:
            return 0
        if maxing:
            if v > best:
                best, bi = v, i
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best, bi = v, i
                if v < beta:
                    beta = v
        if alpha >= beta:
            x.history[ml.moves[i]] += 1 + <int32_t>(x.nodes - start > 64)
            break
    if best <= a0:
        tt_store(x, key, x.dom_lo, best, bi, x.nodes - start)
    elif best >= b0:
        tt_store(x, key, best, x.dom_hi, bi, x.nodes - start)
    else:
        tt_store(x, key, best, best, bi, x.nodes - start)
    return best


cdef int ab_refine(AnyPos* s, ABCtx* x, int32_t* lo, int32_t* hi, int32_t target, int64_t budget,
                   int32_t* guess) noexcept nogil:
    """Narrow [lo, hi] around s's value by null-window tests, each within `budget` nodes: MTD(f)
    from `guess` (updated), or with target >= 0 only "value >= target?" (a win/draw/loss
    proof). 0: done; 1: the round's budget ran out (bounds kept, x.aborted cleared); -1: stopped."""
    cdef int32_t g = guess[0], b, v
    while lo[0] < hi[0]:
        if target >= 0:
            if lo[0] >= target or hi[0] < target:
                return 0
            b = target
        else:
            if g < lo[0]:
                g = lo[0]
            if g > hi[0]:
                g = hi[0]
            b = g + 1 if g <= lo[0] else g
        x.stop_nodes = x.nodes + budget
        if x.stop_nodes > x.max_nodes:
            x.stop_nodes = x.max_nodes
        v = absearch(s, x, b - 1, b, ab_key(s, x))
        if x.aborted:
            if x.aborted == 1 and x.nodes <= x.max_nodes:
                x.aborted = 0
                return 1
            return -1
        if v >= b:
            if v > lo[0]:
                lo[0] = v
        elif v < hi[0]:
            hi[0] = v
        g = v
        guess[0] = v
    return 0


cdef int abroot(AnyPos* root, ABCtx* x, int prove, int32_t* lo, int32_t* hi, int32_t* rlo, int32_t* rhi) noexcept nogil:
    """Bounds of every root move's value into lo/hi (exact where lo == hi), by rounds of growing
    node budgets (iterative widening: an easy move is never starved by a hard one, and a stop
    keeps every bound proven so far). prove: only "does the move reach T?" for a target T that
    starts at the best value there is and falls to the best upper bound left when no move
    reaches it; the first move to reach T ends the search: T is the root's value (rlo, rhi),
    and the other moves keep the bounds proven on the way. 0 done, -1 stopped."""
    cdef MoveList ml
    cdef AnyPos child
    cdef int i, n, rc, left
    cdef int64_t budget = 1 << 14
    cdef int32_t guess = (x.dom_lo + x.dom_hi) // 2 if x.objective == 0 else 0
    cdef int32_t target = x.dom_hi, top
    root.legal_moves(ml)
    n = ml.size
    x.total = n
    while True:
        left = 0
        x.solved = 0
        for i in range(n):
            if lo[i] < hi[i] and (not prove or (lo[i] < target <= hi[i])):
                child = root[0]
                child.apply(ml.moves[i])
                rc = ab_refine(&child, x, lo + i, hi + i, target if prove else -1, budget, &guess)
                if rc < 0:
                    return -1
                left += rc
            if prove:
                if lo[i] >= target:
                    hi[i] = target   # no move beats the best value there is, or left
                    rlo[0] = rhi[0] = target
                    return 0         # the value and a move that reaches it: the question answered
                if hi[i] < target:
                    x.solved += 1
            elif lo[i] == hi[i]:
                x.solved += 1
        if prove and left == 0:
            # No move reaches the target: the next one is the best upper bound proven.
            top = x.dom_lo
            for i in range(n):
                if hi[i] > top:
                    top = hi[i]
            rhi[0] = top
            target = top
            continue
        if left == 0:
            return 0
        budget *= 4


cdef int abline(AnyPos* s0, ABCtx* x, int32_t v, int* line, int* line_chance, int* nline, double* ret, int* sc) noexcept nogil:
    """One principal line from s0 whose value is exactly v: at each decision the first move (table
    move first) whose child is proven to keep v. Its end's returns and scores into ret, sc.
    0 done, -1 stopped (budget, time)."""
    cdef MoveList ml
    cdef AnyPos s = s0[0]
    cdef AnyPos child
    cdef uint16_t order[1024]
    cdef Move mv[2]
    cdef double pr[2]
    cdef TTEntry* e
    cdef int j, i, n_ = 0, found, tb
    cdef int32_t t
    x.stop_nodes = x.max_nodes
    while not s.is_terminal():
        if s.is_chance():
            if s.chance_outcomes(mv, pr, 2) != 1:
                return -1
            if n_ < 512:
                line[n_] = mv[0]
                line_chance[n_] = 1
                n_ += 1
            s.apply_chance(mv[0])
            continue
        ab_moves(&s, x, &ml)   # as absearch: the table's move indices are into this list
        e = tt_find(x, ab_key(&s, x))
        tb = e.best if e != NULL else -1
        ab_order(&s, x, &ml, tb, order)
        found = -1
        for j in range(ml.size):
            i = order[j]
            child = s
            child.apply(ml.moves[i])
            if s.current_player() == x.root_player:
                t = absearch(&child, x, v - 1, v, ab_key(&child, x))
                if not x.aborted and t >= v:
                    found = i
            else:
                t = absearch(&child, x, v, v + 1, ab_key(&child, x))
                if not x.aborted and t <= v:
                    found = i
            if x.aborted:
                return -1
            if found >= 0:
                break
        if found < 0:
            return -1
        if n_ < 512:
            line[n_] = ml.moves[found]
            line_chance[n_] = 0
            n_ += 1
        s.apply(ml.moves[found])
    nline[0] = n_
    s.returns(ret)
    s.scores(sc)
    return 0


cdef class _ABReporter:
    """Progress of one alpha-beta run: fn(nodes, seconds, solved, total) every REPORT_EVERY
    nodes, and Ctrl-C; an exception from either stops the search and is re-raised after it."""
    cdef object fn
    cdef object error
    cdef double t0

    def __init__(self, fn, double t0):
        self.fn, self.error, self.t0 = fn, None, t0


cdef int _ab_report(ABCtx* x) noexcept with gil:
    cdef _ABReporter r = <_ABReporter>x.reporter
    try:
        PyErr_CheckSignals()
        if r.fn is not None:
            r.fn(x.nodes, now_seconds() - r.t0, x.solved, x.total)
    except BaseException as exc:
        r.error = exc
        return 1
    return 0


AB_DEFAULT_ORDERING = ORDER_TT | ORDER_HISTORY   # measured on Inventors endgames (docs/solvers.md)
AB_ORDER = {"tt": ORDER_TT, "greedy": ORDER_GREEDY, "history": ORDER_HISTORY, "etc": ORDER_ETC,
            "no_bounds": 16,       # ignore the ruleset's score bounds (for measuring them)
            "no_dominance": 32}    # search every legal move (for measuring and proving search_moves)


def alphabeta_search(state, str objective="win", bint prove=False, int64_t max_nodes=10000000,
                     double time=0.0, double memory_mb=256.0, int ordering=ORDER_TT | ORDER_HISTORY,
                     object determinize_seed=None, int determinize_seat=-1, object progress=None,
                     bint cpu_clock=False):
    """Alpha-beta from a decision node of a chance-free position, for the seat to move against
    every other seat (two players: the game itself; more: paranoid). Returns a dict: moves (per
    root move: move, lo, hi in the objective's units, line, win and score at the line's end when
    exact), root (lo, hi: the position's value), best (index or None), nodes, tt_hits,
    etc_cuts, seconds, aborted (0 done, 1 node budget, 2 a chance node with several outcomes,
    3 stopped by progress or Ctrl-C, 4 time), player. `time` 0: no deadline; cpu_clock: `time`
    counts this thread's CPU seconds (benchmarks), and cpu_seconds is reported beside seconds."""
    cdef _Pos p = _Pos.of(state)
    cur = p.current
    if cur < 0:
        raise ValueError("position: not a player's decision")
    if objective not in ("win", "margin"):
        raise ValueError(f"objective '{objective}': expected win or margin")
    if prove and objective != "win":
        raise ValueError("prove: a win/draw/loss proof is of the win objective")
    if max_nodes < 1:
        raise ValueError("max_nodes: must be at least 1")
    if not 0 <= ordering <= 63:
        raise ValueError(f"ordering: expected a combination of the ORDER_* bits, got {ordering}")
    if progress is not None and not callable(progress):
        raise ValueError(f"progress: expected a function (nodes, seconds, solved, total), got {progress!r}")
    cdef Rng drng
    cdef Call a
    if determinize_seat == -1:
        determinize_seat = cur
    if determinize_seed is not None:
        drng.reseed(<uint64_t>determinize_seed)
        memset(&a, 0, sizeof(Call))
        a.op = OP_DETERMINIZE
        a.seat = determinize_seat
        a.rng = &drng
        p.call(&a)
        p.refresh()
    # As big as memory_mb allows, but no bigger than the node budget needs (at most 8 entries a
    # node: every node stores one, and the slack keeps the principal lines, which re-search the
    # stored bounds, within the budget): a solve of a few thousand nodes would otherwise spend
    # most of its time having the kernel zero the table's pages (2 MB each, table_alloc).
    cdef int64_t buckets = 1
    while (buckets * 2 * 2 * sizeof(TTEntry) <= memory_mb * 1048576.0 and buckets < (1 << 30)
           and buckets < 4 * max_nodes):
        buckets *= 2
    cdef ABCtx x
    memset(&x, 0, sizeof(ABCtx))
    x.np = p.players
    x.objective = 0 if objective == "win" else 1
    x.root_player = cur
    x.ordering = ordering & 15
    x.bounds = not (ordering & 16)
    x.dominance = not (ordering & 32)
    x.dom_lo, x.dom_hi = (0, WIN_SCALE) if x.objective == 0 else (-AB_INF, AB_INF)
    x.max_nodes = max_nodes
    x.stop_nodes = max_nodes
    x.next_report = REPORT_EVERY
    # The whole table is mapped now (so memory_mb's refusal comes first), but used from 1.5 MB
    # up as the search grows (tt_grow).
    x.tt_full_mask = buckets - 1
    x.tt_mask = min(buckets, TT_START_BUCKETS) - 1
    x.tt = <TTEntry*>table_alloc(2 * buckets * sizeof(TTEntry))
    x.history = <int32_t*>calloc(HISTORY, sizeof(int32_t))
    cdef int n = p.moves.size, i, rc, nline = 0, q
    cdef int32_t* lo = <int32_t*>malloc((n + 1) * sizeof(int32_t))
    cdef int32_t* hi = <int32_t*>malloc((n + 1) * sizeof(int32_t))
    cdef int32_t rlo = x.dom_lo, rhi = x.dom_hi
    cdef int line[512]
    cdef int line_chance[512]
    cdef double ret[MAX_SEATS]
    cdef int sc[MAX_SEATS]
    cdef double t0 = now_seconds(), t1, c0 = thread_cpu_seconds()
    if time > 0:
        x.deadline = (c0 if cpu_clock else t0) + time
    x.cpu_clock = cpu_clock
    reporter = _ABReporter(progress, t0)
    x.reporter = <void*>reporter
    scale = float(WIN_SCALE) if x.objective == 0 else 1.0
    try:
        if x.tt == NULL or x.history == NULL or lo == NULL or hi == NULL:
            raise MemoryError(f"alphabeta: cannot allocate the transposition table ({memory_mb:g} MB)")
        for i in range(n):
            lo[i], hi[i] = x.dom_lo, x.dom_hi
        memset(&a, 0, sizeof(Call))
        a.op = OP_ABROOT
        a.ab = &x
        a.seat = prove
        a.lo, a.hi, a.rlo, a.rhi = lo, hi, &rlo, &rhi
        with nogil:
            rc = <int>p.call(&a)
        if reporter.error is not None:
            raise reporter.error
        stopped = x.aborted
        if not prove:
            rlo = max(lo[i] for i in range(n))
            rhi = max(hi[i] for i in range(n))
        moves = []
        for i in range(n):
            moves.append({"move": p.moves.moves[i], "lo": lo[i] / scale, "hi": hi[i] / scale,
                          "line": None, "win": None, "score": None})
        best = None
        if rlo == rhi:
            for i in range(n):
                if lo[i] == hi[i] == rlo:
                    best = i
                    break
        # Lines: every exact move's (full values), the best move's (a proof); within the budget.
        for i in range(n):
            if lo[i] != hi[i] or x.aborted or (prove and i != best):
                continue
            memset(&a, 0, sizeof(Call))
            a.op = OP_ABLINE
            a.ab = &x
            a.seat = i
            a.v = lo[i]
            a.line, a.line_chance, a.nline = line, line_chance, &nline
            a.vals, a.sc = ret, sc
            with nogil:
                rc = <int>p.call(&a)
            if reporter.error is not None:
                raise reporter.error
            if rc == 0:
                moves[i]["line"] = [(p.moves.moves[i], False)] + [
                    (line[k], bool(line_chance[k])) for k in range(nline)]
                moves[i]["win"] = [ret[q] for q in range(x.np)]
                moves[i]["score"] = [float(sc[q]) for q in range(x.np)]
            x.aborted = 0
        t1 = now_seconds()
        return {"moves": moves, "root": (rlo / scale, rhi / scale), "best": best,
                "nodes": x.nodes, "tt_hits": x.tt_hits, "etc_cuts": x.etc_cuts,
                "static_cuts": x.static_cuts,
                "seconds": t1 - t0, "cpu_seconds": thread_cpu_seconds() - c0,
                "aborted": stopped, "player": cur,
                "tt_entries": 2 * (x.tt_mask + 1), "tt_capacity": 2 * buckets}
    finally:
        table_free(x.tt); free(x.history); free(lo); free(hi)


def chance_free(state):
    """True when no chance node can be reached from `state` (the ruleset's chance_free)."""
    cdef _Pos p = _Pos.of(state)
    cdef Call a
    memset(&a, 0, sizeof(Call))
    a.op = OP_CHANCE_FREE
    return bool(p.call(&a))
