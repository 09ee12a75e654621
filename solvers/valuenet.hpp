// The value network inside the search (atelier.model/1, docs/models.md): standardise, ReLU
// hidden layers, a softmax win head and a score head. Generic: it knows no ruleset, only
// "F floats in, N win shares and N scores out", in the seat order the features were written.
//
// Built once from a Python Model (every array copied into one contiguous block), then read
// by every search thread at once: `forward` only reads the net and writes the caller's
// scratch, so it needs no lock, no GIL and no allocation per call.
#pragma once
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace atelier::search {

constexpr int kNetMaxLayers = 8;      // hidden layers (atelier.model MAX_LAYERS)
constexpr int kNetMaxWidth = 4096;    // features or units per layer (MAX_FEATURES, MAX_WIDTH)
constexpr int kNetMaxSeats = 8;

struct ValueNet {
  int nf = 0;                   // features
  int np = 0;                   // seats (outputs per head)
  int nl = 0;                   // hidden layers
  int width[kNetMaxLayers + 1] = {};   // width[0] = nf, width[k] = hidden layer k
  float score_scale = 1.0f;
  float* block = nullptr;       // every parameter, contiguous (owned)
  const float* mean = nullptr;  // (nf)
  const float* scale = nullptr; // (nf)
  const float* W[kNetMaxLayers] = {};  // (width[k], width[k+1]) row-major, as numpy
  const float* b[kNetMaxLayers] = {};
  const float* Wwin = nullptr;  // (width[nl], np)
  const float* bwin = nullptr;
  const float* Wscore = nullptr;
  const float* bscore = nullptr;
};

// Floats of the block for this shape (the caller allocates and fills it in this order:
// mean, scale, W1, b1, ..., Wwin, bwin, Wscore, bscore).
inline long net_block_size(int nf, int np, int nl, const int* hidden) {
  long n = 2L * nf, in = nf;
  for (int k = 0; k < nl; ++k) {
    n += in * hidden[k] + hidden[k];
    in = hidden[k];
  }
  return n + 2 * (in * np + np);
}

// Point the net's arrays into `block` (already filled). 0, or -1 on a shape out of range.
inline int net_bind(ValueNet* n, float* block, int nf, int np, int nl, const int* hidden, float score_scale) {
  if (nf < 1 || nf > kNetMaxWidth || np < 1 || np > kNetMaxSeats || nl < 0 || nl > kNetMaxLayers) return -1;
  n->nf = nf;
  n->np = np;
  n->nl = nl;
  n->score_scale = score_scale;
  n->block = block;
  n->width[0] = nf;
  float* p = block;
  n->mean = p; p += nf;
  n->scale = p; p += nf;
  for (int k = 0; k < nl; ++k) {
    if (hidden[k] < 1 || hidden[k] > kNetMaxWidth) return -1;
    n->width[k + 1] = hidden[k];
    n->W[k] = p; p += (long)n->width[k] * hidden[k];
    n->b[k] = p; p += hidden[k];
  }
  int h = n->width[nl];
  n->Wwin = p; p += (long)h * np;
  n->bwin = p; p += np;
  n->Wscore = p; p += (long)h * np;
  n->bscore = p;
  return 0;
}

// One dense layer: out[j] = b[j] + sum_i in[i] * W[i][j]; the inner loop runs along a row of W
// (contiguous), so the compiler vectorises it. Inputs that are exactly 0 (after a ReLU, often
// half of them) are skipped.
inline void net_dense(const float* in, int nin, const float* W, const float* b, int nout, float* out) {
  std::memcpy(out, b, sizeof(float) * nout);
  for (int i = 0; i < nin; ++i) {
    const float x = in[i];
    if (x == 0.0f) continue;
    const float* row = W + (long)i * nout;
    for (int j = 0; j < nout; ++j) out[j] += x * row[j];
  }
}

// Win shares (softmax, sums to 1) and expected scores per seat, in the order of the features'
// seats. `x` holds nf floats; the scratch lives on this thread's stack (2 x 16 KB at most).
inline void net_forward(const ValueNet* n, const float* x, double* win, double* score) {
  float a[kNetMaxWidth], c[kNetMaxWidth];
  float* z = a;
  float* t = c;
  for (int i = 0; i < n->nf; ++i) z[i] = (x[i] - n->mean[i]) * n->scale[i];
  for (int k = 0; k < n->nl; ++k) {
    net_dense(z, n->width[k], n->W[k], n->b[k], n->width[k + 1], t);
    for (int j = 0; j < n->width[k + 1]; ++j) t[j] = t[j] > 0.0f ? t[j] : 0.0f;
    float* s = z; z = t; t = s;
  }
  const int h = n->width[n->nl];
  float lw[kNetMaxSeats], ls[kNetMaxSeats];
  net_dense(z, h, n->Wwin, n->bwin, n->np, lw);
  net_dense(z, h, n->Wscore, n->bscore, n->np, ls);
  double mx = lw[0], sum = 0.0;
  for (int q = 1; q < n->np; ++q) mx = lw[q] > mx ? lw[q] : mx;
  for (int q = 0; q < n->np; ++q) sum += (win[q] = std::exp((double)lw[q] - mx));
  for (int q = 0; q < n->np; ++q) {
    win[q] /= sum;
    score[q] = (double)ls[q] * n->score_scale;
  }
}

}  // namespace atelier::search
