// `schedmate eval advisor`: the Scheduling Advisor's module metrics on a
// generated corpus (world/repo_generator.h). Each project's original run is
// written to a fresh history; then three kinds of later submissions ask:
//   renamed copy   same workload, new layout, script and output names,
//                  values moved between defaults, configs and the CLI → must match;
//   other model    the same project layout with another model   → must not
//                  match a record of another model or dataset;
//   other dataset  the same model on another dataset            → likewise.
// (They may match another past project of the same model and data: that is
// the same workload, and its estimate is scored like any other.)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "advisor/advisor.h"
#include "advisor/advisor_history.h"
#include "advisor/metadata_extractor.h"
#include "cli/commands.h"
#include "cli/eval_advisor_real.h"
#include "experiments/field_score.h"
#include "core/facts_json.h"
#include "core/json.h"
#include "core/stats.h"
#include "history/sqlite_store.h"
#include "repo/snapshot.h"
#include "world/repo_generator.h"

namespace schedmate {
namespace {

struct EvalAdvisorArgs {
  int projects = 150;
  uint64_t seed = 1;
  bool json = false, verbose = false;
  float min_score = 0.80f;
};

void EvalAdvisor(const EvalAdvisorArgs& a) {
  Rng rng(a.seed);
  std::string db = std::filesystem::temp_directory_path() / ("schedmate_eval_advisor_" + std::to_string(getpid()) + ".db");
  std::filesystem::remove(db);
  auto store = OpenSqliteHistory(db);
  if (!store.ok()) CommandFailed(store.status());
  AdvisorHistory history(**store);
  FieldTally fields;
  std::vector<double> history_durations, latency_ms;
  struct Query {
    const char* kind;
    WorkloadTruth truth;
    GeneratedRepo repo;
    std::string original;
    double true_duration;
  };
  std::vector<Query> queries;
  std::map<std::string, WorkloadTruth> truth_of;  // history job → its true workload
  std::map<std::string, std::string> rendering_of;
  int extraction_failures = 0;
  const auto& families = WorkloadFamilies();
  for (int p = 0; p < a.projects; ++p) {
    WorkloadTruth w = DrawWorkload(families[static_cast<size_t>(p) % families.size()], rng);
    auto style = static_cast<CodeStyle>(rng.Below(kNumCodeStyles));
    uint64_t layout = rng.NextU64();
    GeneratedRepo orig = GenerateRepo(w, style, layout);
    auto snap = MemorySnapshot(orig.files, "orig");
    auto md = ExtractMetadata(*snap, orig.command);
    if (!md.ok()) {
      ++extraction_failures;
      if (a.verbose) std::fprintf(stderr, "extract failed (%s): %s\n", CodeStyleName(style), md.status().message().c_str());
      continue;
    }
    fields.Score(*md, w);
    HistoryRecord r;
    r.job_id = "p" + std::to_string(p);
    r.duration_s = static_cast<int64_t>(SampleDurationS(w, rng));
    r.completed_at_s = 1000 + p;
    r.end_reason = EndReason::kCompleted;
    r.sm_util = std::clamp(w.sm_util + 0.03 * rng.Normal(), 0.0, 1.0);
    history_durations.push_back(static_cast<double>(r.duration_s));
    truth_of[r.job_id] = w;
    rendering_of[r.job_id] = CanonicalRendering(*md);
    if (Status s = history.Record(r, *md); !s.ok()) CommandFailed(s);
    queries.push_back({"renamed copy", w, GenerateRepo(w, style, rng.NextU64()), r.job_id, SampleDurationS(w, rng)});
    WorkloadTruth other = SwapModel(w, rng);
    queries.push_back({"other model", other, GenerateRepo(other, style, layout), r.job_id, SampleDurationS(other, rng)});
    WorkloadTruth data = SwapDataset(w, rng);
    if (data.dataset != w.dataset)
      queries.push_back({"other dataset", data, GenerateRepo(data, style, layout), r.job_id, SampleDurationS(data, rng)});
  }
  double median_history = Percentile(history_durations, 50);
  int copies = 0, hits = 0, negatives = 0, false_matches = 0, fallbacks = 0, within = 0, estimates = 0,
      baseline_within = 0;
  double util_err = 0;
  int util_n = 0;
  for (const auto& q : queries) {
    auto t0 = std::chrono::steady_clock::now();
    auto snap = MemorySnapshot(q.repo.files, "query");
    auto md = ExtractMetadata(*snap, q.repo.command);
    DurationEstimate e;
    if (md.ok()) {
      fields.Score(*md, q.truth);
      EstimateOptions eo;
      eo.min_score = a.min_score;
      e = history.Estimate(*md, 1 << 30, eo);
    } else {
      ++extraction_failures;
    }
    latency_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    bool matched = e.method == DurationEstimate::Method::kHistory;
    fallbacks += !matched;
    bool copy = std::string(q.kind) == "renamed copy";
    // A match is false when its true workload has another model or dataset.
    bool wrong = false;
    for (const auto& m : e.matches) {
      const WorkloadTruth& t = truth_of[m.job_id];
      wrong = wrong || t.model_name != q.truth.model_name || t.dataset != q.truth.dataset;
    }
    if (copy) {
      ++copies;
      bool hit = matched && !e.matches.empty() && e.matches[0].job_id == q.original;
      hits += hit;
      baseline_within += std::fabs(median_history - q.true_duration) / q.true_duration <= 1.0;
      if (matched) {
        ++estimates;
        within += std::fabs(*e.duration_s - q.true_duration) / q.true_duration <= 1.0;
        if (e.sm_util) {
          util_err += std::fabs(*e.sm_util - q.truth.sm_util);
          ++util_n;
        }
      }
      if (!hit && a.verbose) {
        std::fprintf(stderr, "MISS copy of %s (%s, %s): %s%s\n", q.original.c_str(), q.truth.family.c_str(),
                     CodeStyleName(q.repo.style), matched ? "top match " : e.fallback_reason.c_str(),
                     matched ? e.matches[0].job_id.c_str() : "");
        if (md.ok())
          std::fprintf(stderr, "  query    %s\n  original %s\n", CanonicalRendering(*md).c_str(),
                       rendering_of[q.original].c_str());
        for (const auto& m : e.matches)
          std::fprintf(stderr, "  match    %s %.4f %s\n", m.job_id.c_str(), m.score, rendering_of[m.job_id].c_str());
      }
    } else {
      ++negatives;
      false_matches += matched && wrong;
      if (matched && wrong && a.verbose)
        std::fprintf(stderr, "FALSE MATCH %s for %s: %s\n", q.kind, q.original.c_str(), e.matches[0].job_id.c_str());
    }
  }
  std::filesystem::remove(db);
  std::filesystem::remove(db + "-wal");
  std::filesystem::remove(db + "-shm");
  Json per_field = Json::object();
  for (const auto& [k, v] : fields.ok) per_field[k] = fields.total ? double(v) / fields.total : 0;
  double field_mean = fields.Mean();
  auto ratio = [](int x, int n) { return n ? double(x) / n : 0.0; };
  if (a.json) {
    Json j = {{"projects", a.projects}, {"seed", a.seed}, {"queries", queries.size()},
              {"field_accuracy", per_field}, {"field_accuracy_mean", field_mean},
              {"hit_rate", ratio(hits, copies)}, {"false_match_rate", ratio(false_matches, negatives)},
              {"duration_within_100pct", ratio(within, estimates)},
              {"duration_within_100pct_all_copies", ratio(within, copies)},
              {"baseline_median_within_100pct", ratio(baseline_within, copies)},
              {"sm_util_mae", util_n ? util_err / util_n : 0}, {"fallback_ratio", ratio(fallbacks, static_cast<int>(queries.size()))},
              {"latency_ms", {{"p50", Percentile(latency_ms, 50)}, {"p99", Percentile(latency_ms, 99)}}},
              {"extraction_failures", extraction_failures}};
    std::printf("%s\n", DumpJson(j, 2).c_str());
    return;
  }
  std::printf("Scheduling Advisor on a generated corpus: %d projects (15 families x 5 code styles), seed %llu, "
              "%zu queries, embedded backend\n\n",
              a.projects, (unsigned long long)a.seed, queries.size());
  std::printf("field accuracy      ");
  for (const auto& [k, v] : fields.ok) std::printf("%s %.1f %%  ", k.c_str(), 100.0 * v / std::max(1, fields.total));
  std::printf("\n                    mean %.1f %% over %d extractions (%d failed)\n", 100 * field_mean, fields.total,
              extraction_failures);
  std::printf("hit rate            %.1f %% of %d renamed copies matched their original\n", 100 * ratio(hits, copies), copies);
  std::printf("false matches       %.1f %% of %d other-model / other-dataset submissions\n",
              100 * ratio(false_matches, negatives), negatives);
  std::printf("duration            %.1f %% of estimates within 100 %% relative error (%.1f %% of all copies); "
              "baseline (history median): %.1f %%\n",
              100 * ratio(within, estimates), 100 * ratio(within, copies), 100 * ratio(baseline_within, copies));
  std::printf("SM utilisation      mean absolute error %.3f\n", util_n ? util_err / util_n : 0.0);
  std::printf("fallback ratio      %.1f %%\n", 100 * ratio(fallbacks, static_cast<int>(queries.size())));
  std::printf("latency             p50 %.2f ms, p99 %.2f ms per query (extract + retrieve + estimate)\n",
              Percentile(latency_ms, 50), Percentile(latency_ms, 99));
  std::printf("\n(paper: 85.7 %% of estimates within 100 %% error, Lucid's estimator 27.7 %%; 9 s per job with an LLM)\n");
}

}  // namespace

void AddEvalAdvisorCommand(CLI::App* eval) {
  auto a = std::make_shared<EvalAdvisorArgs>();
  CLI::App* cmd = eval->add_subcommand(
      "advisor", "Advisor field accuracy, hit rate, false matches, duration and SM-utilisation error, fallback\n"
                 "ratio and latency on a generated corpus of training repositories.");
  cmd->add_option("--projects", a->projects, "Projects generated")->capture_default_str()->check(CLI::Range(1, 100000));
  cmd->add_option("--seed", a->seed, "Seed")->capture_default_str();
  cmd->add_option("--min-score", a->min_score, "Cosine a match needs")->capture_default_str();
  cmd->add_flag("--json", a->json, "Print the metrics as JSON");
  cmd->add_flag("--verbose,-v", a->verbose, "List misses and false matches on stderr");
  auto r = std::make_shared<EvalAdvisorRealArgs>();
  cmd->add_option("--real", r->manifest,
                  "Score the extractor on real repositories instead: a manifest of hand-labelled launch\n"
                  "commands (data/eval/advisor_real.jsonl; docs/advisor-real-corpus.md)");
  cmd->add_option("--mirrors", r->mirrors, "With --real: directory of local git mirrors (owner+name/repo)")
      ->capture_default_str();
  cmd->add_option("--only", r->only, "With --real: one command id or repository");
  cmd->add_flag("--misses", r->misses, "With --real: list every field that is not the label");
  cmd->callback([a, r] {
    if (!r->manifest.empty()) {
      r->json = a->json;
      r->progress = a->verbose;
      EvalAdvisorReal(*r);
      return;
    }
    EvalAdvisor(*a);
  });
}

}  // namespace schedmate
