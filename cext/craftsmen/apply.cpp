// Craftsmen transitions: one decision, then the forced consequences up to the next decision or
// chance node (Craftsmen spec 1.10). The flow of rounds, stages and windows is in flow.cpp.
#include <cstring>

#include "game.hpp"
#include "knowledge.hpp"
#include "rules.hpp"

namespace atelier::craftsmen {

void Rules::use_privilege(State& s) const {
  if (s.priv_mode == 2) {
    --s.seat[s.h_seat].priv;
    ++s.bank_priv;
  }
  s.priv_used = 1;
  if (s.h_space != kNoSeat && s.stage < kGuilds) s.guild[s.stage][s.h_space][s.h_layer] |= 0x80;
}

void Rules::to_bottom(State& s, int b) const {
  const int t = ed.b[b].tier;
  if (s.deck_bottom[t] == 255) {  // renumber the known sequences (at most 24 cards a tier)
    uint8_t next = 128;
    for (int pos = 128; pos < 256; ++pos)
      for (int c = first(t); c < last(t); ++c)
        if (s.bloc[c] == B_BOTTOM && s.bpos[c] == pos) s.bpos[c] = next++;
    s.deck_bottom[t] = next;
  }
  s.bloc[b] = B_BOTTOM;
  s.bpos[b] = s.deck_bottom[t]++;
}

void Rules::to_top(State& s, int b) const {
  const int t = ed.b[b].tier;
  if (s.deck_top[t] == 0) {
    int next = 127;
    for (int pos = 127; pos >= 0; --pos)
      for (int c = first(t); c < last(t); ++c)
        if (s.bloc[c] == B_TOP && s.bpos[c] == pos) s.bpos[c] = (uint8_t)next--;
    s.deck_top[t] = (uint8_t)next;
  }
  s.bloc[b] = B_TOP;
  s.bpos[b] = s.deck_top[t]--;
}

void Rules::place_in_row(State& s, int p, int b, int side) const {
  s.bloc[b] = (uint8_t)(B_ROW | p);
  s.bpos[b] = side ? ++s.seat[p].row_hi : --s.seat[p].row_lo;
  s.bfill[b] = 0;
}

// Spec 9.3 step 4 (A21): a complete production line for each unclaimed final good.
void Rules::take_bonus_tokens(State& s, int p) const {
  const uint8_t want = (uint8_t)(B_ROW | p);
  const uint64_t row = cards_at(s, want);
  bool has[kProducts] = {};
  for (unsigned m = mills_at(s, want); m; m &= m - 1) has[ed.b[lsb64(m)].output] = true;
  for (uint64_t m = tier_of(row, BASIC); m; m &= m - 1) has[ed.b[kFirstBasic + lsb64(m)].output] = true;
  bool semi[kProducts] = {};
  for (uint64_t m = tier_of(row, EXTENDED); m; m &= m - 1) {
    const int b = kFirstExtended + lsb64(m);
    if (has[ed.b[b].inputs[0]]) semi[ed.b[b].output] = true;
  }
  for (uint64_t m = tier_of(row, ADVANCED); m; m &= m - 1) {
    const int b = kFirstAdvanced + lsb64(m);
    const int f = ed.b[b].output - kRaw - kSemi;
    if (!(s.bonus_unclaimed & (1u << f))) continue;
    bool ok = true;
    for (int i = 0; i < ed.b[b].ninputs; ++i) {
      const int in = ed.b[b].inputs[i];
      ok &= ed.is_raw(in) ? has[in] : semi[in];
    }
    if (ok) {
      s.bonus_unclaimed &= (uint8_t)~(1u << f);
      s.seat[p].bonus |= (uint8_t)(1u << f);
    }
  }
}

static int pool_cards(const State& s, int* pool) {
  int c = 0;
  for (uint64_t m = Rules::cards_at(s, B_POOL); m; m &= m - 1) pool[c++] = kFirstBasic + lsb64(m);
  return c;
}

static int faceup_by_rank(const State& s, int rank) {
  for (uint64_t m = Rules::cards_at(s, B_FACEUP); m; m &= m - 1)
    if (rank-- == 0) return kFirstBasic + lsb64(m);
  return -1;
}

void Game::apply(State& s, Move m) const {
  transition<true>(s, m);
  know_buildings(s, n_);
}

void Game::playout_apply(State& s, Move m) const { transition<false>(s, m); }

template <bool Know>
void Game::transition(State& s, Move m, const Payment* listed) const {
  // What each seat knows of the others' money (mknown) is read only by determinization and
  // validation; a playout, whose states are thrown away, skips it (Know = false).
  const auto money_in = [&](int q, int t, int giver) {
    if constexpr (Know) know_money_in(s, n_, q, t, giver);
  };
  const auto money_out = [&](int q, int t, int receiver) {
    if constexpr (Know) know_money_out(s, n_, q, t, receiver);
  };
  const Rules R(*this);
  const int p = s.actor;
  Seat& st = s.seat[p];
  uint8_t* hand = s.money[M_HAND0 + p];
  const unsigned a = marg(m);
  const unsigned type = mtype(m);
  s.last_end = type == END ? (uint8_t)p : kNoSeat;
  switch (s.phase) {
    case P_MULLIGAN:
      ++s.idx;
      st.mulliganed = 1;
      if (type == SWAP_BASIC || type == SWAP_EXTENDED) {
        R.to_bottom(s, a);
        s.phase = P_RUN;
        R.start_draw(s, ed_.b[a].tier, D_BHAND, p, 1, A_FLOW);
      } else {
        if (type == SWAP_MILL) {
          for (int b = 0; b < kMills; ++b)
            if (s.bloc[b] == (B_ROW | p)) s.bloc[b] = B_BOX, s.bpos[b] = 0;
          s.bloc[a] = (uint8_t)(B_ROW | p);
          s.bpos[a] = 128;
        }
        s.phase = P_RUN;
      }
      break;
    case P_HELPER:
      if (type == PASS) {
        st.passed = 1;
        s.phase = P_RUN;
        break;
      }
      --st.home;
      for (int sp = 0; sp < R.spaces(); ++sp)
        if (s.guild[a][sp][0] == kNoSeat) {
          s.guild[a][sp][0] = (uint8_t)p;
          s.phase = P_RUN;
          break;
        }
      if (s.phase == P_RUN) break;
      s.stack_guild = (uint8_t)a;
      s.phase = P_STACK;
      break;
    case P_STACK: {
      const int q = s.guild[s.stack_guild][a][0] & 0x7F;
      s.stack_space = (uint8_t)a;
      if (q == p || a == 2 || n_ == 2) {
        s.guild[s.stack_guild][a][1] = (uint8_t)p;
        s.phase = P_RUN;
        if (n_ == 2 && q != p) R.start_draw(s, 0, D_MONEY_HAND, q, 1, A_FLOW);
      } else {
        s.phase = P_STACK_PAY;
      }
      break;
    }
    case P_STACK_PAY: {
      const int q = s.guild[s.stack_guild][s.stack_space][0] & 0x7F;
      if (type == PAY_CARD) {
        --hand[a];
        ++s.money[M_HAND0 + q][a];
        money_out(p, a, q);
        money_in(q, a, p);
      } else {
        const int y = R.stack_price(s);
        st.ap = (int16_t)(st.ap - y);
        s.seat[q].ap = (int16_t)(s.seat[q].ap + y);
      }
      s.guild[s.stack_guild][s.stack_space][1] = (uint8_t)p;
      s.phase = P_RUN;
      break;
    }
    case P_WINDOW:
      if (type == WORK_TOKEN) {
        --st.work;
        ++s.bank_work;
        s.wp_return = P_WINDOW;
        s.token_wp = 1;
        s.phase = P_WPUSE;
      } else {
        s.phase = P_RUN;
        R.after_window(s, s.win_kind);
      }
      break;
    case P_BANK1:
    case P_BANK2:
      if (type == SKIP) {
        R.end_action(s);
      } else if (type == TAKE_FACEUP) {
        --s.money[M_DISPLAY][a];
        ++hand[a];
        money_in(p, a, kNoGiver);
        ++s.banker_taken;
        if (s.banker_taken >= 2) {
          s.phase = P_RUN;
          R.start_draw(s, 0, D_MONEY_HAND, p, ed_.c.banker_take - s.banker_taken, A_BANK_PRIV);
        } else {
          s.phase = P_BANK2;
        }
      } else {  // TAKE_DECK or STOP
        s.phase = P_RUN;
        R.start_draw(s, 0, D_MONEY_HAND, p, ed_.c.banker_take - s.banker_taken, A_BANK_PRIV);
      }
      break;
    case P_BANK_PRIV:
      s.phase = P_RUN;
      if (type == PRIVILEGE) R.use_privilege(s);
      R.start_discard(s, p, type == PRIVILEGE ? ed_.c.banker_discard_priv : ed_.c.banker_discard, A_BANK_DISCARD_DONE);
      break;
    case P_DISCARD:
      --hand[a];
      ++s.money[M_DISCARD][a];
      money_out(p, a, kNoGiver);
      if (--s.disc_left == 0) {
        s.phase = P_RUN;
        R.after(s, s.disc_after);
      }
      break;
    case P_LIMIT:
      --hand[a];
      ++s.money[M_DISCARD][a];
      money_out(p, a, kNoGiver);
      if (R.hand(s, p) <= ed_.c.hand_limit) {
        s.phase = s.lim_saved;
        s.actor = s.lim_actor;
        s.lim_seat = s.lim_actor = kNoSeat;
        s.lim_saved = 0;
      }
      break;
    case P_BUILD1:
    case P_BUILD2:
      if (type == SKIP) {
        R.end_action(s);
        break;
      }
      if (type == BUILD) {
        const int b = a & 0x7F, side = a >> 7;
        const BuildingData &nb = ed_.b[b], &e = ed_.b[R.row_end(s, p, side)];
        if (!(nb.top == e.top || nb.bottom == e.bottom) && !s.priv_used) R.use_privilege(s);
        R.place_in_row(s, p, b, side);
        s.build_cost = (uint8_t)(s.build_cost + ed_.c.build_cost[nb.tier]);
        s.builds[s.build_count++] = (uint8_t)b;
        R.take_bonus_tokens(s, p);
        if (s.build_count < 2) {
          s.phase = P_BUILD2;
          break;
        }
      }
      s.phase = P_RUN;
      R.start_pay(s, p, s.build_cost, 0xF, A_BUILD_PAID);
      break;
    case P_PAY: {
      // Only this move's payment is needed, not the whole ordered list (payment_at).
      Payment own = {};
      if (listed == nullptr) payment_at(s, (int)a, own);
      const Payment& pay = listed ? listed[a] : own;
      uint8_t* h = s.money[M_HAND0 + s.pay_seat];
      for (int k = 0; k < kMoneyTypes; ++k) {
        h[k] = (uint8_t)(h[k] - pay.c[k]);
        s.money[M_DISCARD][k] = (uint8_t)(s.money[M_DISCARD][k] + pay.c[k]);
        for (int i = 0; i < pay.c[k]; ++i) money_out(s.pay_seat, k, kNoGiver);
      }
      s.phase = P_RUN;
      R.after(s, s.pay_after);
      break;
    }
    case P_NOTARY1:
    case P_NOTARY2:
    case P_NOTARY3:
      s.phase = P_RUN;
      if (type == SKIP || type == DONE) {
        R.end_action(s);
      } else if (type == LOOK) {
        R.use_privilege(s);
        s.looked = 1;
        s.look_tier = (uint8_t)a;
        for (int b = Rules::first(a); b < Rules::last(a); ++b)
          if (s.bloc[b] == B_FACEUP) s.bloc[b] = B_POOL;
        R.start_draw(s, a, D_POOL, p, ed_.c.look_draw, A_LOOK_KEEP);
      } else if (type == BUY) {
        s.pay_card = (uint8_t)a;
        const unsigned mask = (1u << ed_.b[a].top) | (1u << ed_.b[a].bottom);
        R.start_pay(s, p, ed_.c.buy_price[ed_.b[a].tier], mask, A_BUY_PAID);
      } else {  // AUCTION
        const int b = faceup_by_rank(s, a & 7);
        const int bid = (int)(a >> 3) + 1;
        s.auc_card = (uint8_t)b;
        s.auc_high = s.auc_open = (uint8_t)bid;
        s.auc_bidder = s.auc_init = (uint8_t)p;
        s.auc_raised = 0;
        s.auc_dropped = 0;
        std::memset(s.auc_max, 0, sizeof s.auc_max);
        s.auc_max[p] = (uint8_t)bid;
        R.next_bidder(s, p + 1);
      }
      break;
    case P_BID:
      if (type == BID) {
        s.auc_high = (uint8_t)a;
        s.auc_bidder = (uint8_t)p;
        s.auc_raised = 1;
        s.auc_max[p] = (uint8_t)a;
      } else {
        s.auc_dropped |= (uint8_t)(1u << p);
      }
      s.phase = P_RUN;
      R.next_bidder(s, p + 1);
      break;
    case P_MAYOR_BID:
      s.phase = P_RUN;
      for (int k = 0; k < kMoneyTypes; ++k) {  // the mayor's cards go to the pile in every case
        s.money[M_DISCARD][k] = (uint8_t)(s.money[M_DISCARD][k] + s.money[M_MAYOR][k]);
        s.money[M_MAYOR][k] = 0;
      }
      if (type == BID) {
        s.auc_max[p] = (uint8_t)a;
        R.win_auction(s, p, a);
      } else {
        const int b = s.auc_card;
        const int t = ed_.b[b].tier;
        s.auc_card = kNoSeat;
        s.notary_done = 1;
        R.to_bottom(s, b);
        R.refill_faceup(s, t, A_NOTARY_DONE);
      }
      break;
    case P_KEEP: {
      int pool[8] = {};  // a legal KEEP_LOOK names pool cards; zeroed so no path reads garbage
      const int c = pool_cards(s, pool);
      const int i = a & 7, j = a >> 3;
      s.bloc[pool[i]] = B_FACEUP;
      if (j != 7) s.bloc[pool[j]] = B_FACEUP;
      if (Know) know_look_returns(s, n_, p);  // bknow, which a playout does not keep
      s.returns_left = (uint8_t)(c - (j == 7 ? 1 : 2));
      s.phase = s.returns_left ? P_RETURN : P_RUN;
      if (!s.returns_left) R.after(s, A_NOTARY_DONE);
      break;
    }
    case P_RETURN:
      if (a >> 7)
        R.to_bottom(s, a & 0x7F);
      else
        R.to_top(s, a & 0x7F);
      if (--s.returns_left == 0) {
        s.phase = P_RUN;
        R.after(s, A_NOTARY_DONE);
      }
      break;
    case P_MERCH:
      if (type == SKIP) {
        R.end_action(s);
      } else {
        s.good_card = (uint8_t)(a & 0x7F);
        s.good = (uint8_t)(a >> 7);  // warehouse good index while paying
        s.phase = P_MERCH_PAY;
      }
      break;
    case P_MERCH_PAY: {
      const int w = s.good;
      const uint8_t bot = s.warehouse[w][0];
      const int q = bot >= 2 ? bot - 2 : -1;
      if (type == PAY_CARD) {
        --hand[a];
        ++s.money[q >= 0 ? M_HAND0 + q : M_DISCARD][a];
        money_out(p, a, q >= 0 ? q : kNoGiver);
        if (q >= 0) money_in(q, a, p);
      } else {
        R.use_privilege(s);
        --st.market;
        ++st.supply;
      }
      if (q >= 0) ++s.seat[q].supply;
      else ++s.neutral_supply;
      s.warehouse[w][0] = s.warehouse[w][1];
      s.warehouse[w][1] = 0;
      --st.supply;
      R.fill_icon(s, s.good_card, R.empty_icon(s, s.good_card, ed_.warehouse_product[w]));
      s.good = s.good_card = kNoSeat;
      if (type == PAY_MARKET && q >= 0 && s.seat[q].market == 0) {
        s.comp_seat = (uint8_t)q;
        s.actor = (uint8_t)q;
        s.phase = P_COMPENSATE;
      } else {
        s.phase = P_RUN;
        R.end_action(s);
      }
      break;
    }
    case P_COMPENSATE:
      if (type == MARKET_PLACE) {
        --st.supply;
        ++st.market;
      }
      s.actor = s.h_seat;
      s.phase = P_RUN;
      R.end_action(s);
      break;
    case P_TOWN:
      if (type == TAKE_PRIVILEGE) --s.bank_priv, ++st.priv;
      if (type == TAKE_WORK) --s.bank_work, ++st.work;
      if (type == ORDER_CHANGE)
        for (int i = 0; i < 3; ++i)
          if (s.order_track[i] == kNoSeat) {
            s.order_track[i] = (uint8_t)p;
            break;
          }
      s.phase = P_RUN;
      R.end_action(s);
      break;
    case P_CRAFT:
    case P_WPUSE: {
      const bool from_craft = s.phase == P_CRAFT;
      s.phase = P_RUN;
      if (type == END) {
        R.end_action(s);
        break;
      }
      if (type == WORK_TOKEN) {
        --st.work;
        ++s.bank_work;
        s.wp_return = P_CRAFT;
        s.token_wp = 1;
        s.phase = P_WPUSE;
        break;
      }
      if (from_craft) {
        --s.wp;
        s.wp_return = P_CRAFT;
      }
      s.token_wp = 0;
      const int b = a & 0x7F;
      const BuildingData& d = ed_.b[b];
      if (type == PRODUCE || type == PRODUCE2) {
        const int k = type == PRODUCE2 ? 2 : 1;
        if (k == 2) {
          R.use_privilege(s);
          s.produce2_used = 1;
        }
        st.supply = (uint8_t)(st.supply - k);
        st.ap = (int16_t)(st.ap + k * d.ap);
        s.raws_left = (uint8_t)k;
        s.raw_product = d.output;
        s.raw_card = (uint8_t)b;
        s.phase = P_SEND;
      } else if (type == TRADE) {
        --st.market;
        R.fill_icon(s, b, a >> 7);
        R.wp_done(s);
      } else {  // MAKE
        s.bfill[b] = 0;
        s.good = d.output;
        s.good_card = (uint8_t)b;
        if (d.tier == ADVANCED) {
          st.supply = (uint8_t)(st.supply + d.ninputs - 1);
          s.phase = P_LOAD;
        } else if (ed_.is_meat(d.output)) {
          s.phase = P_LOAD;
        } else {
          st.ap = (int16_t)(st.ap + d.ap);
          s.phase = P_SEND;
        }
      }
      break;
    }
    case P_SEND:
      if (s.raws_left) {
        if (type == SEND_MARKET) ++st.market;
        else R.fill_icon(s, a & 0x7F, a >> 7);
        if (--s.raws_left == 0) {
          s.phase = P_RUN;
          R.wp_done(s);
        }
        break;
      }
      s.phase = P_RUN;
      if (type == SEND_ICON) {
        R.fill_icon(s, a & 0x7F, a >> 7);
        s.good = s.good_card = kNoSeat;
        R.wp_done(s);
      } else {  // SEND_WAREHOUSE (10.4)
        const int w = ed_.warehouse_of[s.good];
        uint8_t* row = s.warehouse[w];
        if (row[0] == 0) row[0] = (uint8_t)(2 + p);
        else if (row[1] == 0) row[1] = (uint8_t)(2 + p);
        else {
          if (row[0] == 1) ++s.neutral_supply;
          else ++s.seat[row[0] - 2].supply;
          row[0] = row[1];
          row[1] = (uint8_t)(2 + p);
        }
        s.good = s.good_card = kNoSeat;
        if (R.place_count(s, M_DISPLAY) + R.place_count(s, M_DECK) + R.place_count(s, M_DISCARD) > 0)
          s.phase = P_REWARD;
        else
          R.wp_done(s);
      }
      break;
    case P_REWARD:
      s.phase = P_RUN;
      if (type == REWARD) {
        --s.money[M_DISPLAY][a];
        ++hand[a];
        money_in(p, a, kNoGiver);
        // Order inside the step (Craftsmen spec 23): reward, 10-card limit, then the refill.
        R.start_draw(s, 0, D_DISPLAY, p, ed_.c.display - R.place_count(s, M_DISPLAY), A_REWARD_DONE);
      } else {
        R.start_draw(s, 0, D_MONEY_HAND, p, 1, A_REWARD_DONE);
      }
      break;
    case P_LOAD: {
      s.phase = P_RUN;
      const BuildingData& d = ed_.b[s.good_card];
      if (type == LOSE) {
        ++st.supply;
      } else {
        const int k = a & 3;
        int r = 0;
        while (ed_.ships[k].product[r] != s.good) ++r;
        uint8_t* row = s.ship[k][r];
        if (type == LOAD) {
          if (row[0] == 0) row[0] = (uint8_t)(1 + p);
          else row[1] = (uint8_t)(1 + p);
        } else {
          const int t = a >> 2;
          --hand[t];
          ++s.money[M_DISCARD][t];
          money_out(p, t, kNoGiver);
          ++s.seat[row[0] - 1].supply;
          row[0] = row[1];
          row[1] = (uint8_t)(1 + p);
        }
        st.ap = (int16_t)(st.ap + d.ap);
      }
      s.good = s.good_card = kNoSeat;
      R.wp_done(s);
      break;
    }
    case P_CONTRIB:
      if (type == CONTRIBUTE) {
        int sum = 0;
        for (int c = 0; c < kColours; ++c) {
          const int v = (a >> (2 * c)) & 3;
          --hand[3 * c + v];
          ++s.money[M_DISCARD][3 * c + v];
          money_out(p, 3 * c + v, kNoGiver);
          sum += v + 1;
        }
        st.ap = (int16_t)(st.ap + sum);
        st.contributed = 1;
      }
      ++s.idx;
      s.phase = P_RUN;
      break;
    default:
      break;
  }
  R.advance(s);
}

template void Game::transition<true>(State&, Move, const Payment*) const;
template void Game::transition<false>(State&, Move, const Payment*) const;

}  // namespace atelier::craftsmen
