// Move notation (docs/notation.md): one space-free, case-insensitive token per move.
#include <cctype>
#include <string>
#include <vector>

#include "game.hpp"
#include "mutate.hpp"

namespace atelier::inventors {

using namespace detail;

static std::string lower(std::string t) {
  for (char& ch : t) ch = (char)std::tolower((unsigned char)ch);
  return t;
}

static std::vector<std::string> split(const std::string& t, char sep) {
  std::vector<std::string> out(1);
  for (char ch : t) {
    if (ch == sep) out.emplace_back();
    else out.back() += ch;
  }
  return out;
}

static int find_token(const std::string& t) {
  for (int k = 0; k < kTokenKinds; ++k)
    if (lower(t) == lower(kTokenNames[k])) return k;
  return -1;
}

static int find_discipline(const std::string& t) {
  for (int d = 0; d < kDisciplines; ++d)
    if (lower(t) == lower(kDisciplineNames[d])) return d;
  return -1;
}

std::string Game::move_to_string(const State& s, Move m) const {
  const unsigned a = move_a(m), b = move_b(m), c = move_c(m);
  const int team = teams_[s.active];
  switch (move_type(m)) {
    case FRONT:
    case BACK:
      return std::string(move_type(m) == FRONT ? "front:" : "back:") + kTokenNames[a % kTokenKinds] + ":" +
             ed_.inventor_ids[team][b] + ":" + kDisciplineNames[c & 3];
    case AVAIL: return "avail";
    case WORK: {
      std::string t = "work:" + ed_.inventor_ids[team][b] + ":" + ed_.card_ids[a % kCards];
      const Extra& e = kExtras[c < 15 ? c : 0];
      for (int x = 0; x < e.count; ++x) t += std::string("+") + kDisciplineNames[e.d[x]];
      return t;
    }
    case REST: return "rest";
    case CARD: return "take:card";
    case TOKEN: return std::string("take:") + kTokenNames[a % kTokenKinds];
  }
  return "?";
}

std::string Game::parse_move(const State& s, const std::string& text, Move& m) const {
  const std::string bad = "move '" + text + "': ";
  if (s.phase == CHANCE_REVEAL) return bad + "the position is at a reveal; give a reveal:... outcome";
  if (s.phase == TERMINAL) return bad + "the game is over";
  const std::vector<std::string> f = split(text, ':');
  const std::string kind = lower(f[0]);
  const int team = teams_[s.active];
  auto inventor = [&](const std::string& id, unsigned& i) {
    for (i = 0; i < kInventorsPerTeam; ++i)
      if (lower(ed_.inventor_ids[team][i]) == lower(id)) return true;
    return false;
  };
  unsigned i = 0;
  if ((kind == "front" || kind == "back") && f.size() == 4) {
    const int k = find_token(f[1]), d = find_discipline(f[3]);
    if (k < 0) return bad + "unknown token kind '" + f[1] + "' (P2 P3 P4 VP1 VP2 VP3 AV AK ST)";
    if (!inventor(f[2], i)) return bad + "'" + f[2] + "' is not an inventor of the player to move (team " + ed_.team_ids[team] + ")";
    if (d < 0) return bad + "unknown discipline '" + f[3] + "' (P C M Ma)";
    m = make_move(kind == "front" ? FRONT : BACK, (unsigned)k, i, (unsigned)d);
  } else if (kind == "avail" && f.size() == 1) {
    m = make_move(AVAIL);
  } else if (kind == "rest" && f.size() == 1) {
    m = make_move(REST);
  } else if (kind == "work" && f.size() == 3) {
    if (!inventor(f[1], i)) return bad + "'" + f[1] + "' is not an inventor of the player to move (team " + ed_.team_ids[team] + ")";
    const std::vector<std::string> parts = split(f[2], '+');
    int card = -1;
    for (int c = 0; c < kCards; ++c)
      if (lower(ed_.card_ids[c]) == lower(parts[0])) card = c;
    if (card < 0) return bad + "unknown card '" + parts[0] + "'";
    if (parts.size() > 3) return bad + "additional knowledge places at most 2 cubes";
    int d[2] = {0, 0};
    for (size_t x = 1; x < parts.size(); ++x)
      if ((d[x - 1] = find_discipline(parts[x])) < 0) return bad + "unknown discipline '" + parts[x] + "' (P C M Ma)";
    unsigned extra = 0;
    if (parts.size() == 2) extra = 1 + d[0];
    if (parts.size() == 3) {
      const int a = d[0] < d[1] ? d[0] : d[1], b = d[0] < d[1] ? d[1] : d[0];
      for (unsigned e = 5; e < 15; ++e)
        if (kExtras[e].d[0] == a && kExtras[e].d[1] == b) extra = e;
    }
    m = make_move(WORK, (unsigned)card, i, extra);
  } else if (kind == "take" && f.size() == 2) {
    if (lower(f[1]) == "card") {
      m = make_move(CARD);
    } else {
      const int k = find_token(f[1]);
      if (k < 0) return bad + "unknown reward '" + f[1] + "' (card, or a token kind)";
      m = make_move(TOKEN, (unsigned)k);
    }
  } else {
    return bad + "not a move (front:K:INV:D, back:K:INV:D, avail, work:INV:CARD[+D[+D]], rest, take:card, take:K)";
  }
  if (!is_legal(s, m)) return bad + "not legal in this position";
  return "";
}

std::string Game::reveal_to_string(const Reveal& r) const {
  std::string t = "reveal:";
  for (int x = 0; x < r.k; ++x) {
    if (x) t += ",";
    t += ed_.card_ids[r.cards[x] % kCards] + "=" + kTokenNames[r.tokens[x][0] % kTokenKinds] + "+" +
         kTokenNames[r.tokens[x][1] % kTokenKinds];
  }
  return t;
}

std::string Game::parse_reveal(const State& s, const std::string& text, Reveal& r) const {
  const std::string bad = "move '" + text + "': ";
  if (lower(text.substr(0, 7)) != "reveal:") return bad + "a reveal reads reveal:CARD=K+K,...";
  const std::vector<std::string> items = split(text.substr(7), ',');
  if ((int)items.size() > kMaxDisplay) return bad + "too many cards";
  r.k = (int)items.size();
  for (int x = 0; x < r.k; ++x) {
    const std::vector<std::string> kv = split(items[x], '=');
    if (kv.size() != 2) return bad + "each card reads CARD=K+K";
    int card = -1;
    for (int c = 0; c < kCards; ++c)
      if (lower(ed_.card_ids[c]) == lower(kv[0])) card = c;
    if (card < 0) return bad + "unknown card '" + kv[0] + "'";
    const std::vector<std::string> tk = split(kv[1], '+');
    if (tk.size() != 2) return bad + "each card carries exactly 2 tokens";
    const int a = find_token(tk[0]), b = find_token(tk[1]);
    if (a < 0 || b < 0) return bad + "unknown token kind";
    r.cards[x] = (uint8_t)card;
    r.tokens[x][0] = (uint8_t)(a < b ? a : b);
    r.tokens[x][1] = (uint8_t)(a < b ? b : a);
  }
  // Cards may be listed in any order; the outcome is the set (spec R9).
  for (int t = 1; t < r.k; ++t)
    for (int u = t; u > 0 && r.cards[u - 1] > r.cards[u]; --u) {
      std::swap(r.cards[u], r.cards[u - 1]);
      std::swap(r.tokens[u][0], r.tokens[u - 1][0]);
      std::swap(r.tokens[u][1], r.tokens[u - 1][1]);
    }
  const std::string err = check_reveal(s, r);
  return err.empty() ? "" : bad + err;
}

}  // namespace atelier::inventors
