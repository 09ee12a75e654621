// Craftsmen move generation (Craftsmen §4.5, Craftsmen §8 to Craftsmen §13), in the canonical order of docs/notation.md:
// within a decision, the order of its row in Craftsmen spec 18.3, then arguments ascending (cards and
// products in edition order, money types P1..R3, multisets by their text, numbers by value).
#include "game.hpp"
#include "rules.hpp"

namespace atelier::craftsmen {

static bool same_pair(const BuildingData& a, const BuildingData& b) {
  return (a.top == b.top && a.bottom == b.bottom) || (a.top == b.bottom && a.bottom == b.top);
}

void Rules::wp_uses(const State& s, int p, bool produce2, MoveList& out) const {
  const Seat& st = s.seat[p];
  // p's row as two bit sets in edition order: the producers (mills and basic cards, bit b) and
  // the extended and advanced cards (bit b - kFirstExtended), the only ones with inputs (edition
  // check).
  const uint8_t want = (uint8_t)(B_ROW | p);
  const uint64_t cards = cards_at(s, want);
  const uint64_t producers = mills_at(s, want) | (tier_of(cards, BASIC) << kFirstBasic);
  const uint64_t makers = cards >> kExtBit;
  // Empty icons per raw over the row: the destinations of a produced raw (A9).
  int room[kRaw] = {};
  for (uint64_t m = makers; m; m &= m - 1) {
    const int b = kFirstExtended + lsb64(m);
    const BuildingData& d = ed.b[b];
    for (int k = 0; k < d.ninputs; ++k)
      if (d.inputs[k] < kRaw && !(s.bfill[b] & (1u << k))) ++room[d.inputs[k]];
  }
  const int market_room = ed.c.market_max - st.market;
  if (st.supply >= 1)
    for (uint64_t m = producers; m; m &= m - 1)
      if (room[ed.b[lsb64(m)].output] + market_room >= 1) out.push(mk(PRODUCE, lsb64(m)));
  if (produce2 && st.supply >= 2)
    for (uint64_t m = producers; m; m &= m - 1)
      if (room[ed.b[lsb64(m)].output] + market_room >= 2) out.push(mk(PRODUCE2, lsb64(m)));
  // TRADE: a market cube onto any empty raw icon, one move per (card, distinct raw).
  if (st.market)
    for (uint64_t m = makers; m; m &= m - 1) {
      const int b = kFirstExtended + lsb64(m);
      const BuildingData& d = ed.b[b];
      for (int k = 0; k < d.ninputs; ++k)
        if (d.inputs[k] < kRaw && empty_icon(s, b, d.inputs[k]) == k) out.push(mk(TRADE, b | (k << 7)));
    }
  for (uint64_t m = makers; m; m &= m - 1)
    if (full(s, kFirstExtended + lsb64(m))) out.push(mk(MAKE, kFirstExtended + lsb64(m)));
}

bool Rules::any_wp_use(const State& s, int p) const {
  MoveList ml;
  ml.size = 0;
  wp_uses(s, p, false, ml);
  return ml.size > 0;
}

static void push_types(MoveList& out, unsigned type, const uint8_t* counts) {
  for (int k = 0; k < kMoneyTypes; ++k)
    if (counts[k]) out.push(mk(type, k));
}

void Game::legal_moves(const State& s, MoveList& out) const {
  out.size = 0;
  const Rules R(*this);
  const int p = s.actor;
  if (s.phase >= P_CHANCE) return;
  const Seat& st = s.seat[p];
  const uint8_t* hand = s.money[M_HAND0 + p];
  switch (s.phase) {
    case P_MULLIGAN: {
      out.push(mk(KEEP));
      for (int b = kFirstBasic; b < kFirstExtended; ++b)
        if (s.bloc[b] == (B_HAND | p)) out.push(mk(SWAP_BASIC, b));
      for (int b = kFirstExtended; b < kFirstAdvanced; ++b)
        if (s.bloc[b] == (B_HAND | p)) out.push(mk(SWAP_EXTENDED, b));
      int own = 0;
      for (int b = 0; b < kMills; ++b)
        if (s.bloc[b] == (B_ROW | p)) own = b;
      for (int b = 0; b < kMills; ++b) {
        if (s.bloc[b] != B_BOX || same_pair(ed_.b[b], ed_.b[own])) continue;
        bool dup = false;  // identical data: one move, the lowest id
        for (int c = 0; c < b; ++c)
          if (s.bloc[c] == B_BOX && same_pair(ed_.b[c], ed_.b[b]) && ed_.b[c].ap == ed_.b[b].ap) dup = true;
        if (!dup) out.push(mk(SWAP_MILL, b));
      }
      return;
    }
    case P_HELPER: {
      out.push(mk(PASS));
      const int cap = ed_.c.capacity[n_];
      for (int g = 0; g < kGuilds; ++g) {
        int mine = 0, all = 0, empty = 0;
        for (int sp = 0; sp < R.spaces(); ++sp)
          for (int l = 0; l < 2; ++l) {
            const uint8_t d = s.guild[g][sp][l];
            if (d == kNoSeat) {
              if (l == 0) ++empty;
              continue;
            }
            ++all;
            mine += (d & 0x7F) == p;
          }
        if (mine >= R.per_player_cap() || all >= cap) continue;
        bool ok = empty > 0;
        for (int sp = 0; sp < R.spaces() && !ok; ++sp) {
          const uint8_t d = s.guild[g][sp][0];
          if (d == kNoSeat || s.guild[g][sp][1] != kNoSeat) continue;
          const int q = d & 0x7F;
          if (q == p || sp == 2 || n_ == 2 || R.hand(s, p) > 0 || st.ap >= R.stack_price(s)) ok = true;
        }
        if (ok) out.push(mk(PLACE, g));
      }
      return;
    }
    case P_STACK: {
      const int g = s.stack_guild;
      for (int sp = 0; sp < R.spaces(); ++sp) {
        const uint8_t d = s.guild[g][sp][0];
        if (d == kNoSeat || s.guild[g][sp][1] != kNoSeat) continue;
        const int q = d & 0x7F;
        if (q == p || sp == 2 || n_ == 2 || R.hand(s, p) > 0 || st.ap >= R.stack_price(s)) out.push(mk(STACK, sp));
      }
      return;
    }
    case P_STACK_PAY:
      push_types(out, PAY_CARD, hand);
      if (st.ap >= R.stack_price(s)) out.push(mk(PAY_AP));
      return;
    case P_WINDOW:
      out.push(mk(WORK_TOKEN));
      out.push(mk(END));
      return;
    case P_BANK1:
      push_types(out, TAKE_FACEUP, s.money[M_DISPLAY]);
      if (!R.place_count(s, M_DISPLAY)) out.push(mk(TAKE_DECK));
      out.push(mk(SKIP));
      return;
    case P_BANK2:
      push_types(out, TAKE_FACEUP, s.money[M_DISPLAY]);
      out.push(mk(STOP));
      return;
    case P_BANK_PRIV:
      out.push(mk(PRIVILEGE));
      out.push(mk(NO_PRIVILEGE));
      return;
    case P_DISCARD:
    case P_LIMIT:
      push_types(out, DISCARD, hand);
      return;
    case P_BUILD1:
    case P_BUILD2: {
      const int v = R.hand_value(s, p);
      const bool priv = R.priv_available(s) || s.priv_used;  // A17: a used privilege covers both
      const int ends[2] = {R.row_end(s, p, 0), R.row_end(s, p, 1)};
      for (uint64_t m = R.cards_at(s, (uint8_t)(B_HAND | p)); m; m &= m - 1) {
        const int b = kFirstBasic + lsb64(m);
        if (s.build_cost + ed_.c.build_cost[ed_.b[b].tier] > v) continue;
        for (int side = 0; side < 2; ++side) {
          const BuildingData &nb = ed_.b[b], &e = ed_.b[ends[side]];
          const bool match = nb.top == e.top || nb.bottom == e.bottom;
          if (match || priv) out.push(mk(BUILD, b | (side << 7)));
        }
      }
      if (s.phase == P_BUILD1)
        out.push(mk(SKIP));
      else
        out.push(mk(DONE));
      return;
    }
    case P_PAY: {
      const int c = payment_count(s);  // a PAY move is an index: the list itself is not needed
      for (int i = 0; i < c; ++i) out.push(mk(PAY, i));
      return;
    }
    case P_NOTARY1:
    case P_NOTARY2:
    case P_NOTARY3: {
      if (s.phase != P_NOTARY2 && R.priv_available(s))
        for (int t = BASIC; t <= ADVANCED; ++t)
          if (!R.deck_empty(s, t)) out.push(mk(LOOK, t));
      if (s.phase != P_NOTARY3) {
        const uint64_t faceup = R.cards_at(s, B_FACEUP);
        for (uint64_t m = faceup; m; m &= m - 1) {
          const int b = kFirstBasic + lsb64(m);
          const unsigned mask = (1u << ed_.b[b].top) | (1u << ed_.b[b].bottom);
          if (R.colour_value(s, p, mask) >= ed_.c.buy_price[ed_.b[b].tier]) out.push(mk(BUY, b));
        }
        const int v = R.hand_value(s, p);
        const int ranks = popcount64(faceup);
        for (int rank = 0; rank < ranks; ++rank)
          for (int x = ed_.c.min_bid; x <= v && x <= 64; ++x) out.push(auction_move(rank, x));
        out.push(mk(SKIP));
      } else {
        out.push(mk(DONE));
      }
      return;
    }
    case P_BID:
    case P_MAYOR_BID: {
      const int v = R.hand_value(s, p);
      for (int x = s.auc_high + 1; x <= v && x <= 63; ++x) out.push(mk(BID, x));
      out.push(mk(DROP));
      return;
    }
    case P_KEEP: {
      const int c = popcount64(R.cards_at(s, B_POOL));
      if (c == 1) out.push(mk(KEEP_LOOK, 0 | (7 << 3)));
      else if (c == 2) out.push(mk(KEEP_LOOK, 0 | (1 << 3)));
      else
        for (int a = 0; a < c; ++a)
          for (int b = a + 1; b < c; ++b) out.push(mk(KEEP_LOOK, a | (b << 3)));
      return;
    }
    case P_RETURN:
      for (uint64_t m = R.cards_at(s, B_POOL); m; m &= m - 1) {
        const int b = kFirstBasic + lsb64(m);
        out.push(mk(RETURN, b));
        out.push(mk(RETURN, b | (1 << 7)));
      }
      return;
    case P_MERCH: {
      const bool can_pay = R.hand(s, p) > 0 || (R.priv_available(s) && st.market > 0);
      if (st.supply >= 1 && can_pay) {
        const uint64_t adv = R.tier_at(s, ADVANCED, (uint8_t)(B_ROW | p));  // p's advanced cards
        for (int w = 0; w < kWarehouseGoods; ++w) {
          const uint8_t bot = s.warehouse[w][0];
          if (bot == 0 || bot == 2 + p) continue;
          for (uint64_t m = adv; m; m &= m - 1) {
            const int b = kFirstAdvanced + lsb64(m);
            if (R.empty_icon(s, b, ed_.warehouse_product[w]) >= 0) out.push(mk(PURCHASE, b | (w << 7)));
          }
        }
      }
      out.push(mk(SKIP));
      return;
    }
    case P_MERCH_PAY:
      push_types(out, PAY_CARD, hand);
      if (R.priv_available(s) && st.market > 0) out.push(mk(PAY_MARKET));
      return;
    case P_COMPENSATE:
      out.push(mk(MARKET_PLACE));
      out.push(mk(DECLINE));
      return;
    case P_TOWN: {
      if (s.bank_priv > 0 && st.priv < ed_.c.max_priv_held) out.push(mk(TAKE_PRIVILEGE));
      if (s.bank_work > 0 && st.work < ed_.c.max_work_held) out.push(mk(TAKE_WORK));
      if (n_ > 2) {
        bool on = false, room = false;
        for (int i = 0; i < 3; ++i) on |= s.order_track[i] == p, room |= s.order_track[i] == kNoSeat;
        if (room && !on) out.push(mk(ORDER_CHANGE));
      }
      out.push(mk(SKIP));
      return;
    }
    case P_CRAFT:
      if (s.wp > 0) R.wp_uses(s, p, R.priv_available(s) && !s.produce2_used, out);
      if (R.token_usable(s, p)) out.push(mk(WORK_TOKEN));
      out.push(mk(END));
      return;
    case P_WPUSE:
      R.wp_uses(s, p, false, out);
      return;
    case P_SEND: {
      if (s.raws_left) {
        const int prod = s.raw_product;
        if (st.market < ed_.c.market_max) out.push(mk(SEND_MARKET));
        // A raw good may go to an extended or an advanced building: both tiers, bits from kExtBit up.
        for (uint64_t m = R.cards_at(s, (uint8_t)(B_ROW | p)) >> R.kExtBit; m; m &= m - 1) {
          const int b = kFirstExtended + lsb64(m);
          const int i = R.empty_icon(s, b, prod);
          if (i >= 0) out.push(mk(SEND_ICON, b | (i << 7)));
        }
      } else {
        for (uint64_t m = R.tier_at(s, ADVANCED, (uint8_t)(B_ROW | p)); m; m &= m - 1) {
          const int b = kFirstAdvanced + lsb64(m);
          const int i = R.empty_icon(s, b, s.good);
          if (i >= 0) out.push(mk(SEND_ICON, b | (i << 7)));
        }
        out.push(mk(SEND_WAREHOUSE));
      }
      return;
    }
    case P_REWARD:
      push_types(out, REWARD, s.money[M_DISPLAY]);
      if (R.place_count(s, M_DECK) + R.place_count(s, M_DISCARD) > 0) out.push(mk(REWARD_DECK));
      return;
    case P_LOAD: {
      bool load = false;
      for (int k = 0; k < kShips; ++k)
        for (int r = 0; r < ed_.ships[k].nrows; ++r)
          if (ed_.ships[k].product[r] == s.good && s.ship[k][r][1] == 0) {
            out.push(mk(LOAD, k));
            load = true;
          }
      for (int k = 0; k < kShips; ++k)
        for (int r = 0; r < ed_.ships[k].nrows; ++r)
          if (ed_.ships[k].product[r] == s.good && s.ship[k][r][1] != 0 && s.ship[k][r][0] != 1 + p)
            for (int t = 0; t < kMoneyTypes; ++t)
              if (hand[t]) out.push(mk(LOAD_BRIBE, k | (t << 2)));
      if (!load) out.push(mk(LOSE));
      return;
    }
    case P_CONTRIB: {
      // One card of each colour; the text P?+G?+B?+R? sorts by P, then G, B, R values.
      for (int a = 0; a < 3; ++a) {
        if (!hand[0 * 3 + a]) continue;
        for (int b = 0; b < 3; ++b) {
          if (!hand[1 * 3 + b]) continue;
          for (int c = 0; c < 3; ++c) {
            if (!hand[2 * 3 + c]) continue;
            for (int d = 0; d < 3; ++d)
              if (hand[3 * 3 + d]) out.push(mk(CONTRIBUTE, a | (b << 2) | (c << 4) | (d << 6)));
          }
        }
      }
      out.push(mk(DECLINE));
      return;
    }
    default:
      return;
  }
}

}  // namespace atelier::craftsmen
