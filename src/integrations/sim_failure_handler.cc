#include "integrations/sim_failure_handler.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/facts_json.h"
#include "failure/diagnose.h"
#include "loggen/failure_injection.h"
#include "loggen/job_log_tail.h"

namespace schedmate {

SimTruthHealthCheck::SimTruthHealthCheck(double false_alarm_rate, double miss_rate, uint64_t seed)
    : false_alarm_rate_(false_alarm_rate), miss_rate_(miss_rate), rng_(seed ^ 0x4ea17bull) {}

void SimTruthHealthCheck::SetTruth(const std::string& node, bool broken) {
  node_ = node;
  broken_ = broken;
}

HealthReport SimTruthHealthCheck::Check(const std::string& node) {
  if (node != node_) return {NodeHealth::kUnknown, "simulator", "no truth for " + node};
  // One draw per check whatever the truth, so error rates do not shift the streams.
  const double u = rng_.Uniform();
  const bool says_faulty = broken_ ? u >= miss_rate_ : u < false_alarm_rate_;
  return {says_faulty ? NodeHealth::kFaulty : NodeHealth::kHealthy, "simulator",
          broken_ ? "node is broken" : "node is healthy"};
}

Status SimFailureHandler::DecisionActions::IsolateNode(const std::string& node, const std::string& reason) {
  decision.drain_node = true;
  return Status::Ok();
}

Status SimFailureHandler::DecisionActions::RestartJob(const std::string& job_id, const std::string& checkpoint) {
  decision.restart_from_checkpoint = true;
  return Status::Ok();
}

SimFailureHandler::SimFailureHandler(SimFailureHandlerOptions options)
    : options_(std::move(options)),
      health_(options_.health_false_alarm_rate, options_.health_miss_rate, options_.seed),
      executor_(options_.guards, &actions_, &ledger_, &health_, &clock_) {}

SimFailureHandler::~SimFailureHandler() = default;

// The tail of the job's log: its last progress records, then the first error
// of its true root cause (a template of that category and component, the
// failing node's name in it) and the cascade.
std::string SimFailureHandler::FailedLog(const JobFailureEvent& f) const {
  const uint64_t seed = options_.seed ^ StableHash(f.job_id) ^ static_cast<uint64_t>(f.now_s);
  Rng rng(seed);
  const FailureTemplate* t =
      FailureInjections::Default().Pick(FailureCategoryName(f.category), f.component, rng);
  if (!t) return "";
  InjectionContext c;
  c.rank = static_cast<int>(rng.Below(static_cast<uint64_t>(std::max(f.gpus, 1))));
  c.node = f.node_name;
  c.step = std::max<int64_t>(f.work_done_s, 1);
  c.job_id = f.job_id;
  InjectedError error = RenderInjection(*t, c, rng);
  JobLogSpec spec;
  spec.total_steps = c.step * 2;
  spec.seed = seed;
  JobLogTailOptions o;
  o.progress_records = options_.log_progress_records;
  o.ranks = std::max(f.gpus, 1);
  o.seed = seed;
  return RenderJobLogTail(spec, c.step, &error, o).text;
}

// Each refusal names its step first ("plan: confidence …").
void SimFailureHandler::CountRefusals(const ExecutionOutcome& out) {
  for (const std::string& why : out.refused) {
    ++tally_.refused;
    if (why.rfind("plan:", 0) == 0) ++tally_.refused_confidence;
    else if (why.rfind(RecoveryStepName(RecoveryStep::kCheckNode), 0) == 0) ++tally_.refused_node_check;
    else ++tally_.refused_limits;
  }
}

RecoveryDecision SimFailureHandler::OnJobFailure(const JobFailureEvent& f) {
  auto diagnosed = DiagnoseLog(*StringSource(FailedLog(f)));
  if (!diagnosed.ok()) {
    ++tally_.diagnose_errors;
    return {};
  }
  const FailureDiagnosis& d = diagnosed->diagnosis;
  ++tally_.diagnosed;
  if (ErrorTypeName(d.error_type) == FailureCategoryName(f.category)) ++tally_.category_correct;
  if (d.error_type == FailureDiagnosis::ErrorType::kInfrastructure) ++tally_.infrastructure_verdicts;
  clock_.SetMs(f.now_s * 1000);
  health_.SetTruth(f.node_name, f.node_broken);
  actions_.decision = {};
  JobContext job{f.job_id, f.node_name, f.checkpoint_s > 0 ? "checkpoint@" + std::to_string(f.checkpoint_s) : ""};
  ExecutionOutcome out = executor_.Execute(d, PlanRecovery(d, job), job);
  CountRefusals(out);
  tally_.drains += actions_.decision.drain_node;
  tally_.restarts += actions_.decision.restart_from_checkpoint;
  return actions_.decision;
}

}  // namespace schedmate
