// Move notation (docs/notation.md, Leonardo section): print and parse; parse(print(m)) == m
// for every legal move. Parsing is by matching the text against the printed legal moves, so
// the two can never disagree and nothing illegal is ever accepted.
#include <cctype>

#include "game.hpp"

namespace atelier::leonardo {

static const char* const kLabNames[kLabs] = {"small", "large"};
static const char kAreaLetters[] = "abcdefgh";

static std::string place_name(unsigned q) {
  return q < kAreas ? std::string(1, kAreaLetters[q]) : std::string(kLabNames[q - kAreas]);
}

std::string Game::move_to_string(const State& s, Move m) const {
  const unsigned a = marg(m);
  auto kind = [&](unsigned k) { return ed_.kind_names[k]; };
  switch (mkind(m)) {
    case M_FAV_A: return "favour:a";
    case M_FAV_B: {
      std::string out = "favour:b:";
      unsigned code = a;
      bool first = true;
      for (int k = 0; k < kKinds; ++k, code /= 3)
        for (unsigned x = 0; x < code % 3; ++x) {
          out += (first ? "" : "+") + kind(k);
          first = false;
        }
      return out;
    }
    case M_FAV_C: return "favour:c";
    case M_FAV_D1: case M_FAV_D2: case M_FAV_D3: {
      std::string out = "favour:d" + std::to_string(mkind(m) - M_FAV_D1 + 1);
      if (a != kNoKind && a < kKinds) out += ":" + kind(a);
      return out;
    }
    case M_FAV_D4: return std::string("favour:d4:") + kLabNames[a & 1];
    case M_KEEP: return std::string("keep:") + kLabNames[a & 1];
    case M_CANCEL: return std::string("cancel:") + kLabNames[a & 1];
    case M_START: {
      const unsigned c = a & 31;
      return std::string("start:") + kLabNames[(a >> 5) & 1] + ":" +
             (c == kStartNone ? std::string("none") : std::to_string(c + 1));
    }
    case M_PLACE: return "place:" + place_name((a >> 4) % (kAreas + kLabs)) + ":" + std::to_string(a & 15);
    case M_MASTER: return "master:" + place_name(a % (kAreas + kLabs));
    case M_PASS: return "pass";
    case M_CLAIM: return "claim:" + std::to_string(a);
    case M_DECLINE: return "decline";
    case M_GIFT: return "leonardo:" + std::to_string(a);
    case M_MOVE: return std::string("move:") + kAreaLetters[a & 7];
    case M_CODEX:
      return "codex:" + std::to_string(a >> 6) + ":" + kAreaLetters[(a >> 3) & 7] + ":" + kAreaLetters[a & 7];
    case M_REORDER: {
      const int mm = s.deck_len < 4 ? s.deck_len : 4;
      std::string out = "reorder";
      for (int i = 0; i < mm && a < kPerms.count[mm]; ++i) out += ":" + std::to_string(s.deck[kPerms.seq[mm][a][i]] + 1);
      return out;
    }
    case M_MATERIAL: return "material:" + kind(a % kKinds);
    case M_BUY:
      switch (a) {
        case 0: return "buy:flip:small";
        case 1: return "buy:take:large";
        case 2: return "buy:flip:large";
        case 3: return "buy:mech:small";
        case 4: return "buy:mech:large";
        case 5: return "buy:recruit";
        default: return "buy:" + kind((a - 8) % kKinds);
      }
    case M_BID: return "bid:" + std::to_string(a);
    case M_DRAW: return "draw:" + std::to_string(a + 1);
    default: return "?";
  }
}

static std::string lower(const std::string& t) {
  std::string o = t;
  for (auto& ch : o) ch = (char)std::tolower((unsigned char)ch);
  return o;
}

std::string Game::parse_move(const State& s, const std::string& text, Move& m) const {
  const std::string q = "move '" + text + "': ";
  for (unsigned char ch : text)
    if (ch < 0x21 || ch > 0x7E) return q + "a move is one token of printable ASCII";
  if (text.size() > 64) return q + "too long";
  const std::string t = lower(text);
  if (s.phase == GAME_OVER) return q + "the game is over";
  if (s.phase == DRAW) {
    Move mv[kCards];
    double p[kCards];
    const int n = chance_outcomes(s, mv, p, kCards);
    for (int i = 0; i < n; ++i)
      if (move_to_string(s, mv[i]) == t) {
        m = mv[i];
        return "";
      }
    return q + "not a draw outcome here (chance node: draw:X)";
  }
  MoveList ml;
  legal_moves(s, ml);
  for (int i = 0; i < ml.size; ++i)
    if (move_to_string(s, ml[i]) == t) {
      m = ml[i];
      return "";
    }
  return q + "not a legal move here";
}

}  // namespace atelier::leonardo
