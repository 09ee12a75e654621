// Bit helpers shared by the rulesets.
#pragma once
#include <cstdint>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace atelier {

// With POPCNT (a source build for a machine that has it, -mpopcnt) the builtin is one
// instruction; without it GCC calls libgcc's __popcountdi2, a fifth of an Inventors playout,
// so a portable build counts with SWAR instead (about a dozen inline instructions).
inline int popcount64(uint64_t x) {
#ifdef __POPCNT__
  return __builtin_popcountll(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}
inline int lsb64(uint64_t x) { return __builtin_ctzll(x); }
inline uint64_t pop_lsb(uint64_t& x) { uint64_t b = x & (0 - x); x &= x - 1; return b; }

// SWAR on 16 nibbles: mask with 0xF in every nibble of x that equals v (v in 0..15).
inline uint64_t nibbles_equal(uint64_t x, unsigned v) {
  const uint64_t ones = 0x1111111111111111ULL;
  uint64_t y = x ^ (ones * v);             // nibble is zero where x == v
  // A nibble is zero iff none of its 4 bits is set.
  uint64_t t = y | (y >> 1);
  t |= t >> 2;                              // bit 0 of each nibble = OR of its bits
  uint64_t zero = ~t & ones;                // 1 in bit 0 of nibbles that were zero
  return zero * 0xF;
}

// SWAR on 8 bytes: 0x80 in every byte of x that equals v, exactly (no false positives from a
// borrow: the low seven bits are summed without carry into the top bit).
inline uint64_t bytes_equal(uint64_t x, uint8_t v) {
  const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
  const uint64_t y = x ^ (0x0101010101010101ULL * v);   // byte is zero where x == v
  return ~(((y & low7) + low7) | y | low7);
}
// How many bytes a bytes_equal mask marks (at most 8: the byte sum cannot overflow).
inline int count_marked(uint64_t m) { return (int)(((m >> 7) * 0x0101010101010101ULL) >> 56); }

// Bit i set for each of the 64 bytes p[0..63] with (p[i] & keep) == v: with SSE2 (every x86-64)
// four compares and byte masks, about a dozen instructions, instead of a 64-step loop.
inline uint64_t bytes_match64(const uint8_t* p, uint8_t keep, uint8_t v) {
  uint64_t m = 0;
#ifdef __SSE2__
  const __m128i k = _mm_set1_epi8((char)keep), w = _mm_set1_epi8((char)v);
  for (int i = 0; i < 4; ++i) {
    const __m128i x = _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i)), k);
    m |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, w)) << (16 * i);
  }
#else
  for (int i = 0; i < 64; ++i) m |= (uint64_t)((p[i] & keep) == v) << i;
#endif
  return m;
}

}  // namespace atelier
