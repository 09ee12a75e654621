// Craftsmen move notation (Craftsmen §18, docs/notation.md): print the canonical text; parse by
// normalising the text (letter case, spaces around punctuation, multiset items in any order) and
// matching it against the canonical text of every legal move (or chance outcome) of the position.
// Spec 18.1 allows spaces around punctuation only: a space inside a name or an argument
// (`BU ILD(B09,L)`), at either end, or any other whitespace is refused, as the other rulesets
// refuse it.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

#include "game.hpp"
#include "rules.hpp"

namespace atelier::craftsmen {

static std::string money_type(int t) {
  return std::string(1, kColourLetters[t / kValues]) + std::to_string(t % kValues + 1);
}

static std::string multiset(const uint8_t* c) {
  std::string out;
  for (int t = 0; t < kMoneyTypes; ++t)
    for (int i = 0; i < c[t]; ++i) out += (out.empty() ? "" : "+") + money_type(t);
  return out;
}

static const char* const kNames[kMoveTypes] = {
    "KEEP", "SWAP_BASIC", "SWAP_EXTENDED", "SWAP_MILL", "PASS", "PLACE", "STACK", "PAY_CARD", "PAY_AP",
    "WORK_TOKEN", "END", "SKIP", "TAKE_FACEUP", "TAKE_DECK", "STOP", "PRIVILEGE", "NO_PRIVILEGE", "DISCARD",
    "BUILD", "DONE", "PAY", "LOOK", "BUY", "AUCTION", "BID", "DROP", "KEEP", "RETURN", "PURCHASE",
    "PAY_MARKET", "MARKET_PLACE", "DECLINE", "TAKE_PRIVILEGE", "TAKE_WORK", "ORDER_CHANGE", "PRODUCE",
    "PRODUCE2", "TRADE", "MAKE", "SEND", "SEND", "SEND", "REWARD", "REWARD_DECK", "LOAD", "LOAD_BRIBE",
    "LOSE", "CONTRIBUTE", "DRAW"};

std::string Game::outcome_to_string(Move m) const {
  const unsigned a = marg(m);
  return "DRAW(" + (a < 16 ? money_type(a) : ed_.building_ids[(a - 16) % kBuildings]) + ")";
}

std::string Game::move_to_string(const State& s, Move m) const {
  const unsigned t = mtype(m), a = marg(m);
  if (t >= kMoveTypes) return "?";
  const std::string name = kNames[t];
  auto card = [&](unsigned b) { return ed_.building_ids[b % kBuildings]; };
  auto icon_product = [&](unsigned v) {
    const BuildingData& d = ed_.b[(v & 0x7F) % kBuildings];
    return ed_.product_names[d.inputs[(v >> 7) & 1] % kProducts];
  };
  switch (t) {
    case SWAP_BASIC: case SWAP_EXTENDED: case SWAP_MILL: case BUY: case PRODUCE: case PRODUCE2: case MAKE:
      return name + "(" + card(a) + ")";
    case PLACE: return name + "(" + kGuildNumerals[a % kGuilds] + ")";
    case STACK: return name + "(" + std::to_string(a + 1) + ")";
    case PAY_CARD: case TAKE_FACEUP: case DISCARD: case REWARD: return name + "(" + money_type(a % kMoneyTypes) + ")";
    case BUILD: return name + "(" + card(a & 0x7F) + "," + ((a >> 7) ? "R" : "L") + ")";
    case PAY: {
      Payment pays[kMaxPayments];
      const int c = payments(s, pays);
      return (int)a < c ? name + "(" + multiset(pays[a].c) + ")" : "PAY(?)";
    }
    case LOOK: return name + "(" + kTierNames[a & 3] + ")";
    case AUCTION: {
      int rank = (int)(a & 7);
      for (int b = kFirstBasic; b < kBuildings; ++b)
        if (s.bloc[b] == B_FACEUP && rank-- == 0) return name + "(" + card(b) + "," + std::to_string((a >> 3) + 1) + ")";
      return "AUCTION(?)";
    }
    case BID: return name + "(" + std::to_string(a) + ")";
    case KEEP_LOOK: {
      int pool[8], c = 0;
      for (int b = kFirstBasic; b < kBuildings && c < 8; ++b)
        if (s.bloc[b] == B_POOL) pool[c++] = b;
      const int i = a & 7, j = a >> 3;
      if (i >= c || (j != 7 && j >= c)) return "KEEP(?)";
      return name + "(" + card(pool[i]) + (j == 7 ? "" : "," + card(pool[j])) + ")";
    }
    case RETURN: return name + "(" + card(a & 0x7F) + "," + ((a >> 7) ? "BOTTOM" : "TOP") + ")";
    case PURCHASE:
      return name + "(" + ed_.product_names[ed_.warehouse_product[(a >> 7) % kWarehouseGoods]] + "," + card(a & 0x7F) + ")";
    case TRADE: return name + "(" + card(a & 0x7F) + "," + icon_product(a) + ")";
    case SEND_MARKET: return "SEND(MARKET)";
    case SEND_ICON: return "SEND(ICON(" + card(a & 0x7F) + "," + icon_product(a) + "))";
    case SEND_WAREHOUSE: return "SEND(WAREHOUSE)";
    case LOAD: return name + "(" + std::to_string((a & 3) + 1) + ")";
    case LOAD_BRIBE: return name + "(" + std::to_string((a & 3) + 1) + "," + money_type((a >> 2) % kMoneyTypes) + ")";
    case CONTRIBUTE: {
      std::string out;
      for (int c = 0; c < kColours; ++c) out += (c ? "+" : "") + money_type(3 * c + ((a >> (2 * c)) & 3) % 3);
      return name + "(" + out + ")";
    }
    case DRAW: return outcome_to_string(m);
    default: return name;
  }
}

// Why the text's whitespace is not allowed (spec 18.1: spaces around punctuation only), or "".
static std::string misplaced_space(const std::string& text) {
  auto punct = [](char c) { return c != '\0' && std::strchr("(),+", c) != nullptr; };
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char ch = (unsigned char)text[i];
    if (!std::isspace(ch)) continue;
    if (ch != ' ') return "a move holds no tabs or line breaks";
    size_t a = i, b = i;
    while (a > 0 && text[a - 1] == ' ') --a;
    while (b < text.size() && text[b] == ' ') ++b;
    if (a == 0 || b == text.size()) return "a space at an end of the move (spaces may stand only around ( ) , +)";
    const bool near = punct(text[a - 1]) || punct(text[b]);
    if (!near) return "a space inside a name or an argument (spaces may stand only around ( ) , +)";
    i = b - 1;
  }
  return "";
}

