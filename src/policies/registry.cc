#include "policies/registry.h"

#include "policies/estimators/duration_estimator.h"
#include "policies/fifo/fifo.h"
#include "policies/qssf/qssf.h"
#include "policies/sjf/sjf.h"
#include "policies/srtf/srtf.h"
#include "policies/tiresias/tiresias.h"

namespace schedmate {
namespace {

Result<TiresiasParams> TiresiasFromConfig(const PolicyConfig& c) {
  TiresiasParams p;
  if (c.name == "tiresias") {
    ASSIGN_OR_RETURN(p, TiresiasPreset("tiresias-lucid"));
    p.preset = "custom";
  } else {
    ASSIGN_OR_RETURN(p, TiresiasPreset(c.name));
  }
  if (!c.thresholds_gpu_s.empty()) p.thresholds_gpu_s = c.thresholds_gpu_s;
  if (c.period_s >= 0) p.period_s = c.period_s;
  if (c.order == "queue-entry") p.order = TiresiasParams::Order::kQueueEntry;
  else if (c.order == "submit") p.order = TiresiasParams::Order::kSubmit;
  else if (!c.order.empty())
    return InvalidArgument("tiresias order must be submit or queue-entry");
  if (c.starvation_knob >= 0) p.starvation_knob = c.starvation_knob;
  if (!c.restart_overhead.empty()) {
    ASSIGN_OR_RETURN(p.overhead, RestartOverhead::Parse(c.restart_overhead));
  }
  if (!c.placement.empty()) p.placement = c.placement;
  RETURN_IF_ERROR(p.Validate());
  return p;
}

}  // namespace

Result<BackfillOptions> BackfillFromConfig(const PolicyConfig& c) {
  BackfillOptions b;
  b.seed = c.seed;
  if (!c.backfill.empty()) {
    auto mode = ParseBackfillMode(c.backfill);
    if (!mode.ok()) return InvalidArgument("backfill: " + mode.status().message());
    b.mode = *mode;
  }
  if (!c.backfill_estimate.empty()) {
    auto source = ParseBackfillEstimate(c.backfill_estimate);
    if (!source.ok()) return InvalidArgument("backfill_estimate: " + source.status().message());
    b.estimate = *source;
  }
  if (!c.backfill_overdue.empty()) {
    auto rule = ParseOverdueRule(c.backfill_overdue);
    if (!rule.ok()) return InvalidArgument("backfill_overdue: " + rule.status().message());
    b.overdue = *rule;
  }
  return b;
}

const std::vector<PolicyInfo>& ListPolicies() {
  static const std::vector<PolicyInfo> kPolicies = {
      {"fifo", "first in, first out; non-preemptive; head-of-line blocking"},
      {"sjf", "shortest estimated job first (estimator: oracle); "
              "non-preemptive; head-of-line blocking"},
      {"qssf", "Helios quasi-shortest-service-first: estimated duration x "
               "GPUs (estimator: history)"},
      {"srtf", "Helios shortest remaining time first (estimator: oracle); "
               "preemptive, 7/30/60 s overhead, consolidate"},
      {"tiresias-original", "2D-LAS, 3 queues 3250/7200 GPU-s, event-driven, "
                            "no overhead, count placement"},
      {"tiresias-lucid", "2D-LAS, 2 queues 18000 GPU-s, every 60 s, FIFO by "
                         "submit, 40/60 s overhead, consolidate"},
      {"tiresias-pollux", "2D-LAS, 2 queues 57600 GPU-s, otherwise as "
                          "tiresias-lucid"},
  };
  return kPolicies;
}

Result<std::unique_ptr<Policy>> MakePolicy(const PolicyConfig& c) {
  ASSIGN_OR_RETURN(BackfillOptions backfill, BackfillFromConfig(c));
  if (c.name.rfind("tiresias", 0) == 0) {
    if (backfill.mode != BackfillMode::kStrict)
      return InvalidArgument("backfill: '" + c.backfill + "' applies to the queue policies (fifo, sjf, qssf), not " +
                             c.name + ", which preempts");
    ASSIGN_OR_RETURN(TiresiasParams p, TiresiasFromConfig(c));
    ASSIGN_OR_RETURN(auto placer, MakePlacer(p.placement));
    return std::unique_ptr<Policy>(new TiresiasPolicy(std::move(p), std::move(placer)));
  }
  ASSIGN_OR_RETURN(auto placer,
                   MakePlacer(c.placement.empty() ? "consolidate" : c.placement));
  if (c.name == "srtf") {
    if (backfill.mode != BackfillMode::kStrict)
      return InvalidArgument("backfill: '" + c.backfill + "' applies to the queue policies (fifo, sjf, qssf), not "
                             "srtf, which preempts");
    ASSIGN_OR_RETURN(auto est, MakeEstimator(c.estimator.empty() ? "oracle" : c.estimator, c.seed));
    ASSIGN_OR_RETURN(RestartOverhead overhead,
                     RestartOverhead::Parse(c.restart_overhead.empty() ? "helios" : c.restart_overhead));
    return std::unique_ptr<Policy>(new SrtfPolicy(std::move(placer), std::move(est), overhead));
  }
  if (c.name == "fifo") {
    // FIFO orders by no estimate; the planner's own-estimate source needs one.
    std::unique_ptr<DurationEstimator> est;
    if (backfill.mode != BackfillMode::kStrict && UsesPolicyEstimate(backfill.estimate)) {
      ASSIGN_OR_RETURN(est, MakeEstimator(c.estimator.empty() ? "history" : c.estimator, c.seed));
    }
    return std::unique_ptr<Policy>(new FifoPolicy(std::move(placer), std::move(est), backfill));
  }
  if (c.name == "sjf") {
    ASSIGN_OR_RETURN(auto est, MakeEstimator(c.estimator.empty() ? "oracle" : c.estimator, c.seed));
    return std::unique_ptr<Policy>(new SjfPolicy(std::move(placer), std::move(est), backfill));
  }
  if (c.name == "qssf") {
    ASSIGN_OR_RETURN(auto est, MakeEstimator(c.estimator.empty() ? "history" : c.estimator, c.seed));
    return std::unique_ptr<Policy>(new QssfPolicy(std::move(placer), std::move(est), backfill));
  }
  std::string names;
  for (const auto& p : ListPolicies()) names += (names.empty() ? "" : ", ") + p.name;
  return NotFound("unknown policy '" + c.name + "' (" + names + ", tiresias)");
}

}  // namespace schedmate
