#include "failure/recovery.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <nlohmann/json.hpp>

#include "core/facts_json.h"

namespace schedmate {

std::string_view RecoveryStepName(RecoveryStep s) {
  switch (s) {
    case RecoveryStep::kCheckNode: return "check_node_health";
    case RecoveryStep::kIsolateNode: return "isolate_node";
    case RecoveryStep::kRequestReplacement: return "request_replacement";
    case RecoveryStep::kRestartFromCheckpoint: return "restart_from_checkpoint";
    case RecoveryStep::kReport: return "report";
  }
  return "unknown";
}

RecoveryPlan PlanRecovery(const FailureDiagnosis& d, const JobContext& job) {
  using E = FailureDiagnosis::ErrorType;
  RecoveryPlan p;
  p.steps = {RecoveryStep::kReport};
  if (d.error_type == E::kInfrastructure && d.faulty_component && job.node.empty()) {
    p.reason = "infrastructure fault in " + *d.faulty_component + ", node unknown: nothing to check, advice only";
    return p;
  }
  if (d.error_type == E::kInfrastructure && d.faulty_component && ComponentLivesInNode(*d.faulty_component)) {
    p.automatic = true;
    p.reason = "infrastructure fault in " + *d.faulty_component;
    p.steps = {RecoveryStep::kCheckNode, RecoveryStep::kIsolateNode, RecoveryStep::kRequestReplacement,
               RecoveryStep::kRestartFromCheckpoint, RecoveryStep::kReport};
    return p;
  }
  if (d.error_type == E::kInfrastructure && d.faulty_component) {
    p.automatic = true;
    p.reason = "infrastructure fault in " + *d.faulty_component + ", outside the node";
    p.steps = {RecoveryStep::kCheckNode, RecoveryStep::kRestartFromCheckpoint, RecoveryStep::kReport};
    return p;
  }
  p.reason = d.error_type == E::kUnknown ? "cause unknown: report, no automatic action"
                                         : std::string(ErrorTypeName(d.error_type)) + " error: report and stop, never retry";
  return p;
}

Json ToJson(const RecoveryPlan& p) {
  Json steps = Json::array();
  for (RecoveryStep s : p.steps) steps.push_back(RecoveryStepName(s));
  return {{"automatic", p.automatic}, {"steps", steps}, {"reason", p.reason}};
}

Status DryRunClusterActions::IsolateNode(const std::string& node, const std::string& reason) {
  calls_.push_back("isolate " + node + ": " + reason);
  return Status::Ok();
}
Status DryRunClusterActions::RequestReplacement(const std::string& node) {
  calls_.push_back("replace " + node);
  return Status::Ok();
}
Status DryRunClusterActions::RestartJob(const std::string& job_id, const std::string& checkpoint) {
  calls_.push_back("restart " + job_id + " from " + (checkpoint.empty() ? "scratch" : checkpoint));
  return Status::Ok();
}
Status DryRunClusterActions::Report(const std::string& job_id, const std::string& message) {
  calls_.push_back("report " + job_id + ": " + message);
  return Status::Ok();
}

Result<AuditFile> AuditFile::Open(const std::string& path) {
  int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return Unavailable(path + ": cannot open the audit file for appending: " + std::strerror(errno));
  close(fd);
  AuditFile f;
  f.path_ = path;
  return f;
}

Status AuditFile::Append(const Json& record) {
  std::string line = DumpJson(record) + "\n";
  int fd = open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return Unavailable(path_ + ": audit write failed: " + std::strerror(errno));
  // One write of one line (O_APPEND keeps concurrent writers' lines whole), then fsync.
  bool ok = write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) && fsync(fd) == 0;
  int err = errno;
  close(fd);
  if (!ok) return Unavailable(path_ + ": audit write failed: " + std::strerror(err));
  return Status::Ok();
}

RecoveryExecutor::RecoveryExecutor(RecoveryGuards guards, ClusterActions* actions, GuardLedger* ledger,
                                   NodeHealthCheck* health, const Clock* clock, AuditFile* file)
    : guards_(std::move(guards)), actions_(actions), ledger_(ledger), health_(health), clock_(clock), file_(file) {}

Json RecoveryExecutor::Record(const JobContext& job, std::string_view step, std::string_view decision,
                              std::string_view why) const {
  return {{"time_ms", clock_->NowMs()}, {"job", job.job_id}, {"node", job.node}, {"step", step},
          {"decision", decision}, {"why", why}, {"shadow", guards_.shadow}};
}

bool RecoveryExecutor::Audit(const Json& record) {
  bool ok = ledger_->Audit(record).ok();
  if (file_) ok = file_->Append(record).ok() && ok;
  return ok;
}

bool RecoveryExecutor::Refuse(ExecutionOutcome* out, const JobContext& job, std::string_view step, std::string why) {
  Audit(Record(job, step, "refused", why));
  out->refused.push_back(std::string(step) + ": " + why);
  return false;
}

