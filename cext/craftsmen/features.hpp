// Craftsmen's feature vector (cext/common/features.hpp, docs/models.md "Features").
// Declared apart from game.hpp so Position can name them; written in features.cpp.
#pragma once
#include <string>
#include <vector>

namespace atelier::craftsmen {

class Game;
struct State;

// Bumped whenever the layout or the meaning of a value changes (a model records the version it
// was trained on and is refused on another).
constexpr int kFeatureVersion = 2;  // 2: the pending phase and its context
inline int feature_version(const Game&) { return kFeatureVersion; }

int feature_count(const Game& g);
// Writes feature_count(g) values for `seat` (0..n-1); returns how many it wrote.
int write_features(const Game& g, const State& s, int seat, float* out);
std::vector<std::string> feature_names(const Game& g);

}  // namespace atelier::craftsmen
