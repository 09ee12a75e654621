// Legendary Inventors component data (spec §2, §10). The Python side reads the JSON edition
// file, maps ids to indices and fills this struct; Edition::validate() re-checks every bound
// the packed State relies on, so nothing unchecked crosses into the rules.
#pragma once
#include <cstdint>
#include <string>

namespace atelier::inventors {

constexpr int kDisciplines = 4;      // 0 P, 1 C, 2 M, 3 Ma (spec 1.2)
constexpr int kTeams = 5;
constexpr int kInventorsPerTeam = 4;
constexpr int kAges = 3;
constexpr int kCardsPerAge = 12;
constexpr int kCards = kAges * kCardsPerAge;
constexpr int kTypes = 6;
constexpr int kTokenKinds = 9;
constexpr int kMaxDisplay = 8;       // K = n + 3 <= 8

// Token kinds in the table order of spec 2.3. The order is part of the move notation and of
// canonical move order (spec 8.13): never reorder.
enum Token : uint8_t { P2 = 0, P3, P4, VP1, VP2, VP3, AV, AK, ST };
extern const char* const kTokenNames[kTokenKinds];      // "P2", ..., "ST"
extern const char* const kDisciplineNames[kDisciplines]; // "P", "C", "M", "Ma"

struct InventorData {
  uint8_t start[kDisciplines];
  uint8_t goal[kDisciplines];
  uint8_t goal_vp;
};

struct CardData {
  uint8_t age;                 // 1..3, also its VP value
  uint8_t type;                // 0..5
  uint8_t cost[kDisciplines];  // 0..7 each
  uint8_t total;               // sum of cost, 1..28 (filled in by validate())
};

struct Edition {
  // Card index c = (age-1)*12 + k, k = position within its age in edition order.
  // Canonical move order and the display order follow this index.
  InventorData inventors[kTeams][kInventorsPerTeam];
  CardData cards[kCards];
  uint8_t token_count[kTokenKinds];

  // Names for notation and rendering (documentation-only fields stay in Python).
  std::string team_ids[kTeams];
  std::string inventor_ids[kTeams][kInventorsPerTeam];   // e.g. "tesla"
  std::string inventor_names[kTeams][kInventorsPerTeam]; // e.g. "Tesla"
  std::string card_ids[kCards];                          // e.g. "II07"
  std::string card_names[kCards];

  int token_total() const;
  // Checks spec 2.6 (ranges, 12 cards per age, coverage invariant, token total >= 48,
  // unique ids) and fills CardData::total. Returns "" when valid, else "field: reason".
  std::string validate();
};

}  // namespace atelier::inventors