// Writes the intent durably (with the guard reservation when `limit` is
// given), then runs `effect`, then records what happened.
bool RecoveryExecutor::Act(ExecutionOutcome* out, const JobContext& job, RecoveryStep step,
                           const std::function<Status()>& effect, const GuardLimit* limit) {
  std::string name(RecoveryStepName(step));
  Json intent = Record(job, name, "intent", limit ? "within " + limit->scope + " limits" : "");
  if (limit) {
    auto granted = ledger_->Reserve(*limit, clock_->NowMs(), intent);
    if (!granted.ok()) return Refuse(out, job, name, "guard ledger unavailable, nothing executed: " + granted.status().message());
    if (!granted->granted) return Refuse(out, job, name, granted->why);
    if (file_ && !file_->Append(intent).ok()) return Refuse(out, job, name, "audit file unavailable: nothing executed");
  } else if (!Audit(intent)) {
    return Refuse(out, job, name, "audit trail unavailable: nothing executed");
  }
  Status s = effect();
  if (!s.ok()) return Refuse(out, job, name, "cluster action failed: " + s.message());
  Audit(Record(job, name, actions_->dry_run() ? "dry-run" : "executed", ""));
  out->executed.push_back(name);
  return true;
}

// Asks the node-side check; true when it answers `expected` (faulty before an
// isolation, healthy before restarting a job whose fault lay outside the
// node). Any other answer, or none, leaves the verdict as advice.
bool RecoveryExecutor::NodeCheckSays(ExecutionOutcome* out, const JobContext& job, NodeHealth expected) {
  std::string name(RecoveryStepName(RecoveryStep::kCheckNode));
  if (!ValidNodeName(job.node)) return Refuse(out, job, name, "the node name is not a plain host name: advice only");
  HealthReport r = health_ ? health_->Check(job.node)
                           : HealthReport{NodeHealth::kUnknown, "none", "no node-side health check is configured"};
  Audit(Record(job, name, NodeHealthName(r.health), r.check + ": " + r.evidence));
  if (r.health == expected) {
    out->executed.push_back(name);
    return true;
  }
  return Refuse(out, job, name,
                std::string("the node-side check said ") + std::string(NodeHealthName(r.health)) + " (" + r.evidence +
                    "), not " + std::string(NodeHealthName(expected)) +
                    ": the job's own output is not evidence enough, advice only");
}

ExecutionOutcome RecoveryExecutor::Execute(const FailureDiagnosis& d, const RecoveryPlan& plan, const JobContext& job) {
  ExecutionOutcome out;
  Audit(Record(job, "plan", plan.automatic ? "automatic" : "report-only", plan.reason));
  auto report = [&](const std::string& message) {
    if (guards_.shadow) Audit(Record(job, "report", "shadow", message));
    else Act(&out, job, RecoveryStep::kReport, [&] { return actions_->Report(job.job_id, message); }, nullptr);
  };
  if (!plan.automatic) {
    report(plan.reason);
    return out;
  }
  if (d.confidence < guards_.min_confidence) {
    Refuse(&out, job, "plan", "confidence " + std::to_string(d.confidence) + " below " +
                                  std::to_string(guards_.min_confidence) + ": report to a human");
    report("low-confidence diagnosis: " + plan.reason);
    return out;
  }
  if (guards_.shadow) {
    for (RecoveryStep s : plan.steps) Audit(Record(job, RecoveryStepName(s), "shadow", "planned, not executed"));
    return out;
  }
  const bool isolates = std::find(plan.steps.begin(), plan.steps.end(), RecoveryStep::kIsolateNode) != plan.steps.end();
  const NodeHealth expected = isolates ? NodeHealth::kFaulty : NodeHealth::kHealthy;
  if (!NodeCheckSays(&out, job, expected)) {
    report("unconfirmed: " + plan.reason);
    return out;
  }
  const GuardLimit isolations{"isolate", guards_.isolation_quota, guards_.quota_window_s * 1000, 0};
  const GuardLimit restarts{"restart/" + job.job_id, guards_.max_restarts, 0, guards_.cooldown_s * 1000};
  bool isolated = false;
  for (RecoveryStep step : plan.steps) {
    switch (step) {
      case RecoveryStep::kCheckNode: break;  // done above
      case RecoveryStep::kIsolateNode:
        isolated = Act(&out, job, step, [&] { return actions_->IsolateNode(job.node, plan.reason); }, &isolations);
        break;
      case RecoveryStep::kRequestReplacement:
        if (isolated) Act(&out, job, step, [&] { return actions_->RequestReplacement(job.node); }, nullptr);
        break;
      case RecoveryStep::kRestartFromCheckpoint:
        if (isolated || !isolates)
          Act(&out, job, step, [&] { return actions_->RestartJob(job.job_id, job.checkpoint); }, &restarts);
        else Refuse(&out, job, RecoveryStepName(step), "the faulty node was not isolated: a restart could land on it, left to a human");
        break;
      case RecoveryStep::kReport:
        Act(&out, job, step, [&] { return actions_->Report(job.job_id, plan.reason); }, nullptr);
        break;
    }
  }
  return out;
}

}  // namespace schedmate
