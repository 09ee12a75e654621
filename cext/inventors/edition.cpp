#include "edition.hpp"

#include <cctype>
#include <set>

namespace atelier::inventors {

const char* const kTokenNames[kTokenKinds] = {"P2", "P3", "P4", "VP1", "VP2", "VP3", "AV", "AK", "ST"};
const char* const kDisciplineNames[kDisciplines] = {"P", "C", "M", "Ma"};

int Edition::token_total() const {
  int t = 0;
  for (int k = 0; k < kTokenKinds; ++k) t += token_count[k];
  return t;
}

// Ids appear inside move notation (work:tesla:II07+P, reveal:I01=P2+AV,...) and in the
// --teams list: ASCII letters, digits, '_' and '-' only (docs/notation.md), 1..32 of them.
// Returns "" or the reason.
static std::string id_error(const std::string& id) {
  if (id.empty() || id.size() > 32) return "must be 1 to 32 characters";
  for (char ch : id)
    if (!std::isalnum((unsigned char)ch) && ch != '_' && ch != '-')
      return "'" + id + "' has a character ids cannot use (letters, digits, '_', '-'; docs/notation.md)";
  return "";
}

// Ids are matched case-insensitively in the notation, so uniqueness is too.
static std::string lower(std::string t) {
  for (char& ch : t) ch = (char)std::tolower((unsigned char)ch);
  return t;
}

std::string Edition::validate() {
  std::set<std::string> ids;
  std::string e;
  for (int t = 0; t < kTeams; ++t) {
    if (!(e = id_error(team_ids[t])).empty()) return "teams[" + std::to_string(t) + "].id: " + e;
    for (int i = 0; i < kInventorsPerTeam; ++i)
      if (!(e = id_error(inventor_ids[t][i])).empty())
        return "teams[" + team_ids[t] + "].inventors[" + std::to_string(i) + "].id: " + e;
  }
  for (int c = 0; c < kCards; ++c)
    if (!(e = id_error(card_ids[c])).empty()) return "inventions[" + std::to_string(c) + "].id: " + e;
  for (int t = 0; t < kTeams; ++t) {
    if (!ids.insert("team:" + lower(team_ids[t])).second) return "teams[" + team_ids[t] + "].id: duplicate";
    for (int i = 0; i < kInventorsPerTeam; ++i) {
      const InventorData& inv = inventors[t][i];
      const std::string where = "teams[" + team_ids[t] + "].inventors[" + inventor_ids[t][i] + "]";
      if (!ids.insert("inv:" + lower(inventor_ids[t][i])).second) return where + ".id: duplicate";
      for (int d = 0; d < kDisciplines; ++d) {
        if (inv.start[d] > 4) return where + ".start: levels are 0..4";
        if (inv.goal[d] > 4) return where + ".goal: levels are 0..4";
      }
      if (inv.goal_vp > 63) return where + ".goal_vp: must be 0..63";
    }
    // Coverage invariant (spec 2.6): guarantees a legal main action (8.1).
    for (int d = 0; d < kDisciplines; ++d) {
      bool covered = false;
      for (int i = 0; i < kInventorsPerTeam; ++i) covered |= inventors[t][i].start[d] >= 1;
      if (!covered)
        return "teams[" + team_ids[t] + "]: no inventor starts at level >= 1 in " +
               kDisciplineNames[d] + " (coverage invariant, spec 2.6)";
    }
  }
  for (int c = 0; c < kCards; ++c) {
    CardData& card = cards[c];
    const std::string where = "inventions[" + card_ids[c] + "]";
    if (!ids.insert("card:" + lower(card_ids[c])).second) return where + ".id: duplicate";
    if (card.age != c / kCardsPerAge + 1) return where + ".age: expected 12 cards per age";
    if (card.type >= kTypes) return where + ".type: must be 0..5";
    int total = 0;
    for (int d = 0; d < kDisciplines; ++d) {
      if (card.cost[d] > 7) return where + ".cost: each value must be 0..7";
      total += card.cost[d];
    }
    if (total < 1 || total > 28) return where + ".cost: total must be 1..28";
    card.total = (uint8_t)total;
  }
  for (int k = 0; k < kTokenKinds; ++k)
    if (token_count[k] > 15) return std::string("tokens[") + kTokenNames[k] + "].count: must be 0..15";
  if (token_total() < 48) return "tokens: at least 48 tokens in all, so the bag never runs short";
  return "";
}

}  // namespace atelier::inventors
