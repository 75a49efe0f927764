// `schedmate world check DIR`: the real components on a materialised world
// (`world materialize --trace … -o DIR`). Each distinct repository goes
// through the Advisor's extractor (field accuracy against the generator's
// truth); each log through the Tracker (success: a report whose step time is
// within 5 % of the job's step time and whose step is the last one printed);
// each failed job's log through the Failure Handler (error type, component
// and root-cause line against the injected first error).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "advisor/metadata_extractor.h"
#include "cli/commands.h"
#include "cli/field_score.h"
#include "core/facts_json.h"
#include <nlohmann/json.hpp>

#include "core/json.h"
#include "failure/diagnose.h"
#include "repo/snapshot.h"
#include "tracker/tracker.h"

namespace schedmate {
namespace {

struct CheckArgs {
  std::string dir;
  bool json = false, verbose = false;
};

struct JobEntry {
  std::string id, repo, command, log, failure_category, failure_component, family, style;
  WorkloadTruth truth;
  double step_time_s = 0;
  int64_t steps_run = 0, log_every = 1, progress_lines = 0, root_line = -1;
};

Result<JobEntry> ParseEntry(const Json& j, const std::string& where) {
  JobEntry e;
  ASSIGN_OR_RETURN(e.id, GetString(j, "id", where));
  ASSIGN_OR_RETURN(e.repo, GetString(j, "repo", where));
  ASSIGN_OR_RETURN(e.command, GetString(j, "command", where));
  ASSIGN_OR_RETURN(e.log, GetString(j, "log", where));
  ASSIGN_OR_RETURN(e.family, GetString(j, "family", where));
  ASSIGN_OR_RETURN(e.style, GetString(j, "style", where));
  ASSIGN_OR_RETURN(e.step_time_s, GetNumber(j, "step_time_s", where));
  ASSIGN_OR_RETURN(e.steps_run, GetInt(j, "steps_run", where));
  ASSIGN_OR_RETURN(e.log_every, GetIntInRange(j, "log_every", where, 1, 1 << 30));
  ASSIGN_OR_RETURN(e.progress_lines, GetInt(j, "progress_lines", where));
  ASSIGN_OR_RETURN(auto cat, GetOptString(j, "failure_category", where));
  ASSIGN_OR_RETURN(auto comp, GetOptString(j, "failure_component", where));
  ASSIGN_OR_RETURN(auto root, GetOptInt(j, "root_line", where));
  e.failure_category = cat.value_or("");
  e.failure_component = comp.value_or("");
  e.root_line = root.value_or(-1);
  if (!j.contains("truth") || !j["truth"].is_object()) return InvalidArgument(where + ": field 'truth': missing");
  const Json& t = j["truth"];
  const std::string tw = where + ": truth";
  ASSIGN_OR_RETURN(e.truth.model_name, GetString(t, "model_name", tw));
  ASSIGN_OR_RETURN(e.truth.model_type, GetString(t, "model_type", tw));
  ASSIGN_OR_RETURN(e.truth.dataset, GetString(t, "dataset", tw));
  ASSIGN_OR_RETURN(e.truth.iterations, GetInt(t, "training_iterations", tw));
  ASSIGN_OR_RETURN(e.truth.iteration_type, GetString(t, "iteration_type", tw));
  ASSIGN_OR_RETURN(e.truth.batch_size, GetInt(t, "batch_size", tw));
  ASSIGN_OR_RETURN(int64_t gpus, GetIntInRange(t, "num_gpus", tw, 0, 1 << 20));
  e.truth.num_gpus = static_cast<int32_t>(gpus);
  // Paths come from the file: keep them inside DIR.
  for (const auto& [field, path] : {std::pair<const char*, const std::string&>{"repo", e.repo}, {"log", e.log}})
    if (Status s = CheckRelativePath(path); !s.ok())
      return InvalidArgument(where + ": field '" + field + "': " + s.message());
  return e;
}

struct Tally {
  FieldTally fields;
  int repos = 0, extraction_failures = 0;
  int tracked = 0, track_ok = 0, step_time_ok = 0, step_ok = 0, short_logs = 0, short_missing = 0;
  double sq_rel_err = 0;
  int failed = 0, type_ok = 0, infra_true = 0, infra_pred = 0, infra_both = 0, component_ok = 0, line_ok = 0;
  std::map<std::string, std::pair<int, int>> tracker_by_style;  // style → (ok, n)
  std::map<std::string, std::pair<int, int>> failure_by_cause;  // cause → (ok, n)
};

void CheckRepo(const CheckArgs& a, const JobEntry& e, Tally& t) {
  ++t.repos;
  auto snap = OpenDirectorySnapshot(a.dir + "/" + e.repo);
  auto md = snap.ok() ? ExtractMetadata(**snap, e.command) : Result<WorkloadMetadata>(snap.status());
  if (!md.ok()) {
    ++t.extraction_failures;
    if (a.verbose) std::fprintf(stderr, "extract %s: %s\n", e.repo.c_str(), md.status().message().c_str());
    return;
  }
  t.fields.Score(*md, e.truth);
}

void CheckLog(const CheckArgs& a, const JobEntry& e, Tally& t) {
  auto r = TrackFile(a.dir + "/" + e.log);
  bool missing = !r.ok() || r->report.status == ProgressReport::Status::kMissing;
  if (e.progress_lines < 3) {  // the job printed (almost) nothing: "missing" is right
    ++t.short_logs;
    t.short_missing += missing;
    return;
  }
  ++t.tracked;
  auto& by_style = t.tracker_by_style[e.style];
  ++by_style.second;
  if (missing) {
    if (a.verbose) std::fprintf(stderr, "track %s: missing\n", e.log.c_str());
    return;
  }
  ++t.track_ok;
  const ProgressReport& p = r->report;
  std::optional<double> st = p.steady_step_time_s ? p.steady_step_time_s : p.step_time_s;
  double rel = st ? std::fabs(*st - e.step_time_s) / e.step_time_s : 1.0;
  t.sq_rel_err += rel * rel;
  bool time_ok = rel <= 0.05;
  bool step_ok = p.step && *p.step == e.steps_run / e.log_every * e.log_every;
  t.step_time_ok += time_ok;
  t.step_ok += step_ok;
  by_style.first += time_ok && step_ok;
  if (a.verbose && !(time_ok && step_ok))
    std::fprintf(stderr, "track %s: step %lld (want %lld), step time %.4g (want %.4g)\n", e.log.c_str(),
                 (long long)p.step.value_or(-1), (long long)(e.steps_run / e.log_every * e.log_every),
                 st.value_or(-1), e.step_time_s);
}

void CheckFailure(const CheckArgs& a, const JobEntry& e, Tally& t) {
  ++t.failed;
  auto src = OpenFileSource(a.dir + "/" + e.log);
  auto d = src.ok() ? DiagnoseLog(**src) : Result<DiagnoseResult>(src.status());
  std::string type = d.ok() ? std::string(ErrorTypeName(d->diagnosis.error_type)) : "error";
  bool infra_true = e.failure_category == "infrastructure", infra_pred = type == "infrastructure";
  bool type_ok = type == e.failure_category;
  bool comp_ok = type_ok && (!infra_true || (d.ok() && d->diagnosis.faulty_component.value_or("") == e.failure_component));
  bool line_ok = d.ok() && d->diagnosis.root_cause_line_index.value_or(-2) == e.root_line;
  t.type_ok += type_ok;
  t.infra_true += infra_true;
  t.infra_pred += infra_pred;
  t.infra_both += infra_true && infra_pred;
  t.component_ok += comp_ok;
  t.line_ok += line_ok;
  auto& c = t.failure_by_cause[e.failure_category + (infra_true ? "/" + e.failure_component : "")];
  ++c.second;
  c.first += comp_ok;
  if (a.verbose && !(comp_ok && line_ok))
    std::fprintf(stderr, "diagnose %s: %s/%s line %lld (injected %s/%s line %lld)\n", e.log.c_str(), type.c_str(),
                 d.ok() ? d->diagnosis.faulty_component.value_or("-").c_str() : "-",
                 d.ok() ? (long long)d->diagnosis.root_cause_line_index.value_or(-1) : -1LL, e.failure_category.c_str(),
                 e.failure_component.c_str(), (long long)e.root_line);
}

double Ratio(int x, int n) { return n ? static_cast<double>(x) / n : 0.0; }

void Report(const CheckArgs& a, const Tally& t, int jobs) {
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
  Tally t;
  std::set<std::string> seen_repos;
  int jobs = 0;
  Status s = ForEachJsonLine(a.dir + "/jobs.jsonl", [&](const Json& j, const std::string& where) -> Status {
    ASSIGN_OR_RETURN(JobEntry e, ParseEntry(j, where));
    ++jobs;
    if (seen_repos.insert(e.repo).second) CheckRepo(a, e, t);
    CheckLog(a, e, t);
    if (!e.failure_category.empty()) CheckFailure(a, e, t);
    return Status::Ok();
  });
  if (!s.ok()) CommandFailed(s);
  Report(a, t, jobs);
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
