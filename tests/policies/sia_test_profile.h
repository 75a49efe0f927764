// A small synthetic Sia application profile for the sia_* tests (no ../shared).
#ifndef SCHEDMATE_TESTS_POLICIES_SIA_TEST_PROFILE_H_
#define SCHEDMATE_TESTS_POLICIES_SIA_TEST_PROFILE_H_

#include <string>

#include "policies/sia/sia_profile.h"

namespace schedmate::sia {

// Step time = 0.01 + 0.001 × bsz (+0.005 sync when several GPUs, +0.02 across
// nodes) on "fast"; twice that on "slow". Three epochs of 100 progress each.
inline AppProfile TestProfile(const std::string& app = "cifar10") {
  AppProfile p;
  p.name = app;
  for (auto [type, factor] : {std::pair{"fast", 1.0}, {"slow", 2.0}}) {
    for (std::string key : {"1", "2", "4", "8", "44", "88", "888"}) {
      int replicas = 0;
      for (char c : key) replicas += c - '0';
      int nodes = static_cast<int>(key.size());
      double sync = replicas > 1 ? (nodes > 1 ? 0.025 : 0.005) : 0.0;
      for (int b : {32, 64, 128, 256})
        p.gpu_types[type].placements.push_back({nodes, replicas, b, factor * (0.01 + 0.001 * b) + sync, sync, key});
    }
  }
  for (int bsz : {128, 1024}) {
    auto& v = p.validation[bsz];
    for (int e = 1; e <= 3; ++e) v.push_back({100.0 * e, 1.0, bsz == 128 ? 4.0 : 2.0});
  }
  return p;
}

}  // namespace schedmate::sia

#endif  // SCHEDMATE_TESTS_POLICIES_SIA_TEST_PROFILE_H_
