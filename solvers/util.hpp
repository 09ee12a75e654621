// Small helpers for the Cython search (solvers/*.pyx).
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#if defined(__linux__)
#include <sys/mman.h>
#endif

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

// A large zeroed table (an exact search's transposition table), or nullptr. On Linux it is
// mapped with room to start on a 2 MB boundary and asks for 2 MB pages (madvise; the kernel
// may refuse, and then it is ordinary memory): an exact search probes it at a random address
// every node, and with 4 KB pages nearly every probe of a table of hundreds of MB also missed
// the TLB (a 256 MB table searched 2.3M nodes per CPU-second, a 4 MB one 4.5M). Pages are
// zero and touched only when used, as with calloc. Free with table_free.
inline void* table_alloc(size_t bytes) {
#if defined(__linux__)
  const size_t huge = size_t(1) << 21, len = bytes + 2 * huge;
  void* raw = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  // The block starts on a 2 MB boundary at least one header past the mapping's start.
  const uintptr_t start = ((uintptr_t)raw + 2 * sizeof(size_t) + huge - 1) & ~(uintptr_t)(huge - 1);
  size_t* head = (size_t*)start - 2;
  head[0] = (size_t)raw;
  head[1] = len;
  madvise((void*)start, bytes, MADV_HUGEPAGE);
  return (void*)start;
#else
  return calloc(bytes, 1);
#endif
}

// Start loading the cache line at p (a table entry about to be probed); a hint, no effect on
// results.
inline void prefetch(const void* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p);
#endif
}

inline void table_free(void* p) {
  if (p == nullptr) return;
#if defined(__linux__)
  size_t* head = (size_t*)p - 2;
  munmap((void*)head[0], head[1]);
#else
  free(p);
#endif
}

}  // namespace atelier::search
