// Legal moves of the decision waiting in a State, in the canonical order of docs/notation.md
// (spec §11.4: by decision kind, then the arguments in §5 order, numbers ascending).
#include "../common/bits.hpp"
#include "game.hpp"

namespace atelier::leonardo {

static inline bool any_stock(const State& s) {
  for (int k = 0; k < kKinds; ++k)
    if (s.shop[k]) return true;
  return false;
}

static inline int lab_free(const Lab& L) {
  return lab_spaces(L.side) - L.mech - L.app - ((L.flags & LF_MASTER) ? 1 : 0);
}

bool Game::codex_any(const State& s, int owner) const {
  MoveList ml;
  gen_codex(s, owner, ml);
  return ml.size > 0;
}

// CODEX_MOVE(victim, source, target), §8: any player's apprentice between areas B..H.
void Game::gen_codex(const State& s, int owner, MoveList& out) const {
  uint8_t first[kAreas];
  for (int t = 1; t < kAreas; ++t) {
    uint8_t order[kMaxPlayers];
    int cnt;
    rank(s, t, order, cnt);
    first[t] = cnt ? order[0] : kNone;
  }
  for (int v = 0; v < n_; ++v)
    for (int src = 1; src < kAreas; ++src) {
      if (!(s.city[src][v] & 15)) continue;
      for (int dst = 1; dst < kAreas; ++dst) {
        if (dst == src) continue;
        if (v != owner && first[dst] == v) continue;
        out.push(mk(M_CODEX, (unsigned)(v * 64 + src * 8 + dst)));
      }
    }
}

// The PLACE case of gen below, asking only whether anything but PASS would be listed: settle
// asks this after every Phase B move, and generating the whole list there cost as much as the
// caller's own legal_moves.
bool Game::place_only_pass(const State& s) const {
  const Player& P = s.pl[s.actor];
  const bool master = P.pflags & PF_MASTER;
  if (!P.app_supply && !master) return true;
  const bool city = s.turn <= ed_.normal_turns;
  for (int q = 0; q < kAreas + kLabs; ++q) {
    int cap;
    if (q < kAreas) cap = city ? 99 : 0;
    else {
      const Lab& L = P.lab[q - kAreas];
      cap = L.working() ? lab_free(L) : 0;
    }
    if (cap < 1) continue;
    if (master || (P.app_supply && !((P.placed >> q) & 1))) return false;
  }
  return true;
}

// The START case of gen below (s.step >= 2), asking only whether NONE is all it would list.
bool Game::start_only_none(const State& s) const {
  const Player& P = s.pl[s.actor];
  const uint8_t other = P.lab[1 - (s.step - 2)].card;
  const uint64_t have = pack_kinds(P.hand);
  for (uint32_t w = startable(s); w; w &= w - 1) {
    const int c = lsb64(w);
    if (c != other && fits_hand(c, have)) return false;
  }
  return true;
}

// Favour B's four materials, at most two of a kind (§5.1): the multisets in the canonical
// order (a <= b <= c <= d), each with its move code and its counts one byte per kind, so a
// pick is tested against the shops in one subtraction instead of a loop per kind.
namespace {
struct FavourB {
  int size = 0;
  uint16_t code[70];
  uint64_t counts[70];
  FavourB() {
    for (int a = 0; a < kKinds; ++a)
      for (int b = a; b < kKinds; ++b)
        for (int c = b; c < kKinds; ++c)
          for (int d = c; d < kKinds; ++d) {
            int cnt[kKinds] = {0};
            ++cnt[a]; ++cnt[b]; ++cnt[c]; ++cnt[d];
            unsigned w = 1, x = 0;
            uint64_t packed = 0;
            bool ok = true;
            for (int k = 0; k < kKinds; ++k, w *= 3) {
              ok &= cnt[k] <= 2;
              x += w * (unsigned)cnt[k];
              packed |= (uint64_t)cnt[k] << (8 * k);
            }
            if (ok) code[size] = (uint16_t)x, counts[size++] = packed;
          }
  }
};
const FavourB kFavourB;
}  // namespace

// legal_moves(s)[rng.below(size)] without the list where it is long: a Phase B placement
// (about 24 moves, a third of a playout's decisions) is counted and indexed in canonical order.
Move Game::random_move(const State& s, Rng& rng) const {
  if (s.phase != PLACE) {
    MoveList ml;
    legal_moves(s, ml);
    return ml.size ? ml[(int)rng.below((uint32_t)ml.size)] : 0;
  }
  const Player& P = s.pl[s.actor];
  const bool city = s.turn <= ed_.normal_turns;
  const bool master = P.pflags & PF_MASTER;
  const int a = P.app_supply;
  // Areas take any number: each area not yet used offers PLACE 1..a, so they count together.
  const uint32_t areas = city ? ~(uint32_t)P.placed & ((1u << kAreas) - 1) : 0;
  const int n_areas = popcount64(areas);
  int top[kLabs], total = 1 + n_areas * a;  // 1: PASS
  int masters = master && city ? (1 << kAreas) - 1 : 0;  // a master goes to any area, used or not
  for (int l = 0; l < kLabs; ++l) {
    const Lab& L = P.lab[l];
    const int cap = L.working() ? lab_free(L) : 0;
    top[l] = ((P.placed >> (kAreas + l)) & 1) || cap < 1 ? 0 : a < cap ? a : cap;
    total += top[l];
    if (master && cap >= 1) masters |= 1 << (kAreas + l);
  }
  total += popcount64((uint64_t)masters);
  int r = (int)rng.below((uint32_t)total);
  if (r < n_areas * a) {  // the (r / a)-th area not yet used, r % a + 1 apprentices
    uint32_t w = areas;
    for (int i = r / a; i > 0; --i) w &= w - 1;
    return mk(M_PLACE, (unsigned)(lsb64(w) * 16 + r % a + 1));
  }
  r -= n_areas * a;
  for (int l = 0; l < kLabs; ++l) {
    if (r < top[l]) return mk(M_PLACE, (unsigned)((kAreas + l) * 16 + r + 1));
    r -= top[l];
  }
  for (int w = masters; w; w &= w - 1)
    if (r-- == 0) return mk(M_MASTER, (unsigned)lsb64((uint64_t)w));
  return mk(M_PASS);
}

void Game::gen(const State& s, MoveList& out) const {
  out.size = 0;
  const int p = s.actor;
  const Player& P = s.pl[p];
  switch (s.phase) {
    case FAVOUR: {
      const int cap = ed_.letter_cap[n_];
      auto ok = [&](int letter) { return !cap || ((P.letters >> (2 * letter)) & 3) < cap; };
      if (ok(0)) out.push(mk(M_FAV_A));
      if (ok(1)) {
        // Byte k of (min(shop, 3) | 0x80) - counts keeps bit 7 exactly when shop[k] >= count (a
        // count is at most 2, so no borrow crosses a byte).
        uint64_t shops = Game::kKindTops;
        for (int k = 0; k < kKinds; ++k) {
          const uint64_t c = s.shop[k];  // read once (GCC 12's -O1 UBSan misreported the twice-read index)
          shops |= (c < 3 ? c : 3) << (8 * k);
        }
        for (int i = 0; i < kFavourB.size; ++i)
          if (((shops - kFavourB.counts[i]) & Game::kKindTops) == Game::kKindTops) out.push(mk(M_FAV_B, kFavourB.code[i]));
      }
      if (ok(2) && s.academy[p]) out.push(mk(M_FAV_C));
      if (ok(3)) {
        const bool stock = any_stock(s);
        const bool cond[3] = {P.lab[0].side == 3, P.lab[1].side == 0, P.lab[1].side == 4};
        for (int d = 0; d < 3; ++d) {
          if (!cond[d]) continue;
          if (!stock) out.push(mk(M_FAV_D1 + d, kNoKind));
          for (int k = 0; k < kKinds; ++k)
            if (s.shop[k]) out.push(mk(M_FAV_D1 + d, k));
        }
        if (P.mech_count < ed_.mech_per_player && s.mech_supply)
          for (int l = 0; l < kLabs; ++l)
            if (P.lab[l].side && P.lab[l].mech < lab_mech_slots(P.lab[l].side)) out.push(mk(M_FAV_D4, l));
      }
      return;
    }
    case LAB: {
      if (s.step < 2) {
        out.push(mk(M_KEEP, s.step));
        out.push(mk(M_CANCEL, s.step));
        return;
      }
      const int l = s.step - 2;
      out.push(mk(M_START, (unsigned)(l * 32 + kStartNone)));
      const uint8_t other = P.lab[1 - l].card;
      const uint64_t have = pack_kinds(P.hand);
      for (uint32_t w = startable(s); w; w &= w - 1) {
        const int c = lsb64(w);
        if (c != other && fits_hand(c, have)) out.push(mk(M_START, (unsigned)(l * 32 + c)));
      }
      return;
    }
    case PLACE: {
      const bool city = s.turn <= ed_.normal_turns;
      int cap[kAreas + kLabs];
      for (int q = 0; q < kAreas + kLabs; ++q) {
        if (q < kAreas) cap[q] = city ? 99 : 0;
        else {
          const Lab& L = P.lab[q - kAreas];
          cap[q] = L.working() ? lab_free(L) : 0;
        }
      }
      for (int q = 0; q < kAreas + kLabs; ++q) {
        if ((P.placed >> q) & 1) continue;
        const int top = P.app_supply < cap[q] ? P.app_supply : cap[q];
        for (int k = 1; k <= top; ++k) out.push(mk(M_PLACE, (unsigned)(q * 16 + k)));
      }
      if (P.pflags & PF_MASTER)
        for (int q = 0; q < kAreas + kLabs; ++q)
          if (cap[q] >= 1) out.push(mk(M_MASTER, q));
      out.push(mk(M_PASS));
      return;
    }
    case CLAIM: {
      if (s.claimed[0] == kNone) {
        const bool ok = opt_.codex ? codex_any(s, p) : (s.city[0][p] & 15) > 0;
        if (ok) out.push(mk(M_CLAIM, 1));
      }
      if (s.claimed[1] == kNone) out.push(mk(M_CLAIM, 2));
      if (s.claimed[2] == kNone && s.deck_len) out.push(mk(M_CLAIM, 3));
      if (s.claimed[3] == kNone && P.money >= 1 && any_stock(s)) out.push(mk(M_CLAIM, 4));
      out.push(mk(M_DECLINE));
      return;
    }
    case GIFT:
      for (int q = 0; q < n_; ++q) out.push(mk(M_GIFT, q));
      return;
    case CMOVE:
      if (opt_.codex) {
        gen_codex(s, p, out);
      } else {
        for (int t = 1; t < kAreas; ++t) out.push(mk(M_MOVE, t));
      }
      return;
    case REORDER: {
      const int m = s.deck_len < 4 ? s.deck_len : 4;
      for (int i = 0; i < kPerms.count[m]; ++i) out.push(mk(M_REORDER, i));
      return;
    }
    case MATERIAL:
      for (int k = 0; k < kKinds; ++k)
        if (s.shop[k]) out.push(mk(M_MATERIAL, k));
      return;
    case AREA: {
      if (P.money >= ed_.prices[s.price]) {
        if (s.area == 1) {
          const Lab& S = P.lab[0];
          const Lab& L = P.lab[1];
          if (S.side == 3 && !S.working()) out.push(mk(M_BUY, 0));
          if (L.side == 0) out.push(mk(M_BUY, 1));
          if (L.side == 4 && !L.working()) out.push(mk(M_BUY, 2));
          if (P.mech_count < ed_.mech_per_player && s.mech_supply)
            for (int l = 0; l < kLabs; ++l) {
              const Lab& X = P.lab[l];
              if (X.side && !X.working() && X.mech < lab_mech_slots(X.side)) out.push(mk(M_BUY, 3 + l));
            }
        } else if (s.area == 2) {
          if (s.academy[p]) out.push(mk(M_BUY, 5));
        } else {
          const int k = s.area - 3;
          if (s.shop[k]) out.push(mk(M_BUY, 8 + k));
        }
      }
      out.push(mk(M_PASS));
      return;
    }
    case BID: {
      const int top = P.money < kMaxBid ? P.money : kMaxBid;
      for (int b = 0; b <= top; ++b) out.push(mk(M_BID, b));
      return;
    }
    default:
      return;
  }
}

}  // namespace atelier::leonardo
