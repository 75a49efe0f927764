// Lucid vs Lucid + schedmate on one trace and one cluster (issue 7): the
// trace (a file, optionally a calendar window, or a synthetic profile), its
// semantic world, a merged main cluster sized by nodes or by a target
// offered load plus Lucid's profiling cluster, and both policies replayed
// in one run — each schedmate variant (the ablations) beside the same Lucid
// baseline. A config file holds everything; flags override it.
#ifndef SCHEDMATE_EXPERIMENTS_LUCID_EXPERIMENT_H_
#define SCHEDMATE_EXPERIMENTS_LUCID_EXPERIMENT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "core/json.h"
#include "experiments/world_workload_model.h"
#include "integrations/lucid_schedmate.h"
#include "policies/lucid/lucid.h"
#include "world/trace_mapping.h"

namespace schedmate {

struct LucidVariant {
  std::string label;  // "lucid+schedmate", "advisor only", "undo 0.3", …
  LucidSchedmateOptions schedmate;
  double undo_threshold = 0.5;
};

struct LucidExperimentConfig {
  std::string name = "lucid";
  std::string trace_path, trace_format = "auto";
  std::string from, to;  // calendar window on submit times ("2017-10-01"), optional
  std::string synth;     // or a synthetic profile
  int32_t synth_jobs = 3000;
  int64_t max_jobs = 0;  // keep at most this many (seeded sample, 0 = all)
  // A second source mixed in (the physical run: Philly and Acme): this many
  // jobs of a synthetic profile, their arrivals laid over the first trace's span.
  std::string mix_synth;
  int32_t mix_jobs = 0;
  double arrival_scale = 1;  // submit times multiplied by this (< 1 compresses arrivals)
  int32_t nodes = 0;     // main cluster nodes, or
  double target_load = 0.9;  // … sized for this offered load (with both: a synthetic trace paced for it)
  int32_t gpus_per_node = 8;
  int32_t profiler_nodes = 2;
  int32_t max_gpus = 0;  // cap requests (the physical run: 128)
  LucidOptions lucid;
  MappingParams mapping;
  WarmupParams warmup;
  std::vector<LucidVariant> variants;  // empty = the full Lucid + schedmate only
  std::string shared;  // shared data directory; "" = found (cli/world_trace.h LoadWorkloadCatalog)
  uint64_t seed = 1;
};

Result<LucidExperimentConfig> LucidConfigFromJson(const Json& j, const std::string& where);

struct LucidRunResult {
  std::string label;
  PolicyRun run;
  LucidStats lucid;
  std::optional<LucidSchedmateStats> schedmate;
  double wall_s = 0;
};

struct LucidComparison {
  std::string setting;       // trace, window, cluster, load — printed beside every number
  std::string catalog_source;  // where the workload catalog came from (measurements or the FLOPs model)
  std::string catalog_notice;  // "" with measurements, else the notice a command prints (world_setup.h)
  double offered_load = 0;
  int64_t jobs = 0;
  int32_t main_gpus = 0;
  std::vector<LucidRunResult> runs;  // [0] = Lucid, then the variants
  std::shared_ptr<const Trace> trace;  // the runs' jobs point into it
};

// Called as each run replays (label, jobs done of total, simulated time).
using LucidProgress = std::function<void(const std::string& label, const SimProgress& p)>;
Result<LucidComparison> RunLucidComparison(const LucidExperimentConfig& c, const LucidProgress& progress = {});

std::string FormatLucidTable(const LucidComparison& c);
Json LucidComparisonToJson(const LucidComparison& c);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_LUCID_EXPERIMENT_H_
