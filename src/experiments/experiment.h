// An experiment = a trace + a cluster + policies to replay it under. It can
// be written to and read from one JSON file, so any run is reproducible from
// its config alone (`schedmate simulate --config FILE`).
#ifndef SCHEDMATE_EXPERIMENTS_EXPERIMENT_H_
#define SCHEDMATE_EXPERIMENTS_EXPERIMENT_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/job_spec.h"
#include "core/json.h"
#include "core/status.h"
#include "policies/registry.h"
#include "sim/cluster.h"
#include "sim/engine.h"
#include "sim/metrics.h"

namespace schedmate {

struct ExperimentConfig {
  // Trace: a file, or a synthetic one (when synth_profile is set).
  std::string trace_path;
  std::string trace_format = "auto";
  std::string duration_model;     // for traces without durations (Sia)
  std::string synth_profile;
  int32_t synth_jobs = 2000;
  double synth_load = 0.9;        // offered load on the cluster below
  double synth_rate = 0;          // jobs/hour; overrides synth_load when > 0
  // Cluster: a VC file, explicit VCs, or one pool of `nodes`.
  std::string vc_config_path;
  std::vector<ClusterSpec::Vc> vcs;
  int32_t nodes = 0;
  int32_t gpus_per_node = 8;
  std::string gpu_type = "V100";
  bool merge_vcs = false;         // one pool with the VCs' summed capacity
  bool unknown_vc_is_error = false;
  uint64_t seed = 1;
  std::vector<PolicyConfig> policies;
};

Result<ExperimentConfig> ExperimentFromJson(const Json& j, std::string_view where);
Json ExperimentToJson(const ExperimentConfig& c);

// The trace and cluster an experiment describes. `notes` collects what the
// user should know (dropped jobs, synthetic calibration).
struct Prepared {
  Trace trace;
  ClusterSpec cluster;
  // The config's policies with trace-dependent defaults resolved (QSSF on a
  // trace without job names uses the Helios error model, as Helios does
  // for Philly).
  std::vector<PolicyConfig> policies;
  std::vector<std::string> notes;
};
Result<Prepared> PrepareExperiment(const ExperimentConfig& c);

struct PolicyRun {
  SimResult result;
  SimSummary summary;
};

// Replays the trace under each policy in turn.
using ProgressFn = std::function<void(const std::string& policy, const SimProgress&)>;
Result<std::vector<PolicyRun>> RunPolicies(const Prepared& p,
                                           const ExperimentConfig& c,
                                           const ProgressFn& progress);

// A fixed-width comparison table.
std::string FormatComparisonTable(const std::vector<PolicyRun>& runs);

// jct_cdf.svg and queue_length.svg in `dir`.
// jct_cdf.svg, queue_length.svg and gpu_utilization.svg; `setting` (trace,
// cluster, load) is each plot's subtitle.
// The experiment as a config file `simulate --config` replays from any
// directory (trace and VC paths made absolute).
Status WriteExperimentFile(const ExperimentConfig& config, const std::string& path);

Status WritePlots(const std::vector<PolicyRun>& runs, const std::string& dir, const std::string& setting = "");
// Per policy: <policy>_jobs.csv, <policy>_timeseries.csv; and summary.json.
Status WriteRunFiles(const std::vector<PolicyRun>& runs, const std::string& dir);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_EXPERIMENT_H_
