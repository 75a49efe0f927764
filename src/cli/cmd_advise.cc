// `schedmate advise REPO --cmd "…"`: what workload a job is and how long
// similar finished jobs ran. `schedmate history …`: the store it reads.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "advisor/advice.h"
#include "advisor/advisor.h"
#include "advisor/advisor_history.h"
#include "advisor/llm_extractor.h"
#include "advisor/metadata_extractor.h"
#include "cli/llm_options.h"
#include "cli/commands.h"
#include "cli/history_open.h"
#include "core/facts_json.h"
#include "core/json.h"
#include "core/time_format.h"
#include "history/jsonl_export.h"
#include "history/jsonl_import.h"
#include "history/redis_store.h"
#include "history/sqlite_store.h"
#include "repo/snapshot.h"
#include "repo/tools.h"

namespace schedmate {

namespace {

struct AdviseArgs {
  std::string repo, cmd, history = kDefaultHistory;
  bool json = false;
  int64_t as_of = 0;  // 0: now
  size_t k = 3;
  float min_score = 0.80f;
  std::string backend = "embedded";
  std::string workdir;
  LlmArgs llm;
};

int64_t Now() { return static_cast<int64_t>(std::time(nullptr)); }

// advise only reads: a history file that does not exist yet is an empty
// history (the estimate falls back), never a file created in passing.
DurationEstimate EstimateDuration(const AdviseArgs& a, const WorkloadMetadata& md) {
  std::error_code ec;
  if (a.history.rfind("redis://", 0) != 0 && !std::filesystem::exists(a.history, ec)) {
    DurationEstimate est;
    est.fallback_reason = "no history at " + a.history + " yet (record finished jobs with `schedmate history add`)";
    return est;
  }
  auto store = OpenHistory(a.history);
  if (!store.ok()) CommandFailed(store.status());
  auto history = AdvisorHistory::Open(**store);
  if (!history.ok()) CommandFailed(history.status());
  EstimateOptions eo;
  eo.k = a.k;
  eo.min_score = a.min_score;
  return history->Estimate(md, a.as_of > 0 ? a.as_of : Now(), eo);
}

void Advise(const AdviseArgs& a) {
  AdviceBackend backend;
  backend.kind = *ParseBackendKind(a.backend);
  backend.cascade_threshold = a.llm.cascade_threshold;
  std::unique_ptr<ChatClient> client;
  if (backend.kind != BackendKind::kEmbedded) client = std::make_unique<ChatClient>(MakeEndpoint(a.llm));
  backend.client = client.get();
  auto t0 = std::chrono::steady_clock::now();
  ExtractOptions eo;
  eo.workdir = a.workdir;
  auto advice = ExtractAdvice(a.repo, a.cmd, backend, eo);
  if (!advice.ok()) CommandFailed(advice.status());
  DurationEstimate est = EstimateAdvice(*advice, [&](const WorkloadMetadata& md) { return EstimateDuration(a, md); });
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  Json out = AdviceJson(*advice, est, ms);
  const Result<WorkloadMetadata>& md = advice->metadata;
  if (a.json) {
    std::printf("%s\n", DumpJson(out).c_str());
    return;
  }
  if (md.ok()) {
    auto s = [](const std::optional<std::string>& v) { return v.value_or("-"); };
    std::printf("model        %s (%s)\ndataset      %s\n", s(md->model_name).c_str(), s(md->model_type).c_str(),
                s(md->dataset).c_str());
    std::printf("iterations   %s %s\nbatch size   %s\ngpus         %s\nframework    %s, launcher %s\n",
                md->training_iterations ? std::to_string(*md->training_iterations).c_str() : "-",
                s(md->iteration_type).c_str(), md->batch_size ? std::to_string(*md->batch_size).c_str() : "-",
                md->hardware.num_gpus ? std::to_string(*md->hardware.num_gpus).c_str() : "-",
                s(md->framework).c_str(), s(md->launcher).c_str());
    std::printf("confidence   %.2f (%zu files read)\n", md->confidence, md->files_read.size());
    for (const auto& [field, why] : md->unresolved) std::printf("unknown      %s: %s\n", field.c_str(), why.c_str());
  } else {
    std::printf("metadata     not extracted: %s\n", md.status().message().c_str());
  }
  if (est.method == DurationEstimate::Method::kHistory) {
    std::printf("estimate     %.0f s from %zu similar jobs (spread %.2f)", *est.duration_s, est.matches.size(),
                est.spread.value_or(0));
    if (est.sm_util) std::printf(", SM util %.2f", *est.sm_util);
    std::printf("\n");
    for (const auto& m : est.matches) std::printf("  match      %s (score %.3f)\n", m.job_id.c_str(), m.score);
  } else {
    std::printf("estimate     fallback: %s — the scheduler keeps its own estimator\n", est.fallback_reason.c_str());
  }
  std::printf("latency      %.1f ms\n", ms);
}

struct HistoryArgs {
  std::string history = kDefaultHistory;
  // add
  std::string job, repo, cmd, end_reason = "completed", gpu_type;
  int64_t duration = -1, completed_at = 0, submit = 0;
  double sm_util = -1;
  // import / export / show
  std::string file, id, out;
  bool json = false;
  bool force = false;  // import: replace stored records that completed later
};

void HistoryAdd(const HistoryArgs& a) {
  auto snap = OpenSnapshot(a.repo);
  if (!snap.ok()) CommandFailed(snap.status());
  auto md = ExtractMetadata(**snap, a.cmd);
  if (!md.ok()) CommandFailed(md.status());
  auto reason = ParseEndReason(a.end_reason);
  if (!reason.ok()) CommandFailed(reason.status());
  HistoryRecord r;
  r.job_id = a.job;
  r.duration_s = a.duration;
  r.end_reason = *reason;
  r.completed_at_s = a.completed_at > 0 ? a.completed_at : Now();
  r.submit_time_s = a.submit > 0 ? a.submit : r.completed_at_s - a.duration;
  if (a.sm_util >= 0) r.sm_util = a.sm_util;
  r.gpu_type = a.gpu_type;
  r.num_gpus = md->hardware.num_gpus.value_or(0);
  if (auto tree = FileTreeTool(**snap); tree.ok())
    if (auto h = SnapshotHash(**snap, *tree); h.ok()) r.snapshot_hash = *h;
  auto store = OpenHistory(a.history);
  if (!store.ok()) CommandFailed(store.status());
  AdvisorHistory history(**store);  // the next advise indexes the store afresh
  Status s = history.Record(r, *md);
  if (!s.ok()) CommandFailed(s);
  std::printf("added %s to %s (%s, %lld s, %s)\n", r.job_id.c_str(), (*store)->Describe().c_str(),
              md->model_name.value_or("model unknown").c_str(), (long long)r.duration_s, a.end_reason.c_str());
}

// JSONL of records (RecordToJson plus "fingerprint": [floats]); all or nothing
// in SQLite, resumable chunks in Redis (history/jsonl_import.h).
void HistoryImport(const HistoryArgs& a) {
  auto store = OpenHistory(a.history);
  if (!store.ok()) CommandFailed(store.status());
  auto counts = ImportJsonl(**store, a.file, a.force);
  if (!counts.ok()) CommandFailed(counts.status());
  std::printf("imported %lld records into %s", (long long)counts->written, (*store)->Describe().c_str());
  if (counts->resumed_after > 0)
    std::printf(" (resumed after the %lld records an interrupted import committed)", (long long)counts->resumed_after);
  std::printf("\n");
  if (counts->skipped_older > 0)
    std::printf("skipped %lld records older than the stored run of the same job (--force replaces them)\n",
                (long long)counts->skipped_older);
}

// `list`: one line per record (times in ISO 8601), or with --json one JSON
// object per line without fingerprints; `export`: JSONL with fingerprints, to
// stdout or -o FILE (the import format).
void HistoryExport(const HistoryArgs& a, bool list) {
  auto store = OpenHistory(a.history);
  if (!store.ok()) CommandFailed(store.status());
  if (!list && !a.out.empty()) {
    auto n = ExportJsonl(**store, Env::Default(), a.out);
    if (!n.ok()) CommandFailed(n.status());
    std::fprintf(stderr, "exported %lld records to %s\n", (long long)*n, a.out.c_str());
    return;
  }
  Status s = (*store)->ForEach([&](const HistoryRecord& r) -> Status {
    if (list && !a.json) {
      std::printf("%-24s %-16s %8lld s  completed %s  gpus %d\n", r.job_id.c_str(),
                  std::string(EndReasonName(r.end_reason)).c_str(), (long long)r.duration_s,
                  FormatIso8601(r.completed_at_s).c_str(), r.num_gpus);
      return Status::Ok();
    }
    std::printf("%s\n", DumpJson(list ? ListLine(r) : ExportLine(r)).c_str());
    return Status::Ok();
  });
  if (!s.ok()) CommandFailed(s);
}

void HistoryShow(const HistoryArgs& a) {
  auto store = OpenHistory(a.history);
  if (!store.ok()) CommandFailed(store.status());
  auto r = (*store)->Get(a.id);
  if (!r.ok()) CommandFailed(r.status());
  if (!r->has_value()) CommandFailed(NotFound(a.id + ": not in " + (*store)->Describe()));
  std::printf("%s\n", DumpJson(RecordToJson(**r), 2).c_str());
}

void HistoryStats(const HistoryArgs& a) {
  auto store = OpenHistory(a.history);
  if (!store.ok()) CommandFailed(store.status());
  std::map<std::string, int> reasons;
  int64_t n = 0, with_fp = 0, first = INT64_MAX, last = 0;
  Status s = (*store)->ForEach([&](const HistoryRecord& r) -> Status {
    ++n;
    with_fp += !r.fingerprint.empty();
    ++reasons[std::string(EndReasonName(r.end_reason))];
    first = std::min(first, r.completed_at_s);
    last = std::max(last, r.completed_at_s);
    return Status::Ok();
  });
  if (!s.ok()) CommandFailed(s);
  std::printf("%s: %lld records (%lld with a fingerprint)\n", (*store)->Describe().c_str(), (long long)n,
              (long long)with_fp);
  if (n) std::printf("completed between %s and %s\n", FormatIso8601(first).c_str(), FormatIso8601(last).c_str());
  for (const auto& [k, v] : reasons) std::printf("  %-18s %d\n", k.c_str(), v);
}

}  // namespace

void AddAdviseCommand(CLI::App& app) {
  auto a = std::make_shared<AdviseArgs>();
  CLI::App* cmd = app.add_subcommand(
      "advise",
      "What workload is this job, and how long did similar finished jobs run? Reads the job's\n"
      "repository (a directory, or PATH@REV for a git revision) through the two safe tools,\n"
      "extracts its metadata, and estimates from history — or says fallback.");
  cmd->add_option("REPO", a->repo, "Repository directory or PATH@REV")->required();
  cmd->add_option("--cmd", a->cmd, "The job's launch command, e.g. \"torchrun --nproc_per_node 8 train.py\"")
      ->required();
  cmd->add_option("--workdir", a->workdir, "Directory inside the repository the command runs from (default: its root)");
  cmd->add_option("--history", a->history, "History: a SQLite file or redis://host:port[/prefix]")
      ->capture_default_str();
  cmd->add_option("--as-of", a->as_of, "Submit time (Unix seconds): history completed later is invisible (default now)");
  cmd->add_option("--k", a->k, "Matches averaged (SJF uses 3)")->capture_default_str()->check(CLI::Range(1, 100));
  cmd->add_option("--min-score", a->min_score, "Cosine a match needs")->capture_default_str()->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--backend", a->backend,
                  "embedded (parser, default) | llm (tool-using agent on an OpenAI-compatible endpoint) | "
                  "cascade (the LLM fills what the parser misses when its confidence is low)")
      ->capture_default_str()->check(CLI::IsMember({"embedded", "llm", "cascade"}));
  AddLlmOptions(cmd, &a->llm);
  cmd->add_flag("--json", a->json, "One JSON object: metadata (schema fields + provenance) and estimate "
                                   "(method, duration_s, sm_util, matches, spread)");
  cmd->callback([a] { Advise(*a); });

