// Sia's round loop on a heterogeneous cluster (sia-simulator/cluster.py +
// multi_simulator.py): every round, running jobs advance by the round
// length (restart delay first), then Sia decides the next allocation for
// every job submitted by now. New jobs are profiled on one GPU of each type
// before they train (cost explicit), unless a known performance model is
// injected for them.
#ifndef SCHEDMATE_POLICIES_SIA_SIA_SIMULATOR_H_
#define SCHEDMATE_POLICIES_SIA_SIA_SIMULATOR_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "policies/sia/sia_policy.h"
#include "policies/sia/sia_profile.h"

namespace schedmate::sia {

enum class Bootstrap {
  kProfile,   // SOSP'23 §3.2: 1-GPU profile on each type before training
  kAsYouGo,   // the artifact's simulator: no profile; unseen types start at utility 1
};

struct SiaSimOptions {
  int round_s = 60;
  Bootstrap bootstrap = Bootstrap::kProfile;
  // GPU-seconds of the bootstrap profile on each type (SOSP'23 §3.2: "< 20
  // GPU seconds per GPU type"); the job trains from the next round.
  int profile_s_per_type = 20;
  // Where a performance model known in advance enters (Sia + schedmate):
  // a seed skips the profile. Empty = plain Sia.
  std::function<std::optional<PerfSeed>(const SiaJob&)> known_model;
  // Called once when a job completes, before any later job is admitted
  // (Sia + schedmate writes what the job observed to its history).
  std::function<void(const SiaJob&)> on_end;
  int64_t max_rounds = 2'000'000;
};

struct SiaJobInput {
  std::string name, app;
  int64_t submit_s = 0;
  int batch_size = 0;  // the workload's requested batch (0 = the app's largest)
};

struct SiaJobResult {
  std::string name, app;
  int64_t submit_s = 0, completion_s = 0;
  double gpu_s = 0, restart_gpu_s = 0, profile_gpu_s = 0;
  int restarts = 0;
  bool seeded = false;  // started from an injected model
};

struct SiaRoundStat {
  int64_t t = 0;
  int jobs = 0;
  double policy_ms = 0;
  bool solved = true;
  std::string note;
};

struct SiaRunResult {
  std::vector<SiaJobResult> jobs;
  std::vector<SiaRoundStat> rounds;
  double avg_jct_s = 0, p99_jct_s = 0, makespan_s = 0;
  double gpu_hours = 0, profile_gpu_hours = 0;
  int failed_rounds = 0;
};

// Errors: an application without constants or profile (NotFound /
// InvalidArgument), a bad cluster, or a run longer than max_rounds.
Result<SiaRunResult> RunSia(const SiaCluster& cluster, const std::map<std::string, AppProfile>& profiles,
                            const std::vector<SiaJobInput>& inputs, const SiaParams& params,
                            const SiaSimOptions& options, MilpSolver* solver);

}  // namespace schedmate::sia

#endif  // SCHEDMATE_POLICIES_SIA_SIA_SIMULATOR_H_
