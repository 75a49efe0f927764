// Recovery after a diagnosed failure (DESIGN §1.3 step 3). A plan is data;
// executing it is a separate, guarded step.
//
// Plans: infrastructure with a component inside the node (gpu, nvlink, node)
// on a known node → check the node's health, isolate it, request a
// replacement, restart the job from its latest checkpoint. Infrastructure
// outside the node (storage, network) → check the node's health and, when it
// is healthy, restart the job from its checkpoint without touching the node
// (the fault was not the job's and not the node's; the restart cap bounds a
// wrong verdict). Framework or user script, an unknown cause or an unknown
// node → report and stop; never an automatic retry.
//
// Guards (issue 16): a confidence threshold; a node-side health check the
// tenant cannot write must say the node is faulty before it is isolated, and
// healthy before a job whose fault lay outside it is restarted
// (node_health.h) — without one, infrastructure verdicts are advice only; at most `isolation_quota`
// isolations per `quota_window_s` cluster-wide, at most `max_restarts`
// restarts per job and a cool-down between them, all kept in a durable
// GuardLedger (core/guard_ledger.h) that every process and replica shares and
// checks atomically; and shadow mode (the default), in which the plan is
// recorded and nothing is executed. Nothing executes unless its audit record
// was durably written first. Cluster effects go through ClusterActions (a
// dry-run implementation here; SLURM later).
#ifndef SCHEDMATE_FAILURE_RECOVERY_H_
#define SCHEDMATE_FAILURE_RECOVERY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/facts.h"
#include "core/guard_ledger.h"
#include "core/json.h"
#include "core/status.h"
#include "failure/node_health.h"

namespace schedmate {

enum class RecoveryStep { kCheckNode, kIsolateNode, kRequestReplacement, kRestartFromCheckpoint, kReport };
std::string_view RecoveryStepName(RecoveryStep s);

struct JobContext {
  std::string job_id;
  std::string node;        // where the failing rank ran ("" = unknown)
  std::string checkpoint;  // latest checkpoint ("" = start over)
};

struct RecoveryPlan {
  std::vector<RecoveryStep> steps;
  bool automatic = false;  // false: report to a human, do nothing else
  std::string reason;
};

RecoveryPlan PlanRecovery(const FailureDiagnosis& d, const JobContext& job);
Json ToJson(const RecoveryPlan& p);

// The cluster side. Every call is one effect; errors are returned, never thrown.
class ClusterActions {
 public:
  virtual ~ClusterActions() = default;
  virtual Status IsolateNode(const std::string& node, const std::string& reason) = 0;
  virtual Status RequestReplacement(const std::string& node) = 0;
  virtual Status RestartJob(const std::string& job_id, const std::string& checkpoint) = 0;
  virtual Status Report(const std::string& job_id, const std::string& message) = 0;
  // True when the actions only record what they would do: the audit log says
  // "dry-run", never "executed", for them.
  virtual bool dry_run() const { return false; }
};

// Records what it would do.
class DryRunClusterActions : public ClusterActions {
 public:
  Status IsolateNode(const std::string& node, const std::string& reason) override;
  Status RequestReplacement(const std::string& node) override;
  Status RestartJob(const std::string& job_id, const std::string& checkpoint) override;
  Status Report(const std::string& job_id, const std::string& message) override;
  const std::vector<std::string>& calls() const { return calls_; }
  bool dry_run() const override { return true; }

 private:
  std::vector<std::string> calls_;
};

// A copy of the audit trail in a file an operator can read and ship: one
// JSON object per line, each written and fsync'd before the action it
// announces. The durable trail of record is the guard ledger's.
class AuditFile {
 public:
  static Result<AuditFile> Open(const std::string& path);
  Status Append(const Json& record);

 private:
  std::string path_;
};

struct RecoveryGuards {
  double min_confidence = 0.8;
  int isolation_quota = 2;
  int64_t quota_window_s = 3600;
  int max_restarts = 3;
  int64_t cooldown_s = 600;
  bool shadow = true;
};

struct ExecutionOutcome {
  std::vector<std::string> executed;  // steps carried out
  std::vector<std::string> refused;   // guards that stopped a step, with why
};

// One executor per process or thread; the limits hold across all of them
// through the shared ledger.
class RecoveryExecutor {
 public:
  // `ledger` holds the guard state and the audit trail (required);
  // `health` is the node-side check (nullptr or none configured: advice
  // only); `file` is an
  // optional copy of the trail (nullptr: none).
  RecoveryExecutor(RecoveryGuards guards, ClusterActions* actions, GuardLedger* ledger, NodeHealthCheck* health,
                   const Clock* clock, AuditFile* file = nullptr);
  ExecutionOutcome Execute(const FailureDiagnosis& d, const RecoveryPlan& plan, const JobContext& job);

 private:
  Json Record(const JobContext& job, std::string_view step, std::string_view decision, std::string_view why) const;
  bool Audit(const Json& record);
  bool Refuse(ExecutionOutcome* out, const JobContext& job, std::string_view step, std::string why);
  bool Act(ExecutionOutcome* out, const JobContext& job, RecoveryStep step, const std::function<Status()>& effect,
           const GuardLimit* limit);
  bool NodeCheckSays(ExecutionOutcome* out, const JobContext& job, NodeHealth expected);

  RecoveryGuards guards_;
  ClusterActions* actions_;
  GuardLedger* ledger_;
  NodeHealthCheck* health_;
  const Clock* clock_;
  AuditFile* file_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_FAILURE_RECOVERY_H_
