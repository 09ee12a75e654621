// The deal of a seat's unseen money cards (Craftsmen §6.2, §23.1; determinize.cpp calls it): the
// unseen cards go into the other hands' unseen places and the deck, so that every binding claim
// (claims.hpp) holds. It reads only what the seat knows: the truth's hidden cards never enter.
//
// Sampling: up to 64 uniform deals, rejected while a claim fails (exactly uniform over the
// consistent deals when one is accepted); then an exact sequential deal: the claimants' places,
// one by one in seat order, each take a card drawn uniformly from the unseen cards that still
// leave a complete deal (an exact backtracking search over the claimants' remaining places,
// memoised on the cards left), and the rest is dealt uniformly. That finds a deal whenever one
// exists; its bias is documented in docs/rules/craftsmen.md §6.2.
#pragma once
#include "../common/rng.hpp"
#include "claims.hpp"

namespace atelier::craftsmen {

struct MoneyView {
  int n, seat;
  uint8_t base[kMaxPlayers][kMoneyTypes];  // the cards seat knows each other hand holds
  int places[kMaxPlayers];                 // each other hand's unseen places
  uint8_t unseen[kMoneyTypes];             // the cards to deal (the rest goes to the deck)
  Claim claims[kMaxClaims];
  int nclaims;
};

// hands[q] = base[q] + the cards dealt to q (q != seat); false when no deal meets the claims.
bool deal_money(const MoneyView& v, uint8_t hands[kMaxPlayers][kMoneyTypes], Rng& rng);

}  // namespace atelier::craftsmen
