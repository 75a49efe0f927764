#include "sim/failures.h"

#include <algorithm>
#include <cmath>

#include "core/facts.h"

namespace schedmate {
namespace {

FailureCategory DrawCategory(const SimFailureMix& mix, Rng& rng) {
  double u = rng.Uniform() * (mix.infrastructure + mix.framework + mix.user_script);
  if (u < mix.infrastructure) return FailureCategory::kInfrastructure;
  return u < mix.infrastructure + mix.framework ? FailureCategory::kFramework : FailureCategory::kUserScript;
}

bool Fails(const JobSpec& job, const FailureParams& p, Rng& rng) {
  if (job.state == EndState::kUnknown) return rng.Uniform() < p.unknown_fail_rate;
  return IsFailure(job.state);
}

PlannedFailure PlanOne(const JobSpec& job, const FailureParams& p) {
  PlannedFailure f;
  f.full_work_s = std::max<int64_t>(job.duration_s, 0);
  Rng rng(p.seed ^ StableHash(job.id));
  if (job.duration_s <= 0 || !Fails(job, p, rng)) return f;
  f.fails = true;
  f.category = job.state == EndState::kNodeFail ? FailureCategory::kInfrastructure : DrawCategory(p.mix, rng);
  if (f.category == FailureCategory::kInfrastructure)
    f.component = job.state == EndState::kNodeFail ? "node" : DrawComponent(p.mix, rng);
  double fraction = rng.Uniform(p.completed_fraction_lo, p.completed_fraction_hi);
  f.full_work_s = std::max(job.duration_s + 1,
                           static_cast<int64_t>(std::ceil(static_cast<double>(job.duration_s) / fraction)));
  return f;
}

SimFailureMix NodeLocalOnly(SimFailureMix mix) {
  for (size_t i = 0; i < mix.component.size(); ++i)
    if (!IsNodeLocal(kFailureComponents[i])) mix.component[i] = 0;
  return mix;
}

}  // namespace

std::string_view FailureCategoryName(FailureCategory c) {
  switch (c) {
    case FailureCategory::kInfrastructure: return "infrastructure";
    case FailureCategory::kFramework: return "framework";
    case FailureCategory::kUserScript: return "user_script";
  }
  return "unknown";
}

Status FailureParams::Validate() const {
  auto share = [](double x) { return x >= 0 && x <= 1; };
  if (!(mix.infrastructure >= 0 && mix.framework >= 0 && mix.user_script >= 0) ||
      mix.infrastructure + mix.framework + mix.user_script <= 0)
    return InvalidArgument("failures.mix: shares must be >= 0 and not all 0");
  double components = 0;
  for (double c : mix.component) {
    if (c < 0) return InvalidArgument("failures.mix.component: shares must be >= 0");
    components += c;
  }
  if (components <= 0) return InvalidArgument("failures.mix.component: shares must not all be 0");
  if (node_fault_rate_per_node_hour > 0 && NodeLocalOnly(mix).component == std::array<double, 5>{})
    return InvalidArgument("failures.mix.component: node faults need a share for gpu, nvlink or node");
  if (!share(unknown_fail_rate)) return InvalidArgument("failures.unknown_fail_rate must be in [0, 1]");
  if (!share(resubmit_prob_infrastructure)) return InvalidArgument("failures.resubmit_prob_infrastructure must be in [0, 1]");
  if (!share(resubmit_prob_own_fault)) return InvalidArgument("failures.resubmit_prob_own_fault must be in [0, 1]");
  if (operator_drain_after_failures < 0) return InvalidArgument("failures.operator_drain_after_failures must be >= 0");
  if (!(completed_fraction_lo > 0 && completed_fraction_lo <= completed_fraction_hi && completed_fraction_hi <= 1))
    return InvalidArgument("failures.completed_fraction: need 0 < lo <= hi <= 1");
  if (!(node_fault_rate_per_node_hour >= 0)) return InvalidArgument("failures.node_fault_rate_per_node_hour must be >= 0");
  if (resubmit_delay_s < 0 || operator_notice_s < 0 || checkpoint_interval_s < 0 || restore_s < 0 || replacement_delay_s < 0 ||
      broken_node_fail_after_s < 1)
    return InvalidArgument("failures: delays, interval and restore cost must be >= 0 (broken_node_fail_after_s >= 1)");
  return Status::Ok();
}

std::vector<PlannedFailure> PlanTraceFailures(const Trace& trace, const FailureParams& params) {
  std::vector<PlannedFailure> plan;
  plan.reserve(trace.jobs.size());
  for (const JobSpec& job : trace.jobs) plan.push_back(PlanOne(job, params));
  return plan;
}

bool IsNodeLocal(std::string_view component) { return ComponentLivesInNode(component); }

std::string DrawComponent(const SimFailureMix& mix, Rng& rng) {
  double total = 0;
  for (double c : mix.component) total += c;
  double u = rng.Uniform() * total;
  for (size_t i = 0; i < mix.component.size(); ++i) {
    if (u < mix.component[i]) return std::string(kFailureComponents[i]);
    u -= mix.component[i];
  }
  return std::string(kFailureComponents.back());
}

NodeFaultProcess::NodeFaultProcess(const FailureParams& params, int32_t nodes)
    : mix_(NodeLocalOnly(params.mix)),
      per_second_(params.node_fault_rate_per_node_hour * nodes / 3600.0),
      nodes_(nodes),
      rng_(params.seed ^ 0x0de5fa17ull) {}

NodeFaultProcess::Fault NodeFaultProcess::Next(int64_t now_s) {
  // Exponential gaps, at least one second so two faults never share an instant.
  double gap = -std::log(1.0 - rng_.Uniform()) / per_second_;
  Fault f;
  f.time_s = now_s + std::max<int64_t>(1, static_cast<int64_t>(std::ceil(std::min(gap, 1e15))));
  f.node = static_cast<int32_t>(rng_.Below(static_cast<uint64_t>(nodes_)));
  f.component = DrawComponent(mix_, rng_);
  return f;
}

}  // namespace schedmate
