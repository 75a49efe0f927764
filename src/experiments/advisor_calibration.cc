#include "experiments/advisor_calibration.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <unordered_map>

#include "advisor/advisor_history.h"
#include "history/sqlite_store.h"
#include "integrations/repo_metadata.h"
#include "world/world_artefacts.h"

namespace schedmate {

void ErrorDist::Add(double estimate, double truth) {
  errors.push_back(std::fabs(estimate - truth) / std::max(truth, 1.0));
}

double ErrorDist::Within(double bound) const {
  if (errors.empty()) return 0;
  return static_cast<double>(std::count_if(errors.begin(), errors.end(), [&](double e) { return e <= bound; })) /
         static_cast<double>(errors.size());
}

double ErrorDist::Quantile(double q) const {
  if (errors.empty()) return 0;
  std::vector<double> sorted = errors;
  std::sort(sorted.begin(), sorted.end());
  return sorted[std::min(sorted.size() - 1, static_cast<size_t>(q * static_cast<double>(sorted.size() - 1)))];
}

namespace {

class Calibration {
 public:
  Calibration(const MappedTrace& m, const CalibrationProgress& progress) : m_(m), progress_(progress) {}

  Result<AdvisorCalibration> Run(int64_t queries, uint64_t seed) {
    const size_t n = m_.trace.jobs.size();
    std::vector<size_t> picked = SampleJobs(n, queries, seed);
    std::vector<char> is_query(n, 0);
    for (size_t i : picked) is_query[i] = 1;
    std::vector<size_t> by_finish(n);
    for (size_t i = 0; i < n; ++i) by_finish[i] = i;
    std::sort(by_finish.begin(), by_finish.end(), [&](size_t x, size_t y) { return Finish(x) < Finish(y); });
    RETURN_IF_ERROR(OpenStore());
    size_t next = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < n; ++i) {
      const JobSpec& j = m_.trace.jobs[i];
      for (; next < n && Finish(by_finish[next]) < j.submit_s; ++next) {
        if (Status s = WriteBack(by_finish[next]); !s.ok()) {
          CloseStore();
          return s;
        }
      }
      if (is_query[i]) Query(i);
      if (progress_ && (i + 1) % 5000 == 0)
        progress_(i + 1, n, next, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    out_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out_.queries = picked.size();
    out_.extracted = metadata_.extracted();
    CloseStore();
    return std::move(out_);
  }

 private:
  int64_t Finish(size_t i) const { return m_.trace.jobs[i].submit_s + std::max<int64_t>(m_.trace.jobs[i].duration_s, 0); }

  Status OpenStore() {
    db_ = (std::filesystem::temp_directory_path() / ("schedmate_calibrate_" + std::to_string(getpid()) + ".db")).string();
    std::filesystem::remove(db_);
    ASSIGN_OR_RETURN(store_, OpenSqliteHistory(db_));
    history_.emplace(*store_);
    return Status::Ok();
  }

  void CloseStore() {
    history_.reset();
    store_.reset();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_ + suffix);
  }

  Status WriteBack(size_t i) {
    const JobSpec& j = m_.trace.jobs[i];
    const MappedJob& mj = m_.world.jobs[i];
    const ExtractedRepo& e = Extracted(i);
    owner_history_[OwnerKey(j)].push_back(static_cast<double>(j.duration_s));
    if (!e.ok) return Status::Ok();
    HistoryRecord r;
    r.job_id = j.id;
    r.user = j.user.empty() ? j.vc : j.user;
    r.name = mj.job_name;
    r.submit_time_s = j.submit_s;
    r.completed_at_s = Finish(i);
    r.duration_s = std::max<int64_t>(j.duration_s, 0);
    r.end_reason = EndReasonOf(mj);
    r.num_gpus = j.gpus;
    r.sm_util = mj.truth.sm_util;
    r.metadata_json = e.json;
    r.fingerprint = e.fingerprint;
    return history_->Record(r);
  }

  // Every mapped job has a repository in the world (found by its row).
  const ExtractedRepo& Extracted(size_t i) {
    return **metadata_.Get(artefacts_, {m_.trace.jobs[i].id, static_cast<int64_t>(i)});
  }

  static std::string OwnerKey(const JobSpec& j) { return (j.user.empty() ? j.vc : j.user) + "/" + std::to_string(j.gpus); }

  void Query(size_t i) {
    const JobSpec& j = m_.trace.jobs[i];
    const MappedJob& mj = m_.world.jobs[i];
    double truth = static_cast<double>(std::max<int64_t>(j.duration_s, 1));
    bool completed = mj.end_state == EndState::kCompleted;
    ++out_.asked;
    auto owner = owner_history_.find(OwnerKey(j));
    std::optional<double> baseline;
    if (owner != owner_history_.end() && !owner->second.empty()) {
      std::vector<double> v = owner->second;
      std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
      baseline = v[v.size() / 2];
      out_.baseline.Add(*baseline, truth);
    }
    const ExtractedRepo& e = Extracted(i);
    if (!e.ok) {
      ++out_.extraction_failures;
      return;
    }
    auto t0 = std::chrono::steady_clock::now();
    DurationEstimate est = history_->Estimate(e.md, j.submit_s);
    out_.estimate_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (est.method != DurationEstimate::Method::kHistory || !est.duration_s) {
      if (baseline) out_.combined.Add(*baseline, truth);
      return;
    }
    ++out_.hits;
    out_.advisor.Add(*est.duration_s, truth);
    out_.combined.Add(*est.duration_s, truth);
    if (completed) out_.advisor_completed.Add(*est.duration_s, truth);
  }

  const MappedTrace& m_;
  const CalibrationProgress& progress_;
  WorldArtefactSource artefacts_{m_.world, nullptr, 0};
  RepoMetadataCache metadata_;
  std::unordered_map<std::string, std::vector<double>> owner_history_;
  std::string db_;
  std::unique_ptr<HistoryStore> store_;
  std::optional<AdvisorHistory> history_;
  AdvisorCalibration out_;
};

}  // namespace

Result<AdvisorCalibration> CalibrateAdvisor(const MappedTrace& m, int64_t queries, uint64_t seed,
                                            const CalibrationProgress& progress) {
  return Calibration(m, progress).Run(queries, seed);
}

}  // namespace schedmate
