// Timing for the core benchmarks: the measuring thread's CPU time and the wall clock. Rates are
// given per CPU-second of that thread, which a busy machine does not change; the wall figures
// stand beside them, and their ratio is the share of a CPU the thread actually got.
#pragma once
#include <pybind11/pybind11.h>

#include <ctime>

namespace atelier::bind {

struct Lap {
  double cpu = 0, wall = 0;  // seconds
};

class Stopwatch {
 public:
  Stopwatch() : cpu0_(now(CLOCK_THREAD_CPUTIME_ID)), wall0_(now(CLOCK_MONOTONIC)) {}
  Lap lap() const { return {now(CLOCK_THREAD_CPUTIME_ID) - cpu0_, now(CLOCK_MONOTONIC) - wall0_}; }

 private:
  static double now(clockid_t c) {
    timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
  }
  double cpu0_, wall0_;
};

// The figures every ruleset's bench_core reports (docs/json.md, `atelier bench`).
inline void put_playout_figures(pybind11::dict& out, long games, long long decisions, Lap play,
                                long clones, Lap clone) {
  auto per = [](double n, double s) { return s > 0 ? n / s : 0.0; };
  out["games"] = games;
  out["decisions"] = decisions;
  out["seconds"] = play.cpu;
  out["wall_seconds"] = play.wall;
  out["decisions_per_s"] = per((double)decisions, play.cpu);
  out["decisions_per_wall_s"] = per((double)decisions, play.wall);
  out["games_per_s"] = per((double)games, play.cpu);
  out["cpu_share"] = per(play.cpu, play.wall);
  out["clone_ns"] = clone.cpu * 1e9 / (double)clones;
  out["clone_wall_ns"] = clone.wall * 1e9 / (double)clones;
}

}  // namespace atelier::bind
