// Position validity: every packed field's bound, the conservation laws (§1) and the stored
// keys. A State from outside (bytes, fields) goes through here before any rule reads it, so
// nothing it holds can index out of range.
#include <string>

#include "../common/bits.hpp"
#include "game.hpp"

namespace atelier::leonardo {

static std::string S(int v) { return std::to_string(v); }

std::string Game::validate(const State& s, bool records) const {
  if (s.phase > GAME_OVER) return "phase: unknown phase " + S(s.phase);
  if (s.turn > ed_.turns) return "turn: must be 0.." + S(ed_.turns);
  if ((s.turn == 0) != (s.phase == FAVOUR)) return "turn: 0 exactly during the favour picks";
  if (s.actor >= n_) return "actor: must be a seat 0.." + S(n_ - 1);
  if (s.leo >= n_) return "leonardo: must be a seat 0.." + S(n_ - 1);
  if (s.deck_len > kCards) return "deck: too many cards";
  if (s.row_len > row_size()) return "row: more than " + S(row_size()) + " cards";
  if (s.pile_size[0] + s.pile_size[1] + s.pile_size[2] > kCards) return "piles: sizes exceed 25 cards";
  if (s.deck_len > s.pile_size[0] + s.pile_size[1] + s.pile_size[2]) return "deck: longer than the piles as built";
  if (s.known_prefix > s.deck_len || s.known_prefix > 4) return "known_prefix: out of range";
  if (s.hist_len > sizeof s.hist) return "history: too long";
  if (s.nlooks > 7) return "history: more than 7 Council looks";
  int looks = 0;
  for (int e = 0; e < s.hist_len; ++e) {
    if (s.hist[e] & 0x80) {
      ++looks;
      if (((s.hist[e] >> 3) & 7) >= n_ || (s.hist[e] & 7) < 1 || (s.hist[e] & 7) > 4) return "history: bad look event";
    } else if (s.hist[e] >= kCards) return "history: bad draw event";
  }
  if (looks != s.nlooks) return "history: look count does not match";
  {  // known_prefix follows from the history: a look of m shows the top m, a draw takes one off
    int known = 0;
    for (int e = 0; e < s.hist_len; ++e)
      known = (s.hist[e] & 0x80) ? std::max(known, s.hist[e] & 7) : std::max(known - 1, 0);
    if (s.known_prefix != std::min(known, 4)) return "known_prefix: not what the history's looks and draws leave";
  }
  for (int e = 0, li = 0; e < s.hist_len; ++e)
    if (s.hist[e] & 0x80) {
      if (look_perm(s, li) >= kPerms.count[s.hist[e] & 7]) return "history: bad look order";
      ++li;
    }
  if (s.phase == REORDER && (s.nlooks >= 7 || s.hist_len >= sizeof s.hist)) return "history: no room for another look";
  for (int i = 0; i < s.nlooks; ++i) {
    for (int j = 0; j < 4; ++j)
      if ((s.look_cards[i][j] & 31) >= kCards || (j >= 2 && s.look_cards[i][j] >> 5)) return "history: bad looked card";
    if ((s.look_cards[i][1] >> 7) || look_perm(s, i) >= 24) return "history: bad look order";
  }
  for (int i = s.nlooks; i < 7; ++i)
    for (int j = 0; j < 4; ++j)
      if (s.look_cards[i][j]) return "history: look record beyond the looks";

  // Cards: row, deck, box and owned cards partition the 25 (the card of a running auction
  // excepted, which has left the row and is not yet owned).
  uint32_t seen = 0;
  auto take = [&](int c, const char* where) -> std::string {
    if (c >= kCards) return std::string(where) + ": card out of range";
    if ((seen >> c) & 1) return std::string(where) + ": card " + S(c + 1) + " appears twice";
    seen |= 1u << c;
    return "";
  };
  for (int i = 0; i < s.deck_len; ++i) { auto e = take(s.deck[i], "deck"); if (!e.empty()) return e; }
  for (int i = 0; i < s.row_len; ++i) { auto e = take(s.row[i], "row"); if (!e.empty()) return e; }
  const uint32_t all = (1u << kCards) - 1;
  if (s.box & ~all || s.discards & ~s.box || s.completed_any & ~all || s.mid_lower & ~all) return "box: bad card set";
  if (seen & s.box) return "box: a boxed card is also in the row or deck";
  seen |= s.box;
  uint32_t owned = 0;
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (s.pl[p].owned & ~all) return "players[" + S(p) + "].owned: bad card set";
    if (owned & s.pl[p].owned) return "players[" + S(p) + "].owned: a card owned twice";
    owned |= s.pl[p].owned;
  }
  if (seen & owned) return "owned: an owned card is also in the row, deck or box";
  seen |= owned;
  if (s.phase == BID) {
    if (s.d_idx >= s.d_count) return "auction: no card";
    const int c = s.d_cards[s.d_idx];
    if (c >= kCards || ((seen >> c) & 1)) return "auction: bad card";
    seen |= 1u << c;
  }
  if (seen != all) return "cards: every card must be in the row, deck, box or owned";
  if (s.mid_lower & ~(tier_mask_[0] | tier_mask_[1] | tier_mask_[2])) return "piles: bad middle-pile draw";

