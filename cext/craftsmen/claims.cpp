// Binding claims (claims.hpp).
#include "claims.hpp"

namespace atelier::craftsmen {

int claims_of(const State& s, int n, Claim* out) {
  int c = 0;
  if (s.auc_card != kNoSeat)
    for (int q = 0; q < n; ++q)
      if (s.auc_max[q] > 0) out[c++] = {(uint8_t)q, s.auc_max[q], 0xF, CLAIM_BID};
  const bool limit = s.phase == P_LIMIT;
  const int phase = limit ? s.lim_saved : s.phase, actor = limit ? s.lim_actor : s.actor;
  if (phase == P_PAY && s.pay_seat < n) out[c++] = {s.pay_seat, s.pay_amount, s.pay_colours, CLAIM_PAY};
  if (phase == P_BUILD2 && actor < n) out[c++] = {(uint8_t)actor, s.build_cost, 0xF, CLAIM_BUILD};
  return c;
}

}  // namespace atelier::craftsmen
