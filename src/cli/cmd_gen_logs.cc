// `schedmate gen-logs progress`: writes a synthetic Tracker evaluation set
// (JSONL in the format of ../shared/realdata/progress.jsonl).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/json.h"
#include "failure/evaluation.h"
#include "loggen/failure_logs.h"
#include "loggen/progress_log_set.h"

namespace schedmate {
namespace {

struct GenLogsArgs {
  std::string out;
  int count = 1000;
  double noisy = 0.5, missing = 0.05;
  uint64_t seed = 1;
};

void GenProgressLogs(const GenLogsArgs& a) {
  ProgressLogOptions o;
  o.count = a.count;
  o.noisy_fraction = a.noisy;
  o.missing_fraction = a.missing;
  o.seed = a.seed;
  Result<std::string> report = WriteProgressLogSet(a.out, o);
  if (!report.ok()) CommandFailed(report.status());
  std::fputs(report->c_str(), stdout);
}

struct GenFailureArgs {
  std::string dataset, out;
  int64_t before = 10000, after = 2000;
  uint64_t seed = 1;
  double failure_noise = 0;
};

// Embeds each labelled excerpt of a failures dataset in a long log.
void GenFailureLogs(const GenFailureArgs& a) {
  auto cases = LoadFailureCases(a.dataset);
  if (!cases.ok()) CommandFailed(cases.status());
  std::ofstream out(a.out, std::ios::binary);
  if (!out) CommandFailed(InvalidArgument(a.out + ": cannot write"));
  size_t bytes = 0, n = 0;
  Status s = ForEachJsonLine(a.dataset, [&](const Json& row, const std::string&) -> Status {
    Json j = row;
    EmbedOptions o{a.before, a.after, a.seed + n, a.failure_noise};
    int64_t root = 0;
    j["log"] = EmbedFailureExcerpt(j["log"].get<std::string>(), j["root_cause_line_index"].get<int64_t>(), o, &root);
    j["root_cause_line_index"] = root;
    j["id"] = j["id"].get<std::string>() + "-long";
    std::string line = DumpJson(j);
    out << line << '\n';
    bytes += line.size() + 1;
    ++n;
    return Status::Ok();
  });
  if (!s.ok()) CommandFailed(s);
  if (!out.flush()) CommandFailed(Unavailable(a.out + ": write failed"));
  std::printf("wrote %s: %zu logs, %lld lines before and %lld after each excerpt, %.1f MB\n", a.out.c_str(), n,
              (long long)a.before, (long long)a.after, bytes / 1e6);
}

}  // namespace

void AddGenLogsCommand(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("gen-logs", "Generate synthetic logs with known truth for evaluation.");
  cmd->require_subcommand(1);
  auto a = std::make_shared<GenLogsArgs>();
  CLI::App* p = cmd->add_subcommand(
      "progress",
      "Training logs in many framework formats (half buried in unrelated noise by default),\n"
      "with the truth of the last training progress line; evaluate with `schedmate eval tracker`.");
  p->add_option("-o,--out", a->out, "Output JSONL file")->required();
  p->add_option("--count", a->count, "Number of logs")->capture_default_str()->check(CLI::Range(1, 10000000));
  p->add_option("--noisy-fraction", a->noisy, "Fraction of logs buried in noise")
      ->capture_default_str()->check(CLI::Range(0.0, 1.0));
  p->add_option("--missing-fraction", a->missing, "Fraction of logs with no training progress")
      ->capture_default_str()->check(CLI::Range(0.0, 1.0));
  p->add_option("--seed", a->seed, "Seed")->capture_default_str();
  p->callback([a] { GenProgressLogs(*a); });

  auto f = std::make_shared<GenFailureArgs>();
  CLI::App* fl = cmd->add_subcommand(
      "failures",
      "Long failed-job logs: each labelled excerpt of a failures dataset embedded after progress,\n"
      "noise and interleaved ranks, followed by a cascade; the root-cause index is shifted.\n"
      "Evaluate with `schedmate eval failures`.");
  fl->add_option("--dataset", f->dataset, "Failures JSONL (e.g. ../shared/realdata/failures.jsonl)")->required();
  fl->add_option("-o,--out", f->out, "Output JSONL file")->required();
  fl->add_option("--before", f->before, "Lines before each excerpt")->capture_default_str()->check(CLI::Range(int64_t{0}, int64_t{100000000}));
  fl->add_option("--after", f->after, "Cascade and noise lines after it")->capture_default_str()->check(CLI::Range(int64_t{0}, int64_t{100000000}));
  fl->add_option("--seed", f->seed, "Seed")->capture_default_str();
  fl->add_option("--failure-noise", f->failure_noise,
                 "Fraction of the lines before each excerpt that are harmless lines that look like failures "
                 "(retried reads, socket retries, warnings), printed periodically")
      ->capture_default_str()->check(CLI::Range(0.0, 0.9));
  fl->callback([f] { GenFailureLogs(*f); });
}

}  // namespace schedmate