// Upper case, spaces dropped; the items of a PAY or CONTRIBUTE multiset in canonical order.
static std::string normalise(const std::string& text) {
  std::string t;
  for (char ch : text)
    if (ch != ' ') t += (char)std::toupper((unsigned char)ch);
  const size_t open = t.find('(');
  const std::string name = t.substr(0, open);
  if ((name == "PAY" || name == "CONTRIBUTE") && open != std::string::npos && t.back() == ')') {
    std::string inner = t.substr(open + 1, t.size() - open - 2);
    std::vector<std::string> items;
    size_t start = 0;
    for (;;) {
      const size_t plus = inner.find('+', start);
      items.push_back(inner.substr(start, plus == std::string::npos ? std::string::npos : plus - start));
      if (plus == std::string::npos) break;
      start = plus + 1;
    }
    auto rank = [](const std::string& it) {
      const char* p = it.empty() ? nullptr : std::strchr(kColourLetters, it[0]);
      return (p ? (int)(p - kColourLetters) : 9) * 100 + (it.size() > 1 ? it[1] : 0);
    };
    std::stable_sort(items.begin(), items.end(), [&](const std::string& x, const std::string& y) { return rank(x) < rank(y); });
    std::string joined;
    for (size_t i = 0; i < items.size(); ++i) joined += (i ? "+" : "") + items[i];
    t = name + "(" + joined + ")";
  }
  return t;
}

std::string Game::parse_move(const State& s, const std::string& text, Move& m) const {
  const std::string where = "move '" + text + "': ";
  if (text.find('?') != std::string::npos) return where + "'?' marks a hidden argument and is never a move";
  if (const std::string bad = misplaced_space(text); !bad.empty()) return where + bad;
  if (s.phase == P_TERMINAL) return where + "the game is over";
  const std::string want = normalise(text);
  if (s.phase == P_CHANCE) {
    Move ms[kMaxMoves];
    double ps[kMaxMoves];
    const int c = chance_outcomes(s, ms, ps, kMaxMoves);
    for (int i = 0; i < c; ++i)
      if (normalise(outcome_to_string(ms[i])) == want) {
        m = ms[i];
        return "";
      }
    return where + "not a possible draw here (a chance node: write DRAW(type) or DRAW(card))";
  }
  MoveList ml;
  legal_moves(s, ml);
  for (int i = 0; i < ml.size; ++i)
    if (normalise(move_to_string(s, ml[i])) == want) {
      m = ml[i];
      return "";
    }
  return where + "not a legal move here";
}

}  // namespace atelier::craftsmen
