// The real Failure Handler in the simulation loop (issue 18), as the Lucid
// loop runs the real Advisor: at each failure the job's failed log is
// generated (loggen, a first error of the failure's true root cause with its
// cascade), diagnosed by the embedded backend (DiagnoseLog), planned
// (PlanRecovery) and executed by the RecoveryExecutor under its guards
// (confidence, isolation quota, restart cap and cool-down) with an in-memory
// guard ledger and a node-side health check that answers from the
// simulator's truth. The executor's cluster actions become the simulator's
// decision: an isolation drains the node, a restart requeues the job from its
// checkpoint. Its mistakes cost both ways in the simulation: a missed
// infrastructure fault leaves a broken node in service, a drained healthy
// node is capacity lost until its replacement arrives.
#ifndef SCHEDMATE_INTEGRATIONS_SIM_FAILURE_HANDLER_H_
#define SCHEDMATE_INTEGRATIONS_SIM_FAILURE_HANDLER_H_

#include <cstdint>
#include <string>

#include "core/clock.h"
#include "core/guard_ledger.h"
#include "core/random.h"
#include "failure/node_health.h"
#include "failure/recovery.h"
#include "sim/recovery_hook.h"

namespace schedmate {

// The node-side check, answering from the simulator's truth about the node
// of the failure at hand. Its own error rates (default 0: a perfect check)
// model a real probe's misses and false alarms, drawn per check from `seed`.
class SimTruthHealthCheck final : public NodeHealthCheck {
 public:
  SimTruthHealthCheck(double false_alarm_rate, double miss_rate, uint64_t seed);
  // The truth for the next checks.
  void SetTruth(const std::string& node, bool broken);
  HealthReport Check(const std::string& node) override;

 private:
  double false_alarm_rate_, miss_rate_;
  Rng rng_;
  std::string node_;
  bool broken_ = false;
};

struct SimFailureHandlerOptions {
  // The guards as a live deployment would set them, but acting (the
  // simulation is where shadow mode's advice is put to work).
  RecoveryGuards guards = [] {
    RecoveryGuards g;
    g.shadow = false;
    return g;
  }();
  double health_false_alarm_rate = 0;
  double health_miss_rate = 0;
  uint64_t seed = 1;
  int64_t log_progress_records = 40;  // progress records before the first error
};

// What the Handler did over a run, to report beside the simulator's costs.
struct SimFailureHandlerTally {
  int64_t diagnosed = 0;
  int64_t category_correct = 0;   // the diagnosis named the true category
  int64_t infrastructure_verdicts = 0;
  int64_t drains = 0, restarts = 0;
  int64_t refused = 0;            // steps a guard refused, of which:
  int64_t refused_confidence = 0;  // the diagnosis was below the confidence threshold
  int64_t refused_node_check = 0;  // the node-side check disagreed with the verdict
  int64_t refused_limits = 0;      // the isolation quota, restart cap or cool-down
  int64_t diagnose_errors = 0;    // DiagnoseLog failed: treated as no decision
};

class SimFailureHandler final : public RecoveryHook {
 public:
  explicit SimFailureHandler(SimFailureHandlerOptions options = {});
  ~SimFailureHandler() override;  // out of line: the ledger holds nlohmann::json
  RecoveryDecision OnJobFailure(const JobFailureEvent& failure) override;
  const SimFailureHandlerTally& tally() const { return tally_; }
  GuardLedger& ledger() { return ledger_; }

 private:
  // Records the executor's effects as the simulator's decision.
  class DecisionActions final : public ClusterActions {
   public:
    Status IsolateNode(const std::string& node, const std::string& reason) override;
    Status RequestReplacement(const std::string& node) override { return Status::Ok(); }
    Status RestartJob(const std::string& job_id, const std::string& checkpoint) override;
    Status Report(const std::string& job_id, const std::string& message) override { return Status::Ok(); }
    RecoveryDecision decision;
  };

  std::string FailedLog(const JobFailureEvent& failure) const;
  void CountRefusals(const ExecutionOutcome& out);

  SimFailureHandlerOptions options_;
  ManualClock clock_;
  MemoryGuardLedger ledger_;
  SimTruthHealthCheck health_;
  DecisionActions actions_;
  RecoveryExecutor executor_;
  SimFailureHandlerTally tally_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_INTEGRATIONS_SIM_FAILURE_HANDLER_H_
