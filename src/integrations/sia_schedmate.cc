#include "integrations/sia_schedmate.h"

#include <algorithm>
#include <chrono>

#include "integrations/sia_throughputs.h"

namespace schedmate {
namespace {

double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// What the job's first step measures (and Sia's bootstrap profile reads).
sia::GradStats InitialGradStats(const sia::SiaJob& job) {
  return job.app_on(0).GradAt(job.app_on(0).init_batch_size(), 0);
}

}  // namespace

SiaSchedmate::SiaSchedmate(JobArtefactSource& artefacts, const sia::SiaCluster& cluster, HistoryStore& store)
    : artefacts_(artefacts), cluster_(cluster), store_(store, 1 << 20), history_(store_) {}

void SiaSchedmate::Attach(sia::SiaSimOptions& options) {
  options.known_model = [this](const sia::SiaJob& job) { return AtSubmit(job); };
  options.on_end = [this](const sia::SiaJob& job) { AtEnd(job); };
}

std::optional<std::vector<ConfigThroughput>> SiaSchedmate::MatchedThroughputs(const DurationEstimate& est) {
  for (const auto& match : est.matches) {  // best score first
    auto rec = store_.Get(match.job_id);
    if (!rec.ok()) {
      store_error_ = rec.status();
      return std::nullopt;
    }
    if (*rec && !(*rec)->per_config.empty()) return (*rec)->per_config;
  }
  return std::nullopt;
}

std::optional<sia::PerfSeed> SiaSchedmate::AtSubmit(const sia::SiaJob& job) {
  ++stats_.advised;
  Result<const ExtractedRepo*> e = metadata_.Get(artefacts_, {job.name()});
  if (!e.ok() && e.status().code() == StatusCode::kNotFound) {
    ++stats_.no_code;
    return std::nullopt;
  }
  auto t0 = std::chrono::steady_clock::now();
  std::optional<sia::PerfSeed> seed;
  if (!e.ok() || !(*e)->ok) {
    ++stats_.extraction_failures;
  } else if (store_error_.ok()) {
    // Only runs completed before the submit time count (no future leakage).
    DurationEstimate est = history_.Estimate((*e)->md, job.submit_s());
    std::optional<std::vector<ConfigThroughput>> rows = MatchedThroughputs(est);
    if (rows) seed = SeedFromThroughputs(*rows, cluster_, InitialGradStats(job));
    if (!seed) ++(est.matches.empty() ? stats_.no_match : stats_.no_throughputs);
  }
  stats_.advisor_ms += MsSince(t0);
  stats_.hits += seed.has_value();
  return seed;
}

void SiaSchedmate::AtEnd(const sia::SiaJob& job) {
  if (!store_error_.ok()) return;
  Result<const ExtractedRepo*> e = metadata_.Get(artefacts_, {job.name()});
  if (!e.ok() || !(*e)->ok) return;
  Result<JobOutcome> outcome = artefacts_.Outcome({job.name()});
  if (!outcome.ok()) return;
  auto t0 = std::chrono::steady_clock::now();
  HistoryRecord r;
  r.job_id = job.name();
  r.name = outcome->name;
  r.user = job.app();
  r.submit_time_s = job.submit_s();
  r.completed_at_s = job.completion_s();
  r.duration_s = job.completion_s() - job.submit_s();
  r.end_reason = EndReason::kCompleted;  // Sia's simulation runs every job to its target
  r.per_config = ConfigThroughputsOf(job, cluster_);
  for (const auto& c : r.per_config) r.num_gpus = std::max(r.num_gpus, c.num_gpus);
  r.throughput_unit = "samples/s";
  r.metadata_json = (*e)->json;
  r.fingerprint = (*e)->fingerprint;
  if (Status s = history_.Record(r); !s.ok()) {
    store_error_ = s;  // the run continues without write-back; the caller reports it
    return;
  }
  ++stats_.written_back;
  stats_.write_back_ms += MsSince(t0);
}

}  // namespace schedmate
