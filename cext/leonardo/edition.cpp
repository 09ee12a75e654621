// Edition checks (spec §1.9): every error one line, the first one returned; warnings listed.
#include "edition.hpp"

#include "../common/bits.hpp"

namespace atelier::leonardo {

static std::string S(int v) { return std::to_string(v); }

// A move is one lower-case token split by ':' and '+' (docs/notation.md, Leonardo); parsing
// lower-cases the text and matches it against the printed moves, so a name is lower-case ASCII
// without the separators, or `moves` would list moves that `apply` refuses. At most 12
// characters: `favour:b:` with four names then stays within a move's 64 characters.
static bool kind_name_ok(const std::string& name) {
  if (name.empty() || name.size() > 12) return false;
  for (unsigned char ch : name)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-')) return false;
  return true;
}

std::string Edition::check_kind_names() const {
  for (int k = 0; k < kKinds; ++k) {
    const std::string where = "edition: material_kinds[" + S(k) + "]: ";
    if (!kind_name_ok(kind_names[k]))
      return where + "\"" + kind_names[k] + "\" is not a valid material name (1 to 12 lower-case letters, digits, "
             "'_' or '-'; materials appear in move notation, docs/notation.md)";
    for (int j = 0; j < k; ++j)
      if (kind_names[j] == kind_names[k]) return where + "\"" + kind_names[k] + "\" is listed twice";
  }
  return "";
}

std::string Edition::validate() {
  const std::string E = "edition: ";
  if (std::string err = check_kind_names(); !err.empty()) return err;
  uint32_t lower[kLowerTiers] = {0, 0, 0}, gold = 0;
  for (int c = 0; c < kCards; ++c) {
    CardData& d = cards[c];
    const std::string who = E + "card " + S(c + 1) + ": ";
    if (d.tier >= kTiers) return E + "tiers must be bronze, copper, silver and gold";
    if (d.type >= kTypes) return who + "type is not in types";
    int total = 0;
    for (int k = 0; k < kKinds; ++k) total += d.mats[k];
    if (total != tier_materials[d.tier])
      return who + S(total) + " materials, tier " + tier_names[d.tier] + " needs " + S(tier_materials[d.tier]);
    d.nmats = (uint8_t)total;
    if (d.weeks < 1 || d.weeks > track_max) return who + "weeks must be 1.." + S(track_max);
    if (d.tier < kLowerTiers) lower[d.tier] |= 1u << c; else gold |= 1u << c;
  }
  for (int t = 0; t < kTypes; ++t)
    for (int c = 0; c < kCards; ++c)
      if (((type_cards[t] >> c) & 1) != (cards[c].type == t))
        return E + "type " + type_ids[t] + ": its cards list does not match the cards of that type";
  if (bottom_cards & middle_cards) return E + "piles: bottom and middle share a card";
  if ((bottom_cards | middle_cards) != gold) {
    for (int c = 0; c < kCards; ++c)
      if (((bottom_cards | middle_cards) >> c & 1) && !((gold >> c) & 1))
        return E + "card " + S(c + 1) + ": in the " + ((middle_cards >> c) & 1 ? "middle" : "bottom") +
               " pile but tier " + tier_names[cards[c].tier];
    return E + "piles: bottom and middle must hold exactly the gold cards";
  }
  for (int n = 2; n <= 5; ++n) {
    const int R = row_size[n];
    if (R < 1 || R > 5) return E + "requested_row_size " + S(n) + "p: must be 1..5";
    // Basic setup (check 7).
    if (basic_row_len[n] != R) return E + "basic " + S(n) + "p: the row must list " + S(R) + " cards";
    uint32_t row = 0;
    for (int i = 0; i < R; ++i) {
      const int c = basic_row[n][i];
      if (c >= kCards || cards[c].tier >= kLowerTiers) return E + "basic " + S(n) + "p: row cards must be lower-tier cards";
      if ((row >> c) & 1) return E + "basic " + S(n) + "p: row card " + S(c + 1) + " twice";
      row |= 1u << c;
    }
    for (int t = 0; t < kLowerTiers; ++t) {
      const int out = popcount64(lower[t] & ~row);
      if (out < plus_lower[t])
        return E + "basic " + S(n) + "p: " + S(out) + " " + tier_names[t] + " cards outside the row, the middle pile needs " + S(plus_lower[t]);
    }
    // Expert setup (check 8).
    int top = 0;
    for (int t = 0; t < kLowerTiers; ++t) {
      const int need = plus_lower[t] + (n == 2 ? two_player_discard[t] : 0);
      const int have = popcount64(lower[t]);
      if (have < need) return E + "expert " + S(n) + "p: " + S(have) + " " + tier_names[t] + " cards, need " + S(need);
      top += have - need;
    }
    if (top < R) return E + "expert " + S(n) + "p: top pile " + S(top) + " cards, the row needs " + S(R);
    // Kits (check 9).
    int handed[kKinds] = {0};
    for (int kit = 0; kit < n; ++kit) {
      const Kit& K = kits[kit];
      const std::string who = E + "kit " + std::string(1, (char)('a' + kit)) + ": ";
      for (int k = 0; k < kKinds; ++k) handed[k] += K.mats[k];
      if (K.apprentices + removed_apprentices[n] > apprentices_per_colour)
        return who + "too many apprentices for " + S(n) + " players";
      if (K.small_side != 3 && K.small_side != 5) return who + "small lab side must be 3 or 5";
      if (K.large_side != 0 && K.large_side != 4 && K.large_side != 6) return who + "large lab side must be 4 or 6";
      if (K.mech[0] > lab_mech_slots(K.small_side))
        return who + "mechanical man on small lab side " + S(K.small_side) + " (no free space)";
      if (K.mech[1] > (K.large_side ? lab_mech_slots(K.large_side) : 0))
        return who + "mechanical man on large lab side " + S(K.large_side) + " (no free space)";
      if (K.mech[0] + K.mech[1] > mech_per_player) return who + "more than 3 mechanical men";
    }
    for (int k = 0; k < kKinds; ++k)
      if (handed[k] > per_kind) return E + "basic " + S(n) + "p: kits hand out more " + kind_names[k] + " than the shop holds";
    if (removed_apprentices[n] + base_apprentices > apprentices_per_colour) return E + "expert base kit: too many apprentices";
    if (favours[n] > 3) return E + "favours_per_player " + S(n) + "p: at most 3";
  }
  if (track_max > 15) return E + "lab_track_max: at most 15";
  if (per_kind > 15) return E + "material_cards_per_kind: at most 15";
  if (apprentices_per_colour > 15) return E + "apprentices_per_colour: at most 15";
  if (mech_per_player > 3) return E + "mechanical_men_per_player: at most 3";
  return "";
}

std::vector<std::string> Edition::warnings() const {
  std::vector<std::string> out;
  const std::string W = "edition warning: ";
  for (int c = 0; c < kCards; ++c) {
    const CardData& d = cards[c];
    if (d.tier >= kTiers) continue;
    if (d.weeks != tier_weeks[d.tier] || d.reward_first != tier_reward_first[d.tier] ||
        d.reward_later != tier_reward_later[d.tier])
      out.push_back(W + "card " + S(c + 1) + ": weeks or rewards differ from its tier");
    if (d.reward_later > d.reward_first) out.push_back(W + "card " + S(c + 1) + ": reward_later > reward_first");
  }
  for (int a = 0; a < kCards; ++a)
    for (int b = a + 1; b < kCards; ++b) {
      bool same = true;
      for (int k = 0; k < kKinds; ++k) same &= cards[a].mats[k] == cards[b].mats[k];
      if (same) out.push_back(W + "cards " + S(a + 1) + " and " + S(b + 1) + " need the same materials");
    }
  return out;
}

}  // namespace atelier::leonardo