  // Players, labs, supplies.
  int mats[kKinds];
  for (int k = 0; k < kKinds; ++k) mats[k] = ed_.per_kind - s.shop[k];
  int mech = ed_.mech_per_player * n_ - s.mech_supply;
  for (int p = 0; p < kMaxPlayers; ++p) {
    const Player& P = s.pl[p];
    const std::string who = "players[" + S(p) + "]";
    if (p >= n_) {
      const uint8_t* b = reinterpret_cast<const uint8_t*>(&P);
      for (size_t i = 0; i < sizeof(Player); ++i)
        if (b[i]) return "players: seat " + S(p) + " does not exist in a " + S(n_) + "-player game";
      if (s.academy[p]) return "academy: seat " + S(p) + " does not exist";
      continue;
    }
    if (P.apprentices > ed_.apprentices_per_colour || P.app_supply > P.apprentices) return who + ".apprentices: out of range";
    if (P.apprentices + s.academy[p] + ed_.removed_apprentices[n_] != ed_.apprentices_per_colour)
      return who + ".apprentices: owned + academy + removed must be " + S(ed_.apprentices_per_colour);
    if (P.pflags & ~3) return who + ": bad flags";
    if (P.mech_count > ed_.mech_per_player) return who + ".mech_count: at most " + S(ed_.mech_per_player);
    if (P.placed & ~0x3FF) return who + ".placed: bad place set";
    if (P.completed & ~all) return who + ".completed: bad card set";
    if (P.snap_turn > ed_.turns) return who + ".snap: bad turn";
    if (!P.snap_turn && (P.snap_budget[0] | P.snap_budget[1] | P.snap_budget[2])) return who + ".snap: a budget without a snapshot";
    if (P.pad) return who + ": padding must be zero";
    mech -= P.mech_count;
    int lab_mech = 0;
    for (int l = 0; l < kLabs; ++l) {
      const Lab& L = P.lab[l];
      const std::string lw = who + ".labs[" + S(l) + "]";
      const bool ok_side = l == 0 ? (L.side == 3 || L.side == 5) : (L.side == 0 || L.side == 4 || L.side == 6);
      if (!ok_side) return lw + ".side: bad side " + S(L.side);
      if (L.side == 0 && (L.working() || L.mech || L.app || L.flags)) return lw + ": work in a lab the seat has not built";
      if (L.mech > lab_mech_slots(L.side)) return lw + ".mech: more than the side's spaces";
      lab_mech += L.mech;
      if (L.card != kNone && L.card >= kCards) return lw + ".card: out of range";
      if (L.counter > ed_.track_max) return lw + ".counter: must be 0.." + S(ed_.track_max);
      if (L.flags & ~7) return lw + ": bad flags";
      if (L.pad) return lw + ": padding must be zero";
      if (L.cand & ~all) return lw + ".cand: bad card set";
      if (L.mech + L.app + ((L.flags & LF_MASTER) ? 1 : 0) > lab_spaces(L.side)) return lw + ": more figures than spaces";
      if (!L.working() && (L.app || (L.flags & ~LF_MASTER) || L.counter || L.cand || L.start_turn))
        return lw + ": idle lab with work on it";
      if (L.start_turn > s.turn) return lw + ".start_turn: after the current turn";
      if (L.hidden() && !L.cand) return lw + ".cand: empty for a hidden lab";
      if (!L.hidden() && L.cand) return lw + ".cand: only hidden labs keep one";
      if (L.hidden() && !((L.cand >> L.card) & 1)) return lw + ".cand: does not hold the lab's card";
      for (int k = 0; k < kKinds; ++k) {
        const int v = lab_mat(P, l, k);
        if (!L.working() && v) return lw + ": materials under an idle lab";
        if (L.working() && v != ed_.cards[L.card].mats[k]) return lw + ": materials do not match its card";
        mats[k] -= v;
      }
    }
    if (P.lab[0].working() && P.lab[0].card == P.lab[1].card) return who + ": both labs on one card";
    if (lab_mech != P.mech_count) return who + ".mech_count: does not match its labs";
    if (P.snap_turn && !(P.lab[0].hidden() && P.lab[1].hidden())) return who + ".snap: live without two hidden labs";
    if (P.lab[0].hidden() && P.lab[1].hidden() && !P.snap_turn) return who + ".snap: two hidden labs need one";
    for (int k = 0; k < kKinds; ++k) mats[k] -= P.hand[k];
  }
  for (int k = 0; k < kKinds; ++k)
    if (mats[k] != 0)
      return "materials: " + ed_.kind_names[k] + ": the shops, hands and labs hold " + S(ed_.per_kind - mats[k]) +
             ", not " + S(ed_.per_kind);
  if (mech != 0) return "mechanical men: supply plus owned must be " + S(ed_.mech_per_player * n_);
  for (int a = 0; a < kAreas; ++a) {
    uint8_t pos_seen = 0;
    for (int p = 0; p < kMaxPlayers; ++p) {
      const uint8_t g = s.city[a][p];
      if (!g) continue;
      const int pos = g >> 5;
      if (p >= n_ || pos == 0 || pos > n_ || ((pos_seen >> pos) & 1) || (g & 15) > ed_.apprentices_per_colour)
        return "city[" + S(a) + "]: bad group";
      if ((g & 31) == 0) return "city[" + S(a) + "]: empty group";
      pos_seen |= (uint8_t)(1u << pos);
    }
    if (pos_seen & (pos_seen + 2)) return "city[" + S(a) + "]: line positions must be 1..k";
  }
  // Phase pointers.
  if (s.step > 4 || s.idx > kMaxPlayers || s.area >= kAreas || s.price > kPrices || s.c_count > n_ ||
      s.d_count > 5 || s.d_idx > s.d_count || s.gift_done > 1 || s.removed >> n_)
    return "phase pointers: out of range";
  for (int i = 0; i < kMaxPlayers; ++i)
    if (s.c_order[i] >= n_ && !(i >= s.c_count && s.c_order[i] == 0)) return "council: bad order";
  for (int a = 0; a < 4; ++a)
    if (s.claimed[a] != kNone && s.claimed[a] >= n_) return "council: bad claim";
  for (int i = 0; i < s.d_count; ++i)
    if (s.d_cards[i] >= kCards || !s.d_seats[i] || (s.d_seats[i] >> n_)) return "research: bad pending card";
  if (s.phase == LAB && (s.step > 3 || s.idx >= n_)) return "phase A: bad pointer";
  if (s.phase == FAVOUR && s.step >= ed_.favours[n_]) return "favours: bad round";
  if (s.phase == AREA && (s.area < 1 || s.price >= kPrices)) return "area: bad pointer";
  if (s.phase != AREA && (s.area || s.price)) return "area: a pointer outside phase AREA";
  if ((s.phase == CLAIM || s.phase == GIFT) && s.idx >= s.c_count) return "council: bad pointer";
  if (s.phase == BID) {
    if (s.idx >= popcount64(s.d_seats[s.d_idx]) || popcount64(s.d_seats[s.d_idx]) < 2) return "auction: bad pointer";
    if (s.actor != bidder(s, s.idx)) return "auction: wrong bidder";
  }
  for (int p = 0; p < kMaxPlayers; ++p)
    if (s.bids[p] > (p < n_ ? s.pl[p].money : 0) && s.phase == BID) return "bids: above the bidder's money";
  // Only the bids entered in the running auction are held (the position format writes no
  // others, so any other would not survive its round trip).
  uint8_t entered = 0;
  if (s.phase == BID)
    for (int i = 0; i < s.idx; ++i) entered |= (uint8_t)(1u << bidder(s, i));
  for (int p = 0; p < kMaxPlayers; ++p)
    if (s.bids[p] && !((entered >> p) & 1)) return "bids: seat " + std::to_string(p) + " holds a bid it has not entered in a running auction";
  if (s.phase == DRAW && !(s.deck_len && s.row_len < row_size())) return "draw: nothing to draw";
  if (s.phase == LAB && s.actor != (s.leo + s.idx) % n_) return "phase A: wrong actor";
  if (s.phase == AREA) {
    uint8_t order[kMaxPlayers];
    int cnt;
    rank(s, s.area, order, cnt);
    if (s.idx >= cnt || s.actor != order[s.idx] || ((s.removed >> s.actor) & 1)) return "area: wrong actor";
    uint8_t present = 0;
    for (int i = 0; i < cnt; ++i) present |= (uint8_t)(1u << order[i]);
    if (s.removed & ~present) return "progress.area_passed: a seat with no group in the area";
  }
  if ((s.phase == CLAIM || s.phase == GIFT) && s.actor != s.c_order[s.idx]) return "council: wrong actor";
  if (s.phase == CMOVE || s.phase == REORDER || s.phase == MATERIAL) {
    const int want = s.phase == CMOVE ? 0 : s.phase == REORDER ? 2 : 3;
    if (s.step != want || s.claimed[want] != s.actor) return "council: wrong action owner";
    if (s.phase == CMOVE && !opt_.codex && !(s.city[0][s.actor] & 15)) return "council: action 1 without an apprentice in A";
    if (s.phase == REORDER && !s.deck_len) return "council: action 3 with an empty deck";
    int stock = 0;
    for (int k = 0; k < kKinds; ++k) stock += s.shop[k];
    if (s.phase == MATERIAL && (!stock || s.pl[s.actor].money < 1)) return "council: action 4 not affordable";
  }
  // The §3.1 records: cand within row ∪ deck, a valid pair for two hidden labs, a deck history
  // that some deck fits (seen by nobody in particular: every look counts as an opponent's).
  uint32_t live = 0;
  for (int i = 0; i < s.row_len; ++i) live |= 1u << s.row[i];
  live |= deck_cards(s);
  for (int p = 0; p < n_; ++p) {
    const Player& P = s.pl[p];
    for (int l = 0; l < kLabs; ++l)
      if (P.lab[l].cand & ~live) return "players[" + S(p) + "].labs[" + S(l) + "].cand: a card outside row and deck";
    if (records && P.snap_turn) {  // the true pair is one the records allow (§3.5.2)
      for (int k = 0; k < kKinds; ++k)
        if (ed_.cards[P.lab[0].card].mats[k] + ed_.cards[P.lab[1].card].mats[k] > nib(P.snap_budget, k))
          return "players[" + S(p) + "].snap: the hidden labs' cards do not fit the snapshot's budget "
                 "(no determinization could sample them)";
    }
    if (P.snap_turn) {
      bool pair = false;
      for (uint32_t a = P.lab[0].cand; a && !pair; a &= a - 1)
        for (uint32_t b = P.lab[1].cand; b && !pair; b &= b - 1) {
          const int x = lsb64(a), y = lsb64(b);
          if (x == y) continue;
          bool ok = true;
          for (int k = 0; k < kKinds; ++k)
            ok &= ed_.cards[x].mats[k] + ed_.cards[y].mats[k] <= nib(P.snap_budget, k);
          pair = ok;
        }
      if (!pair) return "players[" + S(p) + "].snap: no pair of cand cards fits the snapshot";
    }
  }
  const int hyps = deck_hypotheses(s, kMaxPlayers);
  if (hyps < 0) return "deck history: needs more than 4096 deck hypotheses";
  if (hyps == 0) return "deck history: no deck built as the setup builds it (§2.2) fits the cards drawn and the looks recorded";
  if (records) {
    const std::string e = deck_record_error(s);
    if (!e.empty()) return e;
  }
  if (s.hash != compute_hash(s)) return "hash: does not match the contents";
  if (s.pub != compute_public(s)) return "pub: does not match the contents";
  return "";
}

}  // namespace atelier::leonardo
