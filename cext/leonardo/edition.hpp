// Leonardo da Vinci component data (spec §1, edition file shared/editions/leonardo.json). The
// binding reads the JSON dict into this struct; Edition::validate() runs every check of spec
// §1.9, so nothing the packed State relies on reaches the rules unchecked.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace atelier::leonardo {

constexpr int kCards = 25;       // numbered 1..25; index c = number - 1
constexpr int kKinds = 5;        // material kinds, edition order (iron glass wood brick rope)
constexpr int kTiers = 4;        // bronze copper silver gold
constexpr int kLowerTiers = 3;   // bronze copper silver
constexpr int kTypes = 5;        // A..E
constexpr int kAreas = 8;        // A Council, B Workshop, C Academy, D-H shops
constexpr int kLabs = 2;         // 0 small, 1 large
constexpr int kKits = 5;         // basic seats a..e
constexpr int kPrices = 4;
constexpr uint8_t kNone = 0xFF;

// Lab geometry (spec §1.2): spaces == side number; mechanical-man spaces by side.
inline int lab_spaces(int side) { return side; }
inline int lab_mech_slots(int side) { return side == 5 ? 1 : side == 6 ? 2 : 0; }

struct CardData {
  uint8_t tier;          // 0..3
  uint8_t weeks;         // 1..lab_track_max
  uint8_t type;          // 0..4 (index into type_ids)
  uint8_t reward_first, reward_later;
  uint8_t mats[kKinds];  // multiset, total == tier materials
  uint8_t nmats;         // filled by validate()
};

struct Kit {  // a beginner kit (spec §2.3)
  uint8_t apprentices;
  uint8_t small_side;    // 3 or 5
  uint8_t large_side;    // 0 (none), 4 or 6
  uint8_t mech[kLabs];   // mechanical men on each lab
  uint16_t money;
  uint8_t mats[kKinds];
};

struct Edition {
  CardData cards[kCards] = {};
  std::string card_names[kCards];
  std::string type_ids[kTypes];
  uint32_t type_cards[kTypes] = {};  // types[].cards as read (bit c = card index c)
  std::string kind_names[kKinds] = {"iron", "glass", "wood", "brick", "rope"};
  std::string tier_names[kTiers] = {"bronze", "copper", "silver", "gold"};
  uint8_t tier_materials[kTiers] = {}, tier_weeks[kTiers] = {}, tier_reward_first[kTiers] = {}, tier_reward_later[kTiers] = {};

  // Deck building (spec §2.2): fixed pile members and the lower-tier draws of the middle pile.
  uint32_t bottom_cards = 0, middle_cards = 0;
  uint8_t plus_lower[kLowerTiers] = {};
  uint8_t two_player_discard[kLowerTiers] = {};
  uint8_t basic_row[6][5] = {};      // by player count
  uint8_t basic_row_len[6] = {};
  Kit kits[kKits] = {};
  uint8_t base_apprentices = 3, base_small_side = 3;
  uint16_t base_money = 3;
  uint8_t favours[6] = {};           // favour picks per player, by player count
  uint8_t letter_cap[6] = {};        // 0 = no cap

  // Constants (edition `constants`).
  uint8_t row_size[6] = {};
  uint8_t removed_apprentices[6] = {};
  uint8_t type_bonus[kTypes + 1] = {};  // by distinct types owned
  uint8_t prices[kPrices] = {0, 2, 3, 4};
  uint8_t per_kind = 12, apprentices_per_colour = 9, mech_per_player = 3, track_max = 15;
  uint8_t discount = 2, pot_start = 1, income = 1, turns = 9, normal_turns = 7;

  // Spec §1.9 errors: "" when valid, else the first failed check as "edition: ...".
  std::string validate();
  // The material names' part of validate(): they are printed inside moves (favour:b:iron+wood,
  // buy:glass), so they follow the notation's rule (docs/notation.md): "" or "edition: ...".
  std::string check_kind_names() const;
  // Spec §1.9 warnings, each "edition warning: ...".
  std::vector<std::string> warnings() const;

  bool fits(int c, const uint8_t* have) const {
    for (int k = 0; k < kKinds; ++k)
      if (cards[c].mats[k] > have[k]) return false;
    return true;
  }
};

}  // namespace atelier::leonardo
