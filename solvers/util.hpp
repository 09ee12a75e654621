// Small helpers for the Cython search (solvers/*.pyx).
#pragma once
#include <chrono>
#include <ctime>

namespace atelier::search {

inline double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// CPU seconds of the calling thread: a limit on it is the same work on a busy machine.
inline double thread_cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

}  // namespace atelier::search
