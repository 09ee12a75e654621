// The random-simulation invariants of the Craftsmen issue, checked inside C++ so that the slow
// test can afford 10,000 games per player count: at every state Game::validate (every packed
// field, the conservation of the 48 money cards, the 70 buildings, cubes, tokens and helpers,
// the running auction's claims, what each seat knows); termination after year 3 with a strict
// ranking; and, at random states, the determinization contract (a valid state, the same
// information-set key, the same legal moves for the mover). The GIL is released; the first
// failure is returned as text.
#include <cstring>
#include <string>

#include "craftsmen_bind.hpp"

namespace atelier::craftsmen::bind {
namespace {

constexpr int kMaxDecisions = 40000;

struct Tally {
  long long decisions = 0, states = 0, determinized = 0, in_auction = 0;
  std::string error;
  State at{}, before{};  // the state where an invariant broke, and the one before it
  Move last = 0;
};

std::string where(long game, int decisions, const std::string& what) {
  return "game " + std::to_string(game) + ", decision " + std::to_string(decisions) + ": " + what;
}

bool same_moves(const Game& g, const State& a, const State& b) {
  MoveList x, y;
  g.legal_moves(a, x);
  g.legal_moves(b, y);
  return x.size == y.size && std::memcmp(x.moves, y.moves, sizeof(Move) * x.size) == 0;
}

bool check_game(const Game& g, Rng& rng, long game, int determinize_every, Tally& t) {
  State s{};
  g.initial_state(s, rng);
  MoveList ml;
  int decisions = 0;
  const int n = g.num_players();
  while (true) {
    t.at = s;
    std::string v = g.validate(s);
    if (!v.empty()) return t.error = where(game, decisions, v), false;
    ++t.states;
    const int cur = g.current_player(s);
    if (cur == kTerminalPlayer) break;
    const bool auction = s.auc_card != kNoSeat;
    if (determinize_every && (auction || rng.below((uint32_t)determinize_every) == 0)) {
      const int seat = (int)rng.below((uint32_t)n);
      State d = s;
      if (!g.determinize(d, seat, rng)) return t.error = where(game, decisions, "determinize found no deal for a real state"), false;
      ++t.determinized;
      t.in_auction += auction;
      v = g.validate(d);
      if (!v.empty()) return t.error = where(game, decisions, "determinized: " + v), false;
      if (g.infoset_key(d, seat) != g.infoset_key(s, seat))
        return t.error = where(game, decisions, "determinize changed the seat's information-set key"), false;
      if (seat == cur && !same_moves(g, s, d))
        return t.error = where(game, decisions, "determinize changed the mover's legal moves"), false;
    }
    t.before = s;
    if (cur == kChancePlayer) {
      t.last = 0xFFFF;
      g.sample_chance(s, rng);
      continue;
    }
    g.legal_moves(s, ml);
    if (ml.size == 0) return t.error = where(game, decisions, "no legal move at a decision"), false;
    t.last = ml[(int)rng.below((uint32_t)ml.size)];
    g.apply(s, t.last);
    ++t.decisions;
    if (++decisions > kMaxDecisions) return t.error = where(game, decisions, "the game does not end"), false;
  }
  if (s.year != 3 || s.season != 3) return t.error = where(game, decisions, "ended before year 3's winter"), false;
  int order[kMaxPlayers];
  g.ranking(s, order);
  unsigned seen = 0;
  for (int i = 0; i < n; ++i) seen |= 1u << order[i];
  if (seen != (1u << n) - 1) return t.error = where(game, decisions, "the ranking is not a permutation"), false;
  return true;
}

}  // namespace

py::dict check_games(const std::shared_ptr<Game>& g, long n_games, uint64_t seed, int determinize_every) {
  if (n_games < 0) fail("n: must be >= 0");
  if (determinize_every < 0) fail("determinize_every: must be >= 0");
  Tally t;
  long played = 0;
  {
    py::gil_scoped_release nogil;
    Rng rng(seed);
    for (; played < n_games; ++played)
      if (!check_game(*g, rng, played, determinize_every, t)) break;
  }
  py::dict out;
  out["games"] = played;
  out["decisions"] = t.decisions;
  out["states"] = t.states;
  out["determinized"] = t.determinized;
  out["determinized_in_auctions"] = t.in_auction;
  out["error"] = t.error;
  if (!t.error.empty()) {  // for a test to show (and a person to replay) the failure
    out["error_state"] = py::bytes(reinterpret_cast<const char*>(&t.at), sizeof(State));
    out["state_before"] = py::bytes(reinterpret_cast<const char*>(&t.before), sizeof(State));
    out["last_move"] = (int)t.last;
  }
  return out;
}

}  // namespace atelier::craftsmen::bind
