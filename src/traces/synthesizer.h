// A seeded, reproducible trace synthesizer for clusters whose raw trace is
// not available, calibrated to published summary statistics:
//  - durations: log-normal with the published median and mean, truncated at
//    the published maximum;
//  - GPU counts: powers of two, P(1) = single_gpu_share (default 0.6, which
//    gives the published median of 1), the rest geometric in log2 with the
//    ratio solved so the mean matches the published mean;
//  - end states: the published completed / failed / cancelled fractions;
//  - arrivals: a Poisson process modulated by a 24-hour profile (default:
//    Helios Venus GPU-job submissions per hour of day, from Lucid's
//    10-minute counts), at the published rate or at a rate giving a target
//    offered load on a cluster of a given size.
// Marginals are drawn by stratified sampling (one draw per quantile stratum,
// shuffled), so even small traces match their targets closely; the
// calibration report says how closely. Durations are grouped into "projects"
// (a job name and user shared by resubmissions) with correlated durations, so
// history-based estimators have a signal to find, as in real traces.
// Every output job and the trace itself are marked synthetic.
#ifndef SCHEDMATE_TRACES_SYNTHESIZER_H_
#define SCHEDMATE_TRACES_SYNTHESIZER_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/job_spec.h"
#include "core/status.h"

namespace schedmate {

// Published statistics of one cluster's GPU jobs.
struct ClusterProfile {
  std::string name;
  std::string citation;  // where the numbers come from
  double mean_duration_s = 0, median_duration_s = 0, max_duration_s = 0;
  double mean_gpus = 1, median_gpus = 1;
  int32_t max_gpus = 1;
  double complete_rate = 1, cancel_rate = 0, fail_rate = 0;
  double jobs_per_hour = 1;  // GPU-job submissions per hour, on average
  std::string rate_note;     // how jobs_per_hour was derived
};

// Built-in profiles: seren, kalos, philly, helios, venus, earth, saturn, uranus.
const std::vector<ClusterProfile>& BuiltinProfiles();
Result<ClusterProfile> FindProfile(std::string_view name);

struct SynthOptions {
  int32_t jobs = 1000;
  uint64_t seed = 1;
  double single_gpu_share = 0.6;
  int32_t max_gpus_cap = 0;   // 0 = profile max; else also cap at this
  // Arrival rate: jobs_per_hour > 0 overrides the profile's rate; if
  // target_load > 0 and cluster_gpus > 0 the span is chosen so the offered
  // load (GPU-seconds demanded / capacity / span) equals target_load.
  double jobs_per_hour = 0;
  double target_load = 0;
  int32_t cluster_gpus = 0;
  // 24 relative weights by hour of day; empty = the built-in Venus profile.
  std::vector<double> hourly_profile;
  // Project model: mean jobs per project, and the spread (log-space sd) that
  // separates a project's durations from the sorted order (0 = identical
  // durations in a project would be too easy; default 0.5).
  double jobs_per_project = 4.0;
  double project_noise = 0.5;
  int32_t users = 50;
};

// Target vs generated statistics.
struct CalibrationRow {
  std::string stat;
  double target = 0, generated = 0;
  double RelativeError() const;
};
struct CalibrationReport {
  std::vector<CalibrationRow> rows;
  double span_s = 0;
  double offered_load = 0;  // only when cluster_gpus > 0
  std::string ToText() const;
};

// The 24-hour submission profile built in (mean 1.0).
const std::array<double, 24>& VenusHourlyProfile();

Result<Trace> SynthesizeTrace(const ClusterProfile& profile,
                              const SynthOptions& options,
                              CalibrationReport* report = nullptr);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACES_SYNTHESIZER_H_
