// Craftsmen component data (Craftsmen §2, Craftsmen §3). The binding reads the JSON edition, maps names to
// indices and fills this struct; Edition::validate() re-checks every bound the packed State
// relies on, one line per field, so nothing unchecked crosses into the rules.
#pragma once
#include <cstdint>
#include <string>

namespace atelier::craftsmen {

constexpr int kColours = 4;                 // P G B R (Craftsmen spec 1.2)
constexpr int kValues = 3;                  // printed values 1..3
constexpr int kMoneyTypes = kColours * kValues;  // type t = colour*3 + (value-1)
constexpr int kMoneyCards = 48;
constexpr int kMills = 6, kBasic = 24, kExtended = 24, kAdvanced = 16;
constexpr int kBuildings = kMills + kBasic + kExtended + kAdvanced;  // 70
// Building index ranges, edition order inside each tier: the canonical card order.
constexpr int kFirstBasic = kMills, kFirstExtended = kFirstBasic + kBasic,
              kFirstAdvanced = kFirstExtended + kExtended;
constexpr int kRaw = 7, kSemi = 8, kFinal = 8, kProducts = kRaw + kSemi + kFinal;  // 23
constexpr int kWarehouseGoods = 7;
constexpr int kShips = 4, kMaxShipRows = 8, kMaxBonuses = 5;
constexpr int kGuilds = 6, kSpaces = 3;
constexpr int kCubes = 20, kNeutralCubes = 14;

enum Tier : uint8_t { MILL = 0, BASIC = 1, EXTENDED = 2, ADVANCED = 3 };

extern const char* const kColourLetters;     // "PGBR"
extern const char* const kTierNames[4];      // "lumber_mill", "basic", "extended", "advanced"
extern const char* const kGuildNumerals[kGuilds];  // "I".."VI"

struct BuildingData {
  uint8_t tier, top, bottom;   // colours 0..3
  uint8_t ninputs;             // 0 (mills, basic), 1 (extended), 1..2 (advanced)
  uint8_t inputs[2];           // product indices
  uint8_t output;              // product index
  uint8_t ap;                  // AP per unit produced (10.2-10.5)
  uint8_t house;
};

struct ShipData {
  uint8_t nrows;
  uint8_t product[kMaxShipRows];  // row r (top first)
  uint8_t ap[kMaxShipRows];
  uint8_t nbonus;
  uint8_t bonus[kMaxBonuses];
};

// The numbers of the spec the engine reads from the edition's `constants` (Craftsmen §20).
struct Constants {
  uint8_t money_dealt = 5, display = 3, basic_dealt = 2, house_dealt = 1, faceup = 2;
  // The two banks by player count (Craftsmen spec 4.3); an edition may make them differ (the
  // spec's S19 needs 4 privilege tokens with 5 players), each at most its box total.
  uint8_t priv_tokens_by_players[6] = {0, 0, 4, 6, 8, 10};
  uint8_t work_tokens_by_players[6] = {0, 0, 4, 6, 8, 10};
  uint8_t priv_tokens_total = 10, work_tokens_total = 10;
  uint8_t max_priv_held = 2, max_work_held = 2;
  uint8_t start_ap[5] = {0, 1, 1, 2, 2};
  uint8_t per_player_per_guild = 2, per_player_per_guild_2p = 2;
  uint8_t capacity[6] = {0, 0, 3, 4, 5, 6};
  uint8_t stack_ap[3] = {1, 2, 3};
  uint8_t pass_bonus_min = 1, pass_bonus_ap = 1;
  uint8_t banker_take = 4, banker_discard = 2, banker_discard_priv = 1;
  uint8_t hand_limit = 10, hand_limit_round = 8;
  uint8_t set_per_card = 5;
  uint8_t build_cost[4] = {0, 2, 3, 6};
  uint8_t buy_price[4] = {0, 3, 5, 10};
  uint8_t min_bid = 1;               // the lowest opening bid of a Notary auction (9.4)
  uint8_t mayor_cards[4] = {0, 1, 2, 3};
  uint8_t look_draw = 3;
  uint8_t wp[3] = {3, 4, 5};
  uint8_t market_max = 3;
  uint8_t colour_set_ap = 3;
  uint8_t warehouse_ap = 1;
};

struct Edition {
  BuildingData b[kBuildings];
  uint8_t money_count[kMoneyTypes];  // cards of each type (sum 48)
  ShipData ships[kShips];
  uint8_t bonus_ap[kFinal];          // bonus token of final good f (product kRaw+kSemi+f)
  Constants c;

  std::string building_ids[kBuildings];  // "L1", "B09", ...
  std::string product_names[kProducts];  // raw, semi-finished, final, in edition order

  // Derived by validate(): the warehouse good index of a product (-1 if none), and back.
  int8_t warehouse_of[kProducts];
  uint8_t warehouse_product[kWarehouseGoods];

  bool is_raw(int p) const { return p < kRaw; }
  bool is_semi(int p) const { return p >= kRaw && p < kRaw + kSemi; }
  bool is_final(int p) const { return p >= kRaw + kSemi; }
  bool is_meat(int p) const { return is_semi(p) && warehouse_of[p] < 0; }
  bool shippable(int p) const { return is_final(p) || is_meat(p); }

  // Spec Craftsmen §3. Returns "" when valid, else "field: reason"; fills the derived fields.
  std::string validate();
};

}  // namespace atelier::craftsmen
