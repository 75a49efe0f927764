// `schedmate world calibrate`: is the mapped world as hard for the Advisor
// as the paper's? The real Advisor (embedded extractor, fingerprint,
// history retrieval and estimate) runs over a whole mapped trace in submit
// order. Each job's history holds exactly the jobs that finished before it
// was submitted (submit + trace duration), written back with their end
// reason to a real SQLite file. Printed: the hit rate and the
// duration-error distribution, next to the paper's module result (85.7 %
// of estimates within 100 % relative error; Lucid's estimator 27.7 %) and
// to a name-free baseline from the same history (the median duration of
// the owner's earlier jobs with the same GPU count).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <unordered_map>

#include <unistd.h>

#include "advisor/advisor.h"
#include "advisor/advisor_history.h"
#include "cli/commands.h"
#include "cli/world_trace_options.h"
#include "core/facts_json.h"
#include <nlohmann/json.hpp>

#include "core/json.h"
#include "history/sqlite_store.h"
#include "integrations/world_metadata.h"

namespace schedmate {
namespace {

struct CalibrateArgs {
  WorldTraceArgs world;
  int64_t queries = 0;  // 0 = every job
  bool json = false;
  std::string progress = "auto";
};

// Relative errors of one estimator and its share within 100 %.
struct ErrorDist {
  std::vector<double> errors;
  void Add(double estimate, double truth) { errors.push_back(std::fabs(estimate - truth) / std::max(truth, 1.0)); }
  double Within(double bound) const {
    if (errors.empty()) return 0;
    return static_cast<double>(std::count_if(errors.begin(), errors.end(), [&](double e) { return e <= bound; })) /
           static_cast<double>(errors.size());
  }
  double Quantile(double q) {
    if (errors.empty()) return 0;
    std::sort(errors.begin(), errors.end());
    return errors[std::min(errors.size() - 1, static_cast<size_t>(q * static_cast<double>(errors.size() - 1)))];
  }
};

class Calibration {
 public:
  Calibration(const CalibrateArgs& a, MappedTrace m) : a_(a), m_(std::move(m)) {}

  void Run() {
    const size_t n = m_.trace.jobs.size();
    std::vector<size_t> picked = SampleJobs(n, a_.queries, a_.world.params.seed + 1);
    std::vector<char> is_query(n, 0);
    for (size_t i : picked) is_query[i] = 1;
    std::vector<size_t> by_finish(n);
    for (size_t i = 0; i < n; ++i) by_finish[i] = i;
    std::sort(by_finish.begin(), by_finish.end(), [&](size_t x, size_t y) { return Finish(x) < Finish(y); });
    OpenStore();
    size_t next = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < n; ++i) {
      const JobSpec& j = m_.trace.jobs[i];
      for (; next < n && Finish(by_finish[next]) < j.submit_s; ++next) WriteBack(by_finish[next]);
      if (is_query[i]) Query(i);
      if (a_.progress != "off" && (i + 1) % 5000 == 0)
        std::fprintf(stderr, "\r  %zu / %zu jobs, %zu in history, %.0f s", i + 1, n, next,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    if (a_.progress != "off" && n >= 5000) std::fprintf(stderr, "\n");
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CloseStore();
    Print(picked.size());
  }

 private:
  int64_t Finish(size_t i) const { return m_.trace.jobs[i].submit_s + std::max<int64_t>(m_.trace.jobs[i].duration_s, 0); }

  void OpenStore() {
    db_ = (std::filesystem::temp_directory_path() / ("schedmate_calibrate_" + std::to_string(getpid()) + ".db")).string();
    std::filesystem::remove(db_);
    auto s = OpenSqliteHistory(db_);
    if (!s.ok()) CommandFailed(s.status());
    store_ = std::move(s).value();
    history_.emplace(*store_);
  }

  void CloseStore() {
    history_.reset();
    store_.reset();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_ + suffix);
  }

  void WriteBack(size_t i) {
    const JobSpec& j = m_.trace.jobs[i];
    const MappedJob& mj = m_.world.jobs[i];
    const ExtractedRepo& e = metadata_.Get(mj);
    owner_history_[OwnerKey(j)].push_back(static_cast<double>(j.duration_s));
    if (!e.ok) return;
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
    if (Status s = history_->Record(r); !s.ok()) CommandFailed(s);
  }

  static std::string OwnerKey(const JobSpec& j) { return (j.user.empty() ? j.vc : j.user) + "/" + std::to_string(j.gpus); }

  void Query(size_t i) {
    const JobSpec& j = m_.trace.jobs[i];
    const MappedJob& mj = m_.world.jobs[i];
    double truth = static_cast<double>(std::max<int64_t>(j.duration_s, 1));
    bool completed = mj.end_state == EndState::kCompleted;
    ++queries_;
    auto owner = owner_history_.find(OwnerKey(j));
    std::optional<double> baseline;
    if (owner != owner_history_.end() && !owner->second.empty()) {
      std::vector<double> v = owner->second;
      std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
      baseline = v[v.size() / 2];
      baseline_.Add(*baseline, truth);
    }
    const ExtractedRepo& e = metadata_.Get(mj);
    if (!e.ok) {
      ++extraction_failures_;
      return;
    }
    auto t0 = std::chrono::steady_clock::now();
    DurationEstimate est = history_->Estimate(e.md, j.submit_s);
    estimate_ms_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (est.method != DurationEstimate::Method::kHistory || !est.duration_s) {
      if (baseline) combined_.Add(*baseline, truth);
      return;
    }
    ++hits_;
    advisor_.Add(*est.duration_s, truth);
    combined_.Add(*est.duration_s, truth);
    if (completed) advisor_completed_.Add(*est.duration_s, truth);
  }

