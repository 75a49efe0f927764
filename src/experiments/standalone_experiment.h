// Standalone schedmate vs the queue baselines on the same jobs (issue 18):
// a trace slice replayed on one pool with the simulator's failures on, under
// FIFO, QSSF, SRTF (Helios'), Tiresias, SJF with oracle durations, Lucid (on
// the pool plus its own profiling nodes), and the standalone policy (SJF on
// the real Advisor's estimates, policies/standalone) without and with the
// real Failure Handler deciding every recovery. Every run sees the same
// failure plan (per-job seeded draws), so the differences are the policies'
// and the Handler's. A config file holds everything; flags override it.
#ifndef SCHEDMATE_EXPERIMENTS_STANDALONE_EXPERIMENT_H_
#define SCHEDMATE_EXPERIMENTS_STANDALONE_EXPERIMENT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "experiments/experiment.h"
#include "integrations/lucid_schedmate.h"
#include "integrations/sim_failure_handler.h"
#include "policies/lucid/lucid.h"
#include "policies/common/backfill.h"
#include "policies/standalone/standalone.h"
#include "sim/failures.h"
#include "world/trace_mapping.h"

namespace schedmate {

struct StandaloneExperimentConfig {
  std::string name = "standalone";
  std::string trace_path, trace_format = "auto";
  std::string synth;          // or a synthetic trace of this cluster profile (traces/synthesizer.h) …
  int32_t synth_jobs = 6000;  // … with this many jobs
  std::string from, to;  // calendar window on submit times ("2017-10-01"), optional
  int64_t max_jobs = 0;  // keep at most this many (seeded sample, 0 = all)
  int32_t max_gpus = 0;  // cap requests (0 = none; the pool is always at least the widest job)
  int32_t nodes = 0;     // pool nodes, or …
  double target_load = 1.0;  // … sized for this offered load
  int32_t gpus_per_node = 8;
  bool failures_on = true;  // off: no failures, and no Handler run
  bool handler_run = true;  // also run the standalone policy with the Failure Handler
  FailureParams failures;
  double handler_min_confidence = 0.8;
  // Sensitivity to the Handler's accuracy: one more standalone run per rate,
  // its recovery decided from the simulator's truth and wrong at that rate
  // (sim/noisy_oracle_recovery.h).
  std::vector<double> handler_error_rates;
  std::string fallback = "history";        // the standalone policy's trace-free estimator
  std::string tiresias = "tiresias-lucid";  // preset
  // Queue discipline of FIFO, QSSF, SJF and the standalone policy (Tiresias
  // preempts and keeps its own); policies.backfill / backfill_estimate.
  BackfillOptions backfill;
  // Which runs to replay (policies.runs: fifo, qssf, srtf, tiresias, sjf,
  // lucid, standalone); empty = all.
  std::vector<std::string> runs;
  // Lucid's run (policies.lucid): its profiling cluster, nodes added beside
  // the pool (0 = no profiling, the pool alone), and its profiling limits.
  int32_t lucid_profiler_nodes = 2;
  int64_t lucid_profile_time_limit_s = 200;
  int32_t lucid_profile_gpu_limit = 8;
  MappingParams mapping;
  std::string shared;  // shared data directory; "" = found
  uint64_t seed = 1;
};

// `where` names the file in every error, with the field.
Result<StandaloneExperimentConfig> StandaloneConfigFromJson(const Json& j, const std::string& where);

struct StandaloneRun {
  std::string label;
  PolicyRun run;
  std::optional<StandaloneStats> standalone;
  std::optional<LucidSchedmateStats> advisor;
  std::optional<SimFailureHandlerTally> handler;
  std::optional<LucidStats> lucid;
  int64_t backfilled = 0;  // jobs started while an earlier queued job waited
  double wall_s = 0;
};

struct StandaloneComparison {
  std::string setting;  // trace, window, pool, load, failures — printed beside every number
  std::string catalog_source, catalog_notice;
  double offered_load = 0;
  int64_t jobs = 0;
  int32_t gpus = 0;
  // fifo, qssf, srtf, tiresias, sjf-oracle, lucid, standalone[, standalone+handler]
  std::vector<StandaloneRun> runs;
  // The trace's resumable failed jobs (their planned failure is an
  // infrastructure fault), by trace index: the research's Handler gain is
  // measured on them.
  std::vector<int32_t> resumable_jobs;
  std::shared_ptr<const Trace> trace;  // the runs' jobs point into it
};

Result<StandaloneComparison> RunStandaloneComparison(const StandaloneExperimentConfig& c,
                                                     const ProgressFn& progress = {});
// The same on jobs prepared elsewhere (one VC, submits from 0; e.g. the jobs
// a Lucid comparison replayed, so both see the same ones); c's trace fields
// are not read.
Result<StandaloneComparison> RunStandaloneComparison(const StandaloneExperimentConfig& c,
                                                     std::shared_ptr<const Trace> jobs,
                                                     const ProgressFn& progress = {});

// The table with the research's numbers beside ours.
std::string FormatStandaloneTable(const StandaloneComparison& c);
Json StandaloneComparisonToJson(const StandaloneComparison& c);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_STANDALONE_EXPERIMENT_H_
