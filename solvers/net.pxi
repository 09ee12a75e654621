# The value network as the search holds it (included by engine.pyx before the trees).
# The arithmetic is solvers/valuenet.hpp; this file builds it from an atelier.model.Model.

cdef extern from "valuenet.hpp" namespace "atelier::search" nogil:
    const int kNetMaxLayers
    const int kNetMaxWidth
    const int kNetMaxSeats
    cdef cppclass ValueNet:
        int nf, np, nl
    long net_block_size(int nf, int np, int nl, const int* hidden)
    int net_bind(ValueNet* n, float* block, int nf, int np, int nl, const int* hidden, float score_scale)
    void net_forward(const ValueNet* n, const float* x, double* win, double* score)


cdef class Net:
    """A Model's network copied once into one contiguous block of float32, for the search's
    threads to evaluate without the GIL (`Tree(..., net=Net(model))`). Read-only once built.

    `forward(x)` evaluates a (B, F) batch (or one row) here, for tests against Model.forward."""
    cdef ValueNet n
    cdef float* block
    cdef readonly str game
    cdef readonly int players, features, feature_version

    def __cinit__(self):
        self.block = NULL

    def __dealloc__(self):
        free(self.block)

    def __init__(self, model):
        cdef int hidden[kNetMaxLayers]
        cdef long size, off = 0
        cdef int k, nl = len(model.layers)
        cdef float[::1] flat
        nf, np_ = int(model.features), int(model.players)
        if not (1 <= nf <= kNetMaxWidth and 1 <= np_ <= kNetMaxSeats and nl <= kNetMaxLayers):
            raise InputError(f"model: {nf} features, {np_} seats, {nl} hidden layers: beyond what "
                             f"the search evaluates ({kNetMaxWidth}, {kNetMaxSeats}, {kNetMaxLayers})")
        for k in range(nl):
            hidden[k] = int(model.layers[k][0].shape[1])
            if not 1 <= hidden[k] <= kNetMaxWidth:
                raise InputError(f"model: hidden layer {k + 1} has {hidden[k]} units (1..{kNetMaxWidth})")
        # Every array's shape, as the file format checks them (a Model built in Python skips
        # that check; a transposed matrix of the right size would otherwise be read silently).
        import numpy
        want = [("mean", model.mean, (nf,)), ("scale", model.scale, (nf,))]
        width = nf
        for k in range(nl):
            want += [(f"W{k + 1}", model.layers[k][0], (width, hidden[k])),
                     (f"b{k + 1}", model.layers[k][1], (hidden[k],))]
            width = hidden[k]
        want += [("Wwin", model.win[0], (width, np_)), ("bwin", model.win[1], (np_,)),
                 ("Wscore", model.score[0], (width, np_)), ("bscore", model.score[1], (np_,))]
        parts = []
        for name, a, shape in want:
            a = numpy.ascontiguousarray(a, dtype=numpy.float32)
            if a.shape != shape:
                raise InputError(f"model: {name}: shape {a.shape}, expected {shape}")
            if not numpy.all(numpy.isfinite(a)):
                raise InputError(f"model: {name}: not finite")
            parts.append(a.ravel())
        size = net_block_size(nf, np_, nl, hidden)
        arr = numpy.concatenate(parts)
        if arr.shape[0] != size:
            raise InputError(f"model: {arr.shape[0]} parameters where its shape needs {size}")
        free(self.block)
        self.block = <float*>malloc(sizeof(float) * size)
        if self.block == NULL:
            raise MemoryError("model: cannot allocate its weights")
        flat = arr
        memcpy(self.block, &flat[0], sizeof(float) * size)
        if net_bind(&self.n, self.block, nf, np_, nl, hidden, <float>model.score_scale) != 0:
            raise InputError("model: a shape out of range")
        self.game, self.players, self.features = str(model.game), np_, nf
        self.feature_version = int(model.feature_version)

    def forward(self, x):
        """(win, score) as float64 arrays, (B, N) for a (B, F) batch, (N,) for one row."""
        import numpy
        a = numpy.ascontiguousarray(x, dtype=numpy.float32)
        one = a.ndim == 1
        a = numpy.ascontiguousarray(numpy.atleast_2d(a))
        if a.ndim != 2 or a.shape[1] != self.n.nf:
            raise InputError(f"features: the model reads {self.n.nf} values, got shape {tuple(a.shape)}")
        cdef Py_ssize_t rows = a.shape[0]
        win = numpy.zeros((rows, self.n.np), dtype=numpy.float64)
        score = numpy.zeros((rows, self.n.np), dtype=numpy.float64)
        cdef float[:, ::1] xv = a
        cdef double[:, ::1] wv = win
        cdef double[:, ::1] sv = score
        cdef Py_ssize_t r
        if rows:
            with nogil:
                for r in range(rows):
                    net_forward(&self.n, &xv[r, 0], &wv[r, 0], &sv[r, 0])
        return (win[0], score[0]) if one else (win, score)
