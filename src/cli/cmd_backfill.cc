// `schedmate backfill`: FIFO / SJF / standalone / Lucid / Lucid + schedmate
// on the same jobs, each with the strict queue and with EASY and
// conservative backfilling on oracle, user-limit and advisor estimates.
// See src/policies/common/README.md and docs/backfill.md.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/progress.h"
#include "core/data_paths.h"
#include "core/json.h"
#include "experiments/backfill_experiment.h"

namespace schedmate {
namespace {

struct BackfillArgs {
  std::string config, shared, out;
  int64_t seed = -1;
  bool json = false;
  std::string progress = "auto";
};

// A config path: ${SHARED}/… under the shared data, else relative to the config file.
std::string Resolve(const std::string& path, const BackfillArgs& a, const std::string& shared, const char* field) {
  if (path.empty()) return path;
  auto p = ResolveConfigPath(path, a.config, field, FindSharedDir(a.shared.empty() ? shared : a.shared));
  if (!p.ok()) CommandFailed(p.status());
  return *p;
}

BackfillExperimentConfig Load(const BackfillArgs& a) {
  auto j = ReadJsonFile(a.config);
  if (!j.ok()) CommandFailed(j.status());
  auto c = BackfillConfigFromJson(*j, a.config);
  if (!c.ok()) CommandFailed(c.status());
  if (c->lucid) {
    c->lucid->trace_path = Resolve(c->lucid->trace_path, a, c->lucid->shared, "lucid.trace.path");
    if (!a.shared.empty()) c->lucid->shared = a.shared;
  }
  if (c->queue) {
    c->queue->trace_path = Resolve(c->queue->trace_path, a, c->queue->shared, "standalone.trace.path");
    if (!a.shared.empty()) c->queue->shared = a.shared;
  }
  return std::move(c).value();
}

void ApplySeed(int64_t seed, BackfillExperimentConfig& c) {
  if (seed < 0) return;
  const auto s = static_cast<uint64_t>(seed);
  if (c.lucid) c.lucid->seed = s;
  if (c.queue) c.queue->seed = s, c.queue->mapping.seed = s;
}

void WriteOut(const BackfillReport& r, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ofstream(dir + "/summary.json") << DumpJson(BackfillReportToJson(r), 2) << "\n";
  std::ofstream(dir + "/table.txt") << FormatBackfillTable(r);
}

void RunBackfill(const BackfillArgs& a) {
  BackfillExperimentConfig c = Load(a);
  ApplySeed(a.seed, c);
  ConsoleProgress progress(ConsoleProgress::Wanted(a.progress));
  auto r = RunBackfillExperiment(c, [&](const std::string& label, const SimProgress& p) { progress.Update(label, p); });
  progress.Finish();
  if (!r.ok()) CommandFailed(r.status());
  if (!r->catalog_notice.empty()) std::fprintf(stderr, "%s\n", r->catalog_notice.c_str());
  if (!a.out.empty()) WriteOut(*r, a.out);
  if (a.json) {
    std::printf("%s\n", DumpJson(BackfillReportToJson(*r), 2).c_str());
    return;
  }
  std::printf("%s", FormatBackfillTable(*r).c_str());
  if (!a.out.empty()) std::printf("\nwrote %s/summary.json and table.txt\n", a.out.c_str());
}

}  // namespace

void AddBackfillCommand(CLI::App& app) {
  auto a = std::make_shared<BackfillArgs>();
  CLI::App* cmd = app.add_subcommand(
      "backfill", "FIFO, SJF, standalone, Lucid and Lucid + schedmate on the same jobs, each with the strict queue\n"
                  "and with EASY and conservative backfilling on oracle, user-limit and advisor estimates.");
  cmd->add_option("--config", a->config, "Experiment JSON (configs/backfill/*.json). Its paths are relative to\n"
                                         "the file; ${SHARED}/… is under the shared data directory")
      ->required();
  cmd->add_option("--shared", a->shared, "Shared data directory (traces, the workload catalog's measurements)");
  cmd->add_option("--seed", a->seed, "Seed of the workload, the world mapping and the user-limit draws");
  cmd->add_option("--out", a->out, "Write summary.json and table.txt here");
  cmd->add_flag("--json", a->json, "Print the results as JSON");
  cmd->add_option("--progress", a->progress, "auto | on | off")->capture_default_str();
  cmd->callback([a] { RunBackfill(*a); });
}

}  // namespace schedmate
