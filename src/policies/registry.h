// Builds policies by name from a small parameter object, so a simulation is
// reproducible from its config file alone.
#ifndef SCHEDMATE_POLICIES_REGISTRY_H_
#define SCHEDMATE_POLICIES_REGISTRY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "policies/common/backfill.h"
#include "sim/policy.h"

namespace schedmate {

struct PolicyConfig {
  // fifo, sjf, qssf, srtf, tiresias, tiresias-original, tiresias-lucid,
  // tiresias-pollux.
  std::string name = "fifo";
  std::string placement;        // "" = the policy's default (consolidate)
  std::string estimator;        // sjf, srtf: oracle; qssf: history
  uint64_t seed = 1;            // for randomised estimators
  // Tiresias overrides (empty / negative = preset value).
  std::vector<int64_t> thresholds_gpu_s;
  int64_t period_s = -1;
  std::string order;            // "submit" | "queue-entry"
  double starvation_knob = -1;
  std::string restart_overhead; // none | lucid | helios | seconds (Tiresias, SRTF)
  // Queue discipline of fifo/sjf/qssf (policies/common/backfill.h):
  // strict (default) | easy | conservative; and the planner's durations:
  // oracle (default) | user-limit | advisor (the policy's estimator; FIFO
  // then gets `estimator`, default history).
  std::string backfill;
  std::string backfill_estimate;
  std::string backfill_overdue;  // "slack" (default) | "age": policies/common/backfill.h
};

// The backfill options of `config`; errors name the field.
Result<BackfillOptions> BackfillFromConfig(const PolicyConfig& config);

struct PolicyInfo {
  std::string name;
  std::string summary;
};
const std::vector<PolicyInfo>& ListPolicies();

Result<std::unique_ptr<Policy>> MakePolicy(const PolicyConfig& config);

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_REGISTRY_H_
