// `schedmate agent slurm`: schedmate beside a live SLURM cluster. Each poll
// reads the queue and, per job:
//   new       → the Advisor on its batch script and working directory, with
//               an estimate from history (a renamed copy of a finished job
//               matches it); in enforce mode the estimate goes into the job's
//               comment and its nice value (longer jobs yield);
//   running   → the Tracker on what its StdOut gained since the last poll
//               (byte offsets, only new bytes);
//   ended     → the Failure Handler on its log when it failed, a history
//               record (duration, end reason) for the next estimate, and for
//               a failure the guarded recovery: on a confirmed
//               infrastructure fault drain the node and requeue the job
//               (RecoveryExecutor: confidence, quota, cool-down, node-side
//               health check), never for user or framework errors.
// Shadow mode (no enforce action) changes nothing in SLURM and audits what it
// would do; every action and every skipped action is audited in the guard
// ledger. The state between polls lives in a file, so `--once` runs and
// restarts continue where the last one stopped.
#ifndef SCHEDMATE_AGENT_SLURM_AGENT_H_
#define SCHEDMATE_AGENT_SLURM_AGENT_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "advisor/advisor.h"
#include "advisor/advisor_history.h"
#include "agent/agent_state.h"
#include "agent/slurm_actions.h"
#include "agent/slurm_client.h"
#include "core/clock.h"
#include "core/env.h"
#include "core/guard_ledger.h"
#include "core/json.h"
#include "failure/node_health.h"
#include "failure/recovery.h"

namespace schedmate {

struct AgentOptions {
  std::set<AgentAction> enforce;  // empty: shadow mode
  RecoveryGuards guards;          // `shadow` follows enforce: recovery acts only with drain enabled
  EstimateOptions estimate;
  size_t tail_lines = 64;         // newest log lines kept per job for the Tracker
  int64_t max_log_bytes_per_poll = 8 << 20;
  int64_t max_nice = 10000;       // nice = estimated minutes, capped here
  // Watch only jobs in these partitions (several agents can split one
  // cluster); empty: every job.
  std::set<std::string> partitions;
};

// Not owned; each must outlive the agent. `health` may be null (infrastructure
// verdicts are then advice only); `audit_file` may be null.
struct AgentDeps {
  SlurmClient* slurm = nullptr;
  AdvisorHistory* history = nullptr;
  GuardLedger* ledger = nullptr;
  NodeHealthCheck* health = nullptr;
  const Clock* clock = nullptr;
  AgentState* state = nullptr;
  AuditFile* audit_file = nullptr;
  Env* env = nullptr;  // the jobs' log files; null: the real file system
};

class SlurmAgent {
 public:
  SlurmAgent(AgentOptions options, AgentDeps deps);

  // One poll; returns what happened, one JSON object per event ("advise",
  // "action", "progress", "ended", "recovery", "vanished"), and saves the
  // state. An error only when SLURM cannot be read or the state not saved.
  Result<std::vector<Json>> Step();

  bool shadow() const { return options_.enforce.empty(); }

 private:
  // Before the first advice of a poll: when the store holds a different
  // number of records than at the last look, another agent (or process)
  // wrote to a shared history, and the fingerprint index is rebuilt from the
  // store so the advice sees those records too. Returns an error message, or "".
  std::string RefreshSharedHistory();
  void Observe(const SlurmJob& job, std::vector<Json>* events);
  void Advise(const SlurmJob& job, std::vector<Json>* events);
  void SetComment(const SlurmJob& job, const DurationEstimate& est, std::vector<Json>* events);
  void SetNice(const SlurmJob& job, const DurationEstimate& est, std::vector<Json>* events);
  void Track(const SlurmJob& job, JobMemory& memory, std::vector<Json>* events);
  void HandleEnd(const SlurmJob& job, std::vector<Json>* events);
  std::optional<FailureDiagnosis> Diagnose(const SlurmJob& job, Json* ended);
  void RecordHistory(const SlurmJob& job, EndReason reason, Json* ended);
  void Recover(const SlurmJob& job, const FailureDiagnosis& d, std::vector<Json>* events);
  // Carries out one enforce-mode change, or audits why not (shadow mode, not
  // enabled, nothing to do); the audit record of an executed change is
  // written before it.
  void Apply(const SlurmJob& job, AgentAction action, const std::string& what, const std::string& skip_why,
             const std::function<Status()>& effect, std::vector<Json>* events);
  Json AuditRecord(const SlurmJob& job, std::string_view step, std::string_view decision, std::string_view why) const;
  bool Audit(const Json& record);

  AgentOptions options_;
  AgentDeps deps_;
  bool refreshed_this_poll_ = false;
};

}  // namespace schedmate

#endif  // SCHEDMATE_AGENT_SLURM_AGENT_H_
