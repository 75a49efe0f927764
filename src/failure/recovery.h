// Recovery after a diagnosed failure (DESIGN §1.3 step 3). A plan is data;
// executing it is a separate, guarded step.
//
// Plans: infrastructure with a located component and node → diagnose the
// node (a configurable probe, e.g. nccl-tests), isolate it, request a
// replacement, restart the job from its latest checkpoint. Framework or user
// script → report and stop; never an automatic retry.
//
// Guards, each recorded in an append-only audit log: a confidence threshold;
// the probe must confirm the fault; at most `isolation_quota` isolations per
// `quota_window_s`; at most `max_restarts` restarts per job; a cool-down
// between restarts of one job; and shadow mode (the default), in which the
// plan is recorded and nothing is executed. Cluster effects go through the
// ClusterActions interface (a dry-run implementation here; SLURM later).
#ifndef SCHEDMATE_FAILURE_RECOVERY_H_
#define SCHEDMATE_FAILURE_RECOVERY_H_

#include <cstdint>
#include <deque>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/facts.h"
#include "core/json.h"
#include "core/status.h"

namespace schedmate {

enum class RecoveryStep { kProbe, kIsolateNode, kRequestReplacement, kRestartFromCheckpoint, kReport };
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
  // Runs the diagnostic probe on `node`; *fault_confirmed says whether it failed.
  virtual Status Probe(const std::string& node, const std::string& probe, bool* fault_confirmed) = 0;
  virtual Status IsolateNode(const std::string& node, const std::string& reason) = 0;
  virtual Status RequestReplacement(const std::string& node) = 0;
  virtual Status RestartJob(const std::string& job_id, const std::string& checkpoint) = 0;
  virtual Status Report(const std::string& job_id, const std::string& message) = 0;
  // True when the actions only record what they would do: the audit log says
  // "dry-run", never "executed", for them.
  virtual bool dry_run() const { return false; }
};

// Records what it would do; the probe answers `probe_confirms`.
class DryRunClusterActions : public ClusterActions {
 public:
  explicit DryRunClusterActions(bool probe_confirms = true) : probe_confirms_(probe_confirms) {}
  Status Probe(const std::string& node, const std::string& probe, bool* fault_confirmed) override;
  Status IsolateNode(const std::string& node, const std::string& reason) override;
  Status RequestReplacement(const std::string& node) override;
  Status RestartJob(const std::string& job_id, const std::string& checkpoint) override;
  Status Report(const std::string& job_id, const std::string& message) override;
  const std::vector<std::string>& calls() const { return calls_; }
  bool dry_run() const override { return true; }

 private:
  bool probe_confirms_;
  std::vector<std::string> calls_;
};

// Append-only record of every decision: one JSON object per line, flushed
// as written. With an empty path the records stay in memory only.
class AuditLog {
 public:
  static Result<AuditLog> Open(const std::string& path);
  AuditLog() = default;
  Status Append(Json record);
  const std::vector<Json>& records() const { return records_; }

 private:
  std::string path_;
  std::vector<Json> records_;
};

struct RecoveryGuards {
  double min_confidence = 0.8;
  int isolation_quota = 2;
  int64_t quota_window_s = 3600;
  int max_restarts = 3;
  int64_t cooldown_s = 600;
  bool shadow = true;
  std::string probe = "nccl-tests all_reduce_perf -b 8 -e 1G -f 2";
};

struct ExecutionOutcome {
  std::vector<std::string> executed;  // steps carried out
  std::vector<std::string> refused;   // guards that stopped a step, with why
};

// Not thread safe: one executor per controller.
class RecoveryExecutor {
 public:
  RecoveryExecutor(RecoveryGuards guards, ClusterActions* actions, AuditLog* audit, const Clock* clock);
  ExecutionOutcome Execute(const FailureDiagnosis& d, const RecoveryPlan& plan, const JobContext& job);

 private:
  void Audit(const JobContext& job, std::string_view step, std::string_view decision, std::string_view why);
  bool Refuse(ExecutionOutcome* out, const JobContext& job, std::string_view step, std::string why);

  RecoveryGuards guards_;
  ClusterActions* actions_;
  AuditLog* audit_;
  const Clock* clock_;
  std::deque<int64_t> isolations_ms_;            // within the quota window
  std::map<std::string, int> restarts_;          // per job
  std::map<std::string, int64_t> last_restart_ms_;
  bool audit_ok_ = true;
};

}  // namespace schedmate

#endif  // SCHEDMATE_FAILURE_RECOVERY_H_
