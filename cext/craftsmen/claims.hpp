// Binding claims (Craftsmen §6.2, §23.1): public choices that bound a hidden hand from below.
// A deal of a view (determinize) keeps every one, and a full position must meet them (validate).
#pragma once
#include "state.hpp"

namespace atelier::craftsmen {

enum ClaimKind : uint8_t { CLAIM_BID, CLAIM_PAY, CLAIM_BUILD };

// value(seat's money in `colours`) >= need.
struct Claim {
  uint8_t seat, need, colours, kind;
};
constexpr int kMaxClaims = kMaxPlayers + 2;

// The claims standing in s: each bid of the running auction (9.4: no hand changes while it runs),
// a payment under way (PAY, or a limit discard that interrupted it: the payer chose the build,
// buy or won auction in public, in the card's colours for a buy), and a first BUILD at BUILD2
// (legal only when the hand could pay it, and DONE then asks for that payment).
int claims_of(const State& s, int n, Claim* out);

}  // namespace atelier::craftsmen
