// `schedmate world calibrate`: prints experiments/advisor_calibration.h's
// result — is the mapped world as hard for the Advisor as the paper's? The real Advisor (embedded extractor, fingerprint,
// history retrieval and estimate) runs over a whole mapped trace in submit
// order. Each job's history holds exactly the jobs that finished before it
// was submitted (submit + trace duration), written back with their end
// reason to a real SQLite file. Printed: the hit rate and the
// duration-error distribution, next to the paper's module result (85.7 %
// of estimates within 100 % relative error; Lucid's estimator 27.7 %) and
// to a name-free baseline from the same history (the median duration of
// the owner's earlier jobs with the same GPU count).
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/world_trace_options.h"
#include "core/json.h"
#include "experiments/advisor_calibration.h"

namespace schedmate {
namespace {

struct CalibrateArgs {
  WorldTraceArgs world;
  int64_t queries = 0;  // 0 = every job
  bool json = false;
  std::string progress = "auto";
};

void Print(const CalibrateArgs& a, const MappedTrace& m, const AdvisorCalibration& c) {
  auto pct = [](double x) { return 100 * x; };
  double hit_rate = c.HitRate();
  size_t queries = c.queries;
  if (a.json) {
    Json j = {{"trace", m.description}, {"queries", queries}, {"hit_rate", hit_rate},
              {"advisor_within_100pct", c.advisor.Within(1.0)}, {"advisor_within_50pct", c.advisor.Within(0.5)},
              {"advisor_within_100pct_completed", c.advisor_completed.Within(1.0)},
              {"advisor_median_rel_error", c.advisor.Quantile(0.5)}, {"advisor_p90_rel_error", c.advisor.Quantile(0.9)},
              {"advisor_then_baseline_within_100pct", c.combined.Within(1.0)},
              {"baseline_owner_median_within_100pct", c.baseline.Within(1.0)},
              {"extraction_failures", c.extraction_failures}, {"seconds", c.seconds},
              {"estimate_ms_mean", c.EstimateMsMean()},
              {"paper_within_100pct", 0.857}, {"paper_lucid_estimator_within_100pct", 0.277}};
    std::printf("%s\n", DumpJson(j, 2).c_str());
    return;
  }
  std::printf("%s\n", DescribeMapping(m).c_str());
  std::printf("Advisor calibration over %zu queries (history = jobs finished before each submit; %zu distinct "
              "repositories extracted, %lld failed) in %.1f s\n\n",
              queries, c.extracted, (long long)c.extraction_failures, c.seconds);
  std::printf("  hit rate                                   %5.1f %%   (paper, Qwen-7B agent: 73.0 %%)\n", pct(hit_rate));
  std::printf("  estimates within 100 %% relative error      %5.1f %%   (paper, Mars: 85.7 %%)\n", pct(c.advisor.Within(1.0)));
  std::printf("    within 50 %% / 25 %%                       %5.1f %% / %.1f %%\n", pct(c.advisor.Within(0.5)),
              pct(c.advisor.Within(0.25)));
  std::printf("    completed jobs only, within 100 %%         %5.1f %%\n", pct(c.advisor_completed.Within(1.0)));
  std::printf("    relative error median / p90               %.2f / %.2f\n", c.advisor.Quantile(0.5), c.advisor.Quantile(0.9));
  std::printf("  every query, Advisor else baseline          %5.1f %% within 100 %%\n", pct(c.combined.Within(1.0)));
  std::printf("  baseline: owner's median, same GPUs        %5.1f %% within 100 %% over %zu queries   (paper, Lucid's "
              "estimator: 27.7 %%)\n",
              pct(c.baseline.Within(1.0)), c.baseline.errors.size());
  std::printf("  estimate latency (retrieve + estimate)      %.3f ms mean\n",
              c.EstimateMsMean());
}


void Calibrate(const CalibrateArgs& a) {
  WorkloadCatalog catalog = LoadCatalogForCommand(a.world.shared);
  auto m = LoadAndMap(a.world, catalog);
  if (!m.ok()) CommandFailed(m.status());
  CalibrationProgress progress;
  if (a.progress != "off")
    progress = [](size_t done, size_t n, size_t in_history, double s) {
      std::fprintf(stderr, "\r  %zu / %zu jobs, %zu in history, %.0f s%s", done, n, in_history, s, done + 5000 > n ? "\n" : "");
    };
  auto c = CalibrateAdvisor(*m, a.queries, a.world.params.seed + 1, progress);
  if (!c.ok()) CommandFailed(c.status());
  Print(a, *m, *c);
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
