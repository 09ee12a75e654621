# Running a tree to its budget, and the Python Tree object (included by engine.pyx).

cdef int64_t run_core(AnyPos* root, Core* c, Rng* rng, int64_t n, double deadline) noexcept nogil:
    cdef int64_t i = 0
    while i < n:
        if c.ismcts:
            if ismcts_iteration(root, c, rng):
                break
        elif mcts_iteration(root, c, rng):
            break
        i += 1
        if c.solver and c.plo[0] == c.phi[0]:
            break   # the root is proven: no iteration can change its answer
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
    cdef Net net     # rollout "model": the network the leaves are judged by (kept alive here)

    def __cinit__(self):
        self.ready = False
        memset(&self.c, 0, sizeof(Core))

    def __init__(self, state, *, uint64_t seed=0, double exploration=1.0, str reward="win",
                 str rollout="random", int64_t max_nodes=1000000, bint ismcts=False,
                 double pw_c=1.0, double pw_alpha=0.5, bint solver=False, int64_t leaf_nodes=0,
                 Net net=None, int leaf_moves=0, double leaf_mix=0.0):
        # Every parameter is checked here too (atelier.solvers checks them first, with the
        # user's names): a NaN or negative constant would make the selection meaningless.
        if not (0.0 <= exploration <= 1e300):
            raise ValueError(f"exploration: expected a finite number >= 0, got {exploration!r}")
        if not (0.0 < pw_c <= 1e300):
            raise ValueError(f"pw_c: expected a finite number > 0, got {pw_c!r}")
        if not (0.0 <= pw_alpha <= 1.0):
            raise ValueError(f"pw_alpha: expected 0..1, got {pw_alpha!r}")
        if not 2 <= max_nodes <= MAX_ARENA:
            raise ValueError(f"max_nodes: expected 2..{MAX_ARENA:,} (32-bit node indices), got {max_nodes}")
        if reward not in ("win", "margin"):
            raise ValueError(f"reward '{reward}': expected win or margin")
        if rollout not in ("random", "greedy", "model"):
            raise ValueError(f"rollout '{rollout}': expected random, greedy or model")
        if (rollout == "model") != (net is not None):
            raise ValueError("rollout: a net goes with rollout 'model' and only with it")
        if not 0 <= leaf_moves <= 10000:
            raise ValueError(f"leaf_moves: expected 0..10000, got {leaf_moves}")
        if not (0.0 <= leaf_mix <= 1.0) or (leaf_mix > 0 and net is None):
            raise ValueError(f"leaf_mix: expected 0..1, and 0 without a model, got {leaf_mix!r}")
        # A second __init__ on the same object starts over: free what the first one made.
        self.ready = False
        core_free(&self.c)
        self.pos = _Pos.of(state)
        cur = self.pos.current
        if cur == -2:
            raise ValueError("position: the game is over")
        if cur == -1:
            raise ValueError("position: a chance event is next, not a player's decision")
        # On failure core_alloc leaves what it got in self.c; __dealloc__ (or the next
        # __init__) frees it once.
        if core_alloc(&self.c, self.pos.players, max_nodes) != 0:
            raise MemoryError(f"search tree: cannot allocate a node arena of {max_nodes:,} nodes")
        self.c.c_explore = exploration
        self.c.pw_c = pw_c
        self.c.pw_alpha = pw_alpha
        self.c.reward = 0 if reward == "win" else 1
        self.c.rollout = {"random": 0, "greedy": 1, "model": 2}[rollout]
        if net is not None:
            n_feat, version, _ = position_features(state)
            if (net.players != self.pos.players or net.features != n_feat
                    or net.feature_version != version):
                raise ValueError(f"model: reads {net.features} features (version "
                                 f"{net.feature_version}) of {net.players} seats; this position "
                                 f"has {n_feat} (version {version}) and {self.pos.players} seats")
            self.net = net
            self.c.net = &net.n
            self.c.leaf_moves = leaf_moves
            self.c.leaf_mix = leaf_mix
        self.c.ismcts = ismcts
        self.c.observer = cur
        if solver and (ismcts or reward != "win" or self.pos.players != 2):
            raise ValueError("solver: MCTS-Solver needs MCTS, the win reward and two players")
        if not 0 <= leaf_nodes <= 1 << 40:
            raise ValueError(f"leaf_nodes: expected 0..2^40, got {leaf_nodes}")
        if solver and solver_alloc(&self.c) != 0:
            raise MemoryError("search tree: cannot allocate the solver's bounds")
        if solver and leaf_nodes > 0 and leaf_alloc(&self.c, self.pos.players, leaf_nodes) != 0:
            raise MemoryError("search tree: cannot allocate the leaf solver's table")
        if ismcts:
            if ismcts_alloc(&self.c) != 0:
                raise MemoryError("search tree: cannot allocate the information-set table")
        self.rng.reseed(seed)
        cdef Call a
        memset(&a, 0, sizeof(Call))
        a.op = OP_ROOT
        a.core = &self.c
        rc = self.pos.call(&a)
        if rc == -1:
            raise ValueError(f"memory: the budget holds fewer nodes than the root's moves")
        if rc != 0:
            raise MemoryError("search tree: cannot allocate the root statistics")
        self.ready = True

    def __dealloc__(self):
        core_free(&self.c)

    def _set_exploration_unchecked(self, double c):
        """Tests only: set the exploration constant past __init__'s check, to show that the
        selection picks a real child whatever the values (NaN compares with nothing)."""
        self.c.c_explore = c

    def run(self, int64_t n, double deadline=0.0):
        """Run up to n iterations (or until `deadline`, time.monotonic-free wall clock from
        now_seconds()); returns the number done. Releases the GIL. A tree stops for good at
        MAX_TREE_ITERATIONS (its visit counts are 32-bit)."""
        if not self.ready or self.c.full:
            return 0
        n = min(n, MAX_TREE_ITERATIONS - self.c.iterations)
        if n <= 0:
            return 0
        cdef Call a
        memset(&a, 0, sizeof(Call))
        a.op = OP_RUN
        a.core = &self.c
        a.rng = &self.rng
        a.n = n
        a.deadline = deadline
        cdef int64_t done
        with nogil:
            done = self.pos.call(&a)
        return done

    @property
    def iterations(self):
        return self.c.iterations

    @property
    def solver(self):
        return bool(self.c.solver)

    @property
    def proven_root(self):
        """MCTS-Solver: seat 0's proven win share at the root, or None."""
        return self.c.plo[0] * 0.5 if self.c.solver and self.c.plo[0] == self.c.phi[0] else None

    @property
    def leaf_solves(self):
        """MCTS-Solver: (leaves handed to alpha-beta, leaves it proved)."""
        return self.c.leaf_tries, self.c.leaf_proofs

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
                # MCTS-Solver: seat 0's proven win share, None when not proven
                "proven": (self.c.plo[1 + i] * 0.5 if self.c.solver and self.c.plo[1 + i] == self.c.phi[1 + i]
                           else None),
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

    def decision_stats(self, state):
        """The statistics an ISMCTS tree holds for the decision in `state`, those of its mover's
        information set: [(move, visits, availability, mover's value sum)], or None where the
        search has not met it (tests and debugging)."""
        cdef _Pos q = _Pos.of(state)
        cdef int32_t node, ch
        cdef Call a
        if not self.c.ismcts:
            raise ValueError("decision_stats: only an ISMCTS tree keys decisions by information set")
        if q.kind != self.pos.kind:
            raise ValueError("decision_stats: a position of another game")
        memset(&a, 0, sizeof(Call))
        a.op = OP_STATS_NODE
        a.core = &self.c
        node = <int32_t>q.call(&a)
        if node < 0:
            return None
        p = self.c.player[node]
        out = []
        ch = self.c.first_child[node]
        while ch >= 0:
            out.append((self.c.move[ch], self.c.visits[ch], self.c.aux[ch], self.c.val[ch * self.c.np + p]))
            ch = self.c.next_sib[ch]
        return sorted(out)

    def signature(self):
        """A fingerprint of the whole tree (node count and a hash of visits and moves)."""
        cdef uint64_t h = 1469598103934665603ULL
        cdef int64_t i
        for i in range(self.c.size):
            h = (h ^ (<uint64_t>self.c.visits[i] * 1000003 + self.c.move[i])) * 1099511628211ULL
        return (self.c.size, h)


def now():
    return now_seconds()
