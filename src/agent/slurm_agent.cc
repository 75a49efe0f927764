#include "agent/slurm_agent.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "agent/job_advice.h"
#include "agent/log_reader.h"
#include "core/facts_json.h"
#include "tracker/progress_scan.h"

namespace schedmate {

SlurmAgent::SlurmAgent(AgentOptions options, AgentDeps deps) : options_(std::move(options)), deps_(deps) {}

Result<std::vector<Json>> SlurmAgent::Step() {
  ASSIGN_OR_RETURN(std::vector<SlurmJob> jobs, deps_.slurm->Jobs());
  std::vector<Json> events;
  std::set<std::string> listed;
  refreshed_this_poll_ = false;
  for (const SlurmJob& job : jobs) {
    if (!options_.partitions.empty() && !options_.partitions.count(job.partition)) continue;
    listed.insert(job.job_id);
    Observe(job, &events);
  }
  for (const std::string& id : deps_.state->Forget(listed))
    events.push_back({{"event", "vanished"}, {"job", id},
                      {"why", "SLURM no longer lists the job and its end was never seen (MinJobAge shorter than "
                              "the poll interval?)"}});
  RETURN_IF_ERROR(deps_.state->Save());
  return events;
}

void SlurmAgent::Observe(const SlurmJob& job, std::vector<Json>* events) {
  JobMemory& memory = deps_.state->For(job.job_id, job.restarts);
  if (!memory.advised) {
    Advise(job, events);
    memory.advised = true;
  }
  const bool unhandled_end = JobEnded(job) && !memory.end_handled;
  // An ended job's last lines are read before its end is handled.
  if (job.state == "RUNNING" || unhandled_end) Track(job, memory, events);
  if (unhandled_end) {
    HandleEnd(job, events);
    memory.end_handled = true;
  }
}

std::string SlurmAgent::RefreshSharedHistory() {
  refreshed_this_poll_ = true;
  auto refreshed = deps_.history->RefreshIfOthersWrote();
  return refreshed.ok() ? "" : "cannot re-read the shared history: " + refreshed.status().message();
}

void SlurmAgent::Advise(const SlurmJob& job, std::vector<Json>* events) {
  const std::string refresh_error = refreshed_this_poll_ ? "" : RefreshSharedHistory();
  JobAdvice advice = AdviseJob(job, *deps_.history, options_.estimate);
  Json e = ToJson(advice);
  if (!refresh_error.empty()) e["history_refresh_error"] = refresh_error;
  e["event"] = "advise";
  e["job"] = job.job_id;
  e["name"] = job.name;
  e["state"] = job.state;
  events->push_back(e);
  SetComment(job, advice.estimate, events);
  SetNice(job, advice.estimate, events);
}

namespace {

std::string EstimateText(const DurationEstimate& est) {
  std::string ids;
  for (const auto& m : est.matches) ids += (ids.empty() ? "" : ",") + m.job_id;
  return "schedmate estimate " + std::to_string(std::lround(*est.duration_s)) + " s from " +
         std::to_string(est.matches.size()) + " similar job(s): " + ids;
}

}  // namespace

void SlurmAgent::SetComment(const SlurmJob& job, const DurationEstimate& est, std::vector<Json>* events) {
  const bool known = est.method == DurationEstimate::Method::kHistory && est.duration_s;
  const std::string text = known ? EstimateText(est) : "";
  Apply(job, AgentAction::kComment, "set comment=\"" + text + "\"", known ? "" : "no estimate: " + est.fallback_reason,
        [&] { return deps_.slurm->UpdateJob(job.job_id, "comment", text); }, events);
}

// Shortest-estimate-first inside SLURM's own priority: nice grows with the
// estimated minutes, so a long job yields to a short one; only a pending job
// has an order to change.
void SlurmAgent::SetNice(const SlurmJob& job, const DurationEstimate& est, std::vector<Json>* events) {
  const bool known = est.method == DurationEstimate::Method::kHistory && est.duration_s;
  const int64_t nice = known ? std::clamp<int64_t>(std::lround(*est.duration_s / 60), 0, options_.max_nice) : 0;
  std::string skip = !known ? "no estimate: " + est.fallback_reason
                     : job.state != "PENDING" ? "the job is " + job.state + ": its queue order no longer matters"
                                              : "";
  Apply(job, AgentAction::kPriority, "set nice=" + std::to_string(nice), skip,
        [&] { return deps_.slurm->UpdateJob(job.job_id, "nice", std::to_string(nice)); }, events);
}

Json SlurmAgent::AuditRecord(const SlurmJob& job, std::string_view step, std::string_view decision,
                             std::string_view why) const {
  return {{"time_ms", deps_.clock->NowMs()}, {"job", job.job_id}, {"node", job.nodes}, {"step", step},
          {"decision", decision}, {"why", why}, {"shadow", shadow()}};
}

bool SlurmAgent::Audit(const Json& record) {
  bool ok = deps_.ledger->Audit(record).ok();
  if (deps_.audit_file) ok = deps_.audit_file->Append(record).ok() && ok;
  return ok;
}

void SlurmAgent::Apply(const SlurmJob& job, AgentAction action, const std::string& what, const std::string& skip_why,
                       const std::function<Status()>& effect, std::vector<Json>* events) {
  const std::string step(AgentActionName(action));
  Json record;
  if (!skip_why.empty()) {
    record = AuditRecord(job, step, "skipped", skip_why);
  } else if (shadow()) {
    record = AuditRecord(job, step, "shadow", "would " + what);
  } else if (!options_.enforce.count(action)) {
    record = AuditRecord(job, step, "skipped", "not enabled (--enforce " + step + "): would " + what);
  } else if (!Audit(AuditRecord(job, step, "intent", what))) {
    record = AuditRecord(job, step, "refused", "audit trail unavailable: nothing executed");
  } else {
    Status s = effect();
    record = AuditRecord(job, step, s.ok() ? "executed" : "refused", s.ok() ? what : "scontrol failed: " + s.message());
  }
  Audit(record);
  record["event"] = "action";
  events->push_back(record);
}

void SlurmAgent::Track(const SlurmJob& job, JobMemory& memory, std::vector<Json>* events) {
  auto read = ReadNewLines(job.stdout_path, memory.log_offset, options_.max_log_bytes_per_poll,
                           deps_.env ? *deps_.env : Env::Default());
  if (!read.ok()) {
    events->push_back({{"event", "progress"}, {"job", job.job_id}, {"error", read.status().message()}});
    return;
  }
  memory.log_offset = read->next_offset;
  if (read->lines.empty()) return;
  for (auto& line : read->lines) memory.tail.push_back(std::move(line));
  while (memory.tail.size() > options_.tail_lines) memory.tail.pop_front();
  ProgressReport report = ScanProgress(std::vector<std::string>(memory.tail.begin(), memory.tail.end()));
  events->push_back({{"event", "progress"}, {"job", job.job_id}, {"log", job.stdout_path},
                     {"new_lines", read->lines.size()}, {"bytes_read", read->bytes_read},
                     {"offset", memory.log_offset}, {"progress", ToJson(report)}});
}

}  // namespace schedmate
