#include "experiments/world_check.h"

#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "advisor/metadata_extractor.h"
#include "core/json.h"
#include "core/facts_json.h"
#include "core/str_format.h"
#include "failure/diagnose.h"
#include "repo/snapshot.h"
#include "tracker/tracker.h"

namespace schedmate {
namespace {

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

using Miss = std::function<void(const std::string&)>;

void CheckRepo(const std::string& dir, const JobEntry& e, WorldCheck& t, const Miss& miss) {
  ++t.repos;
  auto snap = OpenDirectorySnapshot(dir + "/" + e.repo);
  auto md = snap.ok() ? ExtractMetadata(**snap, e.command) : Result<WorkloadMetadata>(snap.status());
  if (!md.ok()) {
    ++t.extraction_failures;
    if (miss) miss("extract " + e.repo + ": " + md.status().message());
    return;
  }
  t.fields.Score(*md, e.truth);
}

void CheckLog(const std::string& dir, const JobEntry& e, WorldCheck& t, const Miss& miss) {
  auto r = TrackFile(dir + "/" + e.log);
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
    if (miss) miss("track " + e.log + ": missing");
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
  if (miss && !(time_ok && step_ok))
    miss(StrFormat("track %s: step %lld (want %lld), step time %.4g (want %.4g)", e.log.c_str(),
                   (long long)p.step.value_or(-1), (long long)(e.steps_run / e.log_every * e.log_every),
                   st.value_or(-1), e.step_time_s));
}

void CheckFailure(const std::string& dir, const JobEntry& e, WorldCheck& t, const Miss& miss) {
  ++t.failed;
  auto src = OpenFileSource(dir + "/" + e.log);
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
  if (miss && !(comp_ok && line_ok))
    miss(StrFormat("diagnose %s: %s/%s line %lld (injected %s/%s line %lld)", e.log.c_str(), type.c_str(),
                   d.ok() ? d->diagnosis.faulty_component.value_or("-").c_str() : "-",
                   d.ok() ? (long long)d->diagnosis.root_cause_line_index.value_or(-1) : -1LL,
                   e.failure_category.c_str(), e.failure_component.c_str(), (long long)e.root_line));
}

}  // namespace

Result<WorldCheck> CheckWorld(const std::string& dir, const std::function<void(const std::string&)>& miss) {
  WorldCheck t;
  std::set<std::string> seen_repos;
  RETURN_IF_ERROR(ForEachJsonLine(dir + "/jobs.jsonl", [&](const Json& j, const std::string& where) -> Status {
    ASSIGN_OR_RETURN(JobEntry e, ParseEntry(j, where));
    ++t.jobs;
    if (seen_repos.insert(e.repo).second) CheckRepo(dir, e, t, miss);
    CheckLog(dir, e, t, miss);
    if (!e.failure_category.empty()) CheckFailure(dir, e, t, miss);
    return Status::Ok();
  }));
  return t;
}

}  // namespace schedmate
