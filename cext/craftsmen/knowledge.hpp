// What each seat knows of the cards it cannot see (Craftsmen §6.2): kept in the State as it
// happens, so that infoset_key and determinize (determinize.cpp) read it without a history.
//
// Money. Cards of one type are interchangeable, so a seat's knowledge of another hand is a count
// per type: the cards it saw go in (a display card the Banker or a reward took, in front of
// everyone; a card it handed over itself, A25). When a card leaves that hand in front of a
// seat, one known card of its type is crossed off (if any). A card handed on between two other
// seats is not seen: the onlooker then keeps only what is still certain, one card fewer of each
// known type. Forgetting is the safe direction: every real hand still fits what is kept.
//
// Buildings. Each card carries the seats that know its place (bknow). Drawn cards are known to
// the drawer; public places to all; a card moving between hidden places keeps its knowers. The
// cards a Notary look returns form the tier's group (A26): everyone else knows the slots and the
// face-up ids among them, not which is where.
#pragma once
#include "state.hpp"

namespace atelier::craftsmen {

constexpr int kNoGiver = -1;  // a card seen by everyone

inline int known_pair(int o, int q) { return o * (kMaxPlayers - 1) + (q < o ? q : q - 1); }
int known_money(const State& s, int o, int q, int t);     // cards of type t of q's hand o knows
void set_known_money(State& s, int o, int q, int t, int v);  // v saturates at 7

// A money card of type t comes into q's hand: seen by everyone, or only by `giver` (A25).
void know_money_in(State& s, int n, int q, int t, int giver);
// A money card of type t leaves q's hand: to the pile in front of everyone (receiver
// kNoGiver), or handed to `receiver`, which alone sees its type (A25).
void know_money_out(State& s, int n, int q, int t, int receiver);

// After every step: public places are known to all, a hand to its holder, a look pool to the
// looker (Notary `h_seat`).
void know_buildings(State& s, int n);
// A Notary look keeps its two face-up cards: the cards left in the pool become the returns,
// known to the looker only.
void know_look_returns(State& s, int n, int looker);

}  // namespace atelier::craftsmen
