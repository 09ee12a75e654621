// Small helpers for the Cython search (solvers/*.pyx).
#pragma once
#include <chrono>

namespace atelier::search {

inline double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace atelier::search
