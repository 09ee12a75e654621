// The value model's view of a Position, for the search written over every ruleset (mcts.pxi).
//
// The features concept (cext/common/concept.md, docs/models.md): `feature_count()`,
// `feature_version()` and `features(seat, out)`. The search asks through these three functions
// so that a position kind without features (a ruleset that has none yet) still compiles and
// simply has no model: count 0, which the Python side refuses with one line.
#pragma once
#include <type_traits>
#include <utility>

namespace atelier::search {

constexpr int kLeafMaxFeatures = 1024;   // the stack row the search writes features into

template <class P, class = void>
struct HasFeatures : std::false_type {};
template <class P>
struct HasFeatures<P, std::void_t<decltype(std::declval<const P&>().feature_count())>> : std::true_type {};

template <class P>
inline int leaf_feature_count(const P& p) {
  if constexpr (HasFeatures<P>::value) return p.feature_count();
  else return 0;
}

template <class P>
inline int leaf_feature_version(const P& p) {
  if constexpr (HasFeatures<P>::value) return p.feature_version();
  else return -1;
}

template <class P>
inline void leaf_features(const P& p, int seat, float* out) {
  if constexpr (HasFeatures<P>::value) p.features(seat, out);
}

}  // namespace atelier::search