  auto h = std::make_shared<HistoryArgs>();
  CLI::App* hist = app.add_subcommand("history", "The history store: add, import, list, show, export, stats.");
  hist->require_subcommand(1);
  // --history before or after the subcommand ("history list --history F").
  auto history_option = [h](CLI::App* c) {
    c->add_option("--history", h->history, "A SQLite file or redis://host:port[/prefix]")->capture_default_str();
  };
  history_option(hist);
  CLI::App* add = hist->add_subcommand("add", "Record a finished job (extracts its metadata from the repository).");
  add->add_option("--job", h->job, "Job id")->required();
  add->add_option("--repo", h->repo, "Repository directory or PATH@REV")->required();
  add->add_option("--cmd", h->cmd, "Launch command")->required();
  add->add_option("--duration", h->duration, "Run time in seconds")->required()->check(CLI::NonNegativeNumber);
  add->add_option("--end-reason", h->end_reason,
                  "completed | cancelled | failed_user | failed_framework | failed_infra | timeout")
      ->capture_default_str();
  add->add_option("--completed-at", h->completed_at, "Unix seconds (default now)");
  add->add_option("--submit", h->submit, "Unix seconds (default completed-at minus duration)");
  add->add_option("--sm-util", h->sm_util, "Mean SM utilisation 0-1")->check(CLI::Range(0.0, 1.0));
  add->add_option("--gpu-type", h->gpu_type, "GPU type, e.g. A100");
  history_option(add);
  add->callback([h] { HistoryAdd(*h); });
  CLI::App* imp = hist->add_subcommand(
      "import",
      "Import records from JSONL (the export format): all or nothing in SQLite, resumable chunks in Redis;\n"
      "a record older than the stored run of its job is skipped unless --force.");
  imp->add_option("FILE", h->file, "JSONL file")->required();
  imp->add_flag("--force", h->force, "Replace stored records even when the stored run completed later");
  history_option(imp);
  imp->callback([h] { HistoryImport(*h); });
  CLI::App* list = hist->add_subcommand("list", "One line per record (completion times in ISO 8601 UTC).");
  history_option(list);
  list->add_flag("--json", h->json, "One JSON object per line (the record without its fingerprint)");
  list->callback([h] { HistoryExport(*h, true); });
  CLI::App* exp = hist->add_subcommand("export", "Every record as JSONL with fingerprints (what `import` reads).");
  history_option(exp);
  exp->add_option("-o,--out", h->out, "Write to this file instead of stdout");
  exp->callback([h] { HistoryExport(*h, false); });
  CLI::App* show = hist->add_subcommand("show", "One record as JSON.");
  history_option(show);
  show->add_option("ID", h->id, "Job id")->required();
  show->callback([h] { HistoryShow(*h); });
  CLI::App* stats = hist->add_subcommand("stats", "Counts by end reason and time range.");
  history_option(stats);
  stats->callback([h] { HistoryStats(*h); });
}

}  // namespace schedmate
