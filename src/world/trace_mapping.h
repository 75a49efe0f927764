// Mapping trace jobs to workloads (issue 6, DESIGN §3.3): every job of a
// trace (Philly, Helios, Acme, Sia, synthetic) gets a concrete workload —
// a model family and variant, a code style and layout, a launch command, a
// step time, an end state and, when it failed, an injected root cause — so
// the real Advisor, Tracker and Failure Handler have code and logs to read.
// Seeded and deterministic; O(jobs); every assumption is a named parameter
// of MappingParams (defaults and their grounds in docs/world.md).
//
// Project identity. Jobs belong to projects: one code base, resubmitted and
// copied. A job's owner is its user, else its virtual cluster (Philly has no
// users). When the trace names jobs, a job joins the project of its
// (owner, name) unless it is a same-named job with another model or dataset
// (swap_model_prob / swap_dataset_prob → a new project under the old name).
// Otherwise — no name, or a name never seen — it is a resubmission or a
// renamed copy of one of the owner's open projects with the same GPU count
// with probability resubmit_prob, provided that project's typical duration
// fits: within duration_tolerance× of the job's for a job that ran to its
// end, at least 1/duration_tolerance of it for one that failed or was killed
// (a truncated run). Else the job starts a project. A project closes after
// project_idle_s without submissions. A member runs the project's code, as a
// renamed copy (new layout, script and directory names) with rename_prob,
// with an edited batch size or budget with edit_prob.
//
// A new project's family comes from the job's GPU-time bucket (Sia's
// <1, 1–10, 10–100, ≥100 GPU-hours) through bucket_family_weights over
// small / medium / large families; its step time from the workload catalog;
// its planned iterations from its first run's duration (for a truncated
// run, the duration over a uniform fraction completed).
#ifndef SCHEDMATE_WORLD_TRACE_MAPPING_H_
#define SCHEDMATE_WORLD_TRACE_MAPPING_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/facts.h"
#include "core/job_spec.h"
#include "loggen/job_log.h"
#include "world/repo_generator.h"
#include "world/workload_catalog.h"

namespace schedmate {

// Where a failed job's first error lies; shares sum to 1 per level.
struct FailureMix {
  // Paper: 75 of 300 sampled failed jobs were infrastructure failures; the
  // rest split framework : user script as in ../shared/realdata (12 : 10).
  double infrastructure = 0.25, framework = 0.41, user_script = 0.34;
  // Components of infrastructure failures, as in realdata's 27 labelled
  // cases (gpu 8, storage 7, network 5, node 4, nvlink 3).
  std::array<double, 5> component = {0.30, 0.26, 0.19, 0.15, 0.11};  // gpu storage network node nvlink
};

struct MappingParams {
  uint64_t seed = 1;
  double resubmit_prob = 0.7;
  double duration_tolerance = 2.0;
  int64_t project_idle_s = 7 * 86400;
  double rename_prob = 0.3;
  double edit_prob = 0.15;
  double swap_model_prob = 0.05;
  double swap_dataset_prob = 0.05;
  // Rows: GPU-time bucket (<1, 1–10, 10–100, ≥100 GPU-h); columns: the
  // share of small, medium and large families (see SizeClassOf).
  std::array<std::array<double, 3>, 4> bucket_family_weights = {{
      {0.75, 0.23, 0.02}, {0.50, 0.42, 0.08}, {0.30, 0.50, 0.20}, {0.10, 0.50, 0.40}}};
  // For traces without end states (Philly's philly.csv, Sia): the shares of
  // jobs that failed and that were killed. traces/README: ~68 k of the 82 k
  // Philly rows are Pass; the split of the other 17 % is our assumption.
  double unknown_fail_rate = 0.10, unknown_cancel_rate = 0.07;
  FailureMix failures;
  std::string gpu_type = "dgx";  // catalog GPU type for step times (A100)
};

// Small / medium / large model families (0 / 1 / 2).
int SizeClassOf(const std::string& family);
// Sia's GPU-time bucket of a job: 0 (<1 GPU-h) … 3 (≥100).
int GpuTimeBucket(int32_t gpus, int64_t duration_s);

struct InjectedCause {
  std::string category;   // infrastructure | framework | user_script
  std::string component;  // for infrastructure
};

struct MappedJob {
  int32_t project = -1;
  std::string job_name;     // the trace's, else the project's
  WorkloadTruth truth;      // what the job's code runs
  CodeStyle style = CodeStyle::kRawLoop;
  uint64_t layout_seed = 0;
  uint64_t repo_key = 0;    // content key of (truth, style, layout): equal keys, equal repositories
  JobLogFormat log_format = JobLogFormat::kNanoGpt;
  double step_time_s = 1;   // alone, from the catalog
  int64_t total_steps = 1;  // steps the code plans
  int64_t steps_run = 0;    // steps the trace's duration covers (≤ total_steps)
  int64_t log_every = 10;
  EndState end_state = EndState::kCompleted;  // the trace's, or drawn when it has none
  bool state_drawn = false;
  std::optional<InjectedCause> failure;  // for failed jobs
};

struct MappingStats {
  int64_t jobs = 0, projects = 0, resubmissions = 0, renamed_copies = 0, edited = 0, swapped = 0;
  std::array<int64_t, 4> bucket_jobs{};
  std::array<std::array<int64_t, 3>, 4> bucket_class_projects{};
  int64_t failed = 0, failed_infrastructure = 0, drawn_states = 0;
};

struct WorldMap {
  std::vector<MappedJob> jobs;  // parallel to the trace's jobs
  MappingStats stats;
};

// REQUIRES: trace jobs sorted by submit time (as loaders return them).
// Jobs with an unknown duration (Sia workloads, -1) are mapped with the
// catalog duration of a drawn workload.
WorldMap MapTrace(const Trace& trace, const WorkloadCatalog& catalog, const MappingParams& params = {});

std::string FailureCauseName(const InjectedCause& c);  // "infrastructure/gpu", "framework"

// The end reason a history write-back records for the job.
EndReason EndReasonOf(const MappedJob& m);

}  // namespace schedmate

#endif  // SCHEDMATE_WORLD_TRACE_MAPPING_H_