  void Print(size_t queries) {
    auto pct = [](double x) { return 100 * x; };
    double hit_rate = queries_ ? static_cast<double>(hits_) / static_cast<double>(queries_) : 0;
    if (a_.json) {
      Json j = {{"trace", m_.description}, {"queries", queries}, {"hit_rate", hit_rate},
                {"advisor_within_100pct", advisor_.Within(1.0)}, {"advisor_within_50pct", advisor_.Within(0.5)},
                {"advisor_within_100pct_completed", advisor_completed_.Within(1.0)},
                {"advisor_median_rel_error", advisor_.Quantile(0.5)}, {"advisor_p90_rel_error", advisor_.Quantile(0.9)},
                {"advisor_then_baseline_within_100pct", combined_.Within(1.0)},
                {"baseline_owner_median_within_100pct", baseline_.Within(1.0)},
                {"extraction_failures", extraction_failures_}, {"seconds", seconds_},
                {"estimate_ms_mean", queries_ ? estimate_ms_ / static_cast<double>(queries_) : 0},
                {"paper_within_100pct", 0.857}, {"paper_lucid_estimator_within_100pct", 0.277}};
      std::printf("%s\n", DumpJson(j, 2).c_str());
      return;
    }
    std::printf("%s\n", DescribeMapping(m_).c_str());
    std::printf("Advisor calibration over %zu queries (history = jobs finished before each submit; %zu distinct "
                "repositories extracted, %lld failed) in %.1f s\n\n",
                queries, metadata_.extracted(), (long long)extraction_failures_, seconds_);
    std::printf("  hit rate                                   %5.1f %%   (paper, Qwen-7B agent: 73.0 %%)\n", pct(hit_rate));
    std::printf("  estimates within 100 %% relative error      %5.1f %%   (paper, Mars: 85.7 %%)\n", pct(advisor_.Within(1.0)));
    std::printf("    within 50 %% / 25 %%                       %5.1f %% / %.1f %%\n", pct(advisor_.Within(0.5)),
                pct(advisor_.Within(0.25)));
    std::printf("    completed jobs only, within 100 %%         %5.1f %%\n", pct(advisor_completed_.Within(1.0)));
    std::printf("    relative error median / p90               %.2f / %.2f\n", advisor_.Quantile(0.5), advisor_.Quantile(0.9));
    std::printf("  every query, Advisor else baseline          %5.1f %% within 100 %%\n", pct(combined_.Within(1.0)));
    std::printf("  baseline: owner's median, same GPUs        %5.1f %% within 100 %% over %zu queries   (paper, Lucid's "
                "estimator: 27.7 %%)\n",
                pct(baseline_.Within(1.0)), baseline_.errors.size());
    std::printf("  estimate latency (retrieve + estimate)      %.3f ms mean\n",
                queries_ ? estimate_ms_ / static_cast<double>(queries_) : 0.0);
  }

  const CalibrateArgs& a_;
  MappedTrace m_;
  WorldMetadataCache metadata_;
  std::unordered_map<std::string, std::vector<double>> owner_history_;
  std::string db_;
  std::unique_ptr<HistoryStore> store_;
  std::optional<AdvisorHistory> history_;
  ErrorDist advisor_, advisor_completed_, combined_, baseline_;
  int64_t queries_ = 0, hits_ = 0, extraction_failures_ = 0;
  double seconds_ = 0, estimate_ms_ = 0;
};

void Calibrate(const CalibrateArgs& a) {
  WorkloadCatalog catalog = LoadCatalogForCommand(a.world.shared);
  auto m = LoadAndMap(a.world, catalog);
  if (!m.ok()) CommandFailed(m.status());
  Calibration(a, std::move(m).value()).Run();
}

}  // namespace

void AddWorldCalibrateCommand(CLI::App* world) {
  auto a = std::make_shared<CalibrateArgs>();
  CLI::App* cmd = world->add_subcommand(
      "calibrate", "Run the real Advisor over a mapped trace (history as of each submit) and print its duration-error\n"
                   "distribution next to the paper's module result.");
  AddWorldTraceOptions(cmd, &a->world);
  cmd->add_option("--queries", a->queries, "Jobs that ask the Advisor, drawn at random (0 = every job)")->capture_default_str();
  cmd->add_option("--progress", a->progress, "auto | on | off")->capture_default_str();
  cmd->add_flag("--json", a->json, "Print the metrics as JSON");
  cmd->callback([a] { Calibrate(*a); });
}

}  // namespace schedmate
