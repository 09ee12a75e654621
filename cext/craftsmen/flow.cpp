// Craftsmen flow: rounds, helper phase, stages and helper actions, work-token windows, final
// phase, end of round, year end (Craftsmen §5, Craftsmen §7.3, Craftsmen §7.5, Craftsmen §8, Craftsmen §9.1, Craftsmen §11-Craftsmen §14). Every function here
// leaves the state either at a decision, at a chance node, or at P_RUN for advance() to go on.
#include <algorithm>
#include <cstring>

#include "game.hpp"
#include "rules.hpp"

namespace atelier::craftsmen {

// The 10-card limit (A23) is checked whenever a step ends, except inside a Banker action
// before its own discards (Craftsmen spec 7.3, Craftsmen §23): draws, the privilege choice and those discards.
static bool in_banker_sequence(const State& s) {
  // From the first face-up take to the action's own discards (§7.3, §23 "Banker order").
  if (s.phase == P_BANK2 || s.phase == P_BANK_PRIV) return true;
  if (s.phase == P_DISCARD && s.disc_after == A_BANK_DISCARD_DONE) return true;
  if (s.phase == P_CHANCE && s.ch_after == A_BANK_PRIV) return true;
  return false;
}

void Rules::limit_check(State& s) const {
  if (s.phase == P_LIMIT || s.phase >= P_TERMINAL || in_banker_sequence(s)) return;
  for (int i = 0; i < n; ++i) {
    const int q = s.turn_order[i];
    if (hand(s, q) > ed.c.hand_limit) {
      s.lim_saved = s.phase;
      s.lim_actor = s.actor;
      s.lim_seat = (uint8_t)q;
      s.actor = (uint8_t)q;
      s.phase = P_LIMIT;
      return;
    }
  }
}

void Rules::advance(State& s) const {
  for (int guard = 0; guard < 100000; ++guard) {
    if (s.phase == P_RUN) {
      step_flow(s);
      continue;
    }
    limit_check(s);
    if (s.phase == P_CHANCE) {
      if (draw_step(s)) continue;  // the draw sequence is over: its continuation ran
    }
    return;
  }
}

void Rules::start_discard(State& s, int p, int count, int what) const {
  const int d = std::min(count, hand(s, p));
  if (d <= 0) {
    after(s, what);
    return;
  }
  s.disc_seat = (uint8_t)p;
  s.disc_left = (uint8_t)d;
  s.disc_after = (uint8_t)what;
  s.actor = (uint8_t)p;
  s.phase = P_DISCARD;
}

void Rules::start_pay(State& s, int p, int amount, unsigned colours, int what) const {
  s.pay_seat = (uint8_t)p;
  s.pay_amount = (uint8_t)amount;
  s.pay_colours = (uint8_t)colours;
  s.pay_after = (uint8_t)what;
  s.actor = (uint8_t)p;
  s.phase = P_PAY;
}

void Rules::refill_faceup(State& s, int t, int what) const {
  start_draw(s, t, D_FACEUP, 0, ed.c.faceup - faceup_count(s, t), what);
}

// ---- windows (7.5, A14) -------------------------------------------------------------------

void Rules::open_window(State& s, int p, int kind) const {
  if (s.last_end != p && token_usable(s, p)) {
    s.win_kind = (uint8_t)kind;
    s.actor = (uint8_t)p;
    s.phase = P_WINDOW;
    return;
  }
  after_window(s, kind);
}

void Rules::after_window(State& s, int kind) const {
  s.phase = P_RUN;
  if (kind == 0) {
    begin_action(s);
  } else if (kind == 1) {
    ++s.idx;
    s.flow = F_NEXT_HELPER;
  } else {
    ++s.idx;
    s.flow = F_STAGE_WINDOWS;
  }
}

// The stage's first decision for the acting helper (after its start window).
void Rules::begin_action(State& s) const {
  const int p = s.h_seat;
  s.actor = (uint8_t)p;
  switch (s.stage) {
    case 0: s.banker_taken = 0; s.phase = P_BANK1; break;
    case 1: s.build_count = s.build_cost = 0; s.phase = P_BUILD1; break;
    case 2: s.notary_done = s.looked = 0; s.phase = P_NOTARY1; break;
    case 4: s.phase = P_MERCH; break;
    case 5: s.phase = P_TOWN; break;
    default: break;
  }
}

void Rules::end_action(State& s) const {
  s.phase = P_RUN;
  s.actor = s.h_seat;
  if (s.stage == 3) {
    ++s.idx;
    s.flow = F_NEXT_HELPER;
    return;
  }
  open_window(s, s.h_seat, 1);
}

void Rules::craft_continue(State& s) const {
  const int p = s.h_seat;
  s.actor = (uint8_t)p;
  if (s.wp == 0 && s.seat[p].work == 0) {
    end_action(s);
    return;
  }
  s.phase = P_CRAFT;
}

void Rules::wp_done(State& s) const {
  if (s.wp_return == P_WINDOW) {
    const int p = s.actor;
    if (token_usable(s, p)) {
      s.phase = P_WINDOW;
    } else {
      s.phase = P_RUN;
      after_window(s, s.win_kind);
    }
    return;
  }
  craft_continue(s);
}

void Rules::notary_done(State& s) const {
  s.notary_done = 1;
  s.actor = s.h_seat;
  if (s.looked || !priv_available(s)) {
    end_action(s);
    return;
  }
  s.phase = P_NOTARY3;
}

// ---- auctions (9.4) -----------------------------------------------------------------------

void Rules::next_bidder(State& s, int from) const {
  for (int d = 0; d < n; ++d) {
    const int q = (from + d) % n;
    if (q == s.auc_bidder || (s.auc_dropped & (1u << q))) continue;
    s.actor = (uint8_t)q;
    s.phase = P_BID;
    return;
  }
  resolve_auction(s);
}

void Rules::resolve_auction(State& s) const {
  if (s.auc_raised) {
    win_auction(s, s.auc_bidder, s.auc_high);
    return;
  }
  start_draw(s, 0, D_MAYOR, 0, ed.c.mayor_cards[ed.b[s.auc_card].tier], A_MAYOR);
}

void Rules::win_auction(State& s, int seat, int price) const {
  s.auc_bidder = (uint8_t)seat;
  start_pay(s, seat, price, 0xF, A_WIN_PAID);
}

// ---- continuations ------------------------------------------------------------------------

void Rules::after(State& s, int what) const {
  s.phase = P_RUN;
  const int p = s.h_seat;
  switch (what) {
    case A_FLOW:
      return;
    case A_BANK_PRIV:
      s.actor = (uint8_t)p;
      if (priv_available(s)) s.phase = P_BANK_PRIV;
      else start_discard(s, p, ed.c.banker_discard, A_BANK_DISCARD_DONE);
      return;
    case A_BANK_DISCARD_DONE:
      // Then the 10-card limit (advance checks it before this chance node), then the refill.
      start_draw(s, 0, D_DISPLAY, 0, ed.c.display - place_count(s, M_DISPLAY), A_BANK_END);
      return;
    case A_BANK_END:
      end_action(s);
      return;
    case A_REWARD_DONE:
      wp_done(s);
      return;
    case A_LOOK_KEEP:
      s.actor = (uint8_t)p;
      s.phase = P_KEEP;
      return;
    case A_NOTARY_DONE:
      if (!s.notary_done) {
        // A look before the main action: now BUY, AUCTION or SKIP.
        s.actor = (uint8_t)p;
        s.phase = P_NOTARY2;
        return;
      }
      notary_done(s);
      return;
    case A_MAYOR: {
      const int mayor = Game::value(s.money[M_MAYOR]);
      if (mayor < s.auc_open) {
        for (int k = 0; k < kMoneyTypes; ++k) {
          s.money[M_DISCARD][k] = (uint8_t)(s.money[M_DISCARD][k] + s.money[M_MAYOR][k]);
          s.money[M_MAYOR][k] = 0;
        }
        win_auction(s, s.auc_init, s.auc_open);
      } else {
        s.auc_high = (uint8_t)mayor;
        s.actor = s.auc_init;
        s.phase = P_MAYOR_BID;
      }
      return;
    }
    case A_BUILD_PAID:
      end_action(s);
      return;
    case A_BUY_PAID: {
      const int b = s.pay_card;
      s.bloc[b] = (uint8_t)(B_HAND | p);
      s.notary_done = 1;
      refill_faceup(s, ed.b[b].tier, A_NOTARY_DONE);
      return;
    }
    case A_WIN_PAID: {
      const int b = s.auc_card;
      s.bloc[b] = (uint8_t)(B_HAND | s.auc_bidder);
      s.auc_card = kNoSeat;
      s.notary_done = 1;
      refill_faceup(s, ed.b[b].tier, A_NOTARY_DONE);
      return;
    }
    default:
      return;
  }
}

// ---- rounds ---------------------------------------------------------------------------

void Rules::helper_next(State& s) const {
  for (int d = 0; d < n; ++d) {
    const int i = (s.idx + d) % n;
    const int q = s.turn_order[i];
    if (s.seat[q].passed || s.seat[q].home == 0) continue;
    s.idx = (uint8_t)((i + 1) % n);  // the next search starts after this seat
    s.actor = (uint8_t)q;
    s.phase = P_HELPER;
    return;
  }
  // Pass bonus (8.5, A32), then the guild phase.
  for (int q = 0; q < n; ++q)
    if (s.seat[q].home >= ed.c.pass_bonus_min) s.seat[q].ap = (int16_t)(s.seat[q].ap + ed.c.pass_bonus_ap);
  s.stage = 0;
  s.flow = F_STAGE;
}

void Rules::new_round(State& s) const {
  for (int q = 0; q < n; ++q) s.seat[q].passed = 0;
  s.idx = 0;
  if (s.season < 3) {
    s.flow = F_HELPER;
  } else {
    s.stage = 1;
    s.flow = F_STAGE;
  }
}

void Rules::final_phase(State& s) const {
  // Catch-up token (11.2): fewest privileged helpers on the board.
  int cnt[kMaxPlayers] = {};
  for (int g = 0; g < kGuilds; ++g)
    for (int sp = 0; sp < kSpaces; ++sp)
      for (int l = 0; l < 2; ++l) {
        const uint8_t d = s.guild[g][sp][l];
        if (d != kNoSeat && (d & 0x80)) ++cnt[d & 0x7F];
      }
  if (n == 2) {
    if (cnt[0] != cnt[1]) {
      const int q = cnt[0] < cnt[1] ? 0 : 1;
      if (s.bank_priv > 0 && s.seat[q].priv < ed.c.max_priv_held) --s.bank_priv, ++s.seat[q].priv;
    }
  } else {
    int lo = 99;
    for (int q = 0; q < n; ++q) lo = std::min(lo, cnt[q]);
    for (int i = n - 1; i >= 0; --i) {  // a short bank gives from the last position forward
      const int q = s.turn_order[i];
      if (cnt[q] != lo || s.seat[q].priv >= ed.c.max_priv_held || s.bank_priv == 0) continue;
      --s.bank_priv;
      ++s.seat[q].priv;
    }
  }
  // All helpers return (11.3); the order change waits for the end of round (Craftsmen §23).
  std::memset(s.guild, kNoSeat, sizeof s.guild);
  for (int q = 0; q < n; ++q) s.seat[q].home = 5;
}

void Rules::year_end(State& s) const {
  // 1. Ships sail.
  for (int k = 0; k < kShips; ++k) {
    const ShipData& sh = ed.ships[k];
    int cubes[kMaxPlayers] = {}, best[kMaxPlayers];
    for (int q = 0; q < n; ++q) best[q] = 999;
    for (int r = 0; r < sh.nrows; ++r)
      for (int sl = 0; sl < 2; ++sl) {
        const uint8_t c = s.ship[k][r][sl];
        if (!c) continue;
        const int q = c - 1;
        s.seat[q].ap = (int16_t)(s.seat[q].ap + sh.ap[r]);
        ++cubes[q];
        best[q] = std::min(best[q], 2 * r + sl);
        ++s.seat[q].supply;
        s.ship[k][r][sl] = 0;
      }
    int order[kMaxPlayers], m = 0;
    for (int q = 0; q < n; ++q)
      if (cubes[q]) order[m++] = q;
    auto before = [&](int a, int b) { return cubes[a] != cubes[b] ? cubes[a] > cubes[b] : best[a] < best[b]; };
    for (int i = 1; i < m; ++i)
      for (int j = i; j > 0 && before(order[j], order[j - 1]); --j) std::swap(order[j], order[j - 1]);
    for (int i = 0; i < m && i < sh.nbonus; ++i)
      s.seat[order[i]].ap = (int16_t)(s.seat[order[i]].ap + sh.bonus[i]);
  }
  // 2. Town growth (A22).
  for (int q = 0; q < n; ++q) {
    int halves[kColours] = {};
    uint8_t row[kBuildings];
    for (int i = 0, c = row_cards(s, q, row); i < c; ++i) ++halves[ed.b[row[i]].top], ++halves[ed.b[row[i]].bottom];
    const int sets = *std::min_element(halves, halves + kColours);
    s.seat[q].ap = (int16_t)(s.seat[q].ap + sets * ed.c.colour_set_ap);
  }
  // 3. Warehouse: player cubes score and return; empty slots fill with neutral cubes (R9).
  for (int w = 0; w < kWarehouseGoods; ++w)
    for (int sl = 0; sl < 2; ++sl) {
      uint8_t& c = s.warehouse[w][sl];
      if (c >= 2) {
        s.seat[c - 2].ap = (int16_t)(s.seat[c - 2].ap + ed.c.warehouse_ap);
        ++s.seat[c - 2].supply;
        c = 0;
      }
    }
  for (int w = 0; w < kWarehouseGoods; ++w)
    for (int sl = 0; sl < 2; ++sl)
      if (s.warehouse[w][sl] == 0 && s.neutral_supply > 0) s.warehouse[w][sl] = 1, --s.neutral_supply;
  for (int q = 0; q < n; ++q) s.seat[q].contributed = 0;
}

// Between two actions nothing of the last one is read again: its context goes back to the
// start's values, so two states that differ only in how they were reached are equal bytes (the
// hash, the infoset key and equality read bytes). The block h_seat..lim_actor is that context.
void Rules::clear_action_context(State& s) {
  // A constant size, so the compiler stores it inline (the libc call was 2% of a playout).
  std::memset(&s.h_seat, 0, kActionContextBytes);
  s.auc_card = s.good = s.good_card = kNoSeat;
  s.lim_seat = s.lim_actor = kNoSeat;
}

void Rules::step_flow(State& s) const {
  clear_action_context(s);
  switch (s.flow) {
    case F_MULLIGAN:
      if (s.idx >= n) {
        new_round(s);
        return;
      }
      s.actor = s.turn_order[s.idx];
      s.phase = P_MULLIGAN;
      return;
    case F_HELPER:
      helper_next(s);
      return;
    case F_STAGE:
      if (s.stage >= kGuilds) {
        if (winter(s)) {
          s.idx = 0;
          s.flow = F_ROUND_END;
        } else {
          s.flow = F_FINAL;
        }
        return;
      }
      if (winter(s) && s.stage != 1 && s.stage != 3) {
        ++s.stage;
        return;
      }
      s.idx = 0;
      s.flow = F_NEXT_HELPER;
      return;
    case F_NEXT_HELPER: {
      if (s.stage >= kGuilds) {  // never from a valid state; keeps edited bytes in bounds
        s.flow = F_STAGE;
        return;
      }
      int q = -1, sp = kNoSeat, layer = 0;
      if (winter(s)) {
        if (s.idx < n) q = s.turn_order[s.idx];
      } else {
        for (; s.idx < 2 * spaces(); ++s.idx) {
          const uint8_t d = s.guild[s.stage][s.idx / 2][s.idx % 2];
          if (d != kNoSeat) {
            q = d & 0x7F;
            sp = s.idx / 2;
            layer = s.idx % 2;
            break;
          }
        }
      }
      if (q < 0) {
        s.idx = 0;
        s.flow = F_STAGE_WINDOWS;
        return;
      }
      s.h_seat = (uint8_t)q;
      s.h_space = (uint8_t)sp;
      s.h_layer = (uint8_t)layer;
      s.priv_used = 0;
      s.priv_mode = (sp == 0 && s.stage <= 4) ? 1 : (s.stage <= 4 && s.seat[q].priv > 0) ? 2 : 0;
      s.actor = (uint8_t)q;
      if (s.stage == 3) {
        s.wp = (uint8_t)wp(s);
        s.produce2_used = 0;
        s.token_wp = 0;
        s.wp_return = P_CRAFT;
        craft_continue(s);
      } else {
        open_window(s, q, 0);
      }
      return;
    }
    case F_STAGE_WINDOWS:
      if (s.idx >= n) {
        ++s.stage;
        s.flow = F_STAGE;
        return;
      }
      {
        const int q = s.turn_order[s.idx];
        s.wp_return = P_WINDOW;
        if (s.seat[q].work > 0) open_window(s, q, 2);
        else ++s.idx;
      }
      return;
    case F_FINAL:
      final_phase(s);
      s.idx = 0;
      s.flow = F_ROUND_END;
      return;
    case F_ROUND_END:
      // Hand limit 8 in the order of the round that ends (Craftsmen §23).
      for (; s.idx < n; ++s.idx) {
        const int q = s.turn_order[s.idx];
        const int h = hand(s, q);
        if (h > ed.c.hand_limit_round) {
          ++s.idx;
          start_discard(s, q, h - ed.c.hand_limit_round, A_FLOW);
          return;
        }
      }
      // Order change (11.3): track seats first, left to right, the rest in their order.
      if (n > 2 && s.order_track[0] != kNoSeat) {
        uint8_t next[kMaxPlayers];
        int m = 0;
        for (int i = 0; i < 3; ++i)
          if (s.order_track[i] != kNoSeat) next[m++] = s.order_track[i];
        for (int i = 0; i < n; ++i) {
          const uint8_t q = s.turn_order[i];
          if (std::find(s.order_track, s.order_track + 3, q) == s.order_track + 3) next[m++] = q;
        }
        std::memcpy(s.turn_order, next, n);
      }
      std::memset(s.order_track, kNoSeat, sizeof s.order_track);
      if (winter(s)) {
        s.flow = F_YEAR_END;
        return;
      }
      ++s.season;
      if (n == 2) std::swap(s.turn_order[0], s.turn_order[1]);
      new_round(s);
      return;
    case F_YEAR_END:
      year_end(s);
      s.idx = 0;
      s.flow = F_CONTRIB;
      return;
    case F_CONTRIB:
      if (s.idx < n) {
        s.actor = s.turn_order[s.idx];
        s.phase = P_CONTRIB;
        return;
      }
      if (s.year == 3) {
        for (int q = 0; q < n; ++q)
          for (int f = 0; f < kFinal; ++f)
            if (s.seat[q].bonus & (1u << f)) s.seat[q].ap = (int16_t)(s.seat[q].ap + ed.bonus_ap[f]);
        s.phase = P_TERMINAL;
        s.flow = F_NONE;
        return;
      }
      ++s.year;
      s.season = 0;
      if (n == 2) std::swap(s.turn_order[0], s.turn_order[1]);
      new_round(s);
      return;
    default:
      s.phase = P_TERMINAL;
      return;
  }
}

}  // namespace atelier::craftsmen
