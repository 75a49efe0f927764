#include "integrations/lucid_schedmate.h"

#include <chrono>
#include <cmath>

#include "advisor/advisor.h"
#include "advisor/python_source.h"
#include "core/random.h"
#include "policies/lucid/synthetic_workload_model.h"
#include "tracker/tracker.h"

namespace schedmate {
namespace {

constexpr double kGpuMemoryMib = 81920;  // mem_util is stored as a share of an 80 GB GPU

double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Seconds of running alone the job has done since its last start, at `at`.
// REQUIRES: its rate has not changed between segment_start_s and `at`.
double SoloWorkSinceStart(const SimJob& j, int64_t at) {
  const double total = static_cast<double>(j.spec->duration_s + j.overhead_s);
  const double left = static_cast<double>(j.remaining_s) - static_cast<double>(at - j.segment_start_s) * j.rate;
  return std::max(0.0, total - left - static_cast<double>(j.overhead_s));
}

}  // namespace

LucidSchedmate::LucidSchedmate(JobArtefactSource& artefacts, HistoryStore& store, LucidSchedmateOptions options)
    : artefacts_(artefacts), o_(options),
      history_(store, [&] {
        VectorIndexOptions vo = AdvisorHistory::DefaultIndexOptions();
        vo.hnsw_threshold = options.hnsw_threshold;
        vo.ef_construction = options.hnsw_ef_construction;
        vo.ef_search = options.hnsw_ef_search;
        return vo;
      }()) {
  PythonParseCacheStats py = PythonParseCacheStatsOfThisThread();
  python_parsed_at_start_ = py.parsed;
  python_hits_at_start_ = py.hits;
}

const ExtractedRepo* LucidSchedmate::Extracted(const SimJob& j) {
  Result<const ExtractedRepo*> e = metadata_.Get(artefacts_, Of(j));
  stats_.extract_ms = metadata_.extract_ms();
  stats_.extracted = static_cast<int64_t>(metadata_.extracted());
  PythonParseCacheStats py = PythonParseCacheStatsOfThisThread();
  stats_.python_parsed = py.parsed - python_parsed_at_start_;
  stats_.python_parses_saved = py.hits - python_hits_at_start_;
  return e.ok() ? *e : nullptr;
}

bool LucidSchedmate::Draw(const SimJob& j, uint64_t salt, double p) const {
  if (p >= 1) return true;
  if (p <= 0) return false;
  Rng rng(StableHash(j.spec->id) ^ o_.seed ^ salt);
  return rng.Uniform() < p;
}

std::optional<HistoryFacts> LucidSchedmate::AtSubmit(const SimJob& job, int64_t now, int64_t* latency_s) {
  *latency_s = 0;
  if (!o_.use_advisor) return std::nullopt;
  *latency_s = o_.advisor_latency_s;
  ++stats_.advised;
  auto t0 = std::chrono::steady_clock::now();
  const ExtractedRepo* e = Extracted(job);
  if (!e || !e->ok) {
    ++stats_.extraction_failures;
    stats_.advisor_ms += MsSince(t0);
    return std::nullopt;
  }
  DurationEstimate est = history_.Estimate(*e, now);
  std::optional<HistoryFacts> facts;
  if (est.method == DurationEstimate::Method::kHistory && est.duration_s) {
    HistoryFacts f;
    f.duration_s = *est.duration_s;
    f.spread = est.spread.value_or(0.0);
    f.profile.sm_util = est.sm_util.value_or(0.5);
    f.profile.gmem_mib = est.mem_util.value_or(1.0) * kGpuMemoryMib;
    f.profile.avg_pair_speed = AveragePairSpeed(f.profile.sm_util);
    facts = f;
  }
  stats_.advisor_ms += MsSince(t0);
  if (facts && !Draw(job, 0xad71, o_.hit_rate_scale)) {
    ++stats_.hits_dropped;
    facts.reset();
  }
  stats_.hits += facts.has_value();
  return facts;
}

std::optional<int64_t> LucidSchedmate::PackCheckAfter(const SimJob& host, const SimJob& guest) {
  if (!o_.use_tracker) return std::nullopt;
  Result<LogCadence> c = artefacts_.Cadence(Of(host));
  if (!c.ok()) return std::nullopt;  // no log to read: the pack stays unchecked
  // Called right after the pack: the host's rate is its co-run speed from now on.
  steps_at_pack_[host.index.value] = static_cast<int64_t>(SoloWorkSinceStart(host, host.segment_start_s) / c->step_time_s);
  double seconds = static_cast<double>(o_.check_steps * c->steps_per_record) * c->step_time_s / std::max(host.rate, 0.05);
  return std::max<int64_t>(10, static_cast<int64_t>(std::ceil(seconds)));
}

std::optional<double> LucidSchedmate::PackSlowdown(const SimJob& host, const SimJob& guest, int64_t packed_at,
                                                   int64_t now) {
  ++stats_.checks;
  if (!Draw(guest, 0xde7ec7, o_.detection_rate)) {
    ++stats_.checks_undetected;
    return std::nullopt;
  }
  auto t0 = std::chrono::steady_clock::now();
  auto it = steps_at_pack_.find(host.index.value);
  Result<LogCadence> c = artefacts_.Cadence(Of(host));
  if (!c.ok()) {
    ++stats_.checks_unreadable;
    return std::nullopt;
  }
  LogExcerptQuery q;
  q.mark_step = it == steps_at_pack_.end() ? 0 : it->second;
  q.records_before = o_.check_steps;
  q.now_step = q.mark_step + static_cast<int64_t>(static_cast<double>(now - packed_at) * host.rate / c->step_time_s);
  q.speed_after_mark = host.rate;
  Result<LogExcerpt> log = artefacts_.LogAround(Of(host), q);
  SlowdownResult r;
  if (log.ok()) r = SlowdownCheck(log->lines, log->split);
  stats_.tracker_ms += MsSince(t0);
  if (!r.ratio) ++stats_.checks_unreadable;
  return r.ratio;
}

void LucidSchedmate::AtEnd(const SimJob& job, int64_t now) {
  steps_at_pack_.erase(job.index.value);
  if (!o_.write_back || !store_error_.ok()) return;
  const ExtractedRepo* e = Extracted(job);
  if (!e || !e->ok) return;
  auto t0 = std::chrono::steady_clock::now();
  Result<JobOutcome> outcome = artefacts_.Outcome(Of(job));
  if (!outcome.ok()) return;
  const JobProfile unmeasured;  // Lucid's own defaults where nobody measured the run
  HistoryRecord r;
  r.job_id = job.spec->id;
  r.user = job.spec->user.empty() ? job.spec->vc : job.spec->user;
  r.name = outcome->name;
  r.submit_time_s = job.submit_s;
  r.completed_at_s = now;
  r.duration_s = std::max<int64_t>(job.spec->duration_s, 0);
  r.end_reason = outcome->end_reason;
  r.num_gpus = job.gpus;
  r.sm_util = outcome->sm_util.value_or(unmeasured.sm_util);
  r.mem_util = outcome->gmem_mib.value_or(unmeasured.gmem_mib) / kGpuMemoryMib;
  r.metadata_json = e->json;
  r.fingerprint = e->fingerprint;
  if (Status s = history_.Record(r, e->facts); !s.ok()) {
    store_error_ = s;  // the run continues without write-back; the caller reports it
    return;
  }
  ++stats_.written_back;
  stats_.write_back_ms += MsSince(t0);
}

}  // namespace schedmate
