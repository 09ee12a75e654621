// Feature vectors (cext/common/concept.md, "Features"): a ruleset describes a state from one
// seat's side as a fixed-length float vector, the input of a value model (docs/models.md).
//
// A ruleset writes its features ONCE, as a template over a writer: FeatureWriter fills the
// floats (the hot path, called by the search at every model-evaluated leaf), FeatureNamer
// collects one name per value (the binding's Game.feature_names). So names and values cannot
// drift apart; each ruleset's closed-form feature_count is checked against both (the binding
// refuses a mismatch, and tests/test_features.py runs every ruleset and player count).
//
// Layout convention the models rely on: the global block first, then the seat's own block
// ("me"), then one block per other seat in turn order seat+1, seat+2, ... ("p+1", "p+2", ...),
// every seat block the same layout.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "movelist.hpp"

namespace atelier {

constexpr int kMaxFeatures = 1024;

// The seat `k` places after `seat` in turn order.
inline int seat_after(int seat, int k, int n) { return (seat + k) % n; }

// Writes values, never past `cap` (the caller's buffer: feature_count). A layout that writes
// more or fewer is a bug, never a crash: the writer stops at cap and `n` keeps counting, so the
// binding and tests/test_features.py see the mismatch.
struct FeatureWriter {
  float* out;
  int cap;
  int n = 0;
  FeatureWriter(float* o, int c) : out(o), cap(c) {}
  void block(const char*, int = 0) {}
  void put(float v, const char* = nullptr, int = -1, const char* = nullptr) {
    if (n < cap) out[n] = std::isfinite(v) ? v : 0.0f;
    ++n;
  }
  // A 0/1 indicator.
  void flag(bool b, const char* a = nullptr, int i = -1, const char* c = nullptr) { put(b ? 1.0f : 0.0f, a, i, c); }
};

// Names: "<block>.<a>", "<block>.<a><i>", "<block>.<a><i>.<c>"; blocks are "global", "me",
// "p+1", ... (block("p+", k) names the seat k places after the seat).
struct FeatureNamer {
  std::vector<std::string> names;
  std::string prefix = "global";
  int n = 0;
  void block(const char* b, int k = 0) { prefix = k ? std::string(b) + std::to_string(k) : std::string(b); }
  void put(float, const char* a = nullptr, int i = -1, const char* c = nullptr) {
    std::string s = prefix + "." + (a ? a : "x");
    if (i >= 0) s += std::to_string(i);
    if (c) s += std::string(".") + c;
    names.push_back(std::move(s));
    ++n;
  }
  void flag(bool b, const char* a = nullptr, int i = -1, const char* c = nullptr) { put(b, a, i, c); }
};

// A count over its nominal maximum, never below 0 (a few can pass the maximum, e.g. money, so
// the top is not clamped: the value stays informative).
inline float frac(double v, double max) {
  if (max <= 0) return 0.0f;
  const double x = v / max;
  return (float)(x < 0 ? 0 : x);
}

}  // namespace atelier
