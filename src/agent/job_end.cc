// SlurmAgent, when a job ends: diagnose, record, recover.
#include <nlohmann/json.hpp>

#include "agent/job_advice.h"
#include "agent/slurm_agent.h"
#include "core/facts_json.h"
#include "failure/diagnose.h"
#include "failure/diagnosis_json.h"
#include "failure/locator.h"

namespace schedmate {
namespace {

EndReason EndReasonOfDiagnosis(const FailureDiagnosis& d) {
  switch (d.error_type) {
    case FailureDiagnosis::ErrorType::kInfrastructure: return EndReason::kFailedInfra;
    case FailureDiagnosis::ErrorType::kFramework: return EndReason::kFailedFramework;
    case FailureDiagnosis::ErrorType::kUserScript: return EndReason::kFailedUser;
    case FailureDiagnosis::ErrorType::kUnknown: return EndReason::kUnknown;
  }
  return EndReason::kUnknown;
}

bool Failed(const SlurmJob& job) { return job.state == "FAILED" || job.state == "NODE_FAIL"; }

}  // namespace

void SlurmAgent::HandleEnd(const SlurmJob& job, std::vector<Json>* events) {
  Json ended = {{"event", "ended"}, {"job", job.job_id}, {"name", job.name}, {"state", job.state},
                {"reason", job.reason}, {"nodes", job.nodes}, {"run", job.restarts}};
  if (job.exit_code) ended["exit_code"] = *job.exit_code;
  if (job.exit_signal) ended["signal"] = *job.exit_signal;
  EndReason reason = EndReasonOfState(job);
  std::optional<FailureDiagnosis> d = Failed(job) ? Diagnose(job, &ended) : std::nullopt;
  if (d && reason == EndReason::kUnknown) reason = EndReasonOfDiagnosis(*d);
  ended["end_reason"] = EndReasonName(reason);
  RecordHistory(job, reason, &ended);
  events->push_back(ended);
  if (d) Recover(job, *d, events);
}

std::optional<FailureDiagnosis> SlurmAgent::Diagnose(const SlurmJob& job, Json* ended) {
  auto source = OpenFileSource(job.stderr_path);
  if (!source.ok()) {
    (*ended)["diagnosis_error"] = source.status().message();
    return std::nullopt;
  }
  auto r = DiagnoseLog(**source);
  if (!r.ok()) {
    (*ended)["diagnosis_error"] = r.status().message();
    return std::nullopt;
  }
  Json d = ToJson(r->diagnosis);
  d["signature"] = r->signature_id;
  d["log"] = job.stderr_path;
  // What the dashboard shows of it (agent slurm --report-to): 17 lines around the root cause.
  d["located"] = LocatedLinesAround(r->located.window, r->diagnosis.root_cause_line_index.value_or(-1), 17, 4096);
  (*ended)["diagnosis"] = d;
  return r->diagnosis;
}

void SlurmAgent::RecordHistory(const SlurmJob& job, EndReason reason, Json* ended) {
  if (job.start_time_s <= 0 || job.end_time_s < job.start_time_s) {
    (*ended)["history"] = "not recorded: the job never ran";
    return;
  }
  auto md = ReadJobMetadata(job);
  if (!md.ok()) {
    (*ended)["history"] = "not recorded: " + md.status().message();
    return;
  }
  HistoryRecord r;
  r.job_id = "slurm-" + job.job_id;
  r.name = job.name;
  r.user = job.user;
  r.submit_time_s = job.submit_time_s;
  r.completed_at_s = job.end_time_s;
  r.duration_s = job.end_time_s - job.start_time_s;
  r.end_reason = reason;
  r.num_gpus = job.gpus;
  Status s = deps_.history->Record(r, *md);
  (*ended)["history"] = s.ok() ? "recorded " + r.job_id + " in " + deps_.history->store().Describe()
                               : "not recorded: " + s.message();
}

void SlurmAgent::Recover(const SlurmJob& job, const FailureDiagnosis& d, std::vector<Json>* events) {
  const JobContext context{job.job_id, SingleNode(job), ""};
  RecoveryPlan plan = PlanRecovery(d, context);
  SlurmClusterActions actions(deps_.slurm, options_.enforce);
  RecoveryGuards guards = options_.guards;
  guards.shadow = !options_.enforce.count(AgentAction::kDrain);
  RecoveryExecutor executor(guards, &actions, deps_.ledger, deps_.health, deps_.clock, deps_.audit_file);
  ExecutionOutcome out = executor.Execute(d, plan, context);
  events->push_back({{"event", "recovery"}, {"job", job.job_id}, {"node", context.node}, {"plan", ToJson(plan)},
                     {"shadow", guards.shadow}, {"executed", out.executed}, {"refused", out.refused},
                     {"reports", actions.reports()}});
}

}  // namespace schedmate
