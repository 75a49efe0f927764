// `schedmate world check DIR`: prints experiments/world_check.h's scores.
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/json.h"
#include "experiments/world_check.h"

namespace schedmate {
namespace {

struct CheckArgs {
  std::string dir;
  bool json = false, verbose = false;
};

double Ratio(int x, int n) { return n ? static_cast<double>(x) / n : 0.0; }

void Report(const CheckArgs& a, const WorldCheck& t) {
  const int jobs = t.jobs;
  double p = Ratio(t.infra_both, t.infra_pred), r = Ratio(t.infra_both, t.infra_true);
  double f1 = p + r > 0 ? 2 * p * r / (p + r) : 0;
  double rmsre = t.track_ok ? std::sqrt(t.sq_rel_err / t.track_ok) : 0;
  if (a.json) {
    Json fields = Json::object();
    for (const auto& [k, v] : t.fields.ok) fields[k] = Ratio(v, t.fields.total);
    Json j = {{"jobs", jobs},
              {"advisor", {{"repos", t.repos}, {"extraction_failures", t.extraction_failures}, {"field_accuracy", fields},
                           {"field_accuracy_mean", t.fields.Mean()}, {"all_fields_correct", Ratio(t.fields.all_correct, t.fields.total)}}},
              {"tracker", {{"logs", t.tracked}, {"success", Ratio(t.step_time_ok, t.tracked)},
                           {"success_step_and_time", Ratio(t.step_ok, t.tracked)}, {"rmsre", rmsre},
                           {"short_logs", t.short_logs}, {"short_logs_missing", t.short_missing}}},
              {"failure", {{"failed_jobs", t.failed}, {"accuracy_3way", Ratio(t.type_ok, t.failed)},
                           {"infra_precision", p}, {"infra_recall", r}, {"infra_f1", f1},
                           {"component_accuracy", Ratio(t.component_ok, t.failed)}, {"root_line_exact", Ratio(t.line_ok, t.failed)}}}};
    std::printf("%s\n", DumpJson(j, 2).c_str());
    return;
  }
  std::printf("world check of %s: %d jobs\n\n", a.dir.c_str(), jobs);
  std::printf("Advisor (embedded extractor) on %d distinct repositories, %d failed to extract\n  ", t.repos, t.extraction_failures);
  for (const auto& [k, v] : t.fields.ok) std::printf("%s %.1f %%  ", k.c_str(), 100 * Ratio(v, t.fields.total));
  std::printf("\n  mean %.1f %%; every field right in %.1f %% of repositories\n", 100 * t.fields.Mean(),
              100 * Ratio(t.fields.all_correct, t.fields.total));
  std::printf("Tracker on %d logs with progress: success %.1f %% (step time within 5 %%), last step exact %.1f %%; "
              "RMSRE %.3f\n  by code style:", t.tracked, 100 * Ratio(t.step_time_ok, t.tracked), 100 * Ratio(t.step_ok, t.tracked), rmsre);
  for (const auto& [k, v] : t.tracker_by_style) std::printf(" %s %d/%d", k.c_str(), v.first, v.second);
  std::printf("\n  %d logs printed fewer than 3 progress lines; reported missing: %d\n", t.short_logs, t.short_missing);
  std::printf("Failure Handler on %d failed jobs: 3-way accuracy %.1f %%, infrastructure P/R/F1 %.2f/%.2f/%.2f, "
              "component %.1f %%, root line exact %.1f %%\n  by injected cause:",
              t.failed, 100 * Ratio(t.type_ok, t.failed), p, r, f1, 100 * Ratio(t.component_ok, t.failed), 100 * Ratio(t.line_ok, t.failed));
  for (const auto& [k, v] : t.failure_by_cause) std::printf(" %s %d/%d", k.c_str(), v.first, v.second);
  std::printf("\n\nThe failure library (data/failure_injections.txt) and the Handler's knowledge base were written by the\n"
              "same team: this checks that the world is consistent, not how the Handler does on unseen failures\n"
              "(for that: schedmate eval failures --dataset ../shared/realdata/failures.jsonl).\n");
}

void Check(const CheckArgs& a) {
  auto t = CheckWorld(a.dir, a.verbose ? [](const std::string& m) { std::fprintf(stderr, "%s\n", m.c_str()); }
                                       : std::function<void(const std::string&)>{});
  if (!t.ok()) CommandFailed(t.status());
  Report(a, *t);
}

}  // namespace

void AddWorldCheckCommand(CLI::App* world) {
  auto a = std::make_shared<CheckArgs>();
  CLI::App* cmd = world->add_subcommand(
      "check", "Run the real Advisor, Tracker and Failure Handler on a materialised world (world materialize --trace)\n"
               "and score them against the generator's truth.");
  cmd->add_option("dir", a->dir, "Directory written by `world materialize --trace …`")->required();
  cmd->add_flag("--json", a->json, "Print the metrics as JSON");
  cmd->add_flag("--verbose,-v", a->verbose, "List every miss on stderr");
  cmd->callback([a] { Check(*a); });
}

}  // namespace schedmate
