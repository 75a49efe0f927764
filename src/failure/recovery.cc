#include "failure/recovery.h"

#include <nlohmann/json.hpp>

#include "core/facts_json.h"

namespace schedmate {

std::string_view RecoveryStepName(RecoveryStep s) {
  switch (s) {
    case RecoveryStep::kProbe: return "probe_node";
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
  if (d.error_type == E::kInfrastructure && d.faulty_component) {
    p.automatic = true;
    p.reason = "infrastructure fault in " + *d.faulty_component;
    if (!job.node.empty())
      p.steps = {RecoveryStep::kProbe, RecoveryStep::kIsolateNode, RecoveryStep::kRequestReplacement};
    else
      p.reason += " (node unknown: no isolation)";
    p.steps.push_back(RecoveryStep::kRestartFromCheckpoint);
    p.steps.push_back(RecoveryStep::kReport);
    return p;
  }
  p.steps = {RecoveryStep::kReport};
  p.reason = d.error_type == E::kUnknown ? "cause unknown: report, no automatic action"
                                         : std::string(ErrorTypeName(d.error_type)) + " error: report and stop, never retry";
  return p;
}

Json ToJson(const RecoveryPlan& p) {
  Json steps = Json::array();
  for (RecoveryStep s : p.steps) steps.push_back(RecoveryStepName(s));
  return {{"automatic", p.automatic}, {"steps", steps}, {"reason", p.reason}};
}

Status DryRunClusterActions::Probe(const std::string& node, const std::string& probe, bool* fault_confirmed) {
  calls_.push_back("probe " + node + ": " + probe);
  *fault_confirmed = probe_confirms_;
  return Status::Ok();
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

Result<AuditLog> AuditLog::Open(const std::string& path) {
  std::ofstream probe(path, std::ios::app);
  if (!probe) return Unavailable(path + ": cannot open the audit log for appending");
  AuditLog log;
  log.path_ = path;
  return log;
}

Status AuditLog::Append(Json record) {
  if (!path_.empty()) {
    std::ofstream out(path_, std::ios::app);
    out << DumpJson(record) << '\n';
    out.flush();
    if (!out) return Unavailable(path_ + ": audit write failed");
  }
  records_.push_back(std::move(record));
  return Status::Ok();
}

RecoveryExecutor::RecoveryExecutor(RecoveryGuards guards, ClusterActions* actions, AuditLog* audit,
                                   const Clock* clock)
    : guards_(std::move(guards)), actions_(actions), audit_(audit), clock_(clock) {}

void RecoveryExecutor::Audit(const JobContext& job, std::string_view step, std::string_view decision,
                             std::string_view why) {
  Status s = audit_->Append({{"time_ms", clock_->NowMs()}, {"job", job.job_id}, {"node", job.node},
                             {"step", step}, {"decision", decision}, {"why", why}, {"shadow", guards_.shadow}});
  if (!s.ok()) audit_ok_ = false;  // nothing is executed that cannot be recorded
}

bool RecoveryExecutor::Refuse(ExecutionOutcome* out, const JobContext& job, std::string_view step, std::string why) {
  Audit(job, step, "refused", why);
  out->refused.push_back(std::string(step) + ": " + why);
  return false;
}

ExecutionOutcome RecoveryExecutor::Execute(const FailureDiagnosis& d, const RecoveryPlan& plan, const JobContext& job) {
  ExecutionOutcome out;
  const int64_t now = clock_->NowMs();
  Audit(job, "plan", plan.automatic ? "automatic" : "report-only", plan.reason);
  // `effect` runs only when the audit log is writable.
  auto act = [&](RecoveryStep step, auto effect) {
    std::string name(RecoveryStepName(step));
    if (!audit_ok_) return Refuse(&out, job, name, "audit log unavailable: nothing executed");
    Status s = effect();
    if (!s.ok()) return Refuse(&out, job, name, "cluster action failed: " + s.message());
    Audit(job, name, actions_->dry_run() ? "dry-run" : "executed", "");
    out.executed.push_back(name);
    return true;
  };
  if (!plan.automatic) {
    if (guards_.shadow) {
      Audit(job, "report", "shadow", plan.reason);
      return out;
    }
    act(RecoveryStep::kReport, [&] { return actions_->Report(job.job_id, plan.reason); });
    return out;
  }
  if (d.confidence < guards_.min_confidence) {
    Refuse(&out, job, "plan", "confidence " + std::to_string(d.confidence) + " below " +
                                  std::to_string(guards_.min_confidence) + ": report to a human");
    if (!guards_.shadow) act(RecoveryStep::kReport, [&] { return actions_->Report(job.job_id, "low-confidence diagnosis: " + plan.reason); });
    return out;
  }
  if (guards_.shadow) {
    for (RecoveryStep s : plan.steps) Audit(job, RecoveryStepName(s), "shadow", "planned, not executed");
    return out;
  }
  bool confirmed = true;  // with no node to probe, nothing is isolated anyway
  for (RecoveryStep step : plan.steps) {
    std::string name(RecoveryStepName(step));
    switch (step) {
      case RecoveryStep::kProbe: {
        bool fault = false;
        if (!act(step, [&] { return actions_->Probe(job.node, guards_.probe, &fault); })) return out;
        confirmed = fault;
        if (!fault) Audit(job, name, "result", "the probe did not confirm a fault");
        break;
      }
      case RecoveryStep::kIsolateNode: {
        if (!confirmed) {
          Refuse(&out, job, name, "diagnosis not confirmed by the probe");
          break;
        }
        while (!isolations_ms_.empty() && isolations_ms_.front() <= now - guards_.quota_window_s * 1000)
          isolations_ms_.pop_front();
        if (static_cast<int>(isolations_ms_.size()) >= guards_.isolation_quota) {
          Refuse(&out, job, name, "isolation quota reached (" + std::to_string(guards_.isolation_quota) + " per " +
                                      std::to_string(guards_.quota_window_s) + " s)");
          confirmed = false;  // no replacement for a node that stays in
          break;
        }
        if (act(step, [&] { return actions_->IsolateNode(job.node, plan.reason); })) isolations_ms_.push_back(now);
        else confirmed = false;
        break;
      }
      case RecoveryStep::kRequestReplacement:
        if (confirmed) act(step, [&] { return actions_->RequestReplacement(job.node); });
        break;
      case RecoveryStep::kRestartFromCheckpoint: {
        int& n = restarts_[job.job_id];
        if (n >= guards_.max_restarts) {
          Refuse(&out, job, name, "retry cap reached (" + std::to_string(guards_.max_restarts) + " restarts)");
          break;
        }
        auto last = last_restart_ms_.find(job.job_id);
        if (last != last_restart_ms_.end() && now - last->second < guards_.cooldown_s * 1000) {
          Refuse(&out, job, name, "cool-down: last restart " + std::to_string((now - last->second) / 1000) + " s ago");
          break;
        }
        if (act(step, [&] { return actions_->RestartJob(job.job_id, job.checkpoint); })) {
          ++n;
          last_restart_ms_[job.job_id] = now;
        }
        break;
      }
      case RecoveryStep::kReport:
        act(step, [&] { return actions_->Report(job.job_id, plan.reason); });
        break;
    }
  }
  return out;
}

}  // namespace schedmate
